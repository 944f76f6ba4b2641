// Package board holds what every chessboard puzzle shares: board sizes, squares, their
// names, and the eight symmetries of a square board.
//
// Coordinates are 0-based (row, col): row 0 is the top row as printed, col 0 the leftmost
// column. Squares have two written forms. The algebraic name follows chess: a file letter
// from the left ('a' is col 0) and a rank number from the bottom, so on an 8×8 board row 0
// is rank 8 and (7,0) is "a1". Algebraic names exist while a board has at most 26 files. The
// numeric form "file,rank" (both 1-based, file from the left, rank from the bottom) works on
// boards of any size: "5,4" is "e4".
//
// Usage:
//
//	sz, _ := board.ParseSize("6x9")     // 6 rows, 9 columns
//	sq, _ := sz.ParseSquare("c2")       // Square{Row: 4, Col: 2}
//	fmt.Println(sz.Name(sq))            // c2
//
// The eight symmetries of a square board (the dihedral group D4) map squares of an n×n
// board to squares of the same board; see [Symmetry].
package board

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// MaxSide is the largest number of rows or columns a Size may have: 2^27 where int has 64
// bits, so that a long thin board such as 3×33333333 can be named, and 2^15 where it has 32;
// either way Rows*Cols fits in an int. It does not bound the area further: callers bound the
// area they accept, e.g. knight.MaxSquares.
const MaxSide = 1 << (15 + 12*(bits.UintSize/64))

// Size is the shape of a board: Rows rows and Cols columns.
type Size struct {
	Rows, Cols int
}

// SquareBoard returns the size of an n×n board.
func SquareBoard(n int) Size { return Size{Rows: n, Cols: n} }

// ErrBadSize reports a board size that cannot be read or is out of range.
var ErrBadSize = errors.New("bad board size")

// ErrBadSquare reports a square name that cannot be read or lies off the board.
var ErrBadSquare = errors.New("bad square")

// ParseSize reads a board size written as "N" (an N×N board) or "RxC" (R rows and C
// columns; 'x', 'X' and '×' are all accepted). Each side must be from 1 to max; a max of 0
// or less means MaxSide.
func ParseSize(s string, max int) (Size, error) {
	if max <= 0 || max > MaxSide {
		max = MaxSide
	}
	t := strings.TrimSpace(s)
	var rs, cs string
	if i := strings.IndexAny(t, "xX×"); i >= 0 {
		rs = t[:i]
		_, w := firstRune(t[i:])
		cs = t[i+w:]
	} else {
		rs, cs = t, t
	}
	r, err1 := parseSide(rs, max)
	c, err2 := parseSide(cs, max)
	if err1 != nil || err2 != nil {
		return Size{}, fmt.Errorf("%w: want N or RxC with sides from 1 to %d, got %q", ErrBadSize, max, clip(s))
	}
	return Size{Rows: r, Cols: c}, nil
}

func firstRune(s string) (rune, int) {
	for _, r := range s {
		return r, len(string(r))
	}
	return 0, 0
}

func parseSide(s string, max int) (int, error) {
	if s == "" || len(s) > 12 {
		return 0, ErrBadSize
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, ErrBadSize
		}
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 || v > max {
		return 0, ErrBadSize
	}
	return v, nil
}

// clip shortens a string quoted in an error so that a 10 MB input gives a short message.
func clip(s string) string {
	const most = 40
	if len(s) <= most {
		return s
	}
	return s[:most] + "…"
}

// Clip shortens s to at most about 40 bytes for quoting in an error message, marking the cut
// with "…". Parsers use it so that a huge bad input still gives a one-line error.
func Clip(s string) string { return clip(s) }

// String returns the size as "R×C", e.g. "8×8" or "6×9".
func (z Size) String() string { return fmt.Sprintf("%d×%d", z.Rows, z.Cols) }

// Squares returns Rows*Cols, the number of squares on the board.
func (z Size) Squares() int { return z.Rows * z.Cols }

// Contains reports whether sq lies on the board.
func (z Size) Contains(sq Square) bool {
	return sq.Row >= 0 && sq.Row < z.Rows && sq.Col >= 0 && sq.Col < z.Cols
}

// HasAlgebraic reports whether squares of this board have algebraic names (at most 26 files).
func (z Size) HasAlgebraic() bool { return z.Cols <= 26 }

// Square is a square of a board, 0-based, row 0 at the top.
type Square struct {
	Row, Col int
}

// Name returns the algebraic name of sq ("e4") when the board has at most 26 files, and the
// numeric "file,rank" form ("5,4") otherwise. It does not check that sq is on the board.
func (z Size) Name(sq Square) string {
	rank := z.Rows - sq.Row
	if z.HasAlgebraic() && sq.Col >= 0 && sq.Col < 26 {
		return string(rune('a'+sq.Col)) + strconv.Itoa(rank)
	}
	return strconv.Itoa(sq.Col+1) + "," + strconv.Itoa(rank)
}

// Numeric returns the "file,rank" form of sq, 1-based, rank counted from the bottom.
func (z Size) Numeric(sq Square) string {
	return strconv.Itoa(sq.Col+1) + "," + strconv.Itoa(z.Rows-sq.Row)
}

// ParseSquare reads a square in algebraic form ("e4", case-insensitive) or as "file,rank"
// ("5,4"), and checks that it lies on the board.
func (z Size) ParseSquare(s string) (Square, error) {
	t := strings.TrimSpace(s)
	bad := func(why string) (Square, error) {
		return Square{}, fmt.Errorf("%w %q: %s", ErrBadSquare, clip(s), why)
	}
	if t == "" {
		return bad("empty")
	}
	if i := strings.IndexByte(t, ','); i >= 0 {
		f, err1 := strconv.Atoi(strings.TrimSpace(t[:i]))
		r, err2 := strconv.Atoi(strings.TrimSpace(t[i+1:]))
		if err1 != nil || err2 != nil {
			return bad("want file,rank as two whole numbers, e.g. 5,4")
		}
		if f < 1 || f > z.Cols || r < 1 || r > z.Rows {
			return bad(fmt.Sprintf("off the %s board (files 1-%d, ranks 1-%d)", z, z.Cols, z.Rows))
		}
		return Square{Row: z.Rows - r, Col: f - 1}, nil
	}
	c := t[0] | 0x20
	if c < 'a' || c > 'z' {
		return bad("want a file letter and a rank, e.g. e4, or file,rank, e.g. 5,4")
	}
	r, err := strconv.Atoi(t[1:])
	if err != nil || len(t) < 2 || t[1] == '+' || t[1] == '-' {
		return bad("want a file letter and a rank, e.g. e4, or file,rank, e.g. 5,4")
	}
	col := int(c - 'a')
	if col >= z.Cols || r < 1 || r > z.Rows {
		return bad(fmt.Sprintf("off the %s board (files a-%c, ranks 1-%d)", z, 'a'+min(z.Cols, 26)-1, z.Rows))
	}
	return Square{Row: z.Rows - r, Col: col}, nil
}
