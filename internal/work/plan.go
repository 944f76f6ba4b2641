package work

import (
	"context"
	"fmt"
	"iter"
	"math/big"
	"slices"
)

// A Plan is an exact count cut into independent tasks, as every runner takes it, whatever
// it counts: queens placements ([Queens]), knight's tours ([Knight]), or the next puzzle.
// A plan is a pure function of its Job id: the same id gives the same tasks (ids, weights,
// descriptions) on every machine, and a task run anywhere gives the same result with the
// same counters, so that a result recorded by one run (a checkpoint, a shard file, a worker
// on another machine) can be summed into another's, and a second run of a task checks the
// first. The count is Σ Task.Weight × Result.Count over the tasks. A Plan is safe for
// concurrent use.
//
// A plan that needs time to make its task list (a queens plan at N = 27: minutes) makes it
// in Build ([Builder]), which a runner calls first; a plan with work to do per slice rule
// or per checkpoint format says so through the other role interfaces of this package
// ([Slicer], [Checkpointed]). Everything else a runner needs is here.
type Plan interface {
	// Job identifies the plan among all plans of all puzzles: its puzzle, board, kind and
	// version, as one token of a NATS subject and of a bucket key ("q17v1",
	// "k8x8-open-ends-v1"). Files, checkpoints and jobs carry it (or a name it is made
	// of), and a runner refuses results recorded under another.
	Job() string
	// Len returns the number of tasks: their ids are 0 to Len()−1.
	Len() int
	// Task returns task id, or an error if the plan has none.
	Task(id int) (Task, error)
	// Order yields every id once, in the order a scheduler should hand them out (costly
	// tasks first, so that a run does not end with one big task alone).
	Order() iter.Seq[int]
	// RunTask counts t, a task of the plan, and returns its result, or ctx.Err() within
	// milliseconds of ctx being done. Its cost is the task's (Task.Cost forecasts it).
	RunTask(ctx context.Context, t Task) (Result, error)
	// Counters names the counters of every result of the plan, in their order.
	Counters() []string
	// Check returns why r cannot be the result of task r.ID, or nil if it can: the task
	// exists, its count and counters are possible. It never runs the task: a wrong
	// result that keeps to the rules is found only by running the task again.
	Check(r Result) error
	// Published returns the published value of the plan's count, if one is known: a
	// total unlike it is refused.
	Published() (*big.Int, bool)
}

// A Builder is a [Plan] that makes its task list in Build: a runner calls Build before
// Len, Task or Order, and Build returns ctx.Err() promptly if ctx is done first.
type Builder interface {
	Build(ctx context.Context) error
}

// Build builds p if it is a [Builder]; other plans are built when made.
func Build(ctx context.Context, p Plan) error {
	if b, ok := p.(Builder); ok {
		return b.Build(ctx)
	}
	return ctx.Err()
}

// A Task is one task of a [Plan]: ID alone identifies it within the plan; the rest is
// what a runner needs to schedule, weigh and run it.
type Task struct {
	ID int
	// Weight is how many of the plan's solutions each solution the task counts stands
	// for: the plan's count is Σ Weight × Result.Count.
	Weight int64
	// Cost forecasts the task's work relative to the plan's other tasks (0: no forecast);
	// progress reports weigh the work left by it.
	Cost uint64
	// Desc is the plan's own description of the task (a queens frame, a knight task's
	// ends), text a runner passes on untouched.
	Desc string
}

// A Result is what running a task found: its count, unweighted, and named counters of
// the work done that a re-run of the task reproduces exactly, in the plan's order
// (Plan.Counters: each plan names its own, "nodes", "states", "peak").
type Result struct {
	ID       int
	Count    *big.Int
	Counters []Counter
}

// A Counter is one named, deterministic counter of a [Result].
type Counter struct {
	Name  string
	Value uint64
}

// Counter returns the value of r's counter name, and whether r has it.
func (r Result) Counter(name string) (uint64, bool) {
	for _, c := range r.Counters {
		if c.Name == name {
			return c.Value, true
		}
	}
	return 0, false
}

// Equal reports whether r and s are the same result of the same task: one id, one count,
// the same counters in the same order.
func (r Result) Equal(s Result) bool {
	return r.ID == s.ID && (r.Count == nil) == (s.Count == nil) && (r.Count == nil || r.Count.Cmp(s.Count) == 0) &&
		slices.Equal(r.Counters, s.Counters)
}

// A Slicer is a [Plan] with its own rule for cutting it into K slices (the tasks of
// "--shard I/K"). A plan that is not one is cut by [RoundRobin]. The rule is part of the
// plan: a shard file written by an old build must still mean the same tasks.
type Slicer interface {
	Slice(i, k int) ([]int, error)
}

// Slice returns the ids of the i-th of k deterministic, disjoint slices of p (0 ≤ i < k),
// by p's own rule if p is a [Slicer], else by [RoundRobin]; the k slices together hold
// every task once.
func Slice(p Plan, i, k int) ([]int, error) {
	if s, ok := p.(Slicer); ok {
		return s.Slice(i, k)
	}
	return RoundRobin(p, i, k)
}

// RoundRobin returns the ids of the i-th of k slices of p dealt round-robin in p.Order (the
// rule of count.Shard, which queens plans keep as their own: [QueensPlan.Slice]),
// so that the slices hold about the same work. It costs a pass over the plan's order.
func RoundRobin(p Plan, i, k int) ([]int, error) {
	if k < 1 || i < 0 || i >= k {
		return nil, fmt.Errorf("shard must be I/K with 0 ≤ I < K, got %d/%d", i, k)
	}
	out := []int{}
	j := 0
	for id := range p.Order() {
		if j%k == i {
			out = append(out, id)
		}
		j++
	}
	return out, nil
}

// ModK returns the ids of the i-th of k slices of p by id: the tasks whose id is i modulo
// k (1 ≤ k ≤ p.Len()). Plans whose costly tasks are neighbours by id use it as their
// [Slicer] rule.
func ModK(p Plan, i, k int) ([]int, error) {
	if k < 1 || k > p.Len() || i < 0 || i >= k {
		name := p.Job()
		if n, ok := p.(interface{ Name() string }); ok {
			name = n.Name()
		}
		return nil, fmt.Errorf("slice %d/%d: the plan %s has %d tasks; K must be from 1 to %d and I from 0 to K-1", i, k, name, p.Len(), p.Len())
	}
	var ids []int
	for id := i; id < p.Len(); id += k {
		ids = append(ids, id)
	}
	return ids, nil
}

// Total returns p's count from one result of each of its tasks: Σ weight × count. It
// refuses a result p.Check refuses, a task without a result and two different results of
// one task (the same result twice counts once). It takes time linear in rs.
func Total(p Plan, rs []Result) (*big.Int, error) {
	byID := make([]int, p.Len()) // 1 + the index in rs of task id's result, 0 if none
	total := new(big.Int)
	var x big.Int
	for i, r := range rs {
		if err := p.Check(r); err != nil {
			return nil, err
		}
		if r.ID < 0 || r.ID >= len(byID) {
			return nil, fmt.Errorf("task %d: the plan %s has tasks 0 to %d", r.ID, p.Job(), p.Len()-1)
		}
		if j := byID[r.ID]; j != 0 {
			if !rs[j-1].Equal(r) {
				return nil, fmt.Errorf("task %d: two different results", r.ID)
			}
			continue
		}
		byID[r.ID] = i + 1
		t, err := p.Task(r.ID)
		if err != nil {
			return nil, err
		}
		total.Add(total, x.Mul(r.Count, x.SetInt64(t.Weight)))
	}
	for id, j := range byID {
		if j == 0 {
			return nil, fmt.Errorf("the plan %s has tasks without a result (the first: %d)", p.Job(), id)
		}
	}
	return total, nil
}
