package queens

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// PlanVersion identifies the way [NewPlan] cuts a count into tasks. A plan is a pure
// function of N and PlanVersion: the same N and version give the same tasks with the same
// ids on every machine, so a task can travel as (N, PlanVersion, ID) and a result recorded
// by one run (a checkpoint, a worker on another machine) can be summed into another. The
// version changes whenever the tasks or their ids would.
const PlanVersion = 1

// A Plan is an exact count of the n×n board cut into independent tasks.
//
// The cut is by frame. Every solution has exactly one queen on each of the four border
// lines: the top row, the bottom row, the left column and the right column (a queen in a
// corner lies on two of them). Those two to four queens are the solution's frame. A
// symmetry of the square maps a solution's frame onto the frame of its image, so the
// solutions with frame F and those with frame g(F) are in one-to-one correspondence. The
// plan therefore keeps one frame of each class under the eight symmetries (the one with the
// smallest (top, bottom, left, right) tuple) as a task with weight = the size of its class
// (8, 4, 2 or 1); the total is Σ weight × (solutions with that frame). The sets of
// solutions fixed by a half turn and by a quarter turn are closed under every symmetry, so
// they are weighted the same way, which gives the fundamental count exactly by Burnside's
// lemma (see [Counts]).
//
// A task pre-places its frame and completes the inner rows with an iterative bitboard search
// (see [Task.Count]). There are about n⁴/8 tasks, of sizes that differ by a few orders of
// magnitude (see Task.Cost): 3206 for n = 16, 9522 for n = 20, 83190 for n = 32.
type Plan struct {
	N int
	// Method is MethodFrames for the plan of NewPlan and MethodJoin for that of NewJoinPlan.
	Method  string
	Version int // PlanVersion, or JoinPlanVersion for the join
	// Tasks in id order: Tasks[i].ID == i. It is nil in a compact plan (see
	// NewCompactPlan): read tasks with Len, Task and Order, which work on every plan.
	Tasks []Task

	compact *compactTasks // the tasks of a compact plan, else nil
}

// A Task is one frame of a [Plan]: queens pre-placed at (0, Top), (N-1, Bottom), (Left, 0)
// and (Right, N-1) (a corner queen is named twice). Its fields are all a worker needs to
// run it; ID alone identifies it within the plan for (N, PlanVersion). The zero Task is not
// valid: get tasks from [NewPlan].
type Task struct {
	N  int `json:"n"`
	ID int `json:"id"`
	// Method is the plan's method; tasks of the join also fill the Join fields.
	Method string   `json:"method,omitempty"`
	Join   JoinTask `json:"join,omitzero"`
	// Weight is the number of frames in the task's class under the symmetries of the
	// square: 8, 4, 2 or 1. Its solutions count Weight times in the total.
	Weight int `json:"weight"`
	// Top and Bottom are the columns of the queens on the top and bottom rows; Left and
	// Right the rows of the queens on the left and right columns.
	Top    int `json:"top"`
	Bottom int `json:"bottom"`
	Left   int `json:"left"`
	Right  int `json:"right"`
	// Prefix, in the fine plan (FinePlanVersion) only, holds queens pre-placed besides the
	// frame, as 0-based "row:col" pairs, comma-separated ("5:3,9:12"; a string keeps Task
	// comparable): the task counts the solutions with its frame and these queens.
	Prefix string `json:"prefix,omitempty"`
	// Cost is an estimate of the task's work relative to the plan's other tasks, from the
	// number of ways to fill its first free rows; schedulers hand out costly tasks first,
	// and progress reports weigh the work left by it.
	Cost uint64 `json:"cost"`
}

// A TaskResult is what running a task found: its solutions unweighted, and the
// search-tree nodes it visited. Results are summed once per task id by [Tally].
type TaskResult struct {
	ID int `json:"id"`
	// Solutions counts the solutions with the task's frame; HalfTurn those among them that
	// a half turn maps onto themselves, QuarterTurn those a quarter turn does.
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

// NewPlan returns the plan for the n×n board, 1 ≤ n ≤ MaxCountN. It enumerates all n⁴
// candidate frames with their eight images, a fraction of a second for n = 32, and keeps
// one per class.
func NewPlan(n int) (*Plan, error) {
	if n < 1 || n > MaxCountN {
		return nil, fmt.Errorf("board size must be a whole number from 1 to %d, got %d", MaxCountN, n)
	}
	p := &Plan{N: n, Method: MethodFrames, Version: PlanVersion}
	if n == 1 {
		p.Tasks = []Task{{N: 1, Method: MethodFrames, Weight: 1, Cost: 1}}
		return p, nil
	}
	for t := range n {
		for b := range n {
			for l := range n {
				for r := range n {
					f := frame{n, t, b, l, r}
					if !f.valid() {
						continue
					}
					w, ok := f.classWeight()
					if !ok {
						continue
					}
					task := Task{N: n, ID: len(p.Tasks), Method: MethodFrames, Weight: w, Top: t, Bottom: b, Left: l, Right: r}
					task.Cost = task.estimate()
					p.Tasks = append(p.Tasks, task)
				}
			}
		}
	}
	return p, nil
}

// Task returns the task with the given id, or an error if there is none: the way a worker
// that received (N, PlanVersion, id) gets its work.
func (p *Plan) Task(id int) (Task, error) {
	if id < 0 || id >= p.Len() {
		return Task{}, fmt.Errorf("task id must be from 0 to %d for N=%d, got %d", p.Len()-1, p.N, id)
	}
	return p.task(id), nil
}

// Shard returns the i-th of k deterministic, disjoint slices of the plan (0 ≤ i < k); the k
// slices together hold every task once. Tasks are dealt round-robin in order of decreasing
// Cost, so the slices hold about the same work.
func (p *Plan) Shard(i, k int) ([]Task, error) {
	if k < 1 || i < 0 || i >= k {
		return nil, fmt.Errorf("shard must be I/K with 0 ≤ I < K, got %d/%d", i, k)
	}
	var out []Task
	j := 0
	for id := range p.Order() {
		if j%k == i {
			out = append(out, p.task(id))
		}
		j++
	}
	return out, nil
}

// ByCost returns the tasks in order of decreasing Cost, ties by id: the order in which a
// scheduler should hand them out so that the run does not end with one big task alone.
func (p *Plan) ByCost() []Task {
	if p.compact != nil {
		out := make([]Task, 0, p.Len())
		for id := range p.Order() {
			out = append(out, p.task(id))
		}
		return out
	}
	out := append([]Task(nil), p.Tasks...)
	slices.SortStableFunc(out, func(a, b Task) int { return cmp.Compare(b.Cost, a.Cost) })
	return out
}

// Sum adds up a complete set of results, one per task id, into exact counts. It returns an
// error if a result's id is not in the plan, or if an id is missing or given twice.
func (p *Plan) Sum(results []TaskResult) (Counts, error) {
	t := p.NewTally()
	for _, r := range results {
		added, err := t.Add(r)
		if err != nil {
			return Counts{}, err
		}
		if !added {
			return Counts{}, fmt.Errorf("task %d given twice", r.ID)
		}
	}
	return t.Final()
}

// A Tally sums task results as they arrive, each task id once: a second result for the
// same id is ignored, so a duplicate delivery never changes the total. It is not safe for
// concurrent use.
type Tally struct {
	plan                    *Plan
	seen                    []bool
	done                    int
	total, half, quarter    big.Int
	nodes                   uint64
	doneCost, remainingCost uint64
}

// NewTally returns an empty tally for the plan.
func (p *Plan) NewTally() *Tally {
	t := &Tally{plan: p, seen: make([]bool, p.Len())}
	for id := range p.Len() {
		t.remainingCost += p.cost(id)
	}
	return t
}

// Add records r. It reports false, changing nothing, if the tally already holds a result for
// r.ID, and returns an error if r.ID is not a task of the plan.
func (t *Tally) Add(r TaskResult) (bool, error) {
	if r.ID < 0 || r.ID >= len(t.seen) {
		return false, fmt.Errorf("result for task %d, but the plan for N=%d has tasks 0 to %d", r.ID, t.plan.N, len(t.seen)-1)
	}
	if t.seen[r.ID] {
		return false, nil
	}
	t.seen[r.ID] = true
	t.done++
	w := new(big.Int).SetUint64(uint64(t.plan.weight(r.ID)))
	var x big.Int
	t.total.Add(&t.total, x.Mul(w, x.SetUint64(r.Solutions)))
	t.half.Add(&t.half, x.Mul(w, x.SetUint64(r.HalfTurn)))
	t.quarter.Add(&t.quarter, x.Mul(w, x.SetUint64(r.QuarterTurn)))
	t.nodes += r.Nodes
	c := t.plan.cost(r.ID)
	t.doneCost += c
	t.remainingCost -= c
	return true, nil
}

// Has reports whether the tally holds a result for task id.
func (t *Tally) Has(id int) bool { return id >= 0 && id < len(t.seen) && t.seen[id] }

// Done returns the number of tasks with a result.
func (t *Tally) Done() int { return t.done }

// Complete reports whether every task of the plan has a result.
func (t *Tally) Complete() bool { return t.done == len(t.seen) }

// Nodes returns the search-tree nodes of the results so far.
func (t *Tally) Nodes() uint64 { return t.nodes }

// CostDone returns the summed Cost of the tasks with a result and of those without.
func (t *Tally) CostDone() (done, remaining uint64) { return t.doneCost, t.remainingCost }

// Solutions returns the weighted number of solutions found so far: the total once complete.
func (t *Tally) Solutions() *big.Int { return new(big.Int).Set(&t.total) }

// Counts returns the counts summed so far; they are the board's counts once Complete.
func (t *Tally) Counts() Counts {
	c := Counts{
		N:           t.plan.N,
		Total:       new(big.Int).Set(&t.total),
		HalfTurn:    new(big.Int).Set(&t.half),
		QuarterTurn: new(big.Int).Set(&t.quarter),
	}
	c.Unique = uniqueFrom(t.plan.N, c.Total, c.HalfTurn, c.QuarterTurn)
	return c
}

// A TallyState is the whole of a [Tally] in a form to store: which tasks have a result and
// the exact sums of their results. [Plan.RestoreTally] turns it back into a tally.
type TallyState struct {
	// Seen holds a bit per task, task id in bit id%8 of byte id/8.
	Seen []byte
	Done int
	// Total, HalfTurn and QuarterTurn are the weighted sums so far, in decimal.
	Total, HalfTurn, QuarterTurn string
	Nodes                        uint64
}

// State returns the tally's state. It costs a bit per task of the plan.
func (t *Tally) State() TallyState {
	s := TallyState{
		Seen: make([]byte, (len(t.seen)+7)/8), Done: t.done,
		Total: t.total.String(), HalfTurn: t.half.String(), QuarterTurn: t.quarter.String(),
		Nodes: t.nodes,
	}
	for id, ok := range t.seen {
		if ok {
			s.Seen[id/8] |= 1 << (id % 8)
		}
	}
	return s
}

// RestoreTally returns a tally of the plan in state s, as [Tally.State] gave it for a tally
// of this plan, or an error if s cannot be one: its bits do not fit the plan's tasks, Done
// is not their number, or a sum is not a whole number from 0 up. It cannot tell a state of
// another plan with as many tasks: the caller names the plan beside the state. It costs a
// pass over the plan's tasks.
func (p *Plan) RestoreTally(s TallyState) (*Tally, error) {
	t := p.NewTally()
	if len(s.Seen) != (len(t.seen)+7)/8 {
		return nil, fmt.Errorf("tally state of %d bytes, but the plan of N=%d has %d tasks", len(s.Seen), p.N, len(t.seen))
	}
	for id := range t.seen {
		if s.Seen[id/8]&(1<<(id%8)) != 0 {
			t.seen[id] = true
			t.done++
			c := p.cost(id)
			t.doneCost += c
			t.remainingCost -= c
		}
	}
	if extra := len(t.seen) % 8; extra != 0 && s.Seen[len(s.Seen)-1]>>extra != 0 {
		return nil, errors.New("tally state marks tasks beyond the plan's last")
	}
	if t.done != s.Done {
		return nil, fmt.Errorf("tally state says %d tasks are done, but marks %d", s.Done, t.done)
	}
	for _, x := range []struct {
		dst *big.Int
		src string
	}{{&t.total, s.Total}, {&t.half, s.HalfTurn}, {&t.quarter, s.QuarterTurn}} {
		if _, ok := x.dst.SetString(x.src, 10); !ok || x.dst.Sign() < 0 {
			return nil, fmt.Errorf("tally state has the sum %q, want a whole number from 0 up", x.src)
		}
	}
	t.nodes = s.Nodes
	return t, nil
}

// Count runs the task: it counts the solutions with the task's frame and, among them, those
// fixed by a half turn and by a quarter turn. It allocates nothing per node and uses
// constant memory; it takes time proportional to its search tree, tens of nanoseconds a
// node (all the tasks of n = 17 together visit about 2.5·10⁸ nodes).
func (t Task) Count() TaskResult {
	r, _ := t.CountContext(context.Background())
	return r
}

// CountContext is [Task.Count] that stops early, returning ctx.Err(), when ctx is done. It
// looks at ctx every million nodes (a few milliseconds). A result returned with an error
// holds only the nodes visited so far: a measure of speed, not a count.
func (t Task) CountContext(ctx context.Context) (TaskResult, error) {
	res := TaskResult{ID: t.ID}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if t.Method == MethodJoin {
		return t.countJoin(ctx)
	}
	if t.N == 1 {
		res.Solutions, res.HalfTurn, res.QuarterTurn, res.Nodes = 1, 1, 1, 1
		return res, nil
	}
	var s search
	if !t.initSearch(&s) {
		return res, nil
	}
	var err error
	if t.mayBeHalfTurn() {
		err = s.runSymmetric(ctx, &res)
	} else {
		err = s.run(ctx, &res)
	}
	return res, err
}

// frame is a candidate frame: queens at (0,t), (n-1,b), (l,0) and (r,n-1).
type frame struct{ n, t, b, l, r int }

// queens returns the frame's distinct queens, in a slice of buf (no allocation).
func (f frame) queens(buf *[4]board.Square) []board.Square {
	qs := buf[:0]
	for _, q := range [4]board.Square{{Row: 0, Col: f.t}, {Row: f.n - 1, Col: f.b}, {Row: f.l, Col: 0}, {Row: f.r, Col: f.n - 1}} {
		dup := false
		for _, o := range qs {
			dup = dup || o == q
		}
		if !dup {
			qs = append(qs, q)
		}
	}
	return qs
}

// valid reports whether the frame is one a solution can have: a corner queen is named by
// both its lines, and no two of the queens attack each other.
func (f frame) valid() bool {
	m := f.n - 1
	if (f.t == 0) != (f.l == 0) || (f.t == m) != (f.r == 0) || (f.b == 0) != (f.l == m) || (f.b == m) != (f.r == m) {
		return false
	}
	var buf [4]board.Square
	qs := f.queens(&buf)
	for i, a := range qs {
		for _, b := range qs[i+1:] {
			dr, dc := a.Row-b.Row, a.Col-b.Col
			if dr == 0 || dc == 0 || dr == dc || dr == -dc {
				return false
			}
		}
	}
	return true
}

// code orders frames: the representative of a class is the frame with the smallest code.
func (f frame) code() int { return ((f.t*f.n+f.b)*f.n+f.l)*f.n + f.r }

// image returns the frame of g applied to f's queens.
func (f frame) image(g board.Symmetry) frame {
	m := f.n - 1
	img := frame{n: f.n}
	var buf [4]board.Square
	for _, q := range f.queens(&buf) {
		s := g.Apply(f.n, q)
		if s.Row == 0 {
			img.t = s.Col
		}
		if s.Row == m {
			img.b = s.Col
		}
		if s.Col == 0 {
			img.l = s.Row
		}
		if s.Col == m {
			img.r = s.Row
		}
	}
	return img
}

// classWeight reports whether f is the representative of its class and, if so, the size of
// the class: 8 divided by the number of symmetries that fix f.
func (f frame) classWeight() (int, bool) {
	c, fixed := f.code(), 0
	for _, g := range board.Symmetries {
		ic := f.image(g).code()
		if ic < c {
			return 0, false
		}
		if ic == c {
			fixed++
		}
	}
	return 8 / fixed, true
}

// halfTurnFixed reports whether a half turn maps the frame onto itself: only then can a
// solution with this frame be fixed by a half (or quarter) turn.
func (f frame) halfTurnFixed() bool {
	m := f.n - 1
	return f.b == m-f.t && f.r == m-f.l
}

// estimate returns the task's Cost: the square of the number of nodes two levels down its
// search tree (plus one). Across the tasks of a plan the nodes grow about as that number to
// the power 2, fitted on log scales (n = 13 to 15), hence the square. Two levels keep
// NewPlan(32) near a second.
func (t Task) estimate() uint64 {
	var s search
	if t.N == 1 || !s.init(frame{t.N, t.Top, t.Bottom, t.Left, t.Right}) {
		return 1
	}
	c := s.prefixCount(2) + 1
	return c * c
}
