// Package knight finds, checks and counts knight's tours on rectangular boards.
//
// A tour of an R×C board is the sequence of its R·C squares in the order a knight visits
// them, each square once, each step a knight's move; it is closed when the last square is a
// knight's move from the first. Squares are board.Square values (0-based row and column, row 0
// at the top); inside a Tour they are stored compactly as int32 indices row*Cols+col, so a
// 10000×10000 tour takes 400 MB.
//
// Usage:
//
//	t, err := knight.Find(8, 8, board.Square{Row: 4, Col: 4}, knight.Options{})
//	if errors.Is(err, knight.ErrNoTour) { … }   // the error says why, e.g. "both sides are odd"
//	for i := range t.Len() { sq := t.Square(i); … }
//
// Existence. Before searching, Tour decides whether a tour exists, by the known rules: closed
// tours exist on an m×n board (m ≤ n) unless m and n are both odd, m is 1, 2 or 4, or m = 3
// and n is 4, 6 or 8 (Schwenk, 1991); open tours exist exactly on 1×1, 3×4, 3×n for n ≥ 7 and
// m×n for m ≥ 4, n ≥ 5. When R·C is odd a tour starts on the majority colour (the colour of
// the corners). On 4×n boards an open tour starts and ends in an outer row (the outer rows'
// squares only neighbour inner-row squares, and the two colours force the pattern). On 3×4,
// 3×7 and 3×8 some further squares start no tour; these were found by exhaustive search and
// are listed in exist.go. [Exists] gives the rule and its reason without searching.
//
// Methods. [Auto] (the default) finds a tour wherever one exists (on every board and start the
// tests try): when the board has a closed tour it builds one and rotates it to begin at the
// start square (so an open tour from any square is a closed tour cut open); otherwise it works
// from the start. Boards whose sides are both at least 12 are built from blocks of 6 to 9
// squares a side chained along a cycle of the block grid (build_blocks.go); long boards with 5 to 11
// rows merge closed tours of blocks, odd ones join such a cycle to a chain of blocks
// (build_thin.go); 3×n boards run along lanes of blocks, out and back for open tours of odd n, round
// a closed cycle of lanes for even n (build_lanes.go); 4×n boards are two halves of a colouring
// joined by one step, each half a path along two strands (build_four.go). All of these take time and
// memory linear in the number of squares. Small boards are searched by backtracking in
// Warnsdorff order with restarts, closed tours by Pósa rotations of a path. [Warnsdorff] is
// the rule as usually taught: always move to the square with the fewest onward moves, on a tie
// to the one whose own onward squares have the fewest onward moves; it reports [ErrDeadEnd]
// honestly when it gets stuck. [Article] is the rule of a classic article's program, which
// reproduces that program's boards move for move and reports its dead end.
//
// Teaching. [Explain] gives each step of Warnsdorff's rule with its candidates, onward counts
// and look-ahead; [NextStep] the same from a path made by hand (the hint); [Complete] finishes
// a tour from such a path or says that none begins with it (docs/teach.md).
//
// Counting. [Count] counts tours exactly on small boards, by backtracking on bitboards
// that meets in the middle (the ways to finish a half-made path are stored by its visited
// squares and last square): 6×6 in about 2 s on one core.
package knight

import (
	"errors"
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// ErrNoTour reports that no tour of the kind asked for exists. Errors wrapping it say why.
var ErrNoTour = errors.New("no tour")

// ErrDeadEnd reports that a greedy method got stuck before visiting every square, although a
// tour may exist.
var ErrDeadEnd = errors.New("dead end")

// Method selects how Tour looks for a tour.
type Method int

const (
	// Auto finds a tour wherever one exists: construction, greedy pass and backtracking.
	Auto Method = iota
	// Warnsdorff follows Warnsdorff's rule with a one-move look-ahead tie-break, and fails
	// with ErrDeadEnd when it gets stuck.
	Warnsdorff
)

// String returns "auto", "warnsdorff" or "article".
func (m Method) String() string {
	switch m {
	case Auto:
		return "auto"
	case Warnsdorff:
		return "warnsdorff"
	case Article:
		return "article"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Options are the choices for Tour. The zero value asks for an open tour by the Auto method.
type Options struct {
	Closed bool   // the last square must be a knight's move from the first
	Method Method // Auto, Warnsdorff or Article
}

// MaxSquares is the largest board, in squares, that Tour accepts: 10^8 squares take 400 MB
// as int32 indices, so a little over that is the limit (e.g. 10000×10000 or 5000×20000).
const MaxSquares = 1 << 27

// Tour is a sequence of squares of a Rows×Cols board, stored as int32 indices row*Cols+col.
// Tours returned by [Find] visit every square once by knight's moves; tours read by
// [ParseTour] may be anything and are checked with [Tour.Check].
type Tour struct {
	Rows, Cols int
	Path       []int32
}

// Len returns the number of squares in the tour.
func (t Tour) Len() int { return len(t.Path) }

// Size returns the board size.
func (t Tour) Size() board.Size { return board.Size{Rows: t.Rows, Cols: t.Cols} }

// Square returns the i-th square of the tour, 0-based.
func (t Tour) Square(i int) board.Square {
	v := int(t.Path[i])
	return board.Square{Row: v / t.Cols, Col: v % t.Cols}
}

// Closed reports whether the tour is a valid tour whose last square is a knight's move from
// its first. It takes time and memory linear in the number of squares.
func (t Tour) Closed() bool {
	if t.Check() != nil || len(t.Path) < 2 {
		return false
	}
	return t.isMove(t.Path[len(t.Path)-1], t.Path[0])
}

// Valid reports whether the tour visits every square of the board exactly once, each step a
// knight's move. It takes time linear in the number of squares and one bit per square.
func (t Tour) Valid() bool { return t.Check() == nil }

func (t Tour) isMove(a, b int32) bool {
	ar, ac := int(a)/t.Cols, int(a)%t.Cols
	br, bc := int(b)/t.Cols, int(b)%t.Cols
	dr, dc := abs(ar-br), abs(ac-bc)
	return dr == 1 && dc == 2 || dr == 2 && dc == 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// StepError describes the first wrong step of a claimed tour.
type StepError struct {
	Step int    // 1-based move number of the offending square
	Why  string // what is wrong
}

func (e *StepError) Error() string { return fmt.Sprintf("step %d: %s", e.Step, e.Why) }

// Check returns nil when t is a tour: Rows·Cols squares, each on the board, none twice, each a
// knight's move from the one before. Otherwise it returns a *StepError naming the first bad
// step (or an error about the length). It takes linear time and one bit per square.
func (t Tour) Check() error {
	if t.Rows < 1 || t.Cols < 1 {
		return fmt.Errorf("bad board %d×%d", t.Rows, t.Cols)
	}
	n := t.Rows * t.Cols
	seen := make([]uint64, (n+63)/64)
	name := func(v int32) string {
		return t.Size().Name(board.Square{Row: int(v) / t.Cols, Col: int(v) % t.Cols})
	}
	for i, v := range t.Path {
		if v < 0 || int(v) >= n {
			return &StepError{Step: i + 1, Why: "square off the board"}
		}
		if seen[v/64]&(1<<(v%64)) != 0 {
			return &StepError{Step: i + 1, Why: fmt.Sprintf("%s visited twice", name(v))}
		}
		seen[v/64] |= 1 << (v % 64)
		if i > 0 && !t.isMove(t.Path[i-1], v) {
			return &StepError{Step: i + 1, Why: fmt.Sprintf("%s to %s is not a knight's move", name(t.Path[i-1]), name(v))}
		}
	}
	if len(t.Path) != n {
		return fmt.Errorf("%d squares visited, a tour of %s visits %d", len(t.Path), t.Size(), n)
	}
	return nil
}

// Find returns a knight's tour of a rows×cols board beginning at start, open or closed as
// opts asks. When none exists the error wraps ErrNoTour and says why; with the Warnsdorff
// method a stuck run returns an error wrapping ErrDeadEnd. Boards must have at most
// MaxSquares squares. Auto takes time and memory linear in the number of squares on boards
// whose sides are both at least 12 (tens of ns per square) and on boards with 3 to 11 rows
// from 13 to 30 columns on, depending on the rows (see the package comment); smaller boards
// are searched and take milliseconds.
func Find(rows, cols int, start board.Square, opts Options) (Tour, error) {
	sz := board.Size{Rows: rows, Cols: cols}
	if rows < 1 || cols < 1 || rows > board.MaxSide || cols > board.MaxSide || rows*cols > MaxSquares {
		return Tour{}, fmt.Errorf("board %d×%d: sides must be at least 1 and the board at most %d squares", rows, cols, MaxSquares)
	}
	if !sz.Contains(start) {
		return Tour{}, fmt.Errorf("start %s is off the %s board", sz.Numeric(start), sz)
	}
	if err := Exists(rows, cols, start, opts.Closed); err != nil {
		return Tour{}, err
	}
	t := Tour{Rows: rows, Cols: cols}
	s := int32(start.Row*cols + start.Col)
	switch opts.Method {
	case Warnsdorff:
		path, ok := warnsdorff(rows, cols, s)
		t.Path = path
		if !ok {
			return Tour{}, fmt.Errorf("%w: warnsdorff's rule got stuck after %d of %d squares from %s on %s", ErrDeadEnd, len(path), rows*cols, sz.Name(start), sz)
		}
		if opts.Closed && !t.isMove(path[len(path)-1], path[0]) {
			return Tour{}, fmt.Errorf("%w: warnsdorff's rule found an open tour from %s on %s that does not close", ErrDeadEnd, sz.Name(start), sz)
		}
		return t, nil
	case Article:
		return articleTour(t, s, opts.Closed)
	case Auto:
	default:
		return Tour{}, fmt.Errorf("unknown method %v", opts.Method)
	}
	if rows*cols == 1 {
		t.Path = []int32{0}
		return t, nil
	}
	if closedExists(rows, cols) == "" {
		t.Path = closedCycle(rows, cols)
		rotate(t.Path, s)
		return t, nil
	}
	t.Path = openPath(rows, cols, s)
	return t, nil
}
