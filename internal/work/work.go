// Package work runs a count plan (count.Plan), or any part of one, on this machine: on a
// pool of goroutines, optionally recording every finished task in a checkpoint file so that
// an interrupted or killed run resumes where it stopped, and reporting its progress as plain
// [Status] values. Package cluster runs a plan on many machines through NATS; drawing progress
// is the commands' business (internal/progress): this package imports no terminal library.
//
// Usage:
//
//	plan, _ := queens.NewPlan(17, count.MethodFrames, 0)
//	res, err := work.Run(ctx, plan, work.Options{Workers: 2, Checkpoint: "q17.ckpt"})
//	… res.Counts.Total
//
// and one slice of it, as "queens count 17 --shard 0/4" runs it:
//
//	ids, _ := count.Shard(plan, 0, 4)
//	res, err := work.Run(ctx, plan, work.Options{Tasks: ids})
//	… res.Results, res.Counts.Total (the slice's share)
//
// Tasks are handed out one at a time, in order of decreasing estimated cost (Task.Cost), to
// whichever worker is free, so the run does not end with one core working alone on a big
// task. Results come back to one goroutine (each worker hands over what it finished in the
// last 20 ms at once, see resultDelay), which records them in the checkpoint, sums them with
// a count.Tally (each task id once) and calls the progress function for each.
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
	"sync/atomic"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// resultDelay is how long a worker may keep finished results before handing them to Run's
// goroutine (which records, sums and reports them): a task that takes longer is handed over
// as soon as it ends; shorter ones go in batches. A run killed outright loses at most this
// much finished work per worker beyond the tasks in flight. Tests set it to 0 to see
// every result on its own.
var resultDelay = 20 * time.Millisecond

// Options says how to run a plan.
type Options struct {
	// Workers is the number of goroutines counting; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Checkpoint, if not empty, is the path of the checkpoint file to resume from and
	// record into (see OpenCheckpoint). It records tasks of the whole plan: runs of
	// different parts of one plan may share it.
	Checkpoint string
	// Tasks, if not nil, are the ids of the tasks to run, each once (a slice of the plan:
	// count.Shard(plan, i, k)); nil runs every task of the plan.
	Tasks []int
	// Progress, if not nil, is called from Run's goroutine after every finished task and
	// once at the start (with the resumed tasks); it must return quickly.
	Progress func(Status)
}

// Status is a snapshot of a run, as plain values: the command that started the run
// decides how to show it.
type Status struct {
	N       int
	Tasks   int // in the run: Options.Tasks, or the whole plan
	Done    int // tasks of the run with a result, resumed ones included
	Resumed int // tasks whose result was there when the run started (a checkpoint, a server)
	// Solutions and Nodes sum the results so far (Solutions weighted by the symmetry of
	// each task); NodesRun those computed by this run.
	Solutions *big.Int
	Nodes     uint64
	NodesRun  uint64
	Elapsed   time.Duration // since this run started
	Workers   int           // goroutines counting here; 0 if none (a coordinator)
	// CostTotal is the summed estimated cost (Task.Cost) of the run's tasks; CostRun that of
	// the tasks this run computed, CostLeft that of the tasks without a result.
	CostTotal, CostRun, CostLeft uint64
}

// ETA estimates the time left: the Cost still to do, at the time per unit of Cost this run
// has measured so far (tasks differ in size by orders of magnitude, so task counts alone
// would mislead). It reports false until this run has finished a task.
func (s Status) ETA() (time.Duration, bool) {
	if s.CostRun == 0 || s.Elapsed <= 0 {
		return 0, false
	}
	per := float64(s.Elapsed) / float64(s.CostRun)
	return time.Duration(per * float64(s.CostLeft)), true
}

// Fraction returns the share of the run's work done, by Cost.
func (s Status) Fraction() float64 {
	if s.CostTotal == 0 {
		return 1
	}
	return 1 - float64(s.CostLeft)/float64(s.CostTotal)
}

// Rate returns the search-tree nodes this run visits per second, 0 before it has
// finished a task.
func (s Status) Rate() float64 {
	if secs := s.Elapsed.Seconds(); secs > 0 {
		return float64(s.NodesRun) / secs
	}
	return 0
}

// A Summary is what a run computed.
type Summary struct {
	// Counts sums the results of the run, each weighted by its task's Weight. When the
	// run covers every task of the plan they are the board's exact counts; for a part of
	// the plan Total, HalfTurn and QuarterTurn are that part's share and Unique is nil
	// (it has no meaning for a part).
	Counts queens.Counts
	// Nodes sums the results' Nodes.
	Nodes uint64
	// Results holds the result of each task of Options.Tasks, in that order, resumed ones
	// included. It is nil when Options.Tasks is nil: once summed, a whole plan's results
	// (up to hundreds of thousands) are needed by nobody.
	Results []count.Result
}

// Sum adds up results of distinct tasks of p (a slice of the plan, or all of it) with a
// count.Tally, as Run does; Summary.Results is results. It returns an error if a result's
// id is not a task of p or is given twice. It takes time linear in len(results).
func Sum(p count.Plan, results []count.Result) (Summary, error) {
	t := count.NewTally(p)
	if err := t.AddAll(results); err != nil {
		return Summary{}, err
	}
	res, err := result(t)
	if err != nil {
		return Summary{}, err
	}
	res.Results = results
	return res, nil
}

// result is the Summary of what t holds, without the list of results: a slice's sums, or
// the board's counts once t is complete, checked against the published ones
// (count.Tally.Final).
func result(t *count.Tally) (Summary, error) {
	c := t.Counts()
	if t.Complete() {
		var err error
		if c, err = t.Final(); err != nil {
			return Summary{}, err
		}
	} else {
		c.Unique = nil
	}
	return Summary{Counts: c, Nodes: t.Nodes()}, nil
}

// Run runs the tasks of plan p that opts.Tasks names (every task if nil) and returns their
// results summed (Summary.Counts: the board's exact counts when the run is the whole plan).
// Errors: a *CheckpointError when the checkpoint cannot be used, an error naming a bad id
// of opts.Tasks, ctx.Err() when interrupted (after recording what finished), or an error
// writing the checkpoint. It takes the plan's build (p.Build) and the tasks' time divided
// among the workers, and memory for one result per task of the plan.
func Run(ctx context.Context, p count.Plan, opts Options) (Summary, error) {
	if err := p.Build(ctx); err != nil {
		return Summary{}, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// inRun[id]: the task is one of the run's; order[id]: its place in opts.Tasks.
	inRun := make([]bool, p.Len())
	var order map[int]int
	if opts.Tasks == nil {
		for i := range inRun {
			inRun[i] = true
		}
	} else {
		order = make(map[int]int, len(opts.Tasks))
		for j, id := range opts.Tasks {
			if id < 0 || id >= p.Len() {
				return Summary{}, fmt.Errorf("task id must be from 0 to %d for N=%d, got %d", p.Len()-1, p.N(), id)
			}
			if inRun[id] {
				return Summary{}, fmt.Errorf("task %d is named twice", id)
			}
			inRun[id] = true
			order[id] = j
		}
	}
	var results []count.Result
	if order != nil {
		results = make([]count.Result, len(opts.Tasks))
	}
	st := Status{N: p.N(), Workers: workers}
	for id, in := range inRun {
		if in {
			st.Tasks++
			st.CostTotal += p.Cost(id)
		}
	}
	tally := count.NewTally(p) // holds the run's tasks only: its Done and CostDone are the run's
	// add sums r, a result of one of the run's tasks not summed yet.
	add := func(r count.Result, resumed bool) {
		tally.Add(r) // the id is the plan's: it cannot fail
		if order != nil {
			results[order[r.ID]] = r
		}
		if resumed {
			st.Resumed++
		} else {
			st.CostRun += p.Cost(r.ID)
			st.NodesRun += r.Nodes
		}
	}
	var ckpt *Checkpoint
	if opts.Checkpoint != "" {
		c, done, err := OpenCheckpointContext(ctx, opts.Checkpoint, p)
		if err != nil {
			return Summary{}, err
		}
		ckpt = c
		defer ckpt.Close()
		for _, r := range done {
			if r.ID < 0 || r.ID >= p.Len() {
				return Summary{}, &CheckpointError{Path: opts.Checkpoint, Err: fmt.Errorf("result for task %d, but the plan for N=%d has tasks 0 to %d", r.ID, p.N(), p.Len()-1)}
			}
			if inRun[r.ID] && !tally.Has(r.ID) {
				add(r, true)
			}
		}
	}
	start := time.Now()
	status := func() Status {
		s := st
		costDone, _ := tally.CostDone()
		s.Done, s.CostLeft = tally.Done(), s.CostTotal-costDone
		s.Solutions, s.Nodes, s.Elapsed = tally.Solutions(), tally.Nodes(), time.Since(start)
		return s
	}
	if opts.Progress != nil {
		opts.Progress(status())
	}

	var pending []int // the run's tasks without a result, costliest first (Plan.Order)
	for id := range p.Order() {
		if inRun[id] && !tally.Has(id) {
			pending = append(pending, id)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Workers claim the next pending task with an atomic counter and hand their results
	// over in batches of at most resultDelay's worth, so that a worker neither waits for
	// another goroutine between tasks nor wakes one after each: either lets the Go
	// scheduler move the worker to another thread, often another core, whose caches do not
	// hold its tables. (With a task channel and a result per send, a one-worker count at
	// N = 16, 513 tasks, took 1,300 thread switches and 20 % more CPU.)
	var next atomic.Int64
	done := make(chan []count.Result, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var batch []count.Result
			last := time.Now()
			// Results that are done are handed over even when the run is interrupted, so
			// that the checkpoint records them; Run's loop reads until every worker is out.
			defer func() {
				if len(batch) > 0 {
					done <- batch
				}
			}()
			for {
				i := next.Add(1) - 1
				if i >= int64(len(pending)) || ctx.Err() != nil {
					return
				}
				t, _ := p.Task(pending[i]) // a compact plan builds its tasks as they go
				r, err := p.CountTask(ctx, t)
				if err != nil {
					return // interrupted: the task is in flight and is dropped
				}
				batch = append(batch, r)
				if now := time.Now(); now.Sub(last) >= resultDelay {
					done <- batch
					batch, last = nil, now
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(done)
	}()

	var werr error
	for rs := range done {
		for _, r := range rs {
			if werr != nil {
				break // draining after a checkpoint failure
			}
			if ckpt != nil {
				if err := ckpt.Record(r); err != nil {
					werr = err
					cancel()
					break
				}
			}
			add(r, false) // each pending task is handed out once: r is new
			if opts.Progress != nil {
				opts.Progress(status())
			}
		}
	}
	if werr != nil {
		return Summary{}, werr
	}
	if ckpt != nil {
		if err := ckpt.Close(); err != nil {
			return Summary{}, err
		}
	}
	if done := tally.Done(); done < st.Tasks {
		if err := ctx.Err(); err != nil {
			return Summary{}, err
		}
		return Summary{}, fmt.Errorf("%d of %d tasks have no result", st.Tasks-done, st.Tasks)
	}
	res, err := result(tally)
	if err != nil {
		return Summary{}, err
	}
	res.Results = results
	return res, nil
}
