package queens

import (
	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/turn"
)

// Image returns the image of the solution p under the board symmetry s. The image of a
// solution is a solution. p must be a permutation.
func Image(p Placement, s board.Symmetry) Placement {
	q := make(Placement, len(p))
	imageInto(q, p, s)
	return q
}

func imageInto(q, p Placement, s board.Symmetry) {
	n := len(p)
	for r, c := range p {
		sq := s.Apply(n, board.Square{Row: r, Col: int(c)})
		q[sq.Row] = int32(sq.Col)
	}
}

// Canonical returns the representative of p's class under the eight symmetries of the
// square: the member with the smallest code. p must be a permutation; it is not changed.
func Canonical(p Placement) Placement {
	best := p.Clone()
	img := make(Placement, len(p))
	for _, s := range board.Symmetries[1:] {
		imageInto(img, p, s)
		if img.Compare(best) < 0 {
			copy(best, img)
		}
	}
	return best
}

// IsCanonical reports whether p is the representative of its class: no image of p under a
// symmetry of the square has a smaller code. It allocates nothing and compares images row by
// row, stopping at the first difference, so it costs a few rows per symmetry on average.
func IsCanonical(p Placement) bool {
	n := len(p)
	var inv [MaxN]int32
	if n > MaxN {
		return Canonical(p).Compare(p) == 0
	}
	for r, c := range p {
		inv[c] = int32(r)
	}
	for _, s := range board.Symmetries[1:] {
		if imageLess(p, inv[:n], s, n) {
			return false
		}
	}
	return true
}

// imageLess reports whether the image of p under s comes before p in code order. It computes
// the image's row r on demand: the queen of p that s maps onto row r.
func imageLess(p Placement, inv []int32, s board.Symmetry, n int) bool {
	m := int32(n - 1)
	for r := range int32(n) {
		var c int32 // column of the image's queen on row r
		switch s {
		case board.Rotate90: // (r,c) → (c, m-r): image row R holds p's queen in column R, from row m-col
			c = m - inv[r]
		case board.Rotate180:
			c = m - p[m-r]
		case board.Rotate270: // (r,c) → (m-c, r): image row R comes from column m-R
			c = inv[m-r]
		case board.MirrorColumns:
			c = m - p[r]
		case board.MirrorRows:
			c = p[m-r]
		case board.Transpose:
			c = inv[r]
		case board.AntiTranspose: // (r,c) → (m-c, m-r)
			c = m - inv[m-r]
		}
		if c != p[r] {
			return c < p[r]
		}
	}
	return false
}

// ClassSize returns how many distinct solutions p's class has: 8, 4 (p is symmetric under a
// half turn), 2 (under a quarter turn) or 1 (the 1×1 board).
func ClassSize(p Placement) int {
	n := len(p)
	if n == 1 {
		return 1
	}
	if turn.Quarter(p) {
		return 2
	}
	if turn.Half(p) {
		return 4
	}
	return 8
}
