package board_test

import (
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// TestApplyTable: the image of b8 = (0,1) on an 8×8 board under each symmetry, worked out by
// hand (a quarter turn clockwise takes the top row to the right-hand column).
func TestApplyTable(t *testing.T) {
	sq := board.Square{Row: 0, Col: 1}
	for _, tc := range []struct {
		name string
		s    board.Symmetry
		want board.Square
		str  string
	}{
		{"identity", board.Identity, board.Square{Row: 0, Col: 1}, "identity"},
		{"rotate 90", board.Rotate90, board.Square{Row: 1, Col: 7}, "rotate 90°"},
		{"rotate 180", board.Rotate180, board.Square{Row: 7, Col: 6}, "rotate 180°"},
		{"rotate 270", board.Rotate270, board.Square{Row: 6, Col: 0}, "rotate 270°"},
		{"mirror columns", board.MirrorColumns, board.Square{Row: 0, Col: 6}, "mirror left-right"},
		{"mirror rows", board.MirrorRows, board.Square{Row: 7, Col: 1}, "mirror top-bottom"},
		{"transpose", board.Transpose, board.Square{Row: 1, Col: 0}, "transpose"},
		{"anti-transpose", board.AntiTranspose, board.Square{Row: 6, Col: 7}, "anti-transpose"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.Apply(8, sq); got != tc.want {
				t.Errorf("%v.Apply(8, %+v) = %+v, want %+v", tc.s, sq, got, tc.want)
			}
			if got := tc.s.String(); got != tc.str {
				t.Errorf("Symmetry(%d).String() = %q, want %q", int(tc.s), got, tc.str)
			}
		})
	}
	if got := board.Symmetry(8).String(); got != "symmetry?" {
		t.Errorf("Symmetry(8).String() = %q, want \"symmetry?\"", got)
	}
	if board.Symmetries[0] != board.Identity {
		t.Errorf("Symmetries[0] = %v, want identity", board.Symmetries[0])
	}
}

// TestSymmetryGroup checks, on boards 1 to 9, that each symmetry maps the board onto itself
// one to one, that the eight are distinct (n ≥ 2), that four quarter turns are the identity,
// that reflections are their own inverse, and that composing two symmetries gives one of the
// eight.
func TestSymmetryGroup(t *testing.T) {
	for n := 1; n <= 9; n++ {
		z := board.SquareBoard(n)
		var all []board.Square
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				all = append(all, board.Square{Row: r, Col: c})
			}
		}
		// imageOf lists the images of all squares, as a key for comparing maps.
		imageOf := func(f func(board.Square) board.Square) [100]board.Square {
			var k [100]board.Square
			for i, sq := range all {
				k[i] = f(sq)
			}
			return k
		}
		maps := make(map[[100]board.Square]board.Symmetry)
		for _, s := range board.Symmetries {
			seen := make(map[board.Square]bool)
			for _, sq := range all {
				im := s.Apply(n, sq)
				if !z.Contains(im) {
					t.Fatalf("%v.Apply(%d, %+v) = %+v, off the board", s, n, sq, im)
				}
				if seen[im] {
					t.Fatalf("%v on %d×%d maps two squares onto %+v", s, n, n, im)
				}
				seen[im] = true
			}
			maps[imageOf(func(q board.Square) board.Square { return s.Apply(n, q) })] = s
		}
		if n >= 2 && len(maps) != 8 {
			t.Errorf("on %d×%d the eight symmetries give %d distinct maps, want 8", n, n, len(maps))
		}
		for _, sq := range all {
			q := sq
			for range 4 {
				q = board.Rotate90.Apply(n, q)
			}
			if q != sq {
				t.Errorf("four quarter turns take %+v to %+v on %d×%d", sq, q, n, n)
			}
			if q := board.Rotate270.Apply(n, board.Rotate90.Apply(n, sq)); q != sq {
				t.Errorf("rotate 270° after rotate 90° takes %+v to %+v on %d×%d", sq, q, n, n)
			}
			for _, s := range []board.Symmetry{board.Rotate180, board.MirrorColumns, board.MirrorRows, board.Transpose, board.AntiTranspose} {
				if q := s.Apply(n, s.Apply(n, sq)); q != sq {
					t.Errorf("%v twice takes %+v to %+v on %d×%d", s, sq, q, n, n)
				}
			}
		}
		for _, a := range board.Symmetries {
			for _, b := range board.Symmetries {
				k := imageOf(func(q board.Square) board.Square { return b.Apply(n, a.Apply(n, q)) })
				if _, ok := maps[k]; !ok {
					t.Errorf("%v then %v on %d×%d is not one of the eight symmetries", a, b, n, n)
				}
			}
		}
	}
}
