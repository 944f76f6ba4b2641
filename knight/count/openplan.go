package count

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight/internal/frontier"
)

// OpenPlan is the count of a board's directed open tours as independent tasks, one for
// each class of pairs of end squares: a task counts the tours from one square to another
// by the forward sweep with both ends fixed (frontier.Options.Ends), and the directed
// total is the sum of each task's count times its weight.
//
// Why pairs of ends: fixing both ends makes the sweep nearly a closed tour's (every other
// cell must take two edges). Measured on 6×6 (bench/log/2026-11-27.md, "Issue 35 item 3"), the
// largest task's widest layer holds 78,004 states against the whole sweep's 1,109,430
// (14 times fewer), and the 45 tasks together take 3.1 CPU-s against its 3.7; tasks by one
// end only (6 classes) keep 235,823 at the widest. The gain falls as the board grows: on
// 7×7 the largest task holds 3.6 times fewer states than the whole sweep and the tasks
// together take about 3.6 times its CPU; on 8×8 a task whose ends both come late holds
// 6.7·10⁸ states by its cell 38 and takes hours. Every knight's move changes colour, so the ends of an open tour of an even board
// are one of each colour, and of an odd board both of the colour with more squares: only
// such pairs are tasks. The board's symmetries (8 on a square board, 4 on an oblong one)
// map a pair's tours one to one onto its image's, so a task stands for its whole class
// (8×8: 136 classes of the 1,024 pairs, as in Chernov's count of 2014), and it is counted
// on the image that the sweep finds cheapest by the rule of chosenImage.
type OpenPlan struct {
	Rows, Cols int
	// Split, if not nil, are the levels of a split plan (NewSplitPlan): its tasks are parts
	// of the whole sweep, not pairs of ends.
	Split []SplitLevel
	Tasks []OpenTask
}

// OpenPlanVersion is the version of NewOpenPlan's task list: a checkpoint or a result
// file names it, and one of another version is refused. Version 1: classes of unordered
// pairs in the order of their first pair (row-major square indices), the image by
// chosenImage.
const OpenPlanVersion = 1

// OpenTask is one task of an OpenPlan: the open tours from Start to End (both squares of
// the board as given, not turned), each standing for Weight directed tours of the board
// (two directions times the pairs of its class); or, if Split is not nil, the directed
// tours (each path both ways) of the paths of the whole sweep that its part at each level
// of a split plan keeps (Start and End unused, Weight 1).
type OpenTask struct {
	ID         int
	Start, End board.Square
	Split      []SplitPart
	Weight     int64
}

// OpenResult is what a task found: the tours from Start to End, and the counters of its
// sweep, which a re-run reproduces exactly (the states after each cell summed over the
// cells, and the most after one cell).
type OpenResult struct {
	ID     int
	Tours  *big.Int
	States int64
	Peak   int64
}

// NewOpenPlan returns the plan of the directed open tours of a rows×cols board whose short
// side is at most DPMaxRows and with at least two squares. It takes time proportional to
// the square of the number of squares (a millisecond for 8×8).
func NewOpenPlan(rows, cols int) (*OpenPlan, error) {
	n := rows * cols
	if rows < 1 || cols < 1 || min(rows, cols) > DPMaxRows || max(rows, cols) > MaxCountLong || n < 2 {
		return nil, fmt.Errorf("board %d×%d: a plan of open tours needs at least 2 squares, a short side of at most %d and a long side of at most %d", rows, cols, DPMaxRows, MaxCountLong)
	}
	colour := func(sq int) int { return (sq/cols + sq%cols) % 2 }
	// the colour of both ends on an odd board: the one of the corner square, which has more
	endsOK := func(a, b int) bool {
		if n%2 == 0 {
			return colour(a) != colour(b)
		}
		return colour(a) == 0 && colour(b) == 0
	}
	syms := boardSymmetries(rows, cols)
	seen := make(map[[2]int]bool)
	p := &OpenPlan{Rows: rows, Cols: cols}
	for a := range n {
		for b := a + 1; b < n; b++ {
			if !endsOK(a, b) || seen[[2]int{a, b}] {
				continue
			}
			var class [][2]int
			for _, g := range syms {
				x, y := g(a), g(b)
				if x > y {
					x, y = y, x
				}
				if !seen[[2]int{x, y}] {
					seen[[2]int{x, y}] = true
					class = append(class, [2]int{x, y})
				}
			}
			s, e := chosenImage(rows, cols, class)
			p.Tasks = append(p.Tasks, OpenTask{
				ID:     len(p.Tasks),
				Start:  board.Square{Row: s / cols, Col: s % cols},
				End:    board.Square{Row: e / cols, Col: e % cols},
				Weight: 2 * int64(len(class)),
			})
		}
	}
	return p, nil
}

// boardSymmetries returns the maps of square indices r·cols+c of a rows×cols board onto
// themselves that keep knight's moves: the 8 symmetries of a square board, the 4 of an
// oblong one (turns and mirrors that keep its shape).
func boardSymmetries(rows, cols int) []func(int) int {
	var gs []func(int) int
	turns := []bool{false}
	if rows == cols {
		turns = append(turns, true)
	}
	for _, t := range turns {
		for _, fr := range []bool{false, true} {
			for _, fc := range []bool{false, true} {
				gs = append(gs, func(sq int) int {
					r, c := sq/cols, sq%cols
					if t {
						r, c = c, r
					}
					if fr {
						r = rows - 1 - r
					}
					if fc {
						c = cols - 1 - c
					}
					return r*cols + c
				})
			}
		}
	}
	return gs
}

// chosenImage picks the pair of a class that the forward sweep counts: the one whose later
// end comes last in the sweep's order (column by column along the long side), then whose
// earlier end comes last, then the smallest indices. Measured on 6×6 over every image of
// every class: this rule's tasks took 3.1 CPU-s in all against 2.3 s for the cheapest
// image of each and 5.5 s for the earliest, with the same largest layer as the cheapest
// (78,004 states). A fixed end late in the sweep keeps the cells before it from being
// ends, so fewer pictures survive. It returns the pair as start (the earlier square in
// the sweep) and end.
func chosenImage(rows, cols int, class [][2]int) (start, end int) {
	order := func(sq int) int {
		r, c := sq/cols, sq%cols
		if rows > cols {
			return r*cols + c
		}
		return c*rows + r
	}
	best := slices.MinFunc(class, func(x, y [2]int) int {
		kx := [2]int{max(order(x[0]), order(x[1])), min(order(x[0]), order(x[1]))}
		ky := [2]int{max(order(y[0]), order(y[1])), min(order(y[0]), order(y[1]))}
		if kx != ky {
			if kx[0] != ky[0] {
				return ky[0] - kx[0]
			}
			return ky[1] - kx[1]
		}
		return slices.Compare(x[:], y[:])
	})
	if order(best[0]) > order(best[1]) {
		return best[1], best[0]
	}
	return best[0], best[1]
}

// Name is the plan's name as files carry it: "8x8 open-ends v1".
func (p *OpenPlan) Name() string {
	if p.Split != nil {
		return fmt.Sprintf("%dx%d %s v%d", p.Rows, p.Cols, SplitKind(p.Split), SplitPlanVersion)
	}
	return fmt.Sprintf("%dx%d open-ends v%d", p.Rows, p.Cols, OpenPlanVersion)
}

// CountOpenTask counts the tours of task t of a rows×cols board by the forward sweep with
// both ends fixed, its store bounded by maxMemory (0: no bound; past it a *MemoryError),
// calling status, if not nil, after each cell as Tours does. Its cost is the sweep's, which
// grows with the states at its widest cell as the whole count's does (see OpenPlan). It
// stops with ctx.Err() within milliseconds of ctx being done.
func CountOpenTask(ctx context.Context, rows, cols int, t OpenTask, maxMemory int64, status func(Status)) (OpenResult, error) {
	sz := board.Size{Rows: rows, Cols: cols}
	res := OpenResult{ID: t.ID}
	fo := frontier.Options{
		Start:     t.Start.Row*cols + t.Start.Col,
		Ends:      []int{t.End.Row*cols + t.End.Col},
		MaxMemory: maxMemory,
	}
	if t.Split != nil {
		fo.Start, fo.Ends, fo.Splits = -1, nil, frontierSplits(t)
	} else if !sz.Contains(t.Start) || !sz.Contains(t.End) || t.Start == t.End {
		return OpenResult{}, fmt.Errorf("task %d: ends %s and %s must be two squares of the %s board", t.ID, sz.Numeric(t.Start), sz.Numeric(t.End), sz)
	}
	cells := rows * cols
	fo.Report = func(cell, states int, bytes int64) {
		res.States += int64(states)
		res.Peak = max(res.Peak, int64(states))
		if status != nil {
			status(Status{Method: MethodDP, Done: cell + 1, Total: cells, States: states, Bytes: bytes})
		}
	}
	k, err := frontier.Count(ctx, rows, cols, fo)
	var fme *frontier.MemoryError
	if errors.As(err, &fme) {
		return OpenResult{}, &MemoryError{Need: fme.Need, Limit: fme.Limit}
	}
	if err != nil {
		return OpenResult{}, err
	}
	res.Tours = k
	return res, nil
}

// Check reports whether r can be a result of p's task r.ID: the task exists, its count is
// not negative, and its counters are possible (the peak no more than the states summed;
// none when there are no tours only if the sweep died early, so not checked). It cannot
// tell a wrong count from a right one: a re-run that gives the same counters can.
func (p *OpenPlan) Check(r OpenResult) error {
	switch {
	case r.ID < 0 || r.ID >= len(p.Tasks):
		return fmt.Errorf("task %d: the plan %s has tasks 0 to %d", r.ID, p.Name(), len(p.Tasks)-1)
	case r.Tours == nil || r.Tours.Sign() < 0:
		return fmt.Errorf("task %d: a count of tours must be a whole number, not negative", r.ID)
	case r.States < 0 || r.Peak < 0 || r.Peak > r.States:
		return fmt.Errorf("task %d: states %d summed with a peak of %d are impossible", r.ID, r.States, r.Peak)
	}
	return nil
}

// Total returns the directed open tours of p's board from the results of its tasks, each
// task's exactly once (results given twice must agree, and count once). It refuses
// results that Check refuses, a task with no result, and two different results of one
// task.
func (p *OpenPlan) Total(results []OpenResult) (*big.Int, error) {
	byID := make([]*OpenResult, len(p.Tasks))
	for i := range results {
		r := &results[i]
		if err := p.Check(*r); err != nil {
			return nil, err
		}
		if o := byID[r.ID]; o != nil {
			if o.Tours.Cmp(r.Tours) != 0 || o.States != r.States || o.Peak != r.Peak {
				return nil, fmt.Errorf("task %d: two different results (%v tours, %d states, peak %d; and %v, %d, %d)", r.ID, o.Tours, o.States, o.Peak, r.Tours, r.States, r.Peak)
			}
			continue
		}
		byID[r.ID] = r
	}
	total := new(big.Int)
	var missing []int
	for id, r := range byID {
		if r == nil {
			missing = append(missing, id)
			continue
		}
		total.Add(total, new(big.Int).Mul(r.Tours, big.NewInt(p.Tasks[id].Weight)))
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the plan %s has %d tasks without a result (the first: %d)", p.Name(), len(missing), missing[0])
	}
	return total, nil
}

// publishedOpen are the directed open tours of boards published independently of this
// program: n×n from OEIS A165134 (8×8 by Chernov, 2014), 5×10 and 6×8 by Knuth's DYNAHAMP
// (issue 35), keyed by the short and the long side.
var publishedOpen = map[[2]int]string{
	{5, 5}:  "1728",
	{6, 6}:  "6637920",
	{7, 7}:  "165575218320",
	{8, 8}:  "19591828170979904",
	{5, 10}: "15772235644",
	{6, 8}:  "49929787608",
}

// PublishedOpen returns the published number of directed open tours of a rows×cols board,
// if this package knows it.
func PublishedOpen(rows, cols int) (*big.Int, bool) {
	s, ok := publishedOpen[[2]int{min(rows, cols), max(rows, cols)}]
	if !ok {
		return nil, false
	}
	k, _ := new(big.Int).SetString(s, 10)
	return k, true
}
