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

// TestInterruptedSolveLeavesNoFile interrupts a long listing written with -o, as Ctrl-C
// does, and checks that it exits 130 and leaves neither the file nor its temporary behind.
func TestInterruptedSolveLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "q16.txt")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	var stdout, stderr bytes.Buffer
	code := execute(ctx, []string{"queens", "solve", "16", "-o", out}, strings.NewReader(""), &stdout, &stderr)
	if code != exitInterrupted {
		t.Fatalf("exit code = %d, want %d; stderr:\n%s", code, exitInterrupted, &stderr)
	}
	if !strings.Contains(stderr.String(), "chesspuzzles: queens solve: interrupted") {
		t.Errorf("stderr = %q, want the interruption said", &stderr)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind: %s", e.Name())
	}
}

// TestInterruptedSearchStops interrupts a search that would run for a very long time
// before its first solution (the first solution of N = 60 in code order is hours away), and
// checks that it stops promptly with exit 130.
func TestInterruptedSearchStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- execute(ctx, []string{"queens", "solve", "60", "--limit", "1"}, strings.NewReader(""), &stdout, &stderr)
	}()
	select {
	case code := <-done:
		if code != exitInterrupted {
			t.Fatalf("exit code = %d, want %d; stderr:\n%s", code, exitInterrupted, &stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("search did not stop within 30 s of its context ending")
	}
}
