package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// knightSpillBin returns the test binary linked as chesspuzzles (testscript.Main runs it
// as the command when it is called by that name) in a new directory, and that directory.
func knightSpillBin(t *testing.T) (bin, dir string) {
	t.Helper()
	dir = t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(dir, "chesspuzzles")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	return bin, dir
}

// killedWhen starts "knight count" with args, waits (up to two minutes) until ready says
// so, looking every millisecond, and kills the count with SIGKILL.
func killedWhen(t *testing.T, bin string, args []string, ready func() bool) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Minute); !ready() && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("killing the count: %v", err)
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the count ended with %v before it was killed, stderr: %s", err, &stderr)
	}
}

// killedAtLayer starts "knight count" with args, waits until dir holds a sealed layer of at
// least cells cells placed, and kills the count with SIGKILL.
func killedAtLayer(t *testing.T, bin, dir string, cells int, args []string) {
	t.Helper()
	want := filepath.Join(dir, fmt.Sprintf("layer-%05d.km", cells))
	killedWhen(t, bin, args, func() bool {
		names, _ := filepath.Glob(filepath.Join(dir, "layer-*.km"))
		return len(names) > 0 && names[len(names)-1] >= want
	})
}

// TestKnightCountSpillKilledResumes kills "knight count --spill" of 5×8 open (5×7 with
// -short, 5×6 with -race) with SIGKILL once it has sealed the layer of 20 cells placed (15,
// 13), reruns the same command, and checks that it resumes from a sealed layer and prints
// the published count (OEIS A389755, twice its undirected paths: 36,122,108 directed tours;
// 1,245,736; 37,568). Then it kills it again, damages the
// trailer of the layer it left, and checks that the count is refused with one line and
// exit 2.
func TestKnightCountSpillKilledResumes(t *testing.T) {
	board, at, want := "5x8", 20, "36122108 directed open tours of 5×8\n"
	switch {
	case raceEnabled:
		// 5×7 cost 10 CPU-s race-built, a whole count and a third of two more; 5×6 3 CPU-s,
		// of which cells 14–30, after the kill, are more than two (30 Nov)
		board, at, want = "5x6", 13, "37568 directed open tours of 5×6\n"
	case testing.Short():
		// under a CPU-second (A389755: 622,868 paths)
		board, at, want = "5x7", 15, "1245736 directed open tours of 5×7\n"
	}
	bin, dir := knightSpillBin(t)
	spill := filepath.Join(dir, "spill")
	args := []string{"knight", "count", "--board", board, "--method", "dp", "--spill", spill, "--max-memory", "64MiB"}
	killedAtLayer(t, bin, spill, at, args)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("resumed count: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), want) {
		t.Errorf("resumed count printed:\n%s\nwant %s", out, want)
	}
	if !strings.Contains(string(out), "resuming from the layer after cell ") {
		t.Errorf("resumed count did not say it resumed:\n%s", out)
	}
	if names, _ := os.ReadDir(spill); len(names) > 0 {
		t.Errorf("%d files left in the spill directory after the count", len(names))
	}

	killedAtLayer(t, bin, spill, at, args)
	layers, _ := filepath.Glob(filepath.Join(spill, "layer-*.km"))
	if len(layers) == 0 {
		t.Fatal("no layer left after the kill")
	}
	// the last segment of the last layer sealed (the first ones may be read and removed)
	segs, _ := filepath.Glob(strings.TrimSuffix(layers[len(layers)-1], ".km") + "-[0-9][0-9][0-9][0-9]")
	if len(segs) == 0 {
		t.Fatalf("no segment of %s left after the kill", layers[len(layers)-1])
	}
	last := segs[len(segs)-1]
	b, err := os.ReadFile(last)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 1 // the checksum in the trailer
	if err := os.WriteFile(last, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, append(args, "--quiet")...)
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("count on a damaged layer: %v, want exit 2; stderr:\n%s", err, &stderr)
	}
	if msg := stderr.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, filepath.Base(last)+" fails its checksum") {
		t.Errorf("count on a damaged layer said:\n%s\nwant one line naming %s and its checksum", msg, filepath.Base(last))
	}
}

// TestKnightCountSpillKilledInsideCell kills "knight count --spill --cut-every 2ms
// --workers 2" of 5×6 open with SIGKILL once it has sealed a cut inside a cell past the
// first nine, copies the
// spill directory, damages the copy's cut and checks that a count on the copy is refused
// with one line naming it, exit 2; then reruns the command with --workers 1 on the
// directory and checks that it resumes inside the cell and prints the published count (37,568 directed
// tours, known-values-open.txt of package knight/count).
func TestKnightCountSpillKilledInsideCell(t *testing.T) {
	bin, dir := knightSpillBin(t)
	spill := filepath.Join(dir, "spill")
	args := func(spill string) []string {
		return []string{"knight", "count", "--board", "5x6", "--method", "dp", "--spill", spill, "--max-memory", "64MiB", "--cut-every", "2ms"}
	}
	// the count killed has two workers, the one resumed one: the cut is the same
	killed := append(args(spill), "--workers", "2")
	var cut string
	for try := 0; cut == "" && try < 5; try++ {
		cut = killedNearCut(t, bin, spill, killed)
	}
	if cut == "" {
		t.Fatal("five counts killed, each after the cell of its cut ended")
	}

	damaged := filepath.Join(dir, "damaged")
	if err := os.Mkdir(damaged, 0o755); err != nil {
		t.Fatal(err)
	}
	names, _ := os.ReadDir(spill)
	for _, e := range names {
		b, err := os.ReadFile(filepath.Join(spill, e.Name()))
		if err == nil && e.Name() == filepath.Base(cut) {
			b[12] ^= 1 // in the count's fingerprint
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(damaged, e.Name()), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, append(args(damaged), "--quiet")...)
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("count on a damaged cut: %v, want exit 2; stderr:\n%s", err, &stderr)
	}
	if msg := stderr.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, filepath.Base(cut)+" refused") {
		t.Errorf("count on a damaged cut said:\n%s\nwant one line naming %s", msg, filepath.Base(cut))
	}

	out, err := exec.CommandContext(ctx, bin, append(args(spill), "--workers", "1")...).CombinedOutput()
	if err != nil {
		t.Fatalf("resumed count: %v\n%s", err, out)
	}
	want := "37568 directed open tours of 5×6\n"
	if !strings.Contains(string(out), want) || !strings.Contains(string(out), "resuming inside cell ") || !strings.Contains(string(out), " kept (") {
		t.Errorf("count resumed from a cut printed:\n%s\nwant it to say it resumed inside a cell, and %s", out, want)
	}
	if names, _ := os.ReadDir(spill); len(names) > 0 {
		t.Errorf("%d files left in the spill directory after the count", len(names))
	}
}

// killedNearCut starts "knight count" with args, waits until its spill directory dir holds
// a cut of a cell past the ninth, and returns the cut a count resumed on dir reads: that of
// the step after the last layer sealed. Each time a cut appears it stops the count
// (stopProcess: SIGSTOP, then it waits until every thread has stopped) and looks at dir:
// if the cut is that one it kills the count (SIGKILL) and returns it; if not (the cell of
// the cut ended before the stop, or the runs of its step are being merged into the next
// layer by a job, which a resume finishes without the cut) it lets the count go on
// (SIGCONT) and waits for the next. So a loaded machine, where the millisecond between a
// look and a kill may be many, only makes it wait longer. Where a process cannot be
// stopped so, it kills the count at the first cut and looks after. It returns "" if the
// count ends first or two minutes pass.
func killedNearCut(t *testing.T, bin, dir string, args []string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	kill := func() {
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatalf("killing the count: %v", err)
		}
		err := <-done
		if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("the count ended with %v before it was killed, stderr: %s", err, &stderr)
		}
	}
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		select {
		case <-done:
			return "" // finished before a cut could be caught
		default:
		}
		if names, _ := filepath.Glob(filepath.Join(dir, "cut-000[1-3][0-9]")); len(names) == 0 {
			continue
		}
		switch err := stopProcess(cmd.Process, true); {
		case errors.Is(err, errors.ErrUnsupported): // kill, then look
			kill()
			return resumedCut(dir)
		case err != nil: // it has ended, or it did not stop
			select {
			case <-done:
				return ""
			case <-time.After(10 * time.Second):
				t.Fatalf("stopping the count: %v", err)
			}
		}
		if cut := resumedCut(dir); cut != "" {
			kill()
			return cut
		}
		if err := stopProcess(cmd.Process, false); err != nil {
			t.Fatalf("letting the count go on: %v", err)
		}
	}
	kill()
	return ""
}

// resumedCut returns the cut a count resumed on the spill directory dir reads, that of
// the step after the last layer sealed, or "" if there is none (no cut of that step, or
// a job merging that step's runs into the next layer).
func resumedCut(dir string) string {
	// the last layer: its manifest (layer-NNNNN.km) or the job making it (.parts)
	top, job := -1, false
	names, _ := os.ReadDir(dir)
	for _, e := range names {
		var n int
		var suffix string
		if c, err := fmt.Sscanf(e.Name(), "layer-%05d.%s", &n, &suffix); err != nil || c != 2 {
			continue
		}
		switch {
		case suffix == "km" && n >= top:
			top, job = n, false
		case suffix == "parts" && n > top:
			top, job = n, true
		}
	}
	cut := filepath.Join(dir, fmt.Sprintf("cut-%05d", top+1))
	if _, err := os.Stat(cut); err != nil || top < 0 || job {
		return ""
	}
	return cut
}
