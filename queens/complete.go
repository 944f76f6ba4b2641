package queens

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// ErrNoCompletion reports a position that no placement of further queens turns into a
// solution.
var ErrNoCompletion = errors.New("the position cannot be completed")

// MaxCompleteN is the largest board [Complete] takes.
const MaxCompleteN = 1_000_000

// ConflictError reports a position that cannot be completed because two of its queens
// already attack each other. It wraps [ErrNoCompletion].
type ConflictError struct {
	N      int
	Attack Attack // the first attacking pair, in the order of Report.Attacks
}

func (e *ConflictError) Error() string {
	sz := board.SquareBoard(e.N)
	article := "a"
	if e.Attack.Line == AntiDiagonal {
		article = "an"
	}
	return fmt.Sprintf("%v: %s and %s attack each other along %s %s", ErrNoCompletion, sz.Name(e.Attack.A), sz.Name(e.Attack.B), article, e.Attack.Line)
}

// Unwrap returns ErrNoCompletion.
func (e *ConflictError) Unwrap() error { return ErrNoCompletion }

// Complete extends the queens of partial, which may stand on any rows in any order, to a
// solution of the partial.N × partial.N board and returns it. It returns
//   - a *ConflictError (wrapping [ErrNoCompletion]) when two given queens attack each other;
//   - an error wrapping ErrNoCompletion when the queens attack no one but no solution holds
//     them all (this includes the empty 2×2 and 3×3 boards);
//   - ctx.Err() when ctx is done before it decides;
//   - another error for a board outside 1…MaxCompleteN or a queen off the board.
//
// This is the n-queens completion problem, NP-complete (Gent, Jefferson and Nightingale,
// "Complexity of n-Queens Completion", JAIR 59, 2017), so no method is fast on every
// position. When at most 64 rows are empty (so on every board of up to 64 rows), Complete
// decides exactly: a backtracking search over bitboards of the empty rows and columns, with
// the given queens' diagonals removed, that fills next the empty row with the fewest open
// squares and gives up on a branch as soon as some empty row or column has no open square
// left. Most positions of up to 30 or so rows are decided in milliseconds; some, chiefly
// among those that cannot be completed, take far longer. With more than 64 empty rows it
// runs the local search of [Random] on the empty rows and columns with the given
// queens fixed: it finds a completion fast when one is easy to find, but it cannot prove
// that none exists, so on such a position it runs until ctx is done. The result is the
// same for the same position (the local search uses a fixed seed). Complete takes memory
// proportional to N.
func Complete(ctx context.Context, partial Position) (Placement, error) {
	n := partial.N
	if n < 1 || n > MaxCompleteN {
		return nil, fmt.Errorf("board size must be a whole number from 1 to %d to complete a position, got %d", MaxCompleteN, n)
	}
	sz := board.SquareBoard(n)
	for _, q := range partial.Queens {
		if !sz.Contains(q) {
			return nil, fmt.Errorf("a queen at row %d, column %d is off the %s board", q.Row, q.Col, sz)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if rep := Check(partial); len(rep.Attacks) > 0 {
		return nil, &ConflictError{N: n, Attack: rep.Attacks[0]}
	}
	p, _ := partial.Placement() // no two queens on a row: Check found no attack
	if n-len(partial.Queens) <= maxExactRows {
		return completeExact(ctx, p)
	}
	return completeLocal(ctx, p)
}

// maxExactRows is the most empty rows the exact search takes: one bit a column in a uint64.
const maxExactRows = 64

// completeExact decides a position with no attacks and at most 64 empty rows by
// backtracking.
//
// The empty rows and the open columns are numbered 0…m-1 (m of each, since every given
// queen takes one row and one column), and a frame of the search holds, for each empty row
// i, open[i]: bit j set when the square on row i and open column j is attacked by no queen
// so far. Placing a queen clears, in every row still empty, its column and the two squares
// its diagonals cross there. Each node fills next the empty row with the fewest open squares
// (which cuts the tree far more than the O(m) it costs to find), and gives up on a branch as
// soon as some empty row, or some column still open, has no open square left. The search is
// a loop over an explicit stack of at most 65 frames.
func completeExact(ctx context.Context, p Placement) (Placement, error) {
	n := len(p)
	var rows, cols []int
	colIndex := make([]int8, n) // the number of an open column, or -1
	diag := make([]bool, 2*n)   // taken by a given queen: c-r+n-1
	anti := make([]bool, 2*n)   // r+c
	for c := range colIndex {
		colIndex[c] = -1
	}
	taken := make([]bool, n)
	for r, c32 := range p {
		c := int(c32)
		if c < 0 {
			rows = append(rows, r)
			continue
		}
		taken[c] = true
		diag[c-r+n-1], anti[r+c] = true, true
	}
	for c, t := range taken {
		if !t {
			colIndex[c] = int8(len(cols))
			cols = append(cols, c)
		}
	}
	out := p.Clone()
	m := len(rows)
	if m == 0 {
		return out, nil
	}
	type frame struct {
		open  [maxExactRows]uint64
		empty uint64 // rows still empty (bit i)
		free  uint64 // columns still open (bit j)
		row   int    // the row this frame fills
		cand  uint64 // its columns not tried yet
	}
	stack := make([]frame, m+1)
	f0 := &stack[0]
	f0.empty = ^uint64(0) >> (64 - m)
	f0.free = f0.empty
	for i, r := range rows {
		for j, c := range cols {
			if !diag[c-r+n-1] && !anti[r+c] {
				f0.open[i] |= 1 << j
			}
		}
	}
	// choose sets f.row and f.cand to the empty row with the fewest open squares, and
	// reports false when some empty row or open column has none.
	choose := func(f *frame) bool {
		best, bestCount := -1, maxExactRows+1
		var union uint64
		for e := f.empty; e != 0; e &= e - 1 {
			i := bits.TrailingZeros64(e)
			o := f.open[i]
			k := bits.OnesCount64(o)
			if k == 0 {
				return false
			}
			union |= o
			if k < bestCount {
				best, bestCount = i, k
			}
		}
		f.row, f.cand = best, f.open[best]
		return union == f.free
	}
	if !choose(f0) {
		return nil, fmt.Errorf("%w: some empty row or column has no square that no queen attacks", ErrNoCompletion)
	}
	depth, nodes := 0, 0
	for depth >= 0 {
		f := &stack[depth]
		if f.cand == 0 {
			depth--
			continue
		}
		if nodes++; nodes&0xfff == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		bit := f.cand & -f.cand
		f.cand ^= bit
		j := bits.TrailingZeros64(bit)
		r, c := rows[f.row], cols[j]
		out[r] = int32(c)
		g := &stack[depth+1]
		g.empty = f.empty &^ (1 << f.row)
		g.free = f.free &^ bit
		if g.empty == 0 {
			// Every empty row is filled by a frame on the stack, and out holds each
			// frame's current column: values left by abandoned branches were
			// overwritten, as their rows belong to frames on the stack again.
			return out, nil
		}
		for e := g.empty; e != 0; e &= e - 1 {
			i := bits.TrailingZeros64(e)
			o := f.open[i] &^ bit
			d := rows[i] - r
			if k := c + d; k >= 0 && k < n && colIndex[k] >= 0 {
				o &^= 1 << colIndex[k]
			}
			if k := c - d; k >= 0 && k < n && colIndex[k] >= 0 {
				o &^= 1 << colIndex[k]
			}
			g.open[i] = o
		}
		if choose(g) {
			depth++
		}
	}
	return nil, fmt.Errorf("%w: no way to fill the %d empty rows", ErrNoCompletion, m)
}

// completeLocal completes a position of more than 64 rows with no attacks by local search
// on its empty rows and columns, the given queens fixed, until it finds a solution or ctx is
// done.
func completeLocal(ctx context.Context, p Placement) (Placement, error) {
	n := len(p)
	usedCol := make([]bool, n)
	var rows, cols []int32
	for r, c := range p {
		if c < 0 {
			rows = append(rows, int32(r))
		} else {
			usedCol[c] = true
		}
	}
	for c, used := range usedCol {
		if !used {
			cols = append(cols, int32(c))
		}
	}
	out := p.Clone()
	if len(rows) == 0 {
		return out, nil
	}
	// A fixed seed: the same position always gets the same completion.
	s := newSwapSearch(n, rows, cols, rand.New(rand.NewPCG(uint64(n), uint64(len(rows)))))
	for r, c := range p {
		if c >= 0 {
			s.fix(r, int(c))
		}
	}
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	for i, r := range rows {
		out[r] = s.cols[i]
	}
	return out, nil
}
