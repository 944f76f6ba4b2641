package work

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

func joinPlan(t *testing.T, n int) count.Plan {
	t.Helper()
	p, err := queens.NewPlan(n, count.MethodJoin, 0)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// collect runs p on workers goroutines and returns the counts and every task's result by id.
func collect(t *testing.T, p count.Plan, workers int, ckpt string) (queens.Counts, []count.Result) {
	t.Helper()
	c, err := Run(context.Background(), p, Options{Workers: workers, Checkpoint: ckpt})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	results := make([]count.Result, p.Len())
	var wg sync.WaitGroup
	for id := range p.Len() {
		wg.Go(func() {
			r := runTask(p, id)
			mu.Lock()
			results[r.ID] = r
			mu.Unlock()
		})
	}
	wg.Wait()
	return c.Counts, results
}

// TestRunJoin runs join plans on the pool: exact counts for every worker count, and each
// task's partial sum and counters the same on every run.
func TestRunJoin(t *testing.T) {
	for _, n := range []int{10, 11, 12} {
		var first []count.Result
		for _, workers := range []int{1, 2, 5} {
			c, results := collect(t, joinPlan(t, n), workers, "")
			checkCounts(t, c, n)
			if first == nil {
				first = results
			} else if !slices.Equal(first, results) {
				t.Errorf("N=%d: task results differ between runs", n)
			}
		}
		for _, r := range first {
			if r.RowSets == 0 && r.QuarterTurn == 0 && r.HalfTurn == 0 {
				t.Errorf("N=%d task %d: no row sets counted: %+v", n, r.ID, r)
			}
		}
	}
}

// TestCheckpointJoin checks a join checkpoint resumes exactly and that a checkpoint of
// one method is refused by a count of the other, in one line.
func TestCheckpointJoin(t *testing.T) {
	defer func(d time.Duration) { resultDelay = d }(resultDelay)
	resultDelay = 0 // see TestCheckpointResume
	dir := t.TempDir()
	path := filepath.Join(dir, "j11.ckpt")
	p := joinPlan(t, 11)
	ctx, cancel := context.WithCancel(context.Background())
	done := 0
	_, err := Run(ctx, p, Options{Workers: 1, Checkpoint: path, Progress: func(s Status) {
		if done = s.Done; done >= 5 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: error %v, want context.Canceled", err)
	}
	_, saved, err := OpenCheckpoint(path, p)
	if err != nil || len(saved) < 5 || len(saved) == p.Len() {
		t.Fatalf("checkpoint after interrupt holds %d results (%v), want 5 to %d", len(saved), err, p.Len()-1)
	}
	for _, r := range saved {
		if want := runTask(p, r.ID); r != want {
			t.Errorf("checkpoint line for task %d = %+v, recomputed %+v", r.ID, r, want)
		}
	}
	c, err := Run(context.Background(), p, Options{Workers: 2, Checkpoint: path})
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, c.Counts, 11)

	_, err = Run(context.Background(), plan(t, 11), Options{Checkpoint: path})
	var ce *CheckpointError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "by method join, not frames") || strings.Contains(err.Error(), "\n") {
		t.Errorf("frames count on a join checkpoint: error %v, want one line saying it is by method join", err)
	}
	framesPath := filepath.Join(dir, "f11.ckpt")
	if _, err := Run(context.Background(), plan(t, 11), Options{Checkpoint: framesPath}); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), p, Options{Checkpoint: framesPath})
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "by method frames, not join") {
		t.Errorf("join count on a frames checkpoint: error %v, want it refused", err)
	}
}
