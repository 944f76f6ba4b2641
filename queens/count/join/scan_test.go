package join

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestJoinCellScan holds runCellScan (cellScanAVX512 where the processor has AVX-512) and
// cellScanGo to cellPairsGo cell by cell over the cells a scan must make: made-up rows of
// h = 5, 8 and 13 columns (the half's columns all or all but one), north lists of 0 to 60
// pieces in any class range, south lists of 0 to 40 (one register, two, or longer), with
// and without forbidden masks, scans from any column set with budgets from nothing to
// scanBudget: the same place to stop (the first column set within the columns and with
// pieces whose candidates exceed what is left of the budget), the same budget left, the
// same multiset of signatures, and nothing stored past the room a scan is given.
func TestJoinCellScan(t *testing.T) {
	if !haveCellAVX512 {
		t.Log("no AVX-512: cellScanGo alone is held to cellPairsGo cell by cell")
	}
	rng := rand.New(rand.NewPCG(31, 49))
	for _, h := range []int{5, 8, 13} {
		for _, allCols := range []bool{true, false} {
			for _, forbid := range []bool{false, true} {
				r := randomScanRow(rng, h, allCols, forbid, 30, 40)
				for range 40 {
					from := rng.IntN(len(r.cs) + 1)
					budget := []int{rng.IntN(64), rng.IntN(2048), rng.IntN(scanBudget + 1)}[rng.IntN(3)]
					lo := rng.IntN(4)
					hi := lo + 1 + rng.IntN(4-lo)
					what := fmt.Sprintf("h %d, all columns %v, forbidden %v, from %d of %d, budget %d, runs %d to %d",
						h, allCols, forbid, from, len(r.cs), budget, lo, hi)
					checkCellScan(t, r, from, budget, lo, hi, what)
				}
			}
		}
	}
}

func checkCellScan(t *testing.T, r *scanRow, from, budget, lo, hi int, what string) {
	t.Helper()
	prefix := []uint64{2, 7, 1}
	want := slices.Clone(prefix)
	stop, left := from, budget
	so := &r.south[0]
	for ; stop < len(r.cs); stop++ {
		c := r.cs[stop]
		o := r.toff[4*stop : 4*stop+5]
		if c&^r.cols != 0 || o[0] == o[4] {
			continue
		}
		rest := r.cols &^ c
		a, b := so.off[rest], so.off[rest+1]
		north := r.pieces[o[lo]:o[hi]]
		cand := len(north) * int(b-a)
		if cand > left {
			break
		}
		left -= cand
		want = cellPairsGo(slices.Grow(want, cand), north, so.buf.clash[a:b], so.buf.sig[a:b], &r.f)
	}
	scans := map[string]func([]uint64, *cellScan, int, *pairFrame) ([]uint64, int){"cellScanGo": cellScanGo}
	if haveCellAVX512 {
		scans["runCellScan"] = runCellScan
	}
	for name, scan := range scans {
		var s cellScan
		s.set(r.cs, r.toff[:4*len(r.cs)+1], r.pieces, so, r.cols, lo, hi)
		s.budget = budget
		room := len(prefix) + budget + cellSlack
		buf := make([]uint64, room+4)
		for i := range buf {
			buf[i] = 0xdead
		}
		got, i := scan(append(buf[:0:room], prefix...), &s, from, &r.f)
		if i != stop || s.budget != left {
			t.Fatalf("%s: %s stopped at column set %d with budget %d left, want %d with %d", what, name, i, s.budget, stop, left)
		}
		if tail := buf[room:]; !slices.Equal(tail, []uint64{0xdead, 0xdead, 0xdead, 0xdead}) {
			t.Fatalf("%s: %s stored past the room: %x", what, name, tail)
		}
		if !slices.Equal(got[:len(prefix)], prefix) {
			t.Fatalf("%s: %s: what out held changed", what, name)
		}
		g, w := slices.Clone(got[len(prefix):]), slices.Clone(want[len(prefix):])
		slices.Sort(g)
		slices.Sort(w)
		if !slices.Equal(g, w) {
			t.Fatalf("%s: %s: %d signatures, cell by cell %d", what, name, len(g), len(w))
		}
	}
}

// TestRegrow holds regrow(s, c) to slices.Grow(s, c-len(s)): the same length and contents,
// capacity c (at least), zero past the length, a new array; and
// roomFor to growing by at least half a list's length, so that lists grown a cell at a time
// are copied a bounded number of times per word, and prepareSouth's the same way.
func TestRegrow(t *testing.T) {
	for _, tc := range []struct {
		name          string
		len, cap, add int
	}{
		{"empty", 0, 0, 5},
		{"full", 4, 4, 1},
		{"room left", 3, 9, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := make([]uint64, tc.len, tc.cap)
			for i := range s[:tc.cap] {
				s[:tc.cap][i] = uint64(i + 1)
			}
			g := regrow(s, tc.cap+tc.add)
			if len(g) != tc.len || cap(g) < tc.cap+tc.add {
				t.Fatalf("regrow: len %d cap %d, want len %d cap ≥ %d", len(g), cap(g), tc.len, tc.cap+tc.add)
			}
			for i, v := range g[:cap(g)] {
				if want := uint64(0); i < tc.len {
					want = uint64(i + 1)
					if v != want {
						t.Fatalf("regrow: word %d = %d, want %d", i, v, want)
					}
				} else if v != 0 {
					t.Fatalf("regrow: word %d past the length = %d, want 0", i, v)
				}
			}
			if tc.len > 0 && &g[0] == &s[0] {
				t.Fatal("regrow returned the same array")
			}
		})
	}
	var out []uint64
	copies := 0
	for range 10000 {
		if c := cap(out); len(out)+1+cellSlack > c {
			copies++
		}
		out = append(roomFor(out, 1), 1)
	}
	if copies > 40 {
		t.Errorf("roomFor grew a list of 10,000 words one at a time %d times, want at most 40", copies)
	}
	// The quad scan asks for its whole budget each time; a list emptied by a flush but for
	// the few signatures a cell run added since must not grow again.
	q := roomFor(nil, scanBudget)
	if again := roomFor(q[:48], scanBudget); cap(again) != cap(q) {
		t.Errorf("roomFor grew a list of %d words (48 used) to %d for another %d", cap(q), cap(again), scanBudget)
	}
	// prepareSouth's lists grow a cell at a time too (a piece at a time here): they must
	// at least double, as append's do.
	south, grown := pieceList{}, 0
	for range 10000 {
		c := cap(south.clash)
		south = prepareSouth(south, []uint64{1}, 0, 0, 8, 15, false)
		if cap(south.clash) != c {
			grown++
		}
	}
	if len(south.clash) != 10000 || len(south.sig) != 10000 {
		t.Fatalf("prepareSouth kept %d clash and %d signature words of 10,000 pieces", len(south.clash), len(south.sig))
	}
	if grown > 20 {
		t.Errorf("prepareSouth grew its lists %d times for 10,000 pieces added one at a time, want at most 20", grown)
	}
}
