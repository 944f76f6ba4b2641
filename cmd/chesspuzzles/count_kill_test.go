package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCountKilledResumes runs "chesspuzzles queens count" with a checkpoint as a separate
// process, kills it with SIGKILL once some tasks are recorded but not all, reruns the same
// command, and checks that it resumes from the recorded tasks and ends with the exact count
// (OEIS A000170, A002562).
func TestCountKilledResumes(t *testing.T) {
	// The count must outlast the first recorded tasks: by frames N = 15 takes about a
	// second on two cores, and N = 14 about as long in a race-instrumented binary; by the
	// join N = 17 takes about a second, N = 16 in a race-instrumented binary.
	t.Run("frames", func(t *testing.T) {
		n, total, unique := "15", "2279184", "285053"
		if raceEnabled {
			n, total, unique = "14", "365596", "45752"
		}
		countKilledResumes(t, "frames", n, total, unique)
	})
	t.Run("join", func(t *testing.T) {
		n, total, unique := "17", "95815104", "11977939"
		if raceEnabled {
			n, total, unique = "16", "14772512", "1846955"
		}
		countKilledResumes(t, "join", n, total, unique)
	})
}

func countKilledResumes(t *testing.T, method, n, total, unique string) {
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// testscript.Main runs the test binary as chesspuzzles when it is called by that name.
	bin := filepath.Join(dir, "chesspuzzles")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(dir, "count.ckpt")
	args := []string{"queens", "count", n, "--method", method, "--workers", "2", "--checkpoint", ckpt, "--quiet"}

	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it as soon as the checkpoint holds a header and at least 20 results.
	var recorded int
	deadline := time.Now().Add(2 * time.Minute)
	for {
		data, _ := os.ReadFile(ckpt)
		recorded = strings.Count(string(data), "\n") - 1
		if recorded >= 20 || time.Now().After(deadline) {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("killing the count: %v", err)
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the count ended with %v before it was killed (%d tasks recorded), stderr: %s", err, recorded, &stderr)
	}
	data, err := os.ReadFile(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(data), "\n")
	var tasks int
	if _, after, ok := strings.Cut(head, "tasks="); !ok {
		t.Fatalf("checkpoint header %q names no task count", head)
	} else {
		fmt.Sscanf(after, "%d", &tasks)
	}
	done := strings.Count(string(data), "\n") - 1
	if done < 20 || done >= tasks {
		t.Fatalf("after SIGKILL the checkpoint holds %d of %d tasks, want some but not all", done, tasks)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args[:len(args)-1]...).CombinedOutput()
	if err != nil {
		t.Fatalf("resumed count: %v\n%s", err, out)
	}
	wantLine := fmt.Sprintf("%s queens: %s solutions, %s fundamental\n", n, total, unique)
	if !strings.Contains(string(out), wantLine) {
		t.Errorf("resumed count printed:\n%s\nwant the line %q", out, wantLine)
	}
	var resumed int
	if i := strings.Index(string(out), "resuming from the checkpoint: "); i < 0 {
		t.Errorf("resumed count did not say it resumed:\n%s", out)
	} else if fmt.Sscanf(string(out[i:]), "resuming from the checkpoint: %d", &resumed); resumed < done {
		t.Errorf("resumed from %d tasks, but the checkpoint held %d", resumed, done)
	}
}
