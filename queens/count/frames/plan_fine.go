package frames

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"sync"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/bound"
)

// FinePlanVersion identifies the fine frame plan ([New] of this version): the frames of
// [PlanVersion] 1, with every frame whose estimated cost exceeds fineBound split by the
// queens of its next empty rows. Like every plan version it pins the tasks and their ids.
const FinePlanVersion = 2

// fineBound returns the largest task.Cost a task of the fine plan of n may have, unless it
// can no longer be split (it has at most fineMinEmpty empty rows, or its search has no
// branch). It builds the v1 plan of n to know its total cost (a fraction of a second).
//
// Choice: no task should take more than about one core-hour (fineTargetSeconds), so that
// a cluster's run does not end with one core working alone for days (v1's frames of n = 27
// are about four core-days each) and a lost task costs little. A split divides a task by
// the 10 to 20 squares of its branching line, so the plan is coarse in the bound: at
// n = 27 every frame splits twice, into about 288 tasks (a 1/40 sample of the frames:
// 1.1·10⁷ tasks in all, mean cost 291, largest 555, about 20 and 38 core-minutes), and any
// bound from about 600 to 5,000 gives that same plan (four core-hours was tried too).
// Held in memory that plan takes about 4 GB and minutes to build: a coordinator should
// stream it frame by frame (splitFrame). The bound is on the estimate: a task's true nodes
// lie between about 0.4 and 1.6 times what its Cost predicts for 80% of tasks (n = 20).
// The bound turns the time into cost units by measurement:
//   - the search visits about 27 ns a node on one core of the development machine (CPU
//     time of `queens count 17` and `18 --method frames --workers 1`: 6.8 s for 2.5·10⁸
//     nodes, 41.9 s for 1.55·10⁹);
//   - a v1 plan visits about 2.1 nodes per solution (2.43 at n = 17, 2.33, 2.16, 2.11 at
//     n = 20, slowly falling), so about 2.1·Q(n) nodes in all;
//   - Cost is a fair share of them: summed over a sample of 40 tasks spread over the cost
//     range, nodes/Cost predicts the whole plan's nodes within 15% at n = 16 and 17 (the
//     TestFineCalibration measurement), and the children of a split frame share its Cost
//     in proportion to their own estimates, so a plan's total Cost, and the nodes per cost
//     unit, are those of v1.
//
// Hence bound = target nodes / (2.1·Q(n) / ΣCost), Q(n) from [count.Known] (times 10.5 per row
// beyond it). It is 876 at n = 27 (frames cost up to 147,456), and larger than every
// frame's cost up to n = 24, where the fine plan is the v1 plan.
func fineBound(n int) uint64 {
	p, err := newPlan(n)
	if err != nil {
		return 1
	}
	var total uint64
	for _, t := range p.tasks {
		total += t.Cost
	}
	return fineBoundFor(n, total)
}

const (
	// fineTargetSeconds is the time, on one core, that no task should exceed by much.
	fineTargetSeconds = 3600.0
	// fineSecondsPerNode is the measured time of a search node (see fineBound).
	fineSecondsPerNode = 27e-9
	// fineNodesPerSolution is the measured number of nodes a v1 plan visits per solution.
	fineNodesPerSolution = 2.1
	// fineMinEmpty: a task with this few empty rows is never split further.
	fineMinEmpty = 4
)

// frameSecondsPerCost returns the estimated seconds, on one core of the development
// machine, of one unit of task.Cost in a frames plan (version 1 or 2) of n whose v1 plan
// costs total: the model of fineBound (2.1·Q(n) nodes in all, 27 ns a node) divided by
// the plan's total Cost. A measured model, good to a factor of about 1.5 on one machine;
// another machine scales it by its speed.
func frameSecondsPerCost(n int, total uint64) float64 {
	return fineSecondsPerNode * fineNodesPerSolution * knownOrExtrapolated(n) / float64(max(total, 1))
}

// knownOrExtrapolated returns Q(n) from Known, or Q(count.MaxKnownN)·10.5^(n−count.MaxKnownN) beyond.
func knownOrExtrapolated(n int) float64 {
	q := 1.0
	if c, ok := count.Known(n); ok {
		q, _ = new(big.Float).SetInt(c.Total).Float64()
	} else if c, ok := count.Known(count.MaxKnownN); ok {
		q, _ = new(big.Float).SetInt(c.Total).Float64()
		for range n - count.MaxKnownN {
			q *= 10.5
		}
	}
	return q
}

// fineBoundFor is fineBound given the v1 plan's total Cost.
func fineBoundFor(n int, total uint64) uint64 {
	nodesPerCost := fineNodesPerSolution * knownOrExtrapolated(n) / float64(max(total, 1))
	b := fineTargetSeconds / fineSecondsPerNode / nodesPerCost
	switch {
	case b < 1:
		return 1
	case b > 1<<62:
		return 1 << 62
	}
	return uint64(b)
}

// fineBase returns the frame plan (version 1) a fine plan of n splits, and the bound it
// splits by: bound itself, or fineBound's for the frames' total cost if bound is 0; or
// ctx.Err() if ctx is done first.
func fineBase(ctx context.Context, n int, bound uint64) (*plan, uint64, error) {
	base, err := buildPlan(ctx, n)
	if err != nil {
		return nil, 0, err
	}
	if bound == 0 {
		var total uint64
		for _, t := range base.tasks {
			total += t.Cost
		}
		bound = fineBoundFor(n, total)
	}
	return base, bound, nil
}

// The fine frame plan of n (version [FinePlanVersion]), 1 ≤ n ≤ count.MaxN: its tasks partition the work of the [PlanVersion] plan's: each v1 frame is a task as it is,
// or, when its Cost exceeds fineBound(n), it is split where its search first branches
// (after the forced queens: a row's open columns, or the open rows of a column that only
// two rows can take, see search), each child a task with that queen added to
// task.Prefix, and the children that still exceed the bound are split in turn. The children of a frame keep its Weight: the solutions of a frame are the
// disjoint union of its children's, so Σ Weight × Solutions is unchanged, and so are the
// half- and quarter-turn sums, since each child counts exactly the symmetric solutions it
// holds (see task.CountContext).
//
// Ids are given in v1 frame order, the children of a frame in increasing order of the
// branching line's squares, depth first: a pure function of n. Building costs the v1 plan plus one
// Cost estimate per child (microseconds each).
//
// newFinePlan returns it cut with bound (0: fineBound(n)), its tasks in a slice: the tests
// cut small boards finely with it; New holds it compactly (newCompactFinePlan).
func newFinePlan(n int, bound uint64) (*plan, error) {
	base, bound, err := fineBase(context.Background(), n, bound)
	if err != nil {
		return nil, err
	}
	p := &plan{n: n, version: FinePlanVersion}
	for _, t := range base.tasks {
		splitFrame(t, bound, func(c task) {
			c.ID = len(p.tasks)
			p.tasks = append(p.tasks, c)
		})
	}
	return p, nil
}

// splitFrame calls emit with the tasks of the fine plan that frame t becomes under bound,
// in id order (their ID fields are left as t's).
func splitFrame(t task, bound uint64, emit func(task)) {
	var split func(t task)
	split = func(t task) {
		kids := fineChildren(t, bound)
		if kids == nil {
			emit(t)
			return
		}
		for _, c := range kids {
			split(c)
		}
	}
	split(t)
}

// fineChildren returns the tasks the fine plan under bound splits t into, in id order,
// or nil if t is a task of the plan as it is: its Cost is within bound, it has at most
// fineMinEmpty empty rows, or its search has no branch.
func fineChildren(t task, bound uint64) []task {
	var s search
	if t.Cost <= bound || !t.initSearch(&s) || s.freeRows <= fineMinEmpty {
		return nil
	}
	kids := s.branches()
	if len(kids) == 0 {
		return nil
	}
	out := make([]task, len(kids))
	raw := make([]uint64, len(kids))
	var sum uint64
	for i, q := range kids {
		out[i] = t
		out[i].Prefix = appendSquare(t.Prefix, q)
		raw[i] = out[i].fineEstimate()
		sum += raw[i]
	}
	for i := range out {
		// The children share the parent's Cost in proportion to their own estimates,
		// so that Costs stay in one unit across the plan and sum to the v1 frame's.
		hi, lo := bits.Mul64(t.Cost, raw[i])
		q, _ := bits.Div64(hi%sum, lo, sum)
		out[i].Cost = max(q, 1)
	}
	return out
}

// checkFineTask returns the task of the fine plan of t.N cut with bound (fineBound(t.N)
// for the plan of [FinePlanVersion]) that t describes by its frame (Top, Bottom, Left,
// Right), Weight, Prefix and Cost, with t's ID, or an error if no task of that plan has
// this description. It is how a worker rebuilds the task a message carries without
// building the plan (minutes and gigabytes from n = 27): it checks that the frame is the
// representative of its class with that Weight, and follows the plan's splits from the
// frame down the Prefix, each split where the plan splits and the Cost that of the plan's
// task. It cannot check t.ID, which only the whole plan knows: the coordinator checks a
// result against its own plan. Cost: one estimate per child of each split on the way
// (about a hundred microseconds at n = 27).
func checkFineTask(t task, bound uint64) (task, error) {
	bad := func(format string, args ...any) (task, error) {
		return task{}, fmt.Errorf("task %d of N=%d is not a task of the fine plan: %s", t.ID, t.N, fmt.Sprintf(format, args...))
	}
	if t.N < 1 || t.N > count.MaxN {
		return bad("board size must be from 1 to %d", count.MaxN)
	}
	cur := task{N: t.N, ID: t.ID, Weight: 1, Cost: 1}
	if t.N > 1 {
		f := frame{t.N, t.Top, t.Bottom, t.Left, t.Right}
		if t.Top < 0 || t.Top >= t.N || t.Bottom < 0 || t.Bottom >= t.N || t.Left < 0 || t.Left >= t.N || t.Right < 0 || t.Right >= t.N || !f.valid() {
			return bad("no frame has queens at top %d, bottom %d, left %d, right %d", t.Top, t.Bottom, t.Left, t.Right)
		}
		w, ok := f.classWeight()
		if !ok {
			return bad("its frame is not the representative of its class")
		}
		cur = task{N: t.N, ID: t.ID, Weight: w, Top: t.Top, Bottom: t.Bottom, Left: t.Left, Right: t.Right}
		cur.Cost = cur.estimate()
	}
	if t.Weight != cur.Weight {
		return bad("weight %d, but its frame's class has %d frames", t.Weight, cur.Weight)
	}
	rest := t.Prefix
	for rest != "" {
		sq, tail, _ := strings.Cut(rest, ",")
		rest = tail
		var next *task
		for _, c := range fineChildren(cur, bound) {
			if c.Prefix == appendSquare(cur.Prefix, squareOf(sq)) && strings.HasSuffix(c.Prefix, sq) {
				next = &c
				break
			}
		}
		if next == nil {
			return bad("the plan does not split its frame by the queen %q after %q", sq, cur.Prefix)
		}
		cur = *next
	}
	if cur.Prefix != t.Prefix {
		return bad("prefix %q is not written as the plan writes it", t.Prefix)
	}
	if fineChildren(cur, bound) != nil {
		return bad("the plan splits it further")
	}
	if cur.Cost != t.Cost {
		return bad("cost %d, but the plan's task has cost %d", t.Cost, cur.Cost)
	}
	return cur, nil
}

// squareOf parses a "row:col" prefix entry, or returns an impossible square.
func squareOf(s string) board.Square {
	rs, cs, ok := strings.Cut(s, ":")
	r, err1 := strconv.Atoi(rs)
	c, err2 := strconv.Atoi(cs)
	if !ok || err1 != nil || err2 != nil || r < 0 || c < 0 || r > count.MaxN || c > count.MaxN {
		return board.Square{Row: -1, Col: -1}
	}
	return board.Square{Row: r, Col: c}
}

// appendSquare returns the prefix with the queen q added: "row:col" pairs, 0-based,
// comma-separated.
func appendSquare(prefix string, q board.Square) string {
	s := strconv.Itoa(q.Row) + ":" + strconv.Itoa(q.Col)
	if prefix == "" {
		return s
	}
	return prefix + "," + s
}

// branches returns the queens that split the search's tree at its first branching node: it
// follows expand through forced queens (which every solution holds) and returns the
// squares of the branching row's open columns, or of the branching column's open rows.
// Each solution holds exactly one of them, so the children partition the solutions, and
// their search trees are the parent's subtrees: splitting adds no work but the repeated
// forced queens. It returns nil when the node is dead or done.
func (s *search) branches() []board.Square {
	cols, d1, d2, rem := s.cols, s.d1, s.d2, s.rem
	for rem != 0 {
		m := s.expand(cols, d1, d2, rem)
		switch m.kind {
		case forced:
			cols, d1, d2 = addQueen(cols, d1, d2, m.line, m.avail)
			rem &^= 1 << m.line
			continue
		case onRow:
			var out []board.Square
			for a := m.avail; a != 0; a &= a - 1 {
				out = append(out, board.Square{Row: int(m.line), Col: bits.TrailingZeros64(a)})
			}
			return out
		case onColumn:
			var out []board.Square
			for a := m.avail; a != 0; a &= a - 1 {
				out = append(out, board.Square{Row: bits.TrailingZeros64(a), Col: int(m.line)})
			}
			return out
		}
		return nil
	}
	return nil
}

// initSearch sets s to the task's start: its frame and the queens of its Prefix. It reports
// false if the prefix is malformed, or a prefix queen is on a row already filled or on an
// attacked square (no plan makes such a task; a forged one counts no solutions).
func (t task) initSearch(s *search) bool {
	s.init(frame{t.N, t.Top, t.Bottom, t.Left, t.Right})
	if t.Prefix == "" {
		return true
	}
	if len(t.Prefix) > 6*count.MaxN {
		return false
	}
	for f := range strings.SplitSeq(t.Prefix, ",") {
		rs, cs, ok := strings.Cut(f, ":")
		row, err1 := strconv.Atoi(rs)
		c, err2 := strconv.Atoi(cs)
		if !ok || err1 != nil || err2 != nil || row < 0 || row >= t.N || c < 0 || c >= t.N || s.rem&(1<<row) == 0 {
			return false
		}
		bit := uint64(1) << c
		if openOn(s.mask&^s.cols, s.d1, s.d2, uint(row))&bit == 0 {
			return false
		}
		s.cols, s.d1, s.d2 = addQueen(s.cols, s.d1, s.d2, uint(row), bit)
		s.rem &^= 1 << row
		s.freeRows--
		s.prefix = append(s.prefix, board.Square{Row: row, Col: c})
	}
	return true
}

// fineEstimate is task.estimate for a task that may have a prefix: the same formula, from
// the node after the prefix.
func (t task) fineEstimate() uint64 {
	var s search
	if t.N == 1 || !t.initSearch(&s) {
		return 1
	}
	c := s.prefixCount(2) + 1
	return c * c
}

// mayBeHalfTurn reports whether a solution of the task can be fixed by a half turn: its
// frame is, and its prefix queens together with their images under the half turn are a
// consistent partial placement with the frame (one queen a row, a column, a diagonal).
// Only those tasks run the slower search that tests each solution for symmetry.
func (t task) mayBeHalfTurn() bool {
	f := frame{t.N, t.Top, t.Bottom, t.Left, t.Right}
	if t.N == 1 {
		return true
	}
	if !f.halfTurnFixed() {
		return false
	}
	var s search
	if !t.initSearch(&s) {
		return false
	}
	m := t.N - 1
	var buf [4]board.Square
	qs := append([]board.Square(nil), f.queens(&buf)...)
	qs = append(qs, s.prefix...)
	for _, q := range s.prefix {
		qs = append(qs, board.Square{Row: m - q.Row, Col: m - q.Col})
	}
	for i, a := range qs {
		for _, b := range qs[i+1:] {
			if a == b {
				continue
			}
			dr, dc := a.Row-b.Row, a.Col-b.Col
			if dr == 0 || dc == 0 || dr == dc || dr == -dc {
				return false
			}
		}
	}
	return true
}

// checkPrefixResult is CheckResult's rules for a split task (one with a Prefix): the
// orderings, HalfTurn and QuarterTurn 0 unless the task may hold such solutions, and the
// node and size rules of its empty rows. Burnside's divisibility does not hold for a part
// of a frame's solutions, so it is not checked.
func (t task) checkPrefixResult(r count.Result) error {
	if err := checkTurnCounts(r); err != nil {
		return err
	}
	f := frame{t.N, t.Top, t.Bottom, t.Left, t.Right}
	may := t.mayBeHalfTurn()
	switch {
	case !may && r.HalfTurn != 0:
		return fmt.Errorf("task %d: %d solutions fixed by a half turn, but its frame and prefix rule them out", r.ID, r.HalfTurn)
	case (!may || f.image(board.Rotate90) != f) && r.QuarterTurn != 0:
		return fmt.Errorf("task %d: %d solutions fixed by a quarter turn, but its frame and prefix rule them out", r.ID, r.QuarterTurn)
	}
	var s search
	if !t.initSearch(&s) {
		if r.Solutions != 0 || r.Nodes != 0 {
			return fmt.Errorf("task %d: its prefix is attacked, so it has no solutions and no nodes, got %d and %d", r.ID, r.Solutions, r.Nodes)
		}
		return nil
	}
	return checkNodes(r, s.freeRows)
}

// checkNodes is CheckResult's rules of nodes and size for a search with empty rows left.
func checkNodes(r count.Result, empty int) error {
	switch {
	case empty == 0 && (r.Solutions > 1 || r.Nodes != 0):
		return fmt.Errorf("task %d: its queens fill the board, so it has at most 1 solution and 0 nodes, got %d and %d", r.ID, r.Solutions, r.Nodes)
	case empty > 0 && r.Nodes == 0:
		return fmt.Errorf("task %d: 0 nodes, but it leaves %d empty rows to search", r.ID, empty)
	case empty > 0 && r.Nodes < 1<<63 && r.Solutions > 2*r.Nodes:
		return fmt.Errorf("task %d: %d solutions from %d nodes, more than the 2 a node can give", r.ID, r.Solutions, r.Nodes)
	}
	if m := bound.Factorial(empty); r.Solutions > m {
		return fmt.Errorf("task %d: %d solutions, more than the %d ways to fill its %d empty rows", r.ID, r.Solutions, m, empty)
	}
	return nil
}

// FineFromN is the smallest n whose fine plan differs from the v1 plan: below it no frame's
// Cost exceeds fineBound(n), so version 2 has version 1's tasks (TestFineFromN).
const FineFromN = 25

// maxFineN is the largest n whose fine plan New makes: about 2·10⁸ tasks at n = 28 by
// the plan's sampled estimate (some 6 GB held compactly), and billions beyond, more than
// the 2³² ids a compact plan holds.
const maxFineN = 28

// DefaultVersion returns the plan version a count of n by the frames method uses unless
// told otherwise: FinePlanVersion from FineFromN to maxFineN, where it splits v1's frames
// of days into tasks of at most about a core-hour, and PlanVersion elsewhere: below, both
// versions have the same tasks, so that checkpoints, shard files and jobs of version 1
// stay valid there; beyond, the fine plan is too large to hold.
func DefaultVersion(n int) int {
	if n >= FineFromN && n <= maxFineN {
		return FinePlanVersion
	}
	return PlanVersion
}

// children returns the tasks t splits into where its search first branches, as the fine
// plan splits a frame (see NewFinePlan): their solutions partition t's, and their search
// trees are t's subtrees. Each child's Cost is its own estimate (not a share of t's), its
// ID is t's. It returns nil when t has no branch (its search is dead or ends in forced
// queens), and for tasks of the join. Cost: one estimate per child, microseconds each. It
// is how a benchmark times a task too big to run whole: it descends to a random subtask
// with probability proportional to Cost and scales the time by the inverse (Knuth's
// estimator; bench/cost).
func (t task) children() []task {
	var s search
	if t.N == 1 || !t.initSearch(&s) {
		return nil
	}
	kids := s.branches()
	if len(kids) == 0 {
		return nil
	}
	out := make([]task, len(kids))
	for i, q := range kids {
		c := t
		c.Prefix = appendSquare(t.Prefix, q)
		c.Cost = c.fineEstimate()
		out[i] = c
	}
	return out
}

// fineBounds caches fineBound by n: a worker checks every task of version 2 against it.
var fineBounds sync.Map // int → uint64

// fineBoundCached is fineBound(n), computed once per process and n.
func fineBoundCached(n int) uint64 {
	if b, ok := fineBounds.Load(n); ok {
		return b.(uint64)
	}
	b := fineBound(n)
	fineBounds.Store(n, b)
	return b
}
