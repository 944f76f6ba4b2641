package work

import (
	"context"
	"sync"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// workersSeen is a count.Plan that records the workers its tasks' contexts name
// (count.Workers): what the join sizes its quarter table by.
type workersSeen struct {
	count.Plan
	mu   sync.Mutex
	seen map[int]bool
}

func (p *workersSeen) CountTask(ctx context.Context, t count.Task) (count.Result, error) {
	p.mu.Lock()
	p.seen[count.Workers(ctx)] = true
	p.mu.Unlock()
	return p.Plan.CountTask(ctx, t)
}

// TestRunSaysWorkers: every task of a run is counted under a context naming the run's
// workers, opts.Workers or runtime.GOMAXPROCS where it is 0.
func TestRunSaysWorkers(t *testing.T) {
	for _, workers := range []int{1, 3} {
		cp, err := queens.NewPlan(8, count.MethodFrames, 0)
		if err != nil {
			t.Fatal(err)
		}
		p := &workersSeen{Plan: cp, seen: map[int]bool{}}
		if _, err := Run(context.Background(), p, Options{Workers: workers}); err != nil {
			t.Fatal(err)
		}
		if len(p.seen) != 1 || !p.seen[workers] {
			t.Errorf("Run with %d workers: tasks saw count.Workers %v, want only %d", workers, p.seen, workers)
		}
	}
}
