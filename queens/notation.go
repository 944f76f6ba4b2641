package queens

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// Notation is a way of writing a placement.
type Notation int

// The notations, for a placement p with p[row] = col on an N×N board.
const (
	// Code is the 1-based column of each row from the top: digits when N ≤ 9 ("15863724"),
	// comma-separated when N ≥ 10 ("1,3,5,…"). An empty row is written ".".
	Code Notation = iota
	// Perm is the 0-based columns, comma-separated ("0,4,7,5,2,6,1,3"); an empty row is "-".
	Perm
	// Coords is (x,y) pairs: x the 1-based column, y the 1-based row from the top.
	Coords
	// Algebraic is chess squares, file letter from the left and rank from the bottom
	// ("a8 e7 h6 f5 c4 g3 b2 d1"); boards of more than 26 files use "file,rank".
	Algebraic
	// Board is a drawn board, a line a row, "Q" for a queen and "." for an empty square.
	Board
	// JSON is one JSON object: {"n":8,"code":"15863724","perm":[0,4,7,5,2,6,1,3]}.
	JSON
)

var notationNames = []string{"code", "perm", "coords", "algebraic", "board", "json"}

// NotationNames lists the names ParseNotation accepts, in the order of the constants.
func NotationNames() []string { return append([]string(nil), notationNames...) }

// String returns the notation's name, as ParseNotation reads it.
func (f Notation) String() string {
	if f >= 0 && int(f) < len(notationNames) {
		return notationNames[f]
	}
	return "notation(" + strconv.Itoa(int(f)) + ")"
}

// ParseNotation reads a notation name: code, perm, coords, algebraic, board or json.
func ParseNotation(s string) (Notation, error) {
	for i, name := range notationNames {
		if s == name {
			return Notation(i), nil
		}
	}
	return 0, fmt.Errorf("unknown format %q: want one of %s", board.Clip(s), strings.Join(notationNames, ", "))
}

// Format writes p in notation f. Rows holding -1 are empty rows.
func (p Placement) Format(f Notation) string { return string(p.AppendFormat(nil, f)) }

// String returns p in Code notation.
func (p Placement) String() string { return p.Format(Code) }

// AppendFormat appends p in notation f to dst and returns the extended slice; it allocates
// nothing beyond growing dst, for streaming millions of solutions.
func (p Placement) AppendFormat(dst []byte, f Notation) []byte {
	n := len(p)
	if f == JSON {
		dst = append(dst, `{"n":`...)
		dst = strconv.AppendInt(dst, int64(n), 10)
		dst = append(dst, `,"code":"`...)
		dst = p.AppendFormat(dst, Code)
		dst = append(dst, `","perm":[`...)
		for r, c := range p {
			if r > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(dst, int64(c), 10)
		}
		return append(dst, "]}"...)
	}
	sz := board.SquareBoard(n)
	written := false
	for r, c := range p {
		dst = appendRow(dst, f, sz, r, int(c), written)
		written = written || c >= 0
	}
	return dst
}

// appendRow appends row r of a placement on a board of size sz, its queen in column c (-1 for
// none), in notation f (any but JSON). written tells whether an earlier row holds a queen:
// Coords and Algebraic leave empty rows out, so they need it to place their separators.
func appendRow(dst []byte, f Notation, sz board.Size, r, c int, written bool) []byte {
	n := sz.Rows
	switch f {
	case Perm:
		if r > 0 {
			dst = append(dst, ',')
		}
		if c < 0 {
			return append(dst, '-')
		}
		return strconv.AppendInt(dst, int64(c), 10)
	case Coords, Algebraic:
		if c < 0 {
			return dst
		}
		if written {
			dst = append(dst, ' ')
		}
		if f == Algebraic {
			return append(dst, sz.Name(board.Square{Row: r, Col: c})...)
		}
		dst = append(dst, '(')
		dst = strconv.AppendInt(dst, int64(c+1), 10)
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, int64(r+1), 10)
		return append(dst, ')')
	case Board:
		if r > 0 {
			dst = append(dst, '\n')
		}
		for col := range n {
			if col > 0 {
				dst = append(dst, ' ')
			}
			if col == c {
				dst = append(dst, 'Q')
			} else {
				dst = append(dst, '.')
			}
		}
		return dst
	default: // Code
		if n >= 10 && r > 0 {
			dst = append(dst, ',')
		}
		switch {
		case c < 0:
			return append(dst, '.')
		case n < 10:
			return append(dst, byte('1'+c))
		default:
			return strconv.AppendInt(dst, int64(c+1), 10)
		}
	}
}
