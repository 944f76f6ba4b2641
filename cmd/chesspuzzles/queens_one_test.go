package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInterruptedOne interrupts long runs of one and complete, as Ctrl-C does: each must
// stop promptly with exit 130, and a file given with -o must not be left behind.
func TestInterruptedOne(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
	}{
		{"a billion queens to a file", []string{"queens", "one", "1000000000", "-o", filepath.Join(dir, "q.txt")}},
		{"a billion queens to stdout", []string{"queens", "one", "1000000000", "--format", "perm"}},
		{"a random twenty million", []string{"queens", "one", "20000000", "--random", "--seed", "1", "-o", filepath.Join(dir, "r.txt")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(300*time.Millisecond, cancel)
			var stdout, stderr bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- execute(ctx, tt.args, strings.NewReader(""), &stdout, &stderr) }()
			select {
			case code := <-done:
				if code != exitInterrupted {
					t.Fatalf("exit code = %d, want %d; stderr:\n%s", code, exitInterrupted, &stderr)
				}
				if !strings.Contains(stderr.String(), "chesspuzzles: queens one: interrupted") {
					t.Errorf("stderr = %q, want the interruption said", &stderr)
				}
			case <-time.After(60 * time.Second):
				t.Fatal("did not stop within 60 s of its context ending")
			}
		})
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind: %s", e.Name())
	}
}

// TestCompleteInterrupted: a cancelled completion is "interrupted" (130), not "undecided"
// (3, which is for the user's own --timeout).
func TestCompleteInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	code := execute(ctx, []string{"queens", "complete", "1.......", "--timeout", "1h"}, strings.NewReader(""), &stdout, &stderr)
	if code != exitInterrupted {
		t.Fatalf("exit code = %d, want %d; stderr:\n%s", code, exitInterrupted, &stderr)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout = %q, want nothing", &stdout)
	}
}
