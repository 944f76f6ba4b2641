package knight

import (
	"context"
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

// ParseMethod returns the Method that String names "auto", "warnsdorff" or "article", and
// an error for any other name.
func ParseMethod(name string) (Method, error) {
	for _, m := range []Method{Auto, Warnsdorff, Article} {
		if m.String() == name {
			return m, nil
		}
	}
	return Auto, fmt.Errorf("method %q: the methods are auto, warnsdorff and article", name)
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
	closed, _ := t.closed(context.Background())
	return closed
}

// closed is Closed that returns ctx.Err() once ctx is done (see check).
func (t Tour) closed(ctx context.Context) (bool, error) {
	if err := t.check(ctx); err != nil || len(t.Path) < 2 {
		return false, ctx.Err()
	}
	return t.isMove(t.Path[len(t.Path)-1], t.Path[0]), nil
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
func (t Tour) Check() error { return t.check(context.Background()) }

// CheckContext is Check that returns ctx.Err() once ctx is done, looking every 64 Ki
// squares (about a millisecond's work).
func (t Tour) CheckContext(ctx context.Context) error { return t.check(ctx) }

// check is CheckContext.
func (t Tour) check(ctx context.Context) error {
	if t.Rows < 1 || t.Cols < 1 {
		return fmt.Errorf("bad board %d×%d", t.Rows, t.Cols)
	}
	n := t.Rows * t.Cols
	seen := make([]uint64, (n+63)/64)
	name := func(v int32) string {
		return t.Size().Name(board.Square{Row: int(v) / t.Cols, Col: int(v) % t.Cols})
	}
	for i, v := range t.Path {
		if i%ctxStride == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
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

// Find returns a knight's tour of a board of size sz beginning at start, open or closed as
// opts asks. When none exists the error wraps ErrNoTour and says why; with the Warnsdorff
// method a stuck run returns an error wrapping ErrDeadEnd. Boards must have at most
// MaxSquares squares. Auto takes time and memory linear in the number of squares on boards
// whose sides are both at least 12 (tens of ns per square) and on boards with 3 to 11 rows
// from 13 to 30 columns on, depending on the rows (see the package comment); smaller boards
// are searched and take milliseconds.
//
// Find looks at ctx inside its searches and constructions (every few thousand moves, squares
// or blocks) and returns ctx.Err() within about a millisecond of ctx being done; only the
// construction of 4×n boards, half a second at 10^8 squares, runs to its end first.
func Find(ctx context.Context, sz board.Size, start board.Square, opts Options) (Tour, error) {
	rows, cols := sz.Rows, sz.Cols
	if rows < 1 || cols < 1 || rows > board.MaxSide || cols > board.MaxSide || rows*cols > MaxSquares {
		return Tour{}, fmt.Errorf("board %d×%d: sides must be at least 1 and the board at most %d squares", rows, cols, MaxSquares)
	}
	if !sz.Contains(start) {
		return Tour{}, fmt.Errorf("start %s is off the %s board", sz.Numeric(start), sz)
	}
	if err := Exists(sz, start, opts.Closed); err != nil {
		return Tour{}, err
	}
	if err := ctx.Err(); err != nil {
		return Tour{}, err
	}
	t := Tour{Rows: rows, Cols: cols}
	s := int32(start.Row*cols + start.Col)
	switch opts.Method {
	case Warnsdorff:
		path, ok := warnsdorff(ctx, rows, cols, s)
		if err := ctx.Err(); err != nil && !ok {
			return Tour{}, err
		}
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
		t.Path = closedCycle(ctx, rows, cols)
		if t.Path != nil {
			rotate(t.Path, s)
		}
	} else {
		t.Path = openPath(ctx, rows, cols, s)
	}
	if t.Path == nil {
		if err := ctx.Err(); err != nil {
			return Tour{}, err
		}
		// The existence rules said a tour exists and the searches are complete.
		return Tour{}, fmt.Errorf("no tour found from %s on %s although one exists: please report this", sz.Name(start), sz)
	}
	return t, nil
}
