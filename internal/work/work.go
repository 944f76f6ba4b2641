// Package work runs a count plan (queens.Plan) on this machine: on a pool of goroutines,
// optionally recording every finished task in a checkpoint file so that an interrupted or
// killed run resumes where it stopped, and reporting progress as it goes.
//
// Usage:
//
//	plan, _ := queens.NewPlan(17)
//	counts, err := work.Run(ctx, plan, work.Options{Workers: 2, Checkpoint: "q17.ckpt"})
//
// Tasks are handed out one at a time, in order of decreasing estimated cost (Task.Cost), to
// whichever worker is free, so the run does not end with one core working alone on a big
// task. Results come back to one goroutine, which records them in the checkpoint, sums them
// (each task id once) and calls the progress function.
//
// When ctx is done, Run stops the workers, drops the tasks in flight, syncs the checkpoint
// and returns ctx.Err(); running it again with the same checkpoint resumes.
package work

import (
	"context"
	"fmt"
	"math/big"
	"runtime"
	"sync"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// Options says how to run a plan.
type Options struct {
	// Workers is the number of goroutines counting; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Checkpoint, if not empty, is the path of the checkpoint file to resume from and
	// record into (see OpenCheckpoint).
	Checkpoint string
	// Progress, if not nil, is called from Run's goroutine after every finished task and
	// once at the start (with the resumed tasks); it must return quickly.
	Progress func(Status)
}

// Status is a snapshot of a run.
type Status struct {
	N          int
	Tasks      int // in the plan
	Done       int // tasks with a result, resumed ones included
	Resumed    int // tasks whose result came from the checkpoint
	Solutions  *big.Int
	Nodes      uint64
	Elapsed    time.Duration // since this run started
	Workers    int
	nodesHere  uint64 // Nodes of the tasks done in this run
	doneCost   uint64 // Cost of the tasks done in this run
	remainCost uint64 // Cost of the tasks not done
}

// ETA estimates the time left: the Cost still to do, at the time per unit of Cost this run
// has measured so far (tasks differ in size by orders of magnitude, so task counts alone
// would mislead). It reports false until this run has finished a task.
func (s Status) ETA() (time.Duration, bool) {
	if s.doneCost == 0 || s.Elapsed <= 0 {
		return 0, false
	}
	per := float64(s.Elapsed) / float64(s.doneCost)
	return time.Duration(per * float64(s.remainCost)), true
}

// Fraction returns the share of the plan's work done, by Cost.
func (s Status) Fraction() float64 {
	total := s.doneCost + s.remainCost
	if total == 0 {
		return 1
	}
	return 1 - float64(s.remainCost)/float64(total)
}

// Run counts plan p and returns its exact counts. Errors: a *CheckpointError when the
// checkpoint cannot be used, ctx.Err() when interrupted (after recording what finished),
// or an error writing the checkpoint.
func Run(ctx context.Context, p *queens.Plan, opts Options) (queens.Counts, error) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	tally := p.NewTally()
	var ckpt *Checkpoint
	if opts.Checkpoint != "" {
		c, done, err := OpenCheckpoint(opts.Checkpoint, p)
		if err != nil {
			return queens.Counts{}, err
		}
		ckpt = c
		defer ckpt.Close()
		for _, r := range done {
			if _, err := tally.Add(r); err != nil {
				return queens.Counts{}, &CheckpointError{Path: opts.Checkpoint, Err: err}
			}
		}
	}
	resumed := tally.Done()
	_, startRemain := tally.CostDone()
	startNodes := tally.Nodes()
	start := time.Now()
	status := func() Status {
		_, remain := tally.CostDone()
		return Status{
			N: p.N, Tasks: p.Len(), Done: tally.Done(), Resumed: resumed,
			Solutions: tally.Solutions(), Nodes: tally.Nodes(), Elapsed: time.Since(start),
			Workers: workers, nodesHere: tally.Nodes() - startNodes, doneCost: startRemain - remain, remainCost: remain,
		}
	}
	if opts.Progress != nil {
		opts.Progress(status())
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	todo := make(chan queens.Task)
	results := make(chan queens.TaskResult)
	go func() {
		defer close(todo)
		for id := range p.Order() {
			if tally.Has(id) {
				continue
			}
			t, _ := p.Task(id)
			select {
			case todo <- t:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for t := range todo {
				r, err := t.CountContext(ctx)
				if err != nil {
					return // interrupted: the task is in flight and is dropped
				}
				select {
				case results <- r:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	var werr error
	for r := range results {
		if werr != nil {
			continue // draining after a checkpoint failure
		}
		if ckpt != nil {
			if err := ckpt.Record(r); err != nil {
				werr = err
				cancel()
				continue
			}
		}
		// The plan made the ids: Add cannot fail here, and a task is handed out once.
		tally.Add(r)
		if opts.Progress != nil {
			opts.Progress(status())
		}
	}
	if werr != nil {
		return queens.Counts{}, werr
	}
	if ckpt != nil {
		if err := ckpt.Close(); err != nil {
			return queens.Counts{}, err
		}
	}
	if !tally.Complete() {
		if err := ctx.Err(); err != nil {
			return queens.Counts{}, err
		}
		return queens.Counts{}, fmt.Errorf("%d of %d tasks have no result", p.Len()-tally.Done(), p.Len())
	}
	return tally.Counts(), nil
}
