package render

import (
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

// Queens is a picture of queens on an N×N board.
type Queens struct {
	N      int
	Queens []board.Square
	// Attacks are drawn as red lines from queen to queen, and the queens in them red.
	// Leave it nil for a plain picture.
	Attacks []queens.Attack
	// Attacked shades every square some queen attacks (along its row, column and both
	// diagonals, through other queens), as a player solving by hand sees it.
	Attacked bool
}

// CheckedQueens returns the picture of pos with its conflicts marked, as [queens.Check]
// reports them. It takes the time of Check, O(N + q log q) for q queens.
func CheckedQueens(pos queens.Position) Queens {
	rep := queens.Check(pos)
	return Queens{N: pos.N, Queens: pos.Queens, Attacks: rep.Attacks}
}

// PlacementQueens returns the picture of a placement (p[row] = col, -1 for an empty row),
// with no conflicts marked.
func PlacementQueens(p queens.Placement) Queens {
	pos := p.Position()
	return Queens{N: pos.N, Queens: pos.Queens}
}

// checkPNG refuses a PNG of q above opts.MaxPixels; an N out of range is left to draw to
// refuse.
func (q Queens) checkPNG(opts Options) error {
	if q.N < 1 || q.N > MaxSide {
		return nil
	}
	return checkPixels(board.SquareBoard(q.N), opts, q.N <= MaxDetailed)
}

// draw lays q out. It fails only when q is out of range (N from 1 to [MaxSide], queens on
// the board).
func (q Queens) draw(opts Options) (*scene, error) {
	sz := board.SquareBoard(q.N)
	detailed := q.N <= MaxDetailed
	l, err := newLayout(sz, opts, detailed)
	if err != nil {
		return nil, err
	}
	for _, sq := range q.Queens {
		if !sz.Contains(sq) {
			return nil, fmt.Errorf("queen at row %d, column %d is off the %s board", sq.Row, sq.Col, sz)
		}
	}
	for _, a := range q.Attacks {
		if !sz.Contains(a.A) || !sz.Contains(a.B) {
			return nil, fmt.Errorf("attack %v–%v is off the %s board", a.A, a.B, sz)
		}
	}
	s := &scene{w: l.w, h: l.h}
	l.board(s)
	if q.Attacked {
		for _, sq := range attackedSquares(q.N, q.Queens) {
			s.add(shape{kind: kindRect, class: "attacked", x: l.left + float64(sq.Col)*l.sq, y: l.top + float64(sq.Row)*l.sq, w: l.sq, h: l.sq, fill: colorAttacked})
		}
	}
	inConflict := make(map[board.Square]bool)
	for _, a := range q.Attacks {
		inConflict[a.A], inConflict[a.B] = true, true
	}
	for _, sq := range q.Queens {
		fill, class := colorQueen, "queen"
		if inConflict[sq] {
			fill, class = colorConflict, "queen conflict"
		}
		if detailed {
			s.add(shape{kind: kindQueen, class: class, x: l.left + float64(sq.Col)*l.sq, y: l.top + float64(sq.Row)*l.sq, w: l.sq, fill: fill})
		} else {
			c := l.center(sq)
			s.add(shape{kind: kindCircle, class: class, x: c.x, y: c.y, r: l.sq * 0.4, fill: fill})
		}
	}
	// The lines go over the queens: they must be seen even where queens crowd.
	for _, a := range q.Attacks {
		s.add(shape{kind: kindLine, class: "attack", pts: []pt{l.center(a.A), l.center(a.B)}, stroke: colorConflict, width: max(1, l.sq*0.07)})
	}
	return s, nil
}

// attackedSquares lists, once each and in row order, the empty squares that some queen
// attacks along a row, column or diagonal. It takes time O(N²).
func attackedSquares(n int, qs []board.Square) []board.Square {
	rows, cols := make([]bool, n), make([]bool, n)
	diag, anti := make([]bool, 2*n), make([]bool, 2*n)
	occupied := make(map[board.Square]bool, len(qs))
	for _, q := range qs {
		rows[q.Row], cols[q.Col] = true, true
		diag[q.Col-q.Row+n-1], anti[q.Row+q.Col] = true, true
		occupied[q] = true
	}
	var out []board.Square
	for r := range n {
		for c := range n {
			sq := board.Square{Row: r, Col: c}
			if !occupied[sq] && (rows[r] || cols[c] || diag[c-r+n-1] || anti[r+c]) {
				out = append(out, sq)
			}
		}
	}
	return out
}
