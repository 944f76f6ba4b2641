package join

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// scanRow is a made-up table row and two south rows for a scan: column sets of one
// popcount, each with north runs of 0 to maxN pieces off and on D2 (some empty), and
// south lists of 0 to maxS pieces by rest columns.
type scanRow struct {
	cs, toff []uint32
	pieces   []uint64
	south    [2]southRow
	cols     uint32
	f        pairFrame
}

func randomScanRow(rng *rand.Rand, h int, allCols, forbid bool, maxN, maxS int) *scanRow {
	r := &scanRow{cols: uint32(1)<<h - 1}
	if !allCols {
		r.cols &^= 1 << rng.IntN(h)
	}
	k := 1 + rng.IntN(h-1)
	for c := range uint32(1) << h {
		if bits.OnesCount32(c) == k {
			r.cs = append(r.cs, c)
		}
	}
	size := func(m int) int {
		if rng.IntN(4) == 0 {
			return rng.IntN(m + 1)
		}
		return rng.IntN(m/2 + 1)
	}
	r.toff = []uint32{0}
	for range r.cs {
		last := r.toff[len(r.toff)-1]
		if rng.IntN(8) == 0 { // no north pieces
			r.toff = append(r.toff, last, last, last, last)
			continue
		}
		a, b := size(maxN), size(maxN)
		a1, b1 := rng.IntN(a+1), rng.IntN(b+1)
		r.toff = append(r.toff, last+uint32(a1), last+uint32(a), last+uint32(a+b1), last+uint32(a+b))
	}
	var south pieceList
	r.pieces, _, r.f = randomCell(rng, h, int(r.toff[len(r.toff)-1]), 0, true, forbid)
	for d := range r.south {
		s := &r.south[d]
		s.off = make([]int32, 1<<h+1)
		for m := range 1 << h {
			s.off[m+1] = s.off[m] + int32(size(maxS))
		}
		_, south, _ = randomCell(rng, h, 0, int(s.off[1<<h]), true, false)
		s.buf = south
	}
	return r
}

// TestJoinQuadScan holds runQuadScan (quadScanAVX512 where the processor has AVX-512) and
// quadScanGo to cellPairsGo cell by cell over the column sets a scan must make: made-up
// rows of h = 5, 8 and 13 columns (half B's columns all or all but one), north lists of 0
// to 19 pieces and south lists of 0 to 51, without forbidden masks (as even N's half B
// has none, which the scan relies on), off×off pairs
// made or not, south lists to quadMax or quadSouthMax, scans from any column set with
// budgets from one quad's worth to scanBudget: the same place to stop (the first column
// set within the columns and with north pieces that does not fit, or where the budget is
// under quadCandMax), the same budget left, the same multiset of signatures a list, and
// nothing stored past the room a scan is given.
func TestJoinQuadScan(t *testing.T) {
	if !haveCellAVX512 {
		t.Log("no AVX-512: quadScanGo alone is held to cellPairsGo cell by cell")
	}
	rng := rand.New(rand.NewPCG(30, 49))
	for _, h := range []int{5, 8, 13} {
		for _, allCols := range []bool{true, false} {
			r := randomScanRow(rng, h, allCols, false, quadNorthMax+3, quadSouthMax+3)
			for range 80 {
				from := rng.IntN(len(r.cs) + 1)
				// one quad's worth and a little, a few quads', up to scanBudget
				budget := quadCandMax + []int{rng.IntN(64), rng.IntN(3 * quadCandMax), rng.IntN(scanBudget - quadCandMax + 1)}[rng.IntN(3)]
				southMax := []int{quadMax, quadSouthMax}[rng.IntN(2)]
				zero := rng.IntN(2) == 0
				what := fmt.Sprintf("h %d, all columns %v, from %d of %d, budget %d, south max %d, off×off %v",
					h, allCols, from, len(r.cs), budget, southMax, zero)
				checkScan(t, r, from, budget, southMax, zero, what)
			}
		}
	}
}

func checkScan(t *testing.T, r *scanRow, from, budget, southMax int, zero bool, what string) {
	t.Helper()
	// cell by cell, by the rule the scan follows
	want := [3][]uint64{{1}, {2, 2}, {3, 3, 3}}
	stop, left := from, budget
	for ; stop < len(r.cs); stop++ {
		c := r.cs[stop]
		o := r.toff[4*stop : 4*stop+5]
		if c&^r.cols != 0 || o[0] == o[4] {
			continue
		}
		rest := r.cols &^ c
		var sc, ss [2][]uint64
		fits := o[2]-o[0] <= quadNorthMax && o[4]-o[2] <= quadNorthMax
		for d, s := range r.south {
			a, b := s.off[rest], s.off[rest+1]
			sc[d], ss[d] = s.buf.clash[a:b], s.buf.sig[a:b]
			fits = fits && int(b-a) <= southMax
		}
		if !fits || left < quadCandMax {
			break
		}
		nOff, nOn := r.pieces[o[0]:o[2]], r.pieces[o[2]:o[4]]
		left -= (len(nOff) + len(nOn)) * (len(sc[0]) + len(sc[1]))
		if zero {
			want[0] = cellPairsGo(slices.Grow(want[0], len(nOff)*len(sc[0])), nOff, sc[0], ss[0], &r.f)
		}
		want[1] = cellPairsGo(slices.Grow(want[1], len(nOff)*len(sc[1])), nOff, sc[1], ss[1], &r.f)
		want[1] = cellPairsGo(slices.Grow(want[1], len(nOn)*len(sc[0])), nOn, sc[0], ss[0], &r.f)
		want[2] = cellPairsGo(slices.Grow(want[2], len(nOn)*len(sc[1])), nOn, sc[1], ss[1], &r.f)
	}
	scans := map[string]func(*[3][]uint64, *quadScan, int, *pairFrame, bool) int{"quadScanGo": quadScanGo}
	if haveCellAVX512 {
		scans["runQuadScan"] = runQuadScan
	}
	for name, scan := range scans {
		var s quadScan
		s.set(r.cs, r.toff[:4*len(r.cs)+1], r.pieces, &r.south[0], &r.south[1], r.cols, southMax)
		s.budget = budget
		var got, bufs [3][]uint64
		for k := range got {
			prefix := slices.Repeat([]uint64{uint64(k + 1)}, k+1)
			room := len(prefix) + budget + cellSlack
			bufs[k] = make([]uint64, room+4)
			for i := range bufs[k] {
				bufs[k][i] = 0xdead
			}
			got[k] = append(bufs[k][:0:room], prefix...)
		}
		i := scan(&got, &s, from, &r.f, zero)
		if i != stop || s.budget != left {
			t.Fatalf("%s: %s stopped at column set %d with budget %d left, want %d with %d", what, name, i, s.budget, stop, left)
		}
		for k := range got {
			if tail := bufs[k][len(bufs[k])-4:]; !slices.Equal(tail, []uint64{0xdead, 0xdead, 0xdead, 0xdead}) {
				t.Fatalf("%s: %s: list %d: stored past the room: %x", what, name, k, tail)
			}
			if len(got[k]) < k+1 || !slices.Equal(got[k][:k+1], want[k][:k+1]) {
				t.Fatalf("%s: %s: list %d: what it held changed", what, name, k)
			}
			g, w := slices.Clone(got[k][k+1:]), slices.Clone(want[k][k+1:])
			slices.Sort(g)
			slices.Sort(w)
			if !slices.Equal(g, w) {
				t.Fatalf("%s: %s: list %d: %d signatures, cell by cell %d", what, name, k, len(g), len(w))
			}
		}
	}
}
