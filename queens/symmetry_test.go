package queens_test

import (
	"slices"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

func TestCanonicalTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		code string
		want string
		size int
	}{
		{"n=1", "1", "1", 1},
		{"n=4 first", "2413", "2413", 2},
		{"n=4 second", "3142", "2413", 2},
		{"n=8 first", "15863724", "15863724", 8},
		{"n=8 last, mirror of the first", "84136275", "15863724", 8},
		// 35281746 is the one eight-queens solution symmetric under a half turn.
		{"n=8 half-turn symmetric", "35281746", "35281746", 4},
		{"n=8 mirror of half-turn symmetric", "64718253", "35281746", 4},
		{"n=5 quarter-turn symmetric", "25314", "25314", 2},
		{"n=5 mirror of quarter-turn symmetric", "41352", "25314", 2},
		{"n=5 not symmetric", "14253", "13524", 8},
		{"n=6", "246135", "246135", 4},
		{"n=6 image", "531642", "246135", 4},
		{"n=6 image 2", "415263", "246135", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := placement(fromCode(tc.code))
			orig := p.Clone()
			got := queens.Canonical(p)
			if got.Format(queens.Code) != tc.want {
				t.Errorf("Canonical(%s) = %s, want %s", tc.code, got.Format(queens.Code), tc.want)
			}
			if !slices.Equal(p, orig) {
				t.Errorf("Canonical(%s) changed its argument to %v", tc.code, p)
			}
			if is := queens.IsCanonical(p); is != (tc.code == tc.want) {
				t.Errorf("IsCanonical(%s) = %v, want %v", tc.code, is, tc.code == tc.want)
			}
			if got := queens.ClassSize(p); got != tc.size {
				t.Errorf("ClassSize(%s) = %d, want %d", tc.code, got, tc.size)
			}
		})
	}
}

// TestSymmetryProperties checks every solution for n ≤ 10, and a sample for larger n, against
// the test's own images.
func TestSymmetryProperties(t *testing.T) {
	var sols [][]int
	for n := 1; n <= 10; n++ {
		sols = append(sols, bruteSolutions(n)...)
	}
	for _, n := range []int{11, 13, 16, 23} {
		k := 0
		for p := range queens.Solutions(n) {
			if !valid(ints(p)) {
				t.Fatalf("Solutions(%d) yields %v, not a solution", n, p)
			}
			sols = append(sols, ints(p))
			if k++; k == 50 {
				break
			}
		}
	}
	for _, ps := range sols {
		p := placement(ps)
		want, size := smallestImage(ps)
		canon := ints(queens.Canonical(p))
		if !slices.Equal(canon, want) {
			t.Fatalf("Canonical(%s) = %s, want %s", codeOf(ps), codeOf(canon), codeOf(want))
		}
		if got := queens.IsCanonical(p); got != slices.Equal(ps, want) {
			t.Fatalf("IsCanonical(%s) = %v, want %v", codeOf(ps), got, !got)
		}
		if got := queens.ClassSize(p); got != size {
			t.Fatalf("ClassSize(%s) = %d, want %d distinct images", codeOf(ps), got, size)
		}
		ims := images(ps)
		for k, s := range board.Symmetries {
			im := ints(queens.Image(p, s))
			if !slices.Equal(im, ims[k]) {
				t.Fatalf("Image(%s, %v) = %s, want %s", codeOf(ps), s, codeOf(im), codeOf(ims[k]))
			}
			if !valid(im) {
				t.Fatalf("Image(%s, %v) = %s is not a solution", codeOf(ps), s, codeOf(im))
			}
			if c := ints(queens.Canonical(placement(im))); !slices.Equal(c, canon) {
				t.Fatalf("Canonical(Image(%s, %v)) = %s, want Canonical(%s) = %s", codeOf(ps), s, codeOf(c), codeOf(ps), codeOf(canon))
			}
			if got := queens.ClassSize(placement(im)); got != size {
				t.Fatalf("ClassSize(Image(%s, %v)) = %d, want %d", codeOf(ps), s, got, size)
			}
		}
	}
}

// TestSymmetryApplyFromQueens checks board.Symmetry.Apply on the corners and one other square of an
// 8×8 board, from the formulas in its doc comment worked by hand.
func TestSymmetryApplyFromQueens(t *testing.T) {
	sq := board.Square{Row: 0, Col: 1} // b8
	want := map[board.Symmetry]board.Square{
		board.Identity:      {Row: 0, Col: 1},
		board.Rotate90:      {Row: 1, Col: 7},
		board.Rotate180:     {Row: 7, Col: 6},
		board.Rotate270:     {Row: 6, Col: 0},
		board.MirrorColumns: {Row: 0, Col: 6},
		board.MirrorRows:    {Row: 7, Col: 1},
		board.Transpose:     {Row: 1, Col: 0},
		board.AntiTranspose: {Row: 6, Col: 7},
	}
	for s, w := range want {
		if got := s.Apply(8, sq); got != w {
			t.Errorf("%v.Apply(8, %v) = %v, want %v", s, sq, got, w)
		}
	}
}
