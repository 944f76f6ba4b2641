package queens

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// FinePlanVersion identifies the fine frame plan of [NewFinePlan]: the frames of
// [PlanVersion] 1, with every frame whose estimated cost exceeds [FineBound] split by the
// queens of its next empty rows. Like every plan version it pins the tasks and their ids.
const FinePlanVersion = 2

// FineBound returns the largest Task.Cost a task of the fine plan of n may have, unless it
// can no longer be split (it has at most fineMinEmpty empty rows).
//
// Choice. Cost is (nodes two levels down + 1)², the same estimate as version 1 (see
// Task.estimate). Timed on samples of the largest v1 and v2 tasks at n = 16, 17 and 18 (see
// plan_fine_test.go, TestFineCalibration, and docs in bench/README.md), the search runs
// about fineSecondsPerCost(n) seconds per cost unit, a figure that grows by about ×4.5 per
// unit of n because two levels see ever less of a deeper tree. FineBound is the cost of
// fineTargetSeconds (one core-hour) at that rate, never below fineMinBound so that small
// boards are not cut into dust: at n ≤ 20 the fine plan is the v1 plan (no frame is that
// large), from about n = 22 on it splits the big frames.
func FineBound(n int) uint64 {
	b := fineTargetSeconds / fineSecondsPerCost(n)
	if b < fineMinBound {
		return fineMinBound
	}
	if b > 1<<62 {
		return 1 << 62
	}
	return uint64(b)
}

const (
	// fineTargetSeconds is the time, on one core, that no task should exceed by much.
	fineTargetSeconds = 3600.0
	// fineMinBound keeps small boards' plans unsplit.
	fineMinBound = 1 << 20
	// fineMinEmpty: a task with this few empty rows is never split further.
	fineMinEmpty = 4
)

// fineSecondsPerCost is the measured seconds of search per unit of Task.Cost at n: a fit
// a·g^(n-18) of timed samples (see FineBound).
func fineSecondsPerCost(n int) float64 {
	s := fineRate18
	for i := 18; i < n; i++ {
		s *= fineRateGrowth
	}
	for i := n; i < 18; i++ {
		s /= fineRateGrowth
	}
	return s
}

// Measured constants of fineSecondsPerCost (one core of the development machine).
const (
	fineRate18     = 2.0e-6
	fineRateGrowth = 4.5
)

// NewFinePlan returns the fine frame plan of n (version [FinePlanVersion]), 1 ≤ n ≤
// MaxCountN. Its tasks partition the work of [NewPlan]'s: each v1 frame is a task as it is,
// or, when its Cost exceeds FineBound(n), it is split by the open columns of its first
// empty row (the lowest-numbered row without a queen), each child a task with that queen in
// Task.Prefix, and the children that still exceed the bound are split by the next empty row
// in turn. The children of a frame keep its Weight: the solutions of a frame are the
// disjoint union of its children's, so Σ Weight × Solutions is unchanged, and so are the
// half- and quarter-turn sums, since each child counts exactly the symmetric solutions it
// holds (see Task.CountContext).
//
// Ids are given in v1 frame order, the children of a frame in increasing order of their
// prefix columns, depth first: a pure function of n. Building costs the v1 plan plus one
// Cost estimate per child (microseconds each).
func NewFinePlan(n int) (*Plan, error) {
	return newFinePlan(n, FineBound(n))
}

// newFinePlan is NewFinePlan with a given bound: the tests cut small boards finely with it.
func newFinePlan(n int, bound uint64) (*Plan, error) {
	base, err := NewPlan(n)
	if err != nil {
		return nil, err
	}
	p := &Plan{N: n, Method: MethodFrames, Version: FinePlanVersion}
	var split func(t Task)
	split = func(t Task) {
		var s search
		if t.Cost <= bound || !t.initSearch(&s) || s.freeRows <= fineMinEmpty {
			t.ID = len(p.Tasks)
			p.Tasks = append(p.Tasks, t)
			return
		}
		row := uint(bits.TrailingZeros64(s.rem))
		for a := openOn(s.mask&^s.cols, s.d1, s.d2, row); a != 0; a &= a - 1 {
			c := t
			c.Prefix = strconv.Itoa(bits.TrailingZeros64(a))
			if t.Prefix != "" {
				c.Prefix = t.Prefix + "," + c.Prefix
			}
			c.Cost = c.fineEstimate()
			split(c)
		}
	}
	for _, t := range base.Tasks {
		split(t)
	}
	return p, nil
}

// initSearch sets s to the task's start: its frame and the queens of its Prefix on the
// first empty rows. It reports false if a prefix queen is attacked (no plan makes such a
// task; a forged one counts no solutions).
func (t Task) initSearch(s *search) bool {
	s.init(frame{t.N, t.Top, t.Bottom, t.Left, t.Right})
	if t.Prefix == "" {
		return true
	}
	if len(t.Prefix) > 3*MaxCountN {
		return false
	}
	for f := range strings.SplitSeq(t.Prefix, ",") {
		c, err := strconv.Atoi(f)
		if err != nil || s.rem == 0 || c < 0 || c >= t.N {
			return false
		}
		row := uint(bits.TrailingZeros64(s.rem))
		bit := uint64(1) << c
		if openOn(s.mask&^s.cols, s.d1, s.d2, row)&bit == 0 {
			return false
		}
		s.cols, s.d1, s.d2 = addQueen(s.cols, s.d1, s.d2, row, bit)
		s.rem &^= 1 << row
		s.freeRows--
		s.prefix = append(s.prefix, board.Square{Row: int(row), Col: c})
	}
	return true
}

// fineEstimate is Task.estimate for a task that may have a prefix: the same formula, from
// the node after the prefix.
func (t Task) fineEstimate() uint64 {
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
func (t Task) mayBeHalfTurn() bool {
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
func (t Task) checkPrefixResult(r TaskResult) error {
	switch {
	case r.HalfTurn > r.Solutions:
		return fmt.Errorf("task %d: %d solutions fixed by a half turn, more than its %d solutions", r.ID, r.HalfTurn, r.Solutions)
	case r.QuarterTurn > r.HalfTurn:
		return fmt.Errorf("task %d: %d solutions fixed by a quarter turn, more than the %d fixed by a half turn", r.ID, r.QuarterTurn, r.HalfTurn)
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
func checkNodes(r TaskResult, empty int) error {
	switch {
	case empty == 0 && (r.Solutions > 1 || r.Nodes != 0):
		return fmt.Errorf("task %d: its queens fill the board, so it has at most 1 solution and 0 nodes, got %d and %d", r.ID, r.Solutions, r.Nodes)
	case empty > 0 && r.Nodes == 0:
		return fmt.Errorf("task %d: 0 nodes, but it leaves %d empty rows to search", r.ID, empty)
	case empty > 0 && r.Nodes < 1<<63 && r.Solutions > 2*r.Nodes:
		return fmt.Errorf("task %d: %d solutions from %d nodes, more than the 2 a node can give", r.ID, r.Solutions, r.Nodes)
	}
	if m := factorialCap(empty); r.Solutions > m {
		return fmt.Errorf("task %d: %d solutions, more than the %d ways to fill its %d empty rows", r.ID, r.Solutions, m, empty)
	}
	return nil
}
