package join

import (
	"cmp"
	"math/bits"
	"slices"
)

// cutGreedy makes countRowSetStoreB and countRowSetClasses take their cut bits, those of
// the classes and of their sieves alike, in greedyOrder's order (by their joint effect on
// a sample of the row set's pairs) instead of occupancyOrder's (by the product of each
// bit's occupancies), from h = cutGreedyMinH and cutGreedyOddMinH (greedyCutsFor). Set
// where the AVX-512 kernels run, where it was measured (1 Dec,
// bench/log/2026-11-29-join.md, "Session 17 … cut" and "Session 18 … odd"); AVX2 and
// pure Go keep occupancyOrder's. A variable so that the harness can compare the two
// (CHESSPUZZLES_JOINCUTS=greedy, CHESSPUZZLES_JOINGREEDY=both|off).
var cutGreedy = matchIndexed(8, chunkBits, 1)

// cutGreedyMinH is the least h whose row sets of countRowSetStoreB (even N) take
// greedyOrder's cut bits where cutGreedy is set: 14 (N = 28), where it was measured
// (N = 26 at h = 13: 0.862 of the (batch, query) pairs dry, not timed). A variable so
// that tests can run it at small N.
var cutGreedyMinH = 14

// cutGreedyOddMinH is cutGreedyMinH for the row sets that countRowSetClasses counts (odd
// N; even N where half A is stored): the least h whose cut bits, of the classes and of
// their sieves, take greedyOrder's order where cutGreedy is set. 14 (N = 29): whole row
// sets of N = 29 took 0.841 ± 0.045 of occupancyOrder's CPU (6 row sets, 0.705 of the
// (batch, query) pairs dry); N = 27 (h = 13) 0.964 ± 0.077 (32 row sets, 0.720 of the
// pairs dry: its row sets of a few CPU-s lose what the large ones gain), so not there. A
// variable so that the harness and tests can set it (CHESSPUZZLES_JOINGREEDYMINH).
var cutGreedyOddMinH = 14

// greedyCutsFor reports whether the row sets of j take greedyOrder's cut bits: where
// cutGreedy is set, from h = cutGreedyMinH where half B is stored (countRowSetStoreB),
// from h = cutGreedyOddMinH where half A is (countRowSetClasses).
func greedyCutsFor(j *subproblem) bool {
	switch {
	case !cutGreedy:
		return false
	case j.kind == subEven && storeLarger && j.h >= storeBMinH:
		return j.h >= cutGreedyMinH
	}
	return j.h >= cutGreedyOddMinH
}

// greedySample bounds the half-boards of each side that greedyOrder chooses on.
const greedySample = 1 << 16

// greedyBitsMax bounds the bits greedyOrder orders: its last step costs about
// k·2^(k−1) additions a candidate bit.
const greedyBitsMax = 20

// greedyCuts chooses cut bits by their joint effect; it holds the buffers of choose.
type greedyCuts struct {
	sa     []uint64
	ia, ib []uint32 // each sample's bits so far, the latest lowest
	z      []uint64
	used   []bool
	taken  []uint // the bits chosen so far, in order (choose, more)
	za     []uint64
	by     []int // candidates by their bounds, highest first (more)
}

// greedyPrune makes greedyCuts.more bound each candidate's pairs first and skip those
// whose bound cannot beat the best found (the same bits, fewer candidates counted): at
// N = 28 greedyOrder took 0.57 of its CPU on seed 2005's 6 row sets (1.85 against 3.27
// CPU-s, 0.24–0.41 s a row set; 1 Dec, bench/log/2026-11-29-join.md, "Session 18 …
// tree"). On samples whose bits are all alike (BenchmarkGreedyChoose) nothing is pruned
// and it costs 1.16 times as much. A variable so that tests can hold the two to the
// same bits.
var greedyPrune = true

// greedyOrder returns occupancyOrder's bits occ with its first kmax (at most
// greedyBitsMax) put in the order greedyCuts.choose takes them on the samples of the two
// halves that occupancyOrder kept (sampleA thinned to greedySample, sampleB), the rest
// after them in occ's order. The cut bits of a row set are each pair of half-boards'
// test: a (stored, query) pair reaches the kernel only if it is disjoint on all of them,
// and the diagonals are not independent (each half-board has one queen a row, so its
// diagonals of one direction are h of 2h − 1), so the bits with the largest products of
// their occupancies need not be the ones that leave the fewest pairs together.
func (w *worker) greedyOrder(occ []uint, kmax int) []uint {
	g := &w.greedy
	g.sa = g.sa[:0]
	step := max(1, (len(w.sampleA)+greedySample-1)/greedySample)
	for i := 0; i < len(w.sampleA); i += step {
		g.sa = append(g.sa, w.sampleA[i])
	}
	return withRest(g.choose(g.sa, w.sampleB, occ, kmax), occ)
}

// greedyOrderMore is greedyOrder(occ, kmax) after greedyOrder(occ, k) for k ≤ kmax, on
// the same samples: it takes the greedy steps from k + 1 to kmax only (the first k bits
// are the same either way), so that a caller can choose kmax once the first k bits
// have told it how many more it needs (countRowSetStoreB: after the class split).
func (w *worker) greedyOrderMore(occ []uint, kmax int) []uint {
	g := &w.greedy
	return withRest(g.more(g.sa, w.sampleB, occ, kmax), occ)
}

// withRest returns order followed by the bits of occ not in it, in occ's order.
func withRest(order, occ []uint) []uint {
	var taken uint64
	for _, b := range order {
		taken |= 1 << b
	}
	for _, b := range occ {
		if taken>>b&1 == 0 {
			order = append(order, b)
		}
	}
	return order
}

// choose returns up to kmax (at most greedyBitsMax) of the frame bits cand, each next one
// the bit that, with those taken before it, leaves the fewest pairs of (sa, sb) disjoint
// on all of them (the first in cand's order on ties). With the k − 1 bits taken so far
// leaving F pairs, candidate c leaves F − D(c), D(c) the pairs disjoint on those bits
// that both hold c: sb's samples with c tallied by their k − 1 bits, summed over each
// subset (zetaSum) and read at the complement of each of sa's samples with c. Cost about
// len(cand)·(|sa| + |sb| + (k−1)·2^(k−1)) a step.
func (g *greedyCuts) choose(sa, sb []uint64, cand []uint, kmax int) []uint {
	g.ia, g.ib = grow(g.ia, len(sa)), grow(g.ib, len(sb))
	clear(g.ia)
	clear(g.ib)
	g.used = grow(g.used, len(cand))
	clear(g.used)
	g.taken = g.taken[:0]
	return g.more(sa, sb, cand, kmax)
}

// more continues choose on the same sa, sb and cand up to kmax bits (none where kmax is
// no more than those chosen) and returns all of them, in a new slice.
func (g *greedyCuts) more(sa, sb []uint64, cand []uint, kmax int) []uint {
	kmax = min(kmax, len(cand), greedyBitsMax)
	if kmax > len(g.taken) {
		g.z = grow(g.z, 1<<(kmax-1))
	}
	if greedyPrune && kmax > len(g.taken) {
		g.za = grow(g.za, 1<<(kmax-1))
	}
	ia, ib, used := g.ia, g.ib, g.used
	var bound [64]uint64 // by bit
	for k := len(g.taken) + 1; k <= kmax; k++ {
		z := g.z[:1<<(k-1)]
		mask := uint32(len(z) - 1)
		// The candidates in cand's order, or where greedyPrune is set by their bounds:
		// candidate c leaves D(c) pairs fewer, D(c) at most the pairs disjoint on the
		// bits so far whose A holds c (whatever B holds), and at most those whose B
		// holds c; one subset sum of each side a step instead of one a candidate.
		g.by = g.by[:0]
		for c := range cand {
			if !used[c] {
				g.by = append(g.by, c)
			}
		}
		if greedyPrune {
			var u, v [64]uint64
			za := g.za[:len(z)]
			for _, side := range [2]struct {
				from, to []uint64
				idf, idt []uint32
				into     *[64]uint64
			}{{sb, sa, ib, ia, &u}, {sa, sb, ia, ib, &v}} {
				clear(za)
				for i := range side.from {
					za[side.idf[i]]++
				}
				zetaSum(za, k-1)
				for i, s := range side.to {
					n := za[^side.idt[i]&mask]
					for x := s; x != 0; x &= x - 1 {
						side.into[bits.TrailingZeros64(x)] += n
					}
				}
			}
			for _, c := range g.by {
				bound[cand[c]] = min(u[cand[c]], v[cand[c]])
			}
			slices.SortStableFunc(g.by, func(x, y int) int {
				return cmp.Compare(bound[cand[y]], bound[cand[x]])
			})
		}
		best, bestD := -1, uint64(0)
		for _, c := range g.by {
			b := cand[c]
			if greedyPrune && best >= 0 && (bound[b] < bestD || bound[b] == bestD && c > best) {
				if bound[b] < bestD {
					break // the rest are bounded lower still
				}
				continue // a tie it would lose
			}
			clear(z)
			for i, s := range sb {
				z[ib[i]] += s >> b & 1
			}
			zetaSum(z, k-1)
			var d uint64
			for i, s := range sa {
				if s>>b&1 != 0 {
					d += z[^ia[i]&mask]
				}
			}
			if best < 0 || d > bestD || d == bestD && c < best {
				best, bestD = c, d
			}
		}
		used[best] = true
		b := cand[best]
		g.taken = append(g.taken, b)
		for i, s := range sa {
			ia[i] = ia[i]<<1 | uint32(s>>b&1)
		}
		for i, s := range sb {
			ib[i] = ib[i]<<1 | uint32(s>>b&1)
		}
	}
	return append(make([]uint, 0, len(cand)), g.taken...)
}

// zetaSum makes z its subset sums over k bits: z[M] becomes the sum of z[y] over the
// y ⊆ M. Cost k·2^(k−1) additions.
func zetaSum(z []uint64, k int) {
	n := 1 << k
	for i := range k {
		bit := 1 << i
		for blk := 0; blk < n; blk += 2 * bit {
			lo, hi := z[blk:blk+bit], z[blk+bit:blk+2*bit]
			for x := range hi {
				hi[x] += lo[x]
			}
		}
	}
}
