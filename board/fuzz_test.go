package board_test

import (
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// FuzzParseSquare: ParseSquare never panics; a square it returns is on the board, and its
// name and numeric form read back as the same square. Seeds: testdata/squares.txt and
// testdata/fuzz/FuzzParseSquare.
func FuzzParseSquare(f *testing.F) {
	for _, tc := range loadNames(f) {
		f.Add(tc.size.Rows, tc.size.Cols, tc.num)
		if tc.alg != "-" {
			f.Add(tc.size.Rows, tc.size.Cols, tc.alg)
		}
	}
	for _, s := range []string{"", "e", "i1", "a0", "e-4", "e+4", "0,1", "1,2,3", "é4", "Z26"} {
		f.Add(8, 8, s)
	}
	f.Fuzz(func(t *testing.T, rows, cols int, s string) {
		if rows < 1 || cols < 1 || rows > board.MaxSide || cols > board.MaxSide {
			return // not a Size that ParseSize gives
		}
		z := board.Size{Rows: rows, Cols: cols}
		sq, err := z.ParseSquare(s)
		if err != nil {
			if msg := err.Error(); len(msg) > 300 || strings.Contains(msg, "\n") {
				t.Fatalf("%v.ParseSquare(%q) error is not one short line: %q", z, s, msg)
			}
			return
		}
		if !z.Contains(sq) {
			t.Fatalf("%v.ParseSquare(%q) = %+v, off the board", z, s, sq)
		}
		for _, name := range []string{z.Name(sq), z.Numeric(sq)} {
			back, err := z.ParseSquare(name)
			if err != nil || back != sq {
				t.Fatalf("%v.ParseSquare(%q) = %+v, %v; want %+v (from %q)", z, name, back, err, sq, s)
			}
		}
	})
}

// FuzzParseSize: ParseSize never panics; a size it returns has sides from 1 to the limit,
// and its String form (with "×") reads back as the same size.
func FuzzParseSize(f *testing.F) {
	for _, tc := range loadNames(f) {
		f.Add(tc.size.String(), 0)
	}
	for _, s := range []string{"8", "6x9", "6X9", "0", "-8", "8x", "x8", "8x8x8", "99999999999999999999", " 5x4 ", "32768", "32769", "134217728", "134217729"} {
		f.Add(s, 0)
		f.Add(s, 12)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		z, err := board.ParseSize(s, max)
		if err != nil {
			if msg := err.Error(); len(msg) > 300 || strings.Contains(msg, "\n") {
				t.Fatalf("ParseSize(%q, %d) error is not one short line: %q", s, max, msg)
			}
			return
		}
		limit := max
		if limit <= 0 || limit > board.MaxSide {
			limit = board.MaxSide
		}
		if z.Rows < 1 || z.Cols < 1 || z.Rows > limit || z.Cols > limit {
			t.Fatalf("ParseSize(%q, %d) = %v, sides outside 1…%d", s, max, z, limit)
		}
		back, err := board.ParseSize(z.String(), max)
		if err != nil || back != z {
			t.Fatalf("ParseSize(%q, %d) = %v, %v; want %v", z.String(), max, back, err, z)
		}
	})
}
