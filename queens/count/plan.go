package count

import (
	"context"
	"fmt"
	"iter"
)

// A Plan is an exact count of the n×n board cut into independent tasks by one method. It
// is a pure function of (N, Method, Version): the same three give the same tasks with the
// same ids on every machine, so a task can travel as (N, Version, ID) and a result recorded
// by one run (a checkpoint, a shard file, a worker on another machine) can be summed into
// another. Package frames and package join are its two implementations; the package
// queens hands out plans (queens.NewPlan).
//
// A plan is built lazily: N, Method, Version, CountTask, CheckTask, CheckResult, Memory
// and CoreSeconds never build its task list, so a worker that received a task counts and
// checks it without the plan (minutes and gigabytes at N = 27). Build builds it under a
// context; Len, Task, Weight, Cost and Order build it on first use if Build has not (a
// fraction of a second to minutes; see each implementation), without a way to stop, so a
// runner calls Build first. A Plan is safe for concurrent use.
type Plan interface {
	// N returns the board size.
	N() int
	// Method returns MethodFrames or MethodJoin.
	Method() string
	// Version returns the plan version: it pins the tasks, their ids and their counters.
	Version() int

	// Build builds the task list unless it is built, or returns ctx.Err() promptly
	// (within milliseconds) if ctx is done first; a later call starts again. Every
	// runner of a plan calls it before Len, Task, Weight, Cost or Order.
	Build(ctx context.Context) error
	// Len returns the number of tasks: their ids are 0 to Len()−1.
	Len() int
	// Task returns task id, or an error if the plan has none.
	Task(id int) (Task, error)
	// Weight and Cost return task id's Weight and Cost (0 ≤ id < Len) without building
	// the task.
	Weight(id int) int
	Cost(id int) uint64
	// Order yields the ids in the order a scheduler should hand them out: decreasing
	// Cost, ties by id, so that a run does not end with one big task alone.
	Order() iter.Seq[int]

	// CountTask runs t, a task of a plan of this N, method and version, from its
	// description alone, and returns its result, or ctx.Err() (with the work done so far
	// in Nodes) if ctx is done first. It looks at ctx often (milliseconds apart).
	CountTask(ctx context.Context, t Task) (Result, error)
	// CheckTask returns t as a task of this plan rebuilt from its description, or an
	// error if no task of the plan has that description: a worker's check of a task that
	// crossed a process boundary, without the plan. It cannot check t.ID, which only the
	// whole plan knows: the coordinator checks results against its own plan (Check).
	CheckTask(t Task) (Task, error)
	// CheckResult returns why r cannot be the result of CountTask(t), or nil if it can.
	// It never runs the task: it finds results that are impossible (bounds, symmetry,
	// counters), not results that are wrong; a lie that keeps to the rules is found only
	// by running the task again.
	CheckResult(t Task, r Result) error

	// Memory returns the bytes a process needs to run the plan's tasks on workers
	// goroutines if it may use limit bytes (0: no limit), and whether they fit.
	Memory(workers int, limit uint64) (need uint64, fits bool)
	// CoreSeconds returns the modelled time of the whole plan on one core of the machine
	// the model was measured on (bench/README.md); a task takes about
	// CoreSeconds·Cost/ΣCost. It costs a look-up.
	CoreSeconds() float64
	// Estimate measures the plan's time on this machine: it times random parts of random
	// tasks, drawn with known probabilities, on the calling goroutine for about
	// opts.Budget, and extrapolates (Knuth's estimator: unbiased, sharp where Cost
	// predicts the time). It is the one sampler of each method: queens estimate, the
	// warning before a long count and bench/cost all use it. It builds the plan's tasks
	// unless the plan is a fine frames plan that is not built yet (then it samples its
	// frames' splits), and, for the join, the quarter table (or the rows it reads).
	Estimate(ctx context.Context, opts EstimateOptions) (Estimate, error)
}

// A Task is one task of a [Plan]. ID alone identifies it within the plan for (N, Version);
// the other fields are all a worker needs to run it without the plan.
type Task struct {
	N  int `json:"n"`
	ID int `json:"id"`
	// Method is the plan's method.
	Method string `json:"method"`
	// Weight is the number of times its solutions count in the total (a frame's class
	// size: 8, 4, 2 or 1; 1 for the join, whose symmetry weights are inside each sum).
	Weight int `json:"weight"`
	// Cost is an estimate of the task's work relative to the plan's other tasks; schedulers
	// hand out costly tasks first, and progress reports weigh the work left by it.
	Cost uint64 `json:"cost"`
	// Desc is the method's own description of the task (a frame and its prefix queens, or
	// a run of row sets), as text a runner passes on untouched.
	Desc string `json:"desc"`
}

// A Result is what running a task found: its solutions unweighted, and the work done.
// Results are summed once per task id by [Tally].
type Result struct {
	ID int `json:"id"`
	// Solutions counts the task's solutions; HalfTurn those among them that a half turn
	// maps onto themselves, QuarterTurn those a quarter turn does.
	Solutions   uint64 `json:"solutions"`
	HalfTurn    uint64 `json:"half_turn"`
	QuarterTurn uint64 `json:"quarter_turn"`
	// Nodes is the number of queens the search placed: a measure of the work done. For
	// the join it is the number of half-boards built.
	Nodes uint64 `json:"nodes"`
	// RowSets, Stored and PairTests are the join's counters (zero for frames): row sets
	// counted, half-board signatures stored, and stored × queried pairs tested. Like Nodes
	// they are deterministic: a re-run of the task must reproduce them.
	RowSets   uint64 `json:"row_sets,omitempty"`
	Stored    uint64 `json:"stored,omitempty"`
	PairTests uint64 `json:"pair_tests,omitempty"`
}

// Check returns why r cannot be the result of task r.ID of p, or nil if it can: the id is
// a task of the plan, and p.CheckResult holds for that task. It is how a result that
// crossed a process boundary (a worker's, a shard file's, a checkpoint's) is checked
// before it is summed. It costs building the task and p.CheckResult (microseconds for a
// frame, milliseconds for a join task).
func Check(p Plan, r Result) error {
	if r.ID < 0 || r.ID >= p.Len() {
		return fmt.Errorf("task id %d is not in the plan for N=%d (tasks 0 to %d)", r.ID, p.N(), p.Len()-1)
	}
	t, err := p.Task(r.ID)
	if err != nil {
		return err
	}
	return p.CheckResult(t, r)
}

// Shard returns the ids of the i-th of k deterministic, disjoint slices of p (0 ≤ i < k);
// the k slices together hold every task once. Tasks are dealt round-robin in p.Order, so
// the slices hold about the same work. It costs a pass over the plan's order.
func Shard(p Plan, i, k int) ([]int, error) {
	if k < 1 || i < 0 || i >= k {
		return nil, fmt.Errorf("shard must be I/K with 0 ≤ I < K, got %d/%d", i, k)
	}
	out := []int{} // an empty slice is a slice, not the whole plan (see work.Options)
	j := 0
	for id := range p.Order() {
		if j%k == i {
			out = append(out, id)
		}
		j++
	}
	return out, nil
}

// Sum adds up a complete set of results, one per task id, into exact counts checked by
// [Tally.Final]. It returns an error if a result's id is not in the plan, or if an id is
// missing or given twice. It does not check the results (see Check).
func Sum(p Plan, results []Result) (Counts, error) {
	t := NewTally(p)
	if err := t.AddAll(results); err != nil {
		return Counts{}, err
	}
	return t.Final()
}

// Here runs every task of p one after another on the calling goroutine and sums them, or
// returns ctx.Err() if ctx is done first: the plan's build and whole cost on one core.
func Here(ctx context.Context, p Plan) (Counts, error) {
	if err := p.Build(ctx); err != nil {
		return Counts{}, err
	}
	t := NewTally(p)
	for id := range p.Len() {
		task, err := p.Task(id)
		if err != nil {
			return Counts{}, err
		}
		r, err := p.CountTask(ctx, task)
		if err != nil {
			return Counts{}, err
		}
		if _, err := t.Add(r); err != nil {
			return Counts{}, err
		}
	}
	return t.Final()
}
