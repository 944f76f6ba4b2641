package work

import (
	"context"
	"fmt"
	"iter"
	"math/big"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// QueensPlan is a queens count plan (count.Plan) as a [Plan]. What only queens runners
// ask for (the plan's memory, its modelled cost, its sampler, the symmetry counts behind
// U(N)) they take from Count, the count.Plan itself.
//
// A task's Weight, Cost and Desc are the count.Task's; a result's Count is
// count.Result.Solutions and its counters are, in order, "half_turn", "quarter_turn" and
// "nodes", and for the join "row_sets", "stored" and "pair_tests" after them: the fields
// and the order of a checkpoint line of each method. The published value is Q(N)
// (count.Known).
type QueensPlan struct {
	p    count.Plan
	join bool
}

// Queens returns p as a [Plan]. It costs nothing: p is built by Build.
func Queens(p count.Plan) *QueensPlan {
	return &QueensPlan{p: p, join: p.Method() == count.MethodJoin}
}

// Count returns the count.Plan q presents.
func (q *QueensPlan) Count() count.Plan { return q.p }

// QueensJob returns the job id of the queens plan of board n and plan version v: "q17v1"
// (a join plan's versions are its own, from 101).
func QueensJob(n, v int) string { return fmt.Sprintf("q%dv%d", n, v) }

// Job returns QueensJob of the plan's N and version.
func (q *QueensPlan) Job() string { return QueensJob(q.p.N(), q.p.Version()) }

// Build builds the count.Plan's task list (count.Plan.Build).
func (q *QueensPlan) Build(ctx context.Context) error { return q.p.Build(ctx) }

// Len returns the number of tasks.
func (q *QueensPlan) Len() int { return q.p.Len() }

// Order yields the ids by decreasing cost (count.Plan.Order).
func (q *QueensPlan) Order() iter.Seq[int] { return q.p.Order() }

// Task returns task id.
func (q *QueensPlan) Task(id int) (Task, error) {
	t, err := q.p.Task(id)
	if err != nil {
		return Task{}, err
	}
	return Task{ID: t.ID, Weight: int64(t.Weight), Cost: t.Cost, Desc: t.Desc}, nil
}

// countTask returns t as the count.Task it stands for.
func (q *QueensPlan) countTask(t Task) count.Task {
	return count.Task{N: q.p.N(), ID: t.ID, Method: q.p.Method(), Weight: int(t.Weight), Cost: t.Cost, Desc: t.Desc}
}

// RunTask counts t from its description alone (count.Plan.CountTask), without building
// the plan.
func (q *QueensPlan) RunTask(ctx context.Context, t Task) (Result, error) {
	r, err := q.p.CountTask(ctx, q.countTask(t))
	if err != nil {
		return Result{}, err
	}
	return q.Result(r), nil
}

// Check returns why r cannot be the result of its task: the id, the counters it must
// have, or what count.Check refuses.
func (q *QueensPlan) Check(r Result) error {
	cr, err := q.CountResult(r)
	if err != nil {
		return err
	}
	return count.Check(q.p, cr)
}

// Published returns Q(N) if it is known.
func (q *QueensPlan) Published() (*big.Int, bool) {
	c, ok := count.Known(q.p.N())
	return c.Total, ok
}

// The names of a queens result's counters, in their order.
var (
	framesCounters = []string{"half_turn", "quarter_turn", "nodes"}
	joinCounters   = []string{"half_turn", "quarter_turn", "nodes", "row_sets", "stored", "pair_tests"}
)

// Result returns r as a [Result] of q.
func (q *QueensPlan) Result(r count.Result) Result {
	vals := []uint64{r.HalfTurn, r.QuarterTurn, r.Nodes, r.RowSets, r.Stored, r.PairTests}
	names := framesCounters
	if q.join {
		names = joinCounters
	}
	cs := make([]Counter, len(names))
	for i, name := range names {
		cs[i] = Counter{Name: name, Value: vals[i]}
	}
	return Result{ID: r.ID, Count: new(big.Int).SetUint64(r.Solutions), Counters: cs}
}

// CountResult returns r as the count.Result it stands for, or an error if r does not
// have the counters of q's method, in their order, or a count of more than 2⁶⁴−1.
func (q *QueensPlan) CountResult(r Result) (count.Result, error) {
	names := framesCounters
	if q.join {
		names = joinCounters
	}
	if r.Count == nil || r.Count.Sign() < 0 || !r.Count.IsUint64() {
		return count.Result{}, fmt.Errorf("task %d: %v solutions is not a queens task's count", r.ID, r.Count)
	}
	if len(r.Counters) != len(names) {
		return count.Result{}, fmt.Errorf("task %d: %d counters, a %s task has %d", r.ID, len(r.Counters), q.p.Method(), len(names))
	}
	var vals [6]uint64
	for i, c := range r.Counters {
		if c.Name != names[i] {
			return count.Result{}, fmt.Errorf("task %d: counter %d is %q, want %q", r.ID, i, c.Name, names[i])
		}
		vals[i] = c.Value
	}
	return count.Result{ID: r.ID, Solutions: r.Count.Uint64(), HalfTurn: vals[0], QuarterTurn: vals[1], Nodes: vals[2],
		RowSets: vals[3], Stored: vals[4], PairTests: vals[5]}, nil
}
