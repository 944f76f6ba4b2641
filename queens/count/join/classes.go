package join

import (
	"context"
	"math/bits"
	"slices"
	"time"
)

// classBitsMax bounds the cut bits that split half A into classes (countRowSetClasses).
const classBitsMax = 6

// classCandidates returns the frame bits countRowSetClasses may split half A by, in the
// order it takes them: the sieve's order (the diagonals nearest the middle of each
// direction, alternating), of which it takes those some stored half-board has (at even N
// half A leaves the middle ones, the board's long diagonals, empty: rule 2).
func classCandidates(W int) [classCandidatesLen]uint {
	mid := uint(W / 2)
	w := uint(W)
	return [classCandidatesLen]uint{mid, w + mid, mid + 1, w + mid + 1, mid - 1, w + mid - 1, mid + 2, w + mid + 2}
}

const classCandidatesLen = 8

// countRowSetClasses is countRowSet where half A may not fit one part (j.storeMax, h ≥
// 13): half A is split by c cut bits (the diagonals whose cut removes the most pairs of
// this row set, occupancyOrder; classCandidates where cutByOccupancy is off) into the
// classes of the half-boards that agree on them, each stored alone (in runs of j.storeMax where a class is larger),
// and a class with cut bits x meets only the queries with none of x's bits: the sieve's
// cut, made by making the lists again instead of holding them. c is the fewest bits
// that leave no class above j.storeMax (at most classBitsMax), so that each stored class
// is as large as a worker's memory allows and its own sieve (sievePerSubOdd) takes as many
// cut bits as its size pays for: the cut bits of the two levels together grow with the
// whole store, not with the part held (at N = 27 with c = 0 too: the one class's sieve
// is sized by it, not by sieveBitsByN). A first pass over half A counts the classes (one more
// enumeration of A, and B is made again for every part: both small beside the matching
// from h = 13; a class's half-boards and queries drop the pieces off its cut bits before
// their products are made). With c = 0 it is countRowSet's parts. From h =
// cutGreedyOddMinH, where cutGreedy is set, the cut bits of both levels are taken in
// greedyOrder's order (by their joint effect) instead of occupancyOrder's.
//
// The counters are those of the whole lists, as countRowSet's. With only ≥ 0 it matches
// the only-th class that holds half-boards and no other (the sampler of lists_test.go
// times one class so), with only = −2 none (appending the classes' sizes to
// w.classSizes), and then leaves the counters' queries out; it returns the number of such
// classes.
func (w *worker) countRowSetClasses(ctx context.Context, j *subproblem, r rowSet, c *counters, only int) (uint64, int, error) {
	W := 2*j.h - 1
	jb := *j
	jb.forbid(qNE, qSE, j.fdB, j.fuB) // crosses: see countRowSetWhole
	cand := classCandidates(W)
	var prefer []uint
	if cutByOccupancy {
		prefer = w.occupancy(j, &jb, r)
		if greedyCutsFor(j) && prefer != nil {
			// The cut bits of the classes and their sieves together: about
			// log₂(|A| ÷ the sub-store size), |A| from occupancyOrder's sample; ⌊that⌋
			// + 2 for the rounding of each level, and at least the fixed sieve's j.sieve
			// + 1 (one class at N = 29 takes sieveBitsFor's bits).
			prefer = w.greedyOrder(prefer, max(bits.Len(uint(len(w.sampleA)*occupancyStep/classPerSub(j)))+1, j.sieve+1))
		}
		if len(prefer) >= classCandidatesLen {
			copy(cand[:], prefer)
		}
	}
	// Pass 1: how many half-boards each class of the candidate bits holds.
	split := classSplit{cand: cand}
	var stored, kept uint64
	for from := 0; from >= 0; {
		w.sideA, from = w.halfFrom(j, w.sideA[:0], qNW, r.an, r.as, j.colsA, false, southRowOf(j, &w.southA), from, j.storeMax)
		stored += uint64(len(w.sideA))
		kept |= split.add(w.sideA)
	}
	split.choose(kept, j.storeMax)
	cb, outer := split.cb, split.outer
	if sieveStats != nil {
		sieveStats.classBits = cb
	}
	defer func() { w.m.exclude, w.m.perSub, w.m.prefer = 0, 0, nil }()
	w.m.exclude = outer
	w.m.prefer = prefer
	// At N = 27 every class, one alone included, takes its sieve's cut bits by its size:
	// a fixed 13 (sieveBitsByN) made the row sets of one class slower, up to 1.2 times
	// (bench/log/2026-11-28.md, "Issue 33: odd N cheaper"). N = 29 keeps what its cost was
	// measured with: classes of a row set of several, by sievePerSub; even N where half A
	// is stored (storesA) by sievePerSubEvenA.
	if j.h == 13 || cb > 0 {
		w.m.perSub = classPerSub(j)
	}
	var queries uint64
	var n [3]uint64
	first, class := only == -1, 0 // first: the queries are still to count
	for x := range 1 << cb {
		size, X := split.class(x) // X: the class's cut bits, in the frame
		if size == 0 {
			continue
		}
		class++
		if only == -2 {
			w.classSizes = append(w.classSizes, size)
		}
		match := only == -1 || only == class-1
		if !match && !first {
			continue
		}
		for aFrom := 0; aFrom >= 0; {
			// A run of the class: half A made on from aFrom, the other classes dropped.
			w.sideA = w.sideA[:0]
			for aFrom >= 0 && len(w.sideA) < j.storeMax {
				start := len(w.sideA)
				w.sideA, aFrom = w.halfClassFrom(j, w.sideA, qNW, r.an, r.as, j.colsA, false, southRowOf(j, &w.southA), aFrom, j.storeMax, outer&^X)
				k := start
				for _, sig := range w.sideA[start:] {
					w.sideA[k] = sig
					if sig&outer == X {
						k++
					}
				}
				w.sideA = w.sideA[:k]
			}
			if len(w.sideA) == 0 || !match && !first {
				continue
			}
			if match {
				w.m.build(w.sideA, W, j.sieve)
			}
			for b := (queryChunk{}); !b.done; {
				var bad uint64 // the first pass counts every query
				if !first {
					bad = X
				}
				qs := w.nextClassQueries(j, &jb, r, &b, bad)
				for k, q := range qs {
					if first {
						queries += uint64(len(q))
					}
					if !match {
						continue
					}
					i := 0
					for _, sig := range q {
						q[i] = sig
						if sig&X == 0 {
							i++
						}
					}
					n[k] += w.m.countAll(q[:i])
				}
				if err := ctx.Err(); err != nil {
					return 0, 0, err
				}
			}
			first = false
		}
	}
	for b := (queryChunk{}); first && !b.done; { // no half A: the queries still count
		for _, q := range w.nextQueries(j, &jb, r, &b) {
			queries += uint64(len(q))
		}
	}
	if j.kind == subCentre && queries < stored {
		stored, queries = queries, stored
	}
	c.stored += stored
	c.queries += queries
	c.pairTests += stored * queries
	if j.kind == subEven {
		return r.w * (r.w180*n[0] + 2*n[1] + 4*n[2]), class, nil
	}
	return r.w * n[0], class, nil
}

// greedyAfterSplit makes countRowSetStoreB take greedyOrder's first bits (the class
// split's candidates) before the class split and the rest after it, only as many as the
// class bits and the largest class's sieve take (and one more), instead of all the bits
// about log₂(|B| ÷ sievePerSubB) + 2 says before it: the first bits are the same either
// way, and the greedy steps cost most at the last bits. Off: at N = 28 the class bits,
// the largest class's sieve bits and one more are as many as before the split on 5 of
// seed 2005's 6 row sets (18 for 19 on the sixth), so it saved nothing (1 Dec,
// bench/log/2026-11-29-join.md, "Session 18 … tree"). A variable so that the harness can
// compare (CHESSPUZZLES_JOINKMAX=split|before|both).
var greedyAfterSplit = false

// storeLarger makes a row set of even N from h = storeBMinH store its half B, about three
// times its half A at N = 22–28, and query it with half A (countRowSetStoreB) instead of
// the other way round. A variable so that the harness can compare (CHESSPUZZLES_JOINSTORE).
var storeLarger = true

// storeBySize makes a row set of even N from h = storeBySizeMinH store half A
// (countRowSetClasses) where half A holds more than storeAOver times as many half-boards as
// half B, and half B (countRowSetStoreB) otherwise (storesA). Half B is about three times
// half A on average, but not in every row set: at N = 28 a fifth of the sampled row sets'
// time was in those where half A is the larger (2 Dec, bench/log/2026-11-29-join.md,
// "Session 22 … sample", §3), and there the larger half stored takes the more cut bits
// and leaves the fewer lanes a solution. Set where the AVX-512 kernels run, where it was
// measured (as cutGreedy); AVX2 and pure Go store half B. A variable so that the harness
// can compare (CHESSPUZZLES_JOINSTORE=size).
var storeBySize = matchIndexed(8, chunkBits, 1)

// storeBySizeMinH is the least h whose row sets storeBySize chooses for: 14 (N = 28), where
// it was measured. A variable so that tests can run it at small N.
var storeBySizeMinH = 14

// storeAOver is how many times half B's half-boards half A must hold to be stored
// (storeBySize): 1.0, the larger half. At N = 28 half A stored took 0.43–0.75 of half
// B's time on six row sets where it held 1.3–6.3 times as many, 1.02–1.07 of it on two
// where it held 1.02–1.09 times as many, 1.17 on one where it held 0.87 times (session
// 22, §3; sub-stores of 1,024). Then, with the
// rule built, the 160 row sets of that sample's seeds: 33 stored half A, at 0.70 of half
// B's time in all (0.41–0.95 each, but 1.13 at 1.28 times), 3.7 ± 0.9 CPU-s less a row set
// drawn, 0.94 of the sample's time (session 23, "Session 23 … size"). With sub-stores of
// 512 where half A is stored (sievePerSubEvenA), the row sets of those draws between 1.0
// and 1.2 times, both ways alternated: half A stored took 0.75–0.91 of half B's time on
// all six at 1.06–1.2 times, and 0.970 summed on the four at 1.016–1.041 (0.893–0.964,
// one 1.056); so the larger half, from 1.0 ("Session 23 … threshold").
const storeAOver = 1.0

// storesA reports whether row set r of even N stores half A by storeBySize. Where it
// decides by size it makes occupancyOrder's bits (which count both halves) and keeps them
// for the count of r (occupancy), so that they are made once.
func (w *worker) storesA(j *subproblem, r rowSet) bool {
	if !storeBySize || !cutByOccupancy || j.kind != subEven || j.h < storeBySizeMinH {
		return false
	}
	w.occ, w.occReady = w.occupancyOrder(j, j, r), true
	return float64(w.sizeA) > storeAOver*float64(w.sizeB)
}

// countRowSetEven counts row set r of even N from h = storeBMinH (where storeLarger is
// set): half B stored (countRowSetStoreB), or half A (countRowSetClasses) where storesA
// says so. Counters, return values and only are theirs.
func (w *worker) countRowSetEven(ctx context.Context, j *subproblem, r rowSet, c *counters, only int) (uint64, int, error) {
	a := w.storesA(j, r)
	defer func() { w.occReady = false }()
	if a {
		if sieveStats != nil {
			sieveStats.storedA[1]++
		}
		return w.countRowSetClasses(ctx, j, r, c, only)
	}
	if sieveStats != nil {
		sieveStats.storedA[0]++
	}
	return w.countRowSetStoreB(ctx, j, r, c, only)
}

// sievePerSubEvenA is sievePerSub for the classes of an even row set that stores half A
// (storesA, from h = storeBySizeMinH): 512. Measured at N = 28 on eight such row sets of
// session 22's seeds, whole, both ways in one process, alternated (CPU-s summed over the
// eight against 1,024's): 512 0.913 (0.88–0.97 each), 256 0.914 (0.85–1.10)
// (bench/log/2026-11-29-join.md, "Session 23 … size").
var sievePerSubEvenA = 512

// sievePerSubOdd14 is sievePerSub for the classes of odd N from h = 14 (N = 29): 512.
// Measured at N = 29 on 22 row sets drawn uniformly (seeds 2901–2905, 2951–2955), whole,
// both ways in one process, alternated: 0.939 of 1,024's CPU summed over them (the row
// sets of 28–170 CPU-s 0.86–1.00; the mean of the ratios 0.974 ± 0.013, the smallest
// row sets within their noise) (bench/log/2026-11-29-join.md, "Session 23 … size").
var sievePerSubOdd14 = 512

// classPerSub returns the mean sub-store size that the sieves of countRowSetClasses's
// classes aim at for j: sievePerSubEvenA for even N where half A is stored by size,
// sievePerSubOdd at h = 13 (N = 27), sievePerSubOdd14 from h = 14 (N = 29), else
// sievePerSub (N = 28 with half A stored in the harness's comparisons).
func classPerSub(j *subproblem) int {
	switch {
	case j.kind == subEven && j.h >= storeBySizeMinH:
		return sievePerSubEvenA
	case j.h == 13:
		return sievePerSubOdd
	case j.kind != subEven && j.h >= 14:
		return sievePerSubOdd14
	}
	return sievePerSub
}

// storeBMinH is the least h whose even row sets store half B: 11 (N = 22). Measured with
// the AVX2 kernel, sampled row sets (BenchmarkJoinSample, seed 1) alternated against half
// A stored (bench/log/2026-11-29-join.md): N = 20 1.1–1.2 times slower, so it stays
// with A; N = 22 1.16 times faster (median of three pairs), N = 24 1.53. A variable so
// that tests can run it at small N.
var storeBMinH = 11

// sievePerSubWhole is sievePerSub for a row set of h < 13 stored in one class (the whole
// of half B): N = 22, 100 sampled row sets, three runs each at load 22–27, 512: 37.4,
// 39.5, 39.1 ms a row set; 1,024: 42.6, 42.2, 38.5. Row sets of h ≥ 13 in one class keep
// the fixed cut bits of sieveBitsFor, as their cost was measured.
var sievePerSubWhole = 512

// countRowSetStoreB is countRowSetClasses for even N with the roles of the halves
// swapped: half B (its three lists by occupied long-diagonal segments, w.q) is split into
// classes by cut bits and stored a class at a time, a weighted store (sieveMatcher.weighted:
// each half-board weighs what its segments say, 2^segments, or w180 with none, as the
// queries of countRowSetClasses do), and half A is made again for each and queried a
// chunk at a time. The larger half stored gives the two levels of cut bits about log₂ 3
// more bits at the same sub-store size. From h = cutGreedyMinH, where cutGreedy is set,
// the cut bits of both levels are taken in greedyOrder's order (by their joint effect)
// instead of occupancyOrder's. Counters, return values and only are as
// countRowSetClasses's (stored |A|, queries |B|).
func (w *worker) countRowSetStoreB(ctx context.Context, j *subproblem, r rowSet, c *counters, only int) (uint64, int, error) {
	W := 2*j.h - 1
	mid := uint(W / 2)
	long := uint64(1)<<mid | uint64(1)<<(uint(W)+mid) // half A never has these
	cand := classCandidates(W)
	var prefer, occ []uint
	kmax := 0 // where greedyOrder's bits are taken: how many at most
	if cutByOccupancy {
		prefer = w.occupancy(j, j, r)
		if greedyCutsFor(j) && prefer != nil {
			// The cut bits of the classes and their sieves together: about
			// log₂(|B| ÷ sievePerSubB); ⌊that⌋ + 2 for the rounding of each level.
			// Where greedyAfterSplit is set, the class split's candidates first, the
			// rest once the classes are known.
			occ, kmax = prefer, bits.Len(uint(w.sizeB/sievePerSubB))+1
			var t0 time.Duration
			if sieveStats != nil {
				t0 = sieveStats.now()
			}
			if greedyAfterSplit {
				prefer = w.greedyOrder(occ, min(kmax, classCandidatesLen))
			} else {
				prefer = w.greedyOrder(occ, kmax)
				if sieveStats != nil {
					sieveStats.greedyBits = len(w.greedy.taken)
				}
			}
			if sieveStats != nil {
				sieveStats.greedyTime += sieveStats.now() - t0
			}
		}
		if len(prefer) >= classCandidatesLen {
			copy(cand[:], prefer)
		}
	}
	// Pass 1 over half B: how many half-boards each class of the candidate bits holds.
	split := classSplit{cand: cand}
	var queries, kept uint64
	for b := (queryChunk{}); !b.done; {
		for _, q := range w.nextQueries(j, j, r, &b) {
			queries += uint64(len(q))
			kept |= split.add(q)
		}
	}
	kept &^= long
	split.choose(kept, j.storeMax)
	cb, outer := split.cb, split.outer
	if sieveStats != nil {
		sieveStats.classBits = cb
	}
	if occ != nil && greedyAfterSplit {
		// The class bits and the most cut bits a class's sieve takes (its largest,
		// by its size), and one more for a bit some class does not hold.
		big := 0
		for x := range 1 << cb {
			size, _ := split.class(x)
			big = max(big, size)
		}
		ks := j.sieve // as build takes them, with the perSub set below
		perSub := sievePerSubB
		if cb == 0 {
			perSub = 0
			if j.h < 13 {
				perSub = sievePerSubWhole
			}
		}
		if ks > 0 && perSub > 0 {
			ks = min(maxSieveBits, max(1, bits.Len(uint(big/perSub))-1))
		}
		var t0 time.Duration
		if sieveStats != nil {
			t0 = sieveStats.now()
		}
		prefer = w.greedyOrderMore(occ, min(kmax, cb+ks+1))
		if sieveStats != nil {
			sieveStats.greedyTime += sieveStats.now() - t0
			sieveStats.greedyBits = len(w.greedy.taken)
		}
	}
	defer func() {
		w.m.exclude, w.m.perSub, w.m.prefer, w.m.weighted = 0, 0, nil, false
		w.m.qsample, w.m.qclash, w.m.coarse = nil, 0, 0
		w.m.tree, w.m.tsample = false, nil
	}()
	w.m.exclude = outer | long
	w.m.prefer = prefer
	w.m.weighted, w.m.wbits = true, long
	if cb > 0 && prefer != nil && sieveExtraByPairs && sievePerSubB < sievePerSub {
		// The cut bits that sub-stores of sievePerSubB take over sievePerSub's (one at
		// 512), each only where it removes more (batch, query) pairs than its visits
		// cost (extraPays).
		w.m.qsample, w.m.coarse = w.sampleA, sievePerSub
	}
	if cutTree && cutGreedy && j.h >= cutGreedyMinH && cb > 0 && prefer != nil {
		// Each class's sieve bits in its own order (cutTree), chosen on its stored
		// half-boards and occupancyOrder's sample of half A.
		w.m.tree, w.m.tsample = true, w.sampleA
	}
	w.m.wshift = [3]uint8{uint8(r.w180 >> 1), 1, 2} // w180 is 1 or 2 where q[0] is made
	switch {
	case cb > 0:
		w.m.perSub = sievePerSubB
	case j.h < 13:
		w.m.perSub = sievePerSubWhole
	}
	var stored, n uint64
	first, class := only == -1, 0 // first: half A is still to count
	for x := range 1 << cb {
		size, X := split.class(x) // X: the class's cut bits, in the frame
		if size == 0 {
			continue
		}
		class++
		if only == -2 {
			w.classSizes = append(w.classSizes, size)
		}
		if only != -1 && only != class-1 {
			continue
		}
		for b := (queryChunk{}); !b.done; {
			// A run of the class: half B made on from b, the other classes dropped.
			w.sideB = w.sideB[:0]
			for !b.done && len(w.sideB) < j.storeMax {
				// A chunk of at most what the store has room for (and a cell more), so
				// that a run holds no more than j.storeMax and a cell, and the chunk no
				// more than j.queryMax and a cell.
				lim := min(j.queryMax, j.storeMax-len(w.sideB))
				b.from = w.evenBClassFrom(j, r.bn, r.bs, r.w180 != 0, b.from, lim, outer&^X)
				b.done = b.from < 0
				for _, q := range w.q {
					for _, sig := range q {
						if sig&outer == X {
							w.sideB = append(w.sideB, sig)
						}
					}
				}
			}
			if len(w.sideB) == 0 {
				continue
			}
			w.m.qclash = X
			w.m.build(w.sideB, W, j.sieve)
			for aFrom := 0; aFrom >= 0; {
				if first {
					w.sideA, aFrom = w.halfFrom(j, w.sideA[:0], qNW, r.an, r.as, j.colsA, false, southRowOf(j, &w.southA), aFrom, j.queryMax)
					stored += uint64(len(w.sideA))
				} else {
					w.sideA, aFrom = w.halfClassFrom(j, w.sideA[:0], qNW, r.an, r.as, j.colsA, false, southRowOf(j, &w.southA), aFrom, j.queryMax, X)
				}
				i := 0
				for _, sig := range w.sideA {
					w.sideA[i] = sig
					if sig&X == 0 {
						i++
					}
				}
				n += w.m.countAll(w.sideA[:i])
				if err := ctx.Err(); err != nil {
					return 0, 0, err
				}
			}
			first = false
		}
	}
	for aFrom := 0; first && aFrom >= 0; { // no half B: half A still counts
		w.sideA, aFrom = w.halfFrom(j, w.sideA[:0], qNW, r.an, r.as, j.colsA, false, southRowOf(j, &w.southA), aFrom, j.queryMax)
		stored += uint64(len(w.sideA))
	}
	if only != -1 {
		stored = 0
	}
	c.stored += stored
	c.queries += queries
	c.pairTests += stored * queries
	return r.w * n, class, nil
}

// cutByOccupancy chooses countRowSetClasses's cut bits, of the classes and of their
// sieves, by how often the row set's own half-boards occupy each diagonal
// (occupancyOrder) instead of by a fixed order from the middle of each direction out.
// A variable so that the harness can compare the two (CHESSPUZZLES_JOINCUTS=fixed).
var cutByOccupancy = true

// sieveExtraByPairs keeps each cut bit that countRowSetStoreB's sub-stores of
// sievePerSubB (256 or 512 on AVX-512) take over sievePerSub's (1,024) only where it pays
// (sieveMatcher.extraPays). A variable so that the harness can compare it with taking it
// always (CHESSPUZZLES_JOINEXTRA=both).
var sieveExtraByPairs = true

// occupancyStep is the sampling step of occupancyOrder: it counts the diagonals of every
// occupancyStep-th half-board of each side.
const occupancyStep = 16

// occupancyOrder returns the frame bits that both halves of the row set occupy, in
// decreasing order of the share of (stored, query) pairs a cut on the bit removes: the
// product of the shares of half A's and of half B's half-boards (every occupancyStep-th
// one, queries unweighted) that occupy it. So a row set whose queens of A are mostly in
// the north rows (where the down diagonals near the middle cross both halves) is cut on
// down diagonals, not on as many up diagonals as down. It makes both halves once more
// (against dozens of passes of half B in the classes at N = 28), keeps its sample of
// half A in w.sampleA, and where the row set takes greedyOrder's cut bits
// (greedyCutsFor) one of half B for it.
func (w *worker) occupancyOrder(j, jb *subproblem, r rowSet) []uint {
	var occA, occB [64]uint64
	var nA, nB uint64
	tally := func(occ *[64]uint64, sigs []uint64, n *uint64) {
		for i := 0; i < len(sigs); i += occupancyStep {
			for x := sigs[i]; x != 0; x &= x - 1 {
				occ[bits.TrailingZeros64(x)]++
			}
			*n++
		}
	}
	w.sampleA, w.sizeA = w.sampleA[:0], 0
	for from := 0; from >= 0; {
		w.sideA, from = w.halfFrom(j, w.sideA[:0], qNW, r.an, r.as, j.colsA, false, southRowOf(j, &w.southA), from, j.storeMax)
		w.sizeA += len(w.sideA)
		tally(&occA, w.sideA, &nA)
		for i := 0; i < len(w.sideA); i += occupancyStep {
			w.sampleA = append(w.sampleA, w.sideA[i])
		}
	}
	w.sampleB, w.sizeB = w.sampleB[:0], 0
	step := occupancyStep // of sampleB, doubled each time it fills
	for b := (queryChunk{}); !b.done; {
		for _, q := range w.nextQueries(j, jb, r, &b) {
			tally(&occB, q, &nB)
			w.sizeB += len(q)
			if !greedyCutsFor(j) {
				continue
			}
			for i := 0; i < len(q); i += step {
				if len(w.sampleB) == 2*greedySample {
					for k := range greedySample {
						w.sampleB[k] = w.sampleB[2*k]
					}
					w.sampleB, step = w.sampleB[:greedySample], 2*step
				}
				w.sampleB = append(w.sampleB, q[i])
			}
		}
	}
	if nA == 0 || nB == 0 {
		return nil
	}
	type scored struct {
		bit   uint
		score float64
	}
	var sc []scored
	for b := range uint(2 * (2*j.h - 1)) {
		if occA[b] > 0 && occB[b] > 0 {
			sc = append(sc, scored{b, float64(occA[b]) / float64(nA) * float64(occB[b]) / float64(nB)})
		}
	}
	slices.SortStableFunc(sc, func(x, y scored) int {
		switch {
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		return 0
	})
	order := make([]uint, len(sc))
	for i, s := range sc {
		order[i] = s.bit
	}
	return order
}

// occupancy is occupancyOrder(j, jb, r), made once a row set: where storesA has made it
// for row set r to choose the stored half, it returns what storesA kept.
func (w *worker) occupancy(j, jb *subproblem, r rowSet) []uint {
	if w.occReady {
		w.occReady = false
		return w.occ
	}
	return w.occupancyOrder(j, jb, r)
}

// classSplit chooses the classes that countRowSetClasses and countRowSetStoreB store one
// at a time: add counts the stored half's half-boards by their candidate cut bits cand,
// choose takes the fewest of those bits (in cand's order, those some half-board has, at
// most classBitsMax) that leave no class above the store's limit, and class names a class.
type classSplit struct {
	cand [classCandidatesLen]uint
	// hist8 counts the half-boards by their candidate bits in the order of their
	// positions in the frame (one bit-extract of the candidates' mask, ext), in four
	// histograms filled in turn so that equal neighbours do not wait on one counter.
	hist8 [4][1 << classCandidatesLen]int
	ext   bitExtract
	order []uint                 // the candidates some half-board has, in order
	hist  [1 << classBitsMax]int // half-boards by their bits of order
	cb    int                    // the cut bits taken: order[:cb]
	outer uint64                 // the same, in the frame
}

// add counts sigs by their candidate bits and returns their OR. Cost: one bit-extract and
// one increment a half-board (PEXT where the processor has BMI2).
func (c *classSplit) add(sigs []uint64) uint64 {
	if c.ext.mask == 0 {
		var m uint64
		for _, b := range c.cand {
			m |= 1 << b
		}
		c.ext.set(m)
	}
	var kept uint64
	var x [256]uint64
	for len(sigs) > 0 {
		blk := sigs[:min(len(x), len(sigs))]
		sigs = sigs[len(blk):]
		extractAll(x[:], blk, &c.ext)
		for _, sig := range blk {
			kept |= sig
		}
		xs := x[:len(blk)]
		i := 0
		for ; i+4 <= len(xs); i += 4 {
			c.hist8[0][xs[i]&255]++
			c.hist8[1][xs[i+1]&255]++
			c.hist8[2][xs[i+2]&255]++
			c.hist8[3][xs[i+3]&255]++
		}
		for ; i < len(xs); i++ {
			c.hist8[0][xs[i]&255]++
		}
	}
	return kept
}

// choose sets the classes' cut bits among the candidates in kept: the fewest that leave no
// class above limit half-boards (all of them if none do).
func (c *classSplit) choose(kept uint64, limit int) {
	var pos []int // the order's candidates' places in hist8's index
	for _, b := range c.cand {
		if kept>>b&1 != 0 && len(c.order) < classBitsMax {
			c.order, pos = append(c.order, b), append(pos, bits.OnesCount64(c.ext.mask&(1<<b-1)))
		}
	}
	for x8 := range 1 << classCandidatesLen {
		var x int
		for i, p := range pos {
			x |= x8 >> p & 1 << i
		}
		c.hist[x] += c.hist8[0][x8] + c.hist8[1][x8] + c.hist8[2][x8] + c.hist8[3][x8]
	}
	for c.cb = 0; c.cb < len(c.order); c.cb++ {
		var size [1 << classBitsMax]int
		big := 0
		for x, h := range c.hist {
			size[x&(1<<c.cb-1)] += h
			big = max(big, size[x&(1<<c.cb-1)])
		}
		if big <= limit {
			break
		}
	}
	for _, b := range c.order[:c.cb] {
		c.outer |= 1 << b
	}
}

// class returns the size of class x (x < 2^cb) and its cut bits in the frame.
func (c *classSplit) class(x int) (size int, X uint64) {
	for y, h := range c.hist {
		if y&(1<<c.cb-1) == x {
			size += h
		}
	}
	for i, b := range c.order[:c.cb] {
		X |= uint64(x>>i&1) << b
	}
	return size, X
}
