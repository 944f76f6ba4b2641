package knight

import (
	"fmt"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// TestFourGadgets checks that the turn and start gadgets of build_four.go exist (they are found
// by search once; fourTurn and fourStart panic otherwise) and are what they claim: paths
// through every square of the first fourGadget columns of H, entered and left as promised.
func TestFourGadgets(t *testing.T) {
	g := fourGadget
	check := func(name string, p []hv, first, last func(hv) bool) {
		t.Helper()
		if len(p) != 2*g {
			t.Fatalf("%s has %d squares, want %d", name, len(p), 2*g)
		}
		seen := map[hv]bool{}
		for i, v := range p {
			if v.k < 0 || v.k >= g || seen[v] {
				t.Fatalf("%s: square %v repeated or outside the gadget", name, v)
			}
			seen[v] = true
			if i > 0 && !(p[i-1].inner != v.inner && (abs(p[i-1].k-v.k) == 1 || abs(p[i-1].k-v.k) == 2)) {
				t.Fatalf("%s: step %v to %v is not a move of H", name, p[i-1], v)
			}
		}
		if !first(p[0]) || !last(p[len(p)-1]) {
			t.Fatalf("%s: ends %v and %v are not next to the strands", name, p[0], p[len(p)-1])
		}
	}
	next := func(to hv) func(hv) bool {
		return func(v hv) bool { return v.inner != to.inner && (to.k-v.k == 1 || to.k-v.k == 2) }
	}
	for p := 0; p < 2; p++ {
		check(fmt.Sprintf("fourTurn(%d)", p), fourTurn(p), next(onStrand(p, g)), next(onStrand(1-p, g)))
	}
	for k := 0; k < g; k++ {
		for _, inner := range []bool{false, true} {
			s := hv{k: k, inner: inner}
			path, r := fourStart(s)
			check(fmt.Sprintf("fourStart(%v)", s), path, func(v hv) bool { return v == s }, next(onStrand(r, g)))
		}
	}
}

// TestFourRowsEveryStart tries an open tour from every square of every 4×n and n×4 board,
// n = 5…100, and of a few longer ones, checked by the test's own validator: a tour from
// every square of the outer lines, ErrNoTour from the inner ones.
func TestFourRowsEveryStart(t *testing.T) {
	var bs []boardCase
	for n := 5; n <= 100; n++ {
		bs = append(bs, boardCase{4, n}, boardCase{n, 4})
	}
	bs = append(bs, boardCase{4, 255}, boardCase{4, 1000}, boardCase{1001, 4})
	checkEveryOpenStart(t, bs)
}

// TestLongThinBoards builds tours of a few very long boards with 3 to 11 rows, open from
// squares at both ends and in the middle, and closed where they exist, all checked by the
// test's own validator. Under -race from every third of those squares (9.1 CPU-s race-built
// with all, 1.0 without, 30 Nov); TestSweepsNoRace tries them all without -race.
func TestLongThinBoards(t *testing.T) {
	for i, b := range []boardCase{{3, 100001}, {3, 100000}, {4, 100000}, {100001, 4}, {99999, 3}, {5, 20001}, {6, 19999}, {7, 20000}, {11, 4001}} {
		t.Run(fmt.Sprintf("%dx%d", b.rows, b.cols), func(t *testing.T) {
			t.Parallel()
			rows, cols := b.rows, b.cols
			m, n := min(rows, cols), max(rows, cols)
			var starts []board.Square
			for _, i := range []int{0, m / 2, m - 1} {
				for _, j := range []int{0, 1, n/2 - 1, n / 2, n - 2} {
					if rows < cols {
						starts = append(starts, board.Square{Row: i, Col: j})
					} else {
						starts = append(starts, board.Square{Row: j, Col: i})
					}
				}
			}
			for _, closed := range []bool{false, true} {
				for k, s := range starts {
					if raceEnabled && (k+i)%3 != 0 {
						continue
					}
					checkStart(t, rows, cols, s, closed)
				}
			}
		})
	}
}
