// Package work runs a count plan, or any part of one, on this machine: on a pool of
// goroutines, optionally recording every finished task in a checkpoint file so that an
// interrupted or killed run resumes where it stopped, and reporting its progress as plain
// [Status] values. Package cluster runs a plan on many machines through NATS; drawing progress
// is the commands' business (internal/progress): this package imports no terminal library.
//
// Every runner here takes the neutral [Plan]: a job id, tasks by id in an order, a task run
// under a context giving a [Result] (a big-integer count and named counters a re-run
// reproduces), a check of a result, and the published value of the total if there is one.
// [Queens] presents a queens count.Plan as one (its memory, cost and sampler stay on the
// count.Plan, [QueensPlan.Count]), [Knight] a knight's-tour kcount.OpenPlan; a third kind of
// count writes its Plan and runs here unchanged (toy_test.go). Narrow role interfaces say
// what only some plans have: [Builder] (a task list made under a context), [Slicer] (its
// own rule for slices), [Checkpointed] (its own checkpoint header), [Weigher],
// [TaskChecker] (a task taken from its description alone), [MemoryBounder], [SumChecker].
//
// A new kind of count. Its Plan is all it needs to run here, with a checkpoint, and in
// slices and shard files (shard.MergePlan takes the function that makes its plan from its
// job id). To run on the cluster (package cluster) it registers that function once, under
// the kind of its job ids, before a worker or coordinator starts:
//
//	work.RegisterKind("toy", worktest.ParseToy) // job ids "toy12-5-v1"
//
// A worker then makes the plan of each task's job id by it ([OpenJob]) and a coordinator
// gives that job's tasks only to workers whose build lists the kind ([Kinds]). Queens
// ("q") and knight ("k") plans are registered by this package.
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
// or any plan, by [RunPlan]:
//
//	out, err := work.RunPlan(ctx, work.Knight(openPlan), work.Options{Workers: 1, Checkpoint: "k.ckpt"})
//	… out.Total
//
// Tasks are handed out one at a time, in the plan's order (for queens, decreasing estimated
// cost), to whichever worker is free, so the run does not end with one core working alone on
// a big task. Results come back to one goroutine (each worker hands over what it finished in
// the last 20 ms at once, see resultDelay), which records them in the checkpoint, sums them
// (each task id once) and calls the progress function for each.
//
// When ctx is done, a run stops the workers, drops the tasks in flight, syncs the checkpoint
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
	// Finished, if not nil, is called from the runner's goroutine with each result this
	// run computed (not the resumed ones), after the checkpoint records it and before
	// Progress, with the process's CPU time the task took if Workers is 1 (else 0: tasks
	// on several cores cannot be told apart). An error it returns stops the run as a
	// checkpoint's would.
	Finished func(r Result, cpu time.Duration) error
	// EachResult, if set, makes every worker hand each result over as soon as its task
	// ends instead of in batches of up to 20 ms (resultDelay): Progress then sees every
	// task at once, at the cost of a channel send a task. For a caller that acts on the
	// first tasks of a short run (the manual's test interrupts an example after them).
	EachResult bool
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

// Run runs the tasks of the queens plan p that opts.Tasks names (every task if nil), as
// RunPlan runs Queens(p), and returns their results summed by a count.Tally
// (Summary.Counts: the board's exact counts, checked against the published ones, when the
// run is the whole plan). Errors are RunPlan's. It takes the plan's build (p.Build) and the
// tasks' time divided among the workers, and memory for one result per task of the plan.
func Run(ctx context.Context, p count.Plan, opts Options) (Summary, error) {
	q := Queens(p)
	tally := count.NewTally(p) // holds the run's tasks only
	var results []count.Result
	var order map[int]int
	if opts.Tasks != nil {
		results = make([]count.Result, len(opts.Tasks))
		order = make(map[int]int, len(opts.Tasks))
		for j, id := range opts.Tasks {
			order[id] = j
		}
	}
	each := func(r Result) {
		cr, _ := q.CountResult(r) // the plan's own or checked: it has its counters
		tally.Add(cr)             // the id is the plan's: it cannot fail
		if order != nil {
			results[order[r.ID]] = cr
		}
	}
	if _, err := runPlan(ctx, q, opts, each); err != nil {
		return Summary{}, err
	}
	res, err := result(tally)
	if err != nil {
		return Summary{}, err
	}
	res.Results = results
	return res, nil
}

// An Outcome is what RunPlan computed.
type Outcome struct {
	// Total is Σ weight × count over the run's tasks: the plan's count when the run is
	// the whole plan, else the slice's share.
	Total *big.Int
	// Results holds the result of each task of Options.Tasks, in that order, resumed ones
	// included; nil when Options.Tasks is nil.
	Results []Result
}

// A Weigher is a [Plan] that tells a task's weight and cost without making the task: a
// runner asks it for every task of a run before it starts (a queens plan of 4·10⁷ tasks).
type Weigher interface {
	Weight(id int) int64
	Cost(id int) uint64
}

// WeigherOf returns p's own Weigher, or one that makes each task to read them.
func WeigherOf(p Plan) Weigher {
	if w, ok := p.(Weigher); ok {
		return w
	}
	return taskWeigher{p}
}

type taskWeigher struct{ p Plan }

func (w taskWeigher) Weight(id int) int64 { t, _ := w.p.Task(id); return t.Weight }
func (w taskWeigher) Cost(id int) uint64  { t, _ := w.p.Task(id); return t.Cost }

// RunPlan runs the tasks of p that opts.Tasks names (every task if nil) on opts.Workers
// goroutines, recording each in opts.Checkpoint (OpenPlanCheckpoint) and resuming those it
// holds, and returns their weighted total, which it checks against p.Published when the
// run is the whole plan. Errors: a *CheckpointError when the checkpoint cannot be used, an
// error naming a bad id of opts.Tasks, ctx.Err() when interrupted (after recording what
// finished), a task's error (the first; the others stop), an error writing the checkpoint,
// or a whole plan's total unlike its published value. It takes p's build and the tasks'
// time divided among the workers.
func RunPlan(ctx context.Context, p Plan, opts Options) (Outcome, error) {
	out, err := runPlan(ctx, p, opts, nil)
	if err != nil {
		return Outcome{}, err
	}
	if opts.Tasks == nil {
		if want, ok := p.Published(); ok && want.Cmp(out.Total) != 0 {
			return Outcome{}, fmt.Errorf("the tasks of %s sum to %v, the published count is %v: a task is wrong", planName(p), out.Total, want)
		}
	}
	return out, nil
}

// runPlan is RunPlan without the check against the published value (the caller's), calling each (if not nil) on its own goroutine with every result of
// the run's tasks once, resumed ones first.
func runPlan(ctx context.Context, p Plan, opts Options, each func(Result)) (Outcome, error) {
	if err := Build(ctx, p); err != nil {
		return Outcome{}, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// The join sizes its quarter table by what the workers leave (count.Workers).
	ctx = count.WithWorkers(ctx, workers)
	n := p.Len()
	wc := WeigherOf(p)
	// inRun[id]: the task is one of the run's; order[id]: its place in opts.Tasks.
	inRun := make([]bool, n)
	var order map[int]int
	if opts.Tasks == nil {
		for i := range inRun {
			inRun[i] = true
		}
	} else {
		order = make(map[int]int, len(opts.Tasks))
		for j, id := range opts.Tasks {
			if id < 0 || id >= n {
				return Outcome{}, fmt.Errorf("task id must be from 0 to %d for %s, got %d", n-1, planName(p), id)
			}
			if inRun[id] {
				return Outcome{}, fmt.Errorf("task %d is named twice", id)
			}
			inRun[id] = true
			order[id] = j
		}
	}
	out := Outcome{Total: new(big.Int)}
	if order != nil {
		out.Results = make([]Result, len(opts.Tasks))
	}
	st := Status{Workers: workers, Solutions: new(big.Int)}
	if q, ok := p.(*QueensPlan); ok {
		st.N = q.p.N()
	}
	for id, in := range inRun {
		if in {
			st.Tasks++
			st.CostTotal += wc.Cost(id)
		}
	}
	st.CostLeft = st.CostTotal
	has := make([]bool, n) // the run's tasks with a result
	var x, wx big.Int      // scratch, distinct so that Mul reuses x's words
	// add sums r, a result of one of the run's tasks not summed yet, of weight w.
	add := func(r Result, w int64, resumed bool) {
		has[r.ID] = true
		st.Done++
		out.Total.Add(out.Total, x.Mul(r.Count, wx.SetInt64(w)))
		nodes, _ := r.Counter("nodes")
		st.Nodes += nodes
		c := wc.Cost(r.ID)
		st.CostLeft -= c
		if order != nil {
			out.Results[order[r.ID]] = r
		}
		if resumed {
			st.Resumed++
		} else {
			st.CostRun += c
			st.NodesRun += nodes
		}
		if each != nil {
			each(r)
		}
	}
	var ckpt *Checkpoint
	if opts.Checkpoint != "" {
		c, done, err := OpenPlanCheckpoint(ctx, opts.Checkpoint, p)
		if err != nil {
			return Outcome{}, err
		}
		ckpt = c
		defer ckpt.Close()
		for _, r := range done {
			if inRun[r.ID] && !has[r.ID] { // Check took the id
				add(r, wc.Weight(r.ID), true)
			}
		}
	}
	start := time.Now()
	status := func() Status {
		s := st
		s.Solutions, s.Elapsed = new(big.Int).Set(out.Total), time.Since(start)
		return s
	}
	if opts.Progress != nil {
		opts.Progress(status())
	}

	var pending []int // the run's tasks without a result, in the plan's Order
	for id := range p.Order() {
		if inRun[id] && !has[id] {
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
	type done struct {
		r   Result
		w   int64
		cpu time.Duration // if one worker
	}
	timed := workers == 1 && opts.Finished != nil
	var next atomic.Int64
	finished := make(chan []done, workers)
	var taskErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var batch []done
			last := time.Now()
			// Results that are done are handed over even when the run is interrupted, so
			// that the checkpoint records them; the loop below reads until every worker is
			// out.
			defer func() {
				if len(batch) > 0 {
					finished <- batch
				}
			}()
			for {
				i := next.Add(1) - 1
				if i >= int64(len(pending)) || ctx.Err() != nil {
					return
				}
				t, err := p.Task(pending[i]) // a compact plan makes its tasks as they go
				if err == nil {
					var cpu0 time.Duration
					if timed {
						cpu0 = processCPU()
					}
					var r Result
					if r, err = p.RunTask(ctx, t); err == nil {
						d := done{r: r, w: t.Weight}
						if timed {
							d.cpu = processCPU() - cpu0
						}
						batch = append(batch, d)
					}
				}
				if err != nil {
					if ctx.Err() == nil { // not interrupted: the task failed
						errOnce.Do(func() { taskErr = err; cancel() })
					}
					return // the task in flight is dropped
				}
				if now := time.Now(); opts.EachResult || now.Sub(last) >= resultDelay {
					finished <- batch
					// The next batch is likely as long: made at that size, it grows no more.
					batch, last = make([]done, 0, len(batch)), now
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(finished)
	}()

	var werr error
	for ds := range finished {
		for _, d := range ds {
			if werr != nil {
				break // draining after a checkpoint failure
			}
			if ckpt != nil {
				if err := ckpt.Add(d.r); err != nil {
					werr = err
					cancel()
					break
				}
			}
			add(d.r, d.w, false) // each pending task is handed out once: r is new
			if opts.Finished != nil {
				if err := opts.Finished(d.r, d.cpu); err != nil {
					werr = err
					cancel()
					break
				}
			}
			if opts.Progress != nil {
				opts.Progress(status())
			}
		}
	}
	if werr != nil {
		return Outcome{}, werr
	}
	if ckpt != nil {
		if err := ckpt.Close(); err != nil {
			return Outcome{}, err
		}
	}
	if taskErr != nil {
		return Outcome{}, taskErr
	}
	if st.Done < st.Tasks {
		if err := ctx.Err(); err != nil {
			return Outcome{}, err
		}
		return Outcome{}, fmt.Errorf("%d of %d tasks have no result", st.Tasks-st.Done, st.Tasks)
	}
	return out, nil
}

// planName names p in messages: "N=17" for a queens plan, else its job id.
func planName(p Plan) string {
	if q, ok := p.(*QueensPlan); ok {
		return fmt.Sprintf("N=%d", q.p.N())
	}
	return p.Job()
}
