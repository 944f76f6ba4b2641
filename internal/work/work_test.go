package work

import (
	"context"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// Q(n) and U(n) from the literature (OEIS A000170, A002562).
var known = map[int][2]int64{8: {92, 12}, 10: {724, 92}, 11: {2680, 341}, 12: {14200, 1787}}

func plan(t *testing.T, n int) count.Plan {
	t.Helper()
	p, err := queens.NewPlan(n, count.MethodFrames, frames.PlanVersion)
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
			checkCounts(t, c.Counts, tt.n)
			if last.Done != last.Tasks || last.Solutions.Int64() != known[tt.n][0] || last.Fraction() != 1 {
				t.Errorf("last progress: %d/%d tasks, %v solutions, fraction %v", last.Done, last.Tasks, last.Solutions, last.Fraction())
			}
		})
	}
}

// TestProgressEveryTask checks that results handed over in batches still reach Progress
// one by one: one call at the start and one per task, the last with every task done.
func TestProgressEveryTask(t *testing.T) {
	defer func(d time.Duration) { resultDelay = d }(resultDelay)
	resultDelay = time.Hour // one batch per worker, at its end
	p := plan(t, 12)
	calls, last := 0, Status{}
	c, err := Run(context.Background(), p, Options{Workers: 2, Progress: func(s Status) {
		if s.Done != calls {
			t.Errorf("progress call %d reports %d tasks done", calls, s.Done)
		}
		calls++
		last = s
	}})
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, c.Counts, 12)
	if calls != p.Len()+1 || last.Done != p.Len() {
		t.Errorf("%d progress calls, the last with %d tasks done; want %d calls and %d tasks", calls, last.Done, p.Len()+1, p.Len())
	}
}

// TestCheckpointResume interrupts a checkpointed run after some tasks, resumes it, and
// checks that the resumed run ends with the exact counts and redoes no recorded task.
func TestCheckpointResume(t *testing.T) {
	const n = 12
	// The plan's tasks take microseconds: results handed over in batches (here one a
	// worker, at its end) would all arrive before the interruption; EachResult hands each
	// over as it ends.
	defer func(d time.Duration) { resultDelay = d }(resultDelay)
	resultDelay = time.Hour
	path := filepath.Join(t.TempDir(), "q12.ckpt")
	p := plan(t, n)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := 0
	_, err := Run(ctx, p, Options{Workers: 2, Checkpoint: path, EachResult: true, Progress: func(s Status) {
		if s.Done >= p.Len()/3 {
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
	checkCounts(t, c.Counts, n)
	if first.Resumed < stopped || first.Resumed >= p.Len() {
		t.Errorf("resumed run started with %d tasks from the checkpoint, want at least %d of %d", first.Resumed, stopped, p.Len())
	}
	// A third run finds every task recorded and computes nothing.
	c, err = Run(context.Background(), p, Options{Checkpoint: path, Progress: func(s Status) {
		if s.Resumed != p.Len() {
			t.Errorf("complete checkpoint resumed %d of %d tasks", s.Resumed, p.Len())
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, c.Counts, n)
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
		plan count.Plan
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
	checkCounts(t, c.Counts, 10)
	_, results, err := OpenCheckpoint(path, p)
	if err != nil || len(results) != p.Len() {
		t.Errorf("after resuming, the checkpoint holds %d results (%v), want %d", len(results), err, p.Len())
	}
}

// TestRunTasks runs the slices of a plan on the pool: each slice's results are its tasks'
// in order and equal the task computed alone, the slices' sums add up to Q(n) and P(n),
// R(n) (so U(n)), a slice has no Unique of its own, and bad ids are refused.
func TestRunTasks(t *testing.T) {
	const n, k = 11, 3
	p := plan(t, n)
	var all []count.Result
	total := new(big.Int)
	for i := range k {
		tasks, err := count.Shard(p, i, k)
		if err != nil {
			t.Fatal(err)
		}
		var last Status
		res, err := Run(context.Background(), p, Options{Workers: 2, Tasks: tasks, Progress: func(s Status) { last = s }})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) != len(tasks) {
			t.Fatalf("slice %d/%d: %d results for %d tasks", i, k, len(res.Results), len(tasks))
		}
		for j, r := range res.Results {
			if want := runTask(p, tasks[j]); r != want {
				t.Errorf("slice %d/%d result %d = %+v, want task %d alone: %+v", i, k, j, r, tasks[j], want)
			}
		}
		sum, err := Sum(p, res.Results)
		if err != nil || sum.Counts.Total.Cmp(res.Counts.Total) != 0 || sum.Nodes != res.Nodes {
			t.Errorf("slice %d/%d: Sum of its results = %v, %d nodes (%v); Run said %v, %d", i, k, sum.Counts.Total, sum.Nodes, err, res.Counts.Total, res.Nodes)
		}
		if res.Counts.Unique != nil {
			t.Errorf("slice %d/%d has Unique %v, want nil", i, k, res.Counts.Unique)
		}
		if last.Tasks != len(tasks) || last.Done != len(tasks) || last.Fraction() != 1 {
			t.Errorf("slice %d/%d: last progress %d/%d tasks, fraction %v; want %d done", i, k, last.Done, last.Tasks, last.Fraction(), len(tasks))
		}
		total.Add(total, res.Counts.Total)
		all = append(all, res.Results...)
	}
	if total.Int64() != known[n][0] {
		t.Errorf("slices of N=%d sum to %v, want %d", n, total, known[n][0])
	}
	whole, err := Sum(p, all)
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, whole.Counts, n)

	if _, err := Sum(p, append(all, all[0])); err == nil {
		t.Error("Sum accepted a task given twice")
	}
	for _, ids := range [][]int{{0, 0}, {-1}, {p.Len()}} {
		if _, err := Run(context.Background(), p, Options{Tasks: ids}); err == nil {
			t.Errorf("Run with Tasks %v: no error", ids)
		}
	}
	// No task at all is an empty slice: nothing to do, zero sums.
	res, err := Run(context.Background(), p, Options{Tasks: []int{}})
	if err != nil || res.Counts.Total.Sign() != 0 || len(res.Results) != 0 {
		t.Errorf("Run of no task = %v, %d results, %v; want 0", res.Counts.Total, len(res.Results), err)
	}
}

// TestRunTasksCheckpoint: a slice resumes from a checkpoint shared with the whole plan,
// taking only its own tasks from it.
func TestRunTasksCheckpoint(t *testing.T) {
	p := plan(t, 10)
	path := filepath.Join(t.TempDir(), "q10.ckpt")
	first, _ := count.Shard(p, 0, 2)
	if _, err := Run(context.Background(), p, Options{Checkpoint: path, Tasks: first}); err != nil {
		t.Fatal(err)
	}
	second, _ := count.Shard(p, 1, 2)
	var start Status
	res, err := Run(context.Background(), p, Options{Checkpoint: path, Tasks: second[:5], Progress: func(s Status) {
		if start.Tasks == 0 {
			start = s
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if start.Resumed != 0 || start.Tasks != 5 {
		t.Errorf("second slice started with %d of %d tasks resumed, want 0 of 5", start.Resumed, start.Tasks)
	}
	for j, r := range res.Results {
		if r != runTask(p, second[j]) {
			t.Errorf("result %d = %+v, want task %d's", j, r, second[j])
		}
	}
	// The whole plan now resumes every task of the first slice and five of the second.
	start = Status{}
	c, err := Run(context.Background(), p, Options{Checkpoint: path, Progress: func(s Status) {
		if start.Tasks == 0 {
			start = s
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, c.Counts, 10)
	if start.Resumed != len(first)+5 {
		t.Errorf("whole plan resumed %d tasks, want %d", start.Resumed, len(first)+5)
	}
}
