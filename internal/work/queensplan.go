package work

import (
	"context"
	"fmt"
	"iter"
	"math/big"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/queens"
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
	p count.Plan
	// join: the result carries the join's counters too; so does a count.Plan of any
	// method but frames (cluster's knight plans, until the cluster takes Plan), so that no
	// counter of its results is lost.
	join bool
}

// Queens returns p as a [Plan]. It costs nothing: p is built by Build.
func Queens(p count.Plan) *QueensPlan {
	return &QueensPlan{p: p, join: p.Method() != count.MethodFrames && p.Method() != ""}
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

// Counters returns the names of the counters of the plan's method, in their order.
func (q *QueensPlan) Counters() []string {
	if q.join {
		return joinCounters
	}
	return framesCounters
}

// queensMagic begins a queens checkpoint's header.
const queensMagic = "chesspuzzles-count-checkpoint"

// CheckpointFormat is the format of queens checkpoints since their first build: a header
// naming N, the method if it is the join, the plan version and the tasks, synced every
// SyncEvery (a queens task takes milliseconds to minutes). A checkpoint of another method,
// N or version is refused with the flag that would resume it.
func (q *QueensPlan) CheckpointFormat() CheckpointFormat {
	p := q.p
	h := fmt.Sprintf("%s %d n=%d plan=%d tasks=%d", queensMagic, checkpointFormat, p.N(), p.Version(), p.Len())
	if q.join {
		h = fmt.Sprintf("%s %d n=%d method=%s plan=%d tasks=%d", queensMagic, checkpointFormat, p.N(), p.Method(), p.Version(), p.Len())
	}
	return CheckpointFormat{Magic: queensMagic, What: "count checkpoint", Header: h, Sync: SyncEvery, Other: q.otherCheckpoint}
}

// otherCheckpoint says why a queens checkpoint whose header is body is not q's.
func (q *QueensPlan) otherCheckpoint(body string) error {
	p := q.p
	var format, n, version, tasks int
	method := count.MethodFrames
	what := "another count"
	rest := strings.TrimPrefix(body, queensMagic+" ")
	if k, _ := fmt.Sscanf(rest, "%d n=%d plan=%d tasks=%d", &format, &n, &version, &tasks); k == 4 {
		what = fmt.Sprintf("N=%d with plan version %d", n, version)
	} else if k, _ := fmt.Sscanf(rest, "%d n=%d method=%s plan=%d tasks=%d", &format, &n, &method, &version, &tasks); k == 5 {
		what = fmt.Sprintf("N=%d with plan version %d", n, version)
	}
	if method != q.method() {
		return fmt.Errorf("records a count by method %s, not %s; use another file, delete it or count with --method %s", method, q.method(), method)
	}
	if n == p.N() && version != p.Version() {
		return fmt.Errorf("records a count of N=%d with plan version %d, not %d; count with --plan-version %d, or use another file or delete it", n, version, p.Version(), version)
	}
	return fmt.Errorf("records %s, not N=%d with plan version %d; use another file or delete it", what, p.N(), p.Version())
}

// method names the plan's method for messages ("frames" for plans that leave it empty).
func (q *QueensPlan) method() string {
	if q.p.Method() == "" {
		return count.MethodFrames
	}
	return q.p.Method()
}

// Weight returns task id's weight without making the task (count.Plan.Weight).
func (q *QueensPlan) Weight(id int) int64 { return int64(q.p.Weight(id)) }

// Cost returns task id's cost without making the task (count.Plan.Cost).
func (q *QueensPlan) Cost(id int) uint64 { return q.p.Cost(id) }

// Slice returns slice i of k as queens shard files have always meant it (count.Shard:
// round-robin in Order), so that an old file still means the same tasks.
func (q *QueensPlan) Slice(i, k int) ([]int, error) { return count.Shard(q.p, i, k) }

// CheckTask returns the task t describes, as the plan makes it from the description alone
// (count.Plan.CheckTask: the plan need not be built), or why it is none of the plan's.
func (q *QueensPlan) CheckTask(t Task) (Task, error) {
	ct, err := q.p.CheckTask(q.countTask(t))
	if err != nil {
		return Task{}, err
	}
	return Task{ID: ct.ID, Weight: int64(ct.Weight), Cost: ct.Cost, Desc: ct.Desc}, nil
}

// Counts returns the board's counts from a whole plan's total and the weighted sums of
// its counters (those of "half_turn" and "quarter_turn": U(N) is made of them).
func (q *QueensPlan) Counts(total *big.Int, sums map[string]*big.Int) queens.Counts {
	half, quarter := sums["half_turn"], sums["quarter_turn"]
	if half == nil {
		half = new(big.Int)
	}
	if quarter == nil {
		quarter = new(big.Int)
	}
	return count.CountsFrom(q.p.N(), total, half, quarter)
}

// CheckSums refuses a whole plan's sums whose Q(N) or U(N) is not the published one.
func (q *QueensPlan) CheckSums(total *big.Int, sums map[string]*big.Int) error {
	k, ok := count.Known(q.p.N())
	if !ok {
		return nil
	}
	c := q.Counts(total, sums)
	if c.Total.Cmp(k.Total) != 0 || c.Unique.Cmp(k.Unique) != 0 {
		return fmt.Errorf("Q(%d) summed to %s and U(%d) to %s, but the published values are %s and %s (OEIS A000170, A002562): some task's result is wrong",
			c.N, c.Total, c.N, c.Unique, k.Total, k.Unique)
	}
	return nil
}
