package queens

import (
	"fmt"
	"slices"
)

// MaxN is the largest board the bitboard search handles: one bit a column in a uint64.
const MaxN = 64

// Placement is a complete or partial placement of queens on the len(p)×len(p) board, one a
// row: p[row] is the 0-based column of the queen on that row, or -1 for a row without one.
// A solution of the N-queens problem is a Placement of length N that is a permutation with
// no two queens on a diagonal. A Placement holds 4 bytes a row, so that the huge boards
// [ParseColumns], [Placement.Check] and [Random] handle (a hundred million rows) fit in
// 400 MB; every board size the package takes fits an int32.
type Placement []int32

// Clone returns a copy of p that does not share its memory.
func (p Placement) Clone() Placement { return slices.Clone(p) }

// Compare compares p and q in code order: row by row from the top, the smaller column first.
// It returns -1, 0 or +1.
func (p Placement) Compare(q Placement) int { return slices.Compare(p, q) }

// IsSolution reports whether p is a solution: every row has a queen and no two queens share
// a column or a diagonal. It takes time proportional to len(p).
func (p Placement) IsSolution() bool {
	n := len(p)
	cols := make([]bool, n)
	diag := make([]bool, 2*n)
	anti := make([]bool, 2*n)
	for r, c32 := range p {
		c := int(c32)
		if c < 0 || c >= n || cols[c] || diag[r-c+n] || anti[r+c] {
			return false
		}
		cols[c], diag[r-c+n], anti[r+c] = true, true, true
	}
	return true
}

// checkN reports an N outside what the bitboard search handles.
func checkN(n int) error {
	if n < 1 || n > MaxN {
		return fmt.Errorf("board size must be a whole number from 1 to %d, got %d", MaxN, n)
	}
	return nil
}
