package work

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// Q(n) and U(n) from the literature (OEIS A000170, A002562).
var known = map[int][2]int64{8: {92, 12}, 10: {724, 92}, 11: {2680, 341}, 12: {14200, 1787}}

func plan(t *testing.T, n int) *queens.Plan {
	t.Helper()
	p, err := queens.NewPlan(n)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func checkCounts(t *testing.T, c queens.Counts, n int) {
	t.Helper()
	if c.Total.Int64() != known[n][0] || c.Unique.Int64() != known[n][1] {
		t.Errorf("Run(%d) = %v total, %v unique; want %d, %d", n, c.Total, c.Unique, known[n][0], known[n][1])
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		workers int
	}{
		{"one worker", 10, 1},
		{"two workers", 11, 2},
		{"more workers than cores", 12, 7},
		{"default workers", 8, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var last Status
			c, err := Run(context.Background(), plan(t, tt.n), Options{Workers: tt.workers, Progress: func(s Status) { last = s }})
			if err != nil {
				t.Fatal(err)
			}
			checkCounts(t, c, tt.n)
			if last.Done != last.Tasks || last.Solutions.Int64() != known[tt.n][0] || last.Fraction() != 1 {
				t.Errorf("last progress: %d/%d tasks, %v solutions, fraction %v", last.Done, last.Tasks, last.Solutions, last.Fraction())
			}
		})
	}
}

// TestCheckpointResume interrupts a checkpointed run after some tasks, resumes it, and
// checks that the resumed run ends with the exact counts and redoes no recorded task.
func TestCheckpointResume(t *testing.T) {
	const n = 12
	path := filepath.Join(t.TempDir(), "q12.ckpt")
	p := plan(t, n)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := 0
	_, err := Run(ctx, p, Options{Workers: 2, Checkpoint: path, Progress: func(s Status) {
		if s.Done >= len(p.Tasks)/3 {
			stopped = s.Done
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted Run: error %v, want context.Canceled", err)
	}
	var first Status
	c, err := Run(context.Background(), p, Options{Workers: 2, Checkpoint: path, Progress: func(s Status) {
		if first.Tasks == 0 {
			first = s
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, c, n)
	if first.Resumed < stopped || first.Resumed >= len(p.Tasks) {
		t.Errorf("resumed run started with %d tasks from the checkpoint, want at least %d of %d", first.Resumed, stopped, len(p.Tasks))
	}
	// A third run finds every task recorded and computes nothing.
	c, err = Run(context.Background(), p, Options{Checkpoint: path, Progress: func(s Status) {
		if s.Resumed != len(p.Tasks) {
			t.Errorf("complete checkpoint resumed %d of %d tasks", s.Resumed, len(p.Tasks))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, c, n)
}

func TestCheckpointRefused(t *testing.T) {
	dir := t.TempDir()
	p10 := plan(t, 10)
	good := filepath.Join(dir, "q10.ckpt")
	if _, err := Run(context.Background(), p10, Options{Checkpoint: good}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	damaged := strings.Replace(lines[3], " ", "  ", 1)
	tests := []struct {
		name string
		path string
		plan *queens.Plan
		want string
	}{
		{"another N", good, plan(t, 11), "records N=10 with plan version 1, not N=11"},
		{"not a checkpoint", write("text", "hello\n"), p10, "not a count checkpoint"},
		{"empty", write("empty", ""), p10, "empty"},
		{"damaged line", write("damaged", lines[0]+lines[1]+damaged+lines[4]), p10, "line 3 is damaged"},
		{"directory", dir, p10, "checkpoint"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(context.Background(), tt.plan, Options{Checkpoint: tt.path})
			var ce *CheckpointError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Run with checkpoint %s: error %v, want a CheckpointError saying %q", tt.name, err, tt.want)
			}
		})
	}
}

// TestCheckpointTornTail checks that a last line cut short by a crash is dropped, and the
// run resumes to the exact counts.
func TestCheckpointTornTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q10.ckpt")
	p := plan(t, 10)
	if _, err := Run(context.Background(), p, Options{Checkpoint: path}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n")
	// Keep the header, five results and half of the sixth.
	torn := strings.Join(lines[:6], "") + lines[6][:len(lines[6])/2]
	if err := os.WriteFile(path, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Run(context.Background(), p, Options{Checkpoint: path})
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, c, 10)
	_, results, err := OpenCheckpoint(path, p)
	if err != nil || len(results) != len(p.Tasks) {
		t.Errorf("after resuming, the checkpoint holds %d results (%v), want %d", len(results), err, len(p.Tasks))
	}
}

func TestReporterPlain(t *testing.T) {
	var buf bytes.Buffer
	r := NewReporter(&buf, false)
	r.lastLine = r.lastLine.Add(-PlainEvery) // due now
	_, err := Run(context.Background(), plan(t, 8), Options{Workers: 1, Progress: r.Update})
	r.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.HasPrefix(out, "N=8: ") || !strings.Contains(out, " tasks, ") || strings.Count(out, "\n") != 1 {
		t.Errorf("plain progress = %q, want one line starting \"N=8: \"", out)
	}
}
