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

// TestKnightPlanInterrupted interrupts "knight count --plan --checkpoint" in the middle of
// its tasks, as Ctrl-C does: it exits 130 within a second and the checkpoint holds the
// tasks finished (resuming is checked by internal/work and knight_plan.txtar).
func TestKnightPlanInterrupted(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "ck")
	args := []string{"knight", "count", "--size", "6", "--plan", "--checkpoint", ck, "-q"}
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- execute(ctx, args, strings.NewReader(""), &stdout, &stderr) }()
	// cut it once the first task is recorded (the header is the first line)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		data, _ := os.ReadFile(ck)
		if bytes.Count(data, []byte("\n")) >= 2 || time.Now().After(deadline) {
			break
		}
	}
	t0 := time.Now()
	cancel()
	select {
	case code := <-done:
		if code != exitInterrupted {
			t.Fatalf("exit code = %d, want %d; stderr:\n%s", code, exitInterrupted, &stderr)
		}
		if d := time.Since(t0); d > time.Second {
			t.Errorf("stopped %v after Ctrl-C, want within a second", d)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the plan did not stop within 30 s of its context ending")
	}
	if stdout.Len() > 0 {
		t.Errorf("an interrupted count printed %q", &stdout)
	}
	data, _ := os.ReadFile(ck)
	if lines := bytes.Count(data, []byte("\n")); lines < 2 || lines > 46 {
		t.Errorf("the checkpoint holds %d lines, want the header and some of the 45 tasks:\n%s", lines, data)
	}
}
