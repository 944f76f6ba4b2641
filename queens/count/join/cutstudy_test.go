package join

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// The cut study (BenchmarkJoinLists with CHESSPUZZLES_JOINCUTSTUDY=1): how many (stored,
// query) pairs the first K cut bits leave, in occupancyOrder's order (by the product of
// the two halves' marginal occupancies) and in a greedy order by their joint effect
// (greedyOrder). A (batch, query) pair is met only by a pair of half-boards disjoint on all
// the cut bits of its class and its sieve together, so the share of such pairs, F(K), is
// what the two levels of cut bits let through to the kernel.

// studyBits is the most cut bits the study orders and tallies (ids of one uint32).
const studyBits = 20

// cutTally holds one side's half-boards by their bits of an order's first studyBits
// cut bits (bit i of the index: order[i]), so that every prefix of the order can be
// tallied from it.
type cutTally struct {
	order []uint
	h     []uint64
	n     uint64
}

func newCutTally(order []uint) *cutTally {
	order = order[:min(len(order), studyBits)]
	return &cutTally{order: order, h: make([]uint64, 1<<len(order))}
}

func (t *cutTally) add(sigs []uint64) {
	for _, s := range sigs {
		var id uint32
		for i, b := range t.order {
			id |= uint32(s>>b&1) << i
		}
		t.h[id]++
	}
	t.n += uint64(len(sigs))
}

// cutShares is what the first k bits of an order leave: the share of (A, B) pairs
// disjoint on them (F), the nonempty (pattern of A, pattern of B) pairs on them that are
// disjoint, and the nonempty patterns of B that a half-board of A meets on average (a
// query's visits where B is stored).
type cutShares struct {
	f             float64
	patternPairs  uint64
	visitsA       float64
	patsA, patsB  int
	disjointPairs uint64
}

// cutSharesOf tallies the first k bits of the order that ta and tb (of the same order) hold.
func cutSharesOf(ta, tb *cutTally, k int) cutShares {
	n := 1 << k
	mask := n - 1
	hA, hB, nB := make([]uint64, n), make([]uint64, n), make([]uint64, n)
	for x, v := range ta.h {
		hA[x&mask] += v
	}
	for x, v := range tb.h {
		hB[x&mask] += v
	}
	var r cutShares
	for x := range n {
		if hB[x] > 0 {
			nB[x] = 1
			r.patsB++
		}
		if hA[x] > 0 {
			r.patsA++
		}
	}
	zetaSum(hB, k)
	zetaSum(nB, k)
	var visits uint64
	for x, v := range hA {
		if v == 0 {
			continue
		}
		c := ^x & mask
		r.disjointPairs += v * hB[c]
		r.patternPairs += nB[c]
		visits += v * nB[c]
	}
	r.f = float64(r.disjointPairs) / (float64(ta.n) * float64(tb.n))
	r.visitsA = float64(visits) / float64(ta.n)
	return r
}

// cutStudy prints, for row set r of j, F(K) and the visits for K = 1 … studyBits in
// occupancyOrder's order and in greedyOrder's (chosen on the samples a count chooses on),
// both tallied on the whole halves, and greedyOrder's CPU time. A is half A (queried at
// even N, where B is stored), B half B (the queries of nextQueries, unweighted: a pair
// costs the kernel the same whatever its weight). It returns the two orders.
func (w *worker) cutStudy(out io.Writer, j *subproblem, e uint64) (occ, greedy []uint) {
	jb := *j
	if j.kind != subEven {
		jb.forbid(qNE, qSE, j.fdB, j.fuB)
	}
	r := j.rowSet(e)
	defer func(g bool, h, o int) { cutGreedy, cutGreedyMinH, cutGreedyOddMinH = g, h, o }(cutGreedy, cutGreedyMinH, cutGreedyOddMinH)
	cutGreedy, cutGreedyMinH, cutGreedyOddMinH = true, 0, 0 // occupancyOrder keeps a sample of half B at every h
	occ = w.occupancyOrder(j, &jb, r)
	if len(occ) == 0 {
		fmt.Fprintf(out, "row set %#x: no bit both halves occupy\n", e)
		return nil, nil
	}
	c0 := cpuTime()
	greedy = w.greedyOrder(occ, studyBits)
	dt := cpuTime() - c0
	halfA := func(f func([]uint64)) {
		for from := 0; from >= 0; {
			w.sideA, from = w.halfFrom(j, w.sideA[:0], qNW, r.an, r.as, j.colsA, false, southRowOf(j, &w.southA), from, j.storeMax)
			f(w.sideA)
		}
	}
	halfB := func(f func([]uint64)) {
		for b := (queryChunk{}); !b.done; {
			for _, q := range w.nextQueries(j, &jb, r, &b) {
				f(q)
			}
		}
	}
	to, tg := newCutTally(occ), newCutTally(greedy)
	ao, ag := newCutTally(occ), newCutTally(greedy)
	halfA(func(s []uint64) { ao.add(s); ag.add(s) })
	halfB(func(s []uint64) { to.add(s); tg.add(s) })
	names := func(o []uint) string {
		var f []string
		for _, b := range o {
			f = append(f, fmt.Sprint(b))
		}
		return strings.Join(f, " ")
	}
	W := uint(2*j.h - 1)
	fmt.Fprintf(out, "row set %#x: |A| %d, |B| %d, samples %d, %d (greedyOrder of %d bits %.2f CPU-s); W %d (down 0–%d, up %d–%d)\n", e, ao.n, to.n, len(w.greedy.sa), len(w.sampleB), studyBits, dt.Seconds(), W, W-1, W, 2*W-1)
	fmt.Fprintf(out, "  occupancy order: %s\n  greedy order:    %s\n", names(to.order), names(tg.order))
	fmt.Fprintf(out, "  K  F_occ      F_greedy   g÷o    visits_occ visits_g  g÷o    patpairs_occ patpairs_g g÷o    patsB_occ patsB_g\n")
	for k := 1; k <= min(len(to.order), len(tg.order)); k++ {
		o, g := cutSharesOf(ao, to, k), cutSharesOf(ag, tg, k)
		fmt.Fprintf(out, "  %-2d %.4e %.4e %.3f  %9.1f %9.1f %.3f  %12d %10d %.3f  %9d %7d\n", k, o.f, g.f, g.f/o.f, o.visitsA, g.visitsA, g.visitsA/o.visitsA,
			o.patternPairs, g.patternPairs, float64(g.patternPairs)/float64(o.patternPairs), o.patsB, g.patsB)
	}
	return occ, greedy
}

// TestCutShares holds the study's subset sums to the pairs counted one by one, and
// greedyCuts's first bit to the one with the largest product of the two sides'
// occupancies (on one bit the joint effect is that product).
func TestCutShares(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 1))
	cand := []uint{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	sig := func(p float64) uint64 {
		var s uint64
		for _, b := range cand {
			if rng.Float64() < p*float64(b+3)/12 {
				s |= 1 << b
			}
		}
		if rng.IntN(2) == 0 { // neighbours together: not independent
			s |= (s & 0x0f) << 4
		}
		return s
	}
	var sa, sb []uint64
	for range 300 {
		sa = append(sa, sig(0.5))
	}
	for range 200 {
		sb = append(sb, sig(0.7))
	}
	order := new(greedyCuts).choose(sa, sb, cand, len(cand))
	if len(order) != len(cand) {
		t.Fatalf("greedyCuts took %d bits, want %d", len(order), len(cand))
	}
	occ := func(s []uint64, b uint) (n int) {
		for _, x := range s {
			n += int(x >> b & 1)
		}
		return n
	}
	first := cand[0]
	for _, b := range cand {
		if occ(sa, b)*occ(sb, b) > occ(sa, first)*occ(sb, first) {
			first = b
		}
	}
	if order[0] != first {
		t.Errorf("greedyCuts's first bit %d, want %d (largest product of occupancies)", order[0], first)
	}
	ta, tb := newCutTally(order), newCutTally(order)
	ta.add(sa)
	tb.add(sb)
	for k := 1; k <= len(order); k++ {
		var cut uint64
		for _, b := range order[:k] {
			cut |= 1 << b
		}
		pairs := pairsDisjointOn(sa, sb, cut)
		if got := cutSharesOf(ta, tb, k); got.disjointPairs != pairs {
			t.Errorf("cutSharesOf(%d bits): %d disjoint pairs, want %d", k, got.disjointPairs, pairs)
		}
		// Each greedy step takes the bit that leaves the fewest pairs.
		if k >= 2 {
			prev := cut &^ (1 << order[k-1])
			for _, b := range cand {
				if prev>>b&1 != 0 {
					continue
				}
				var p uint64
				for _, a := range sa {
					for _, x := range sb {
						if a&x&(prev|1<<b) == 0 {
							p++
						}
					}
				}
				if p < pairs {
					t.Errorf("greedy step %d took bit %d (%d pairs left); bit %d leaves %d", k, order[k-1], pairs, b, p)
				}
			}
		}
	}
}

// pairsDisjointOn counts the pairs (a, b) of sa × sb disjoint on the bits of mask, one by
// one: the slow count the subset sums are held to.
func pairsDisjointOn(sa, sb []uint64, mask uint64) uint64 {
	var n uint64
	for _, a := range sa {
		for _, b := range sb {
			if a&b&mask == 0 {
				n++
			}
		}
	}
	return n
}
