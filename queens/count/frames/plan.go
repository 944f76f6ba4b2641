package frames

import (
	"context"
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/lazy"
)

// PlanVersion identifies the plan of a task per frame (see [New]). A plan is a pure
// function of N and its version: the same N and version give the same tasks with the same
// ids on every machine. The version changes whenever the tasks or their ids would.
const PlanVersion = 1

// plan is the frames method's count.Plan.
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
// lemma.
//
// A task pre-places its frame and completes the inner rows with an iterative bitboard search
// (see task.CountContext). There are about n⁴/8 tasks, of sizes that differ by a few orders of
// magnitude (see task.Cost): 3206 for n = 16, 9522 for n = 20, 83190 for n = 32.
type plan struct {
	n       int
	version int // PlanVersion or FinePlanVersion
	// tasks in id order: tasks[i].ID == i. It is nil in a compact plan (see
	// newCompactFinePlan): read tasks with Len, taskAt and Order, which work on every plan.
	tasks []task

	compact *compactTasks // the tasks of a compact plan, else nil
	bound   uint64        // the fine plan's bound on Cost if not fineBound(n) (newBoundPlan), else 0

	once lazy.Once // builds tasks or compact (see Build)
}

// A task is one frame of a [count.Plan]: queens pre-placed at (0, Top), (N-1, Bottom), (Left, 0)
// and (Right, N-1) (a corner queen is named twice). Its fields are all a worker needs to
// run it; ID alone identifies it within the plan for (N, PlanVersion). The zero task is not
// valid: get tasks from [New].
type task struct {
	N  int `json:"n"`
	ID int `json:"id"`
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
	// frame, as 0-based "row:col" pairs, comma-separated ("5:3,9:12"; a string keeps task
	// comparable): the task counts the solutions with its frame and these queens.
	Prefix string `json:"prefix,omitempty"`
	// Cost is an estimate of the task's work relative to the plan's other tasks, from the
	// number of ways to fill its first free rows; schedulers hand out costly tasks first,
	// and progress reports weigh the work left by it.
	Cost uint64 `json:"cost"`
}

// newPlan returns the plan of version 1 for the n×n board, 1 ≤ n ≤ count.MaxN. It enumerates all n⁴
// candidate frames with their eight images, a fraction of a second for n = 32, and keeps
// one per class.
func newPlan(n int) (*plan, error) { return buildPlan(context.Background(), n) }

// buildPlan is newPlan that returns ctx.Err() if ctx is done first, looking at it every n²
// candidates (well under a millisecond).
func buildPlan(ctx context.Context, n int) (*plan, error) {
	if n < 1 || n > count.MaxN {
		return nil, fmt.Errorf("board size must be a whole number from 1 to %d, got %d", count.MaxN, n)
	}
	p := &plan{n: n, version: PlanVersion}
	if n == 1 {
		p.tasks = []task{{N: 1, Weight: 1, Cost: 1}}
		return p, nil
	}
	for t := range n {
		for b := range n {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
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
					task := task{N: n, ID: len(p.tasks), Weight: w, Top: t, Bottom: b, Left: l, Right: r}
					task.Cost = task.estimate()
					p.tasks = append(p.tasks, task)
				}
			}
		}
	}
	return p, nil
}

// Count runs the task: it counts the solutions with the task's frame and, among them, those
// fixed by a half turn and by a quarter turn. It allocates nothing per node and uses
// constant memory; it takes time proportional to its search tree, tens of nanoseconds a
// node (all the tasks of n = 17 together visit about 2.5·10⁸ nodes).
func (t task) Count() count.Result {
	r, _ := t.CountContext(context.Background())
	return r
}

// CountContext is task.Count that stops early, returning ctx.Err(), when ctx is done. It
// looks at ctx every million nodes (a few milliseconds). A result returned with an error
// holds only the nodes visited so far: a measure of speed, not a count.
func (t task) CountContext(ctx context.Context) (count.Result, error) {
	res := count.Result{ID: t.ID}
	if err := ctx.Err(); err != nil {
		return res, err
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
func (t task) estimate() uint64 {
	var s search
	if t.N == 1 || !s.init(frame{t.N, t.Top, t.Bottom, t.Left, t.Right}) {
		return 1
	}
	c := s.prefixCount(2) + 1
	return c * c
}

var _ count.Plan = (*plan)(nil)
