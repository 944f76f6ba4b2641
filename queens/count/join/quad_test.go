package join

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestJoinCellQuad holds runQuads (cellQuadAVX512 where the processor has AVX-512) to
// quadRunGo and to cellPairsGo cell by cell: runs of 0 to 300 quads of 0 to quadMax pieces
// a north list and 0 to quadSouthMax a south list (one register or two) (empty lists among them), the frames of half B of h = 5, 8 and 13 rows, with and
// without forbidden masks, off×off pairs made or not, each list in the room flush makes
// (its prefix, the run's candidates and cellSlack), nothing stored past it: the same
// multiset of signatures a list.
func TestJoinCellQuad(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 49))
	for _, nq := range []int{0, 1, 2, 3, 17, 300} {
		for _, h := range []int{5, 8, 13} {
			for _, forbid := range []bool{false, true} {
				for _, zero := range []bool{false, true} {
					checkQuads(t, rng, nq, h, forbid, zero)
				}
			}
		}
	}
}

func checkQuads(t *testing.T, rng *rand.Rand, nq, h int, forbid, zero bool) {
	t.Helper()
	what := fmt.Sprintf("%d quads, h %d, forbidden %v, off×off %v", nq, h, forbid, zero)
	var jobs []quadJob
	var f pairFrame
	want := [3][]uint64{{1}, {2, 2}, {3, 3, 3}}
	cand := 0
	for i := range nq {
		a, b := rng.IntN(quadMax+1), rng.IntN(quadMax+1)
		if a+b == 0 {
			a = 1
		}
		n0, n1 := rng.IntN(quadSouthMax+1), rng.IntN(quadSouthMax+1)
		north, south0, fq := randomCell(rng, h, a+b, n0, true, forbid)
		_, south1, _ := randomCell(rng, h, 0, n1, true, false)
		if i == 0 {
			f = fq
		}
		j := quadJob{north: &north[0], nOff: a, nOn: b, ns0: n0, ns1: n1}
		if n0 > 0 {
			j.clash0, j.sig0 = &south0.clash[0], &south0.sig[0]
		}
		if n1 > 0 {
			j.clash1, j.sig1 = &south1.clash[0], &south1.sig[0]
		}
		jobs = append(jobs, j)
		cand += (a + b) * (n0 + n1)
		if zero {
			want[0] = cellPairsGo(slices.Grow(want[0], a*n0), north[:a], south0.clash, south0.sig, &f)
		}
		want[1] = cellPairsGo(slices.Grow(want[1], a*n1), north[:a], south1.clash, south1.sig, &f)
		want[1] = cellPairsGo(slices.Grow(want[1], b*n0), north[a:], south0.clash, south0.sig, &f)
		want[2] = cellPairsGo(slices.Grow(want[2], b*n1), north[a:], south1.clash, south1.sig, &f)
	}
	var got, goRun [3][]uint64
	var bufs [3][]uint64
	for k := range got {
		prefix := slices.Repeat([]uint64{uint64(k + 1)}, k+1)
		room := len(prefix) + cand + cellSlack
		bufs[k] = make([]uint64, room+4)
		for i := range bufs[k] {
			bufs[k][i] = 0xdead
		}
		got[k] = append(bufs[k][:0:room], prefix...)
		goRun[k] = append(make([]uint64, 0, room), prefix...)
	}
	runQuads(&got, jobs, &f, zero)
	quadRunGo(&goRun, jobs, &f, zero)
	for k := range got {
		if tail := bufs[k][len(bufs[k])-4:]; !slices.Equal(tail, []uint64{0xdead, 0xdead, 0xdead, 0xdead}) {
			t.Fatalf("%s: list %d: runQuads stored past the room: %x", what, k, tail)
		}
		for _, l := range [][]uint64{got[k], goRun[k]} {
			if len(l) < k+1 || !slices.Equal(l[:k+1], want[k][:k+1]) {
				t.Fatalf("%s: list %d: what it held changed", what, k)
			}
		}
		g, r, w := got[k][k+1:], goRun[k][k+1:], want[k][k+1:]
		slices.Sort(g)
		slices.Sort(r)
		slices.Sort(w)
		if !slices.Equal(g, w) || !slices.Equal(r, w) {
			t.Fatalf("%s: list %d: runQuads %d signatures, quadRunGo %d, cell by cell %d", what, k, len(g), len(r), len(w))
		}
	}
}
