package join

import (
	"math/bits"
	"time"
)

// The sieve in front of the matcher. A row set's store is split by k "cut" signature
// bits, the diagonals nearest the middle of each direction (the longest ones, which
// half-boards occupy most often): a stored pattern whose cut bits are x goes to sub-store
// NOT x (within the k bits), and a query whose cut bits are y needs only the sub-stores
// whose index contains y; the others clash on a cut bit with every pattern they hold. So a
// query meets only the patterns that agree with it on the cut bits, about (1 − p²)^k of the
// store for cut bits occupied with probability p on both sides, instead of all of it.
//
// Holes. After the cut, the cut bits of a pattern and a query in a visited sub-store are
// known disjoint, and a bit that no stored pattern has (a long diagonal that half A keeps
// empty at even N, a pre-placed queen's diagonal at odd N) can never clash. Both are
// squeezed out of the matched words by a bit-extract (bitExtract, PEXT where the processor
// has BMI2), so the matcher works on fewer chunks (of chunkWidth bits).
//
// The counters of a task (stored patterns, queries, pair tests) are defined before the
// sieve (store size × queries), so they do not depend on k.

// maxSieveBits bounds the cut bits (a variable so that the harness can raise it:
// CHESSPUZZLES_JOINMAXK).
var maxSieveBits = 14

// sieveBitsByN is k, the cut bits, for each N (index), 0 where the sieve does not pay.
// Measured on one core of a 2-core AMD EPYC (Zen 3, AVX2 kernel with chunk offsets, no
// AVX-512), process CPU time of the same uniformly sampled row sets (100–20,000 of them,
// BenchmarkJoinSample, seed 1) counted with each k in turn, twice, in alternated order,
// the fastest k taken (bench/log/2026-11-25.md, "Session of 25 Nov (second)"):
//
//	N    k tried     ms per row set at each k (mean of two runs)      k
//	16   0 1 2       0.031 0.043 0.045                                0
//	17   0 1 2 3 4   0.034 0.042 0.045 0.052 0.058                    0
//	18   0 1 2 3 4   0.190 0.224 0.217 0.222 0.234                    0
//	19   0 1 2 3 4   0.160 0.188 0.183 0.185 0.195 (one run each,     0
//	                 crosses storing the smaller side)
//	20   2 3 4 5 6   2.31 1.99 1.79 1.79 2.02                         4
//	21   4 5 6 7 8   1.41 1.39 1.35 1.56 2.03                         6
//	22   5 6 7 8     32.9 28.6 26.6 27.9                              7
//	23   6 7 8       20.5 18.1 16.9                                   8
//	24   8 9 10 11 12   664 539 569 579 771; 735 610 632 691          9
//	25   8 9 10 11 12   483 388 339 348 387; 400 357 360 432          10
//	26   8 10 12 13 14  30797 19598 10688 9359 11407; 22524 22939 (12, 13)  13
//	27   8 10 12 13 14  6150 3366 2273 1801 2044                      13
//
// (24–27: one run each of 20, 12, 2 and 2 row sets of seed 7, then of seed 8 after the ";"
// (24, 25: k = 8 9 10 11); load 3–12; bench/log/2026-11-25.md, "Run of 25 November: the join at
// N = 24–27, sieve retuned".) Odd N from 21 on takes more cut bits than its even
// neighbour: a cross's store of half A answers the queries of every a. The larger the
// stores, the more cut bits pay: at N = 26 eight cut bits (the old largest) took 3.3 times
// the time of 13. From N = 26 a row set is counted by classes whose sieves take their cut
// bits by their size instead (sievePerSubOdd, sievePerSub): every class at N = 27, and elsewhere those of
// a row set with more than one; there a nonzero entry here only turns the sieve on.
var sieveBitsByN = [...]int{
	16: 0, 17: 0, 18: 0, 19: 0,
	20: 4, 21: 6, 22: 7, 23: 8,
	24: 9, 25: 10, 26: 13, 27: 13,
}

// sieveBitsForce, when ≥ 0, overrides sieveBitsByN (tests use it to run the sieve at
// small N, where counting is fast).
var sieveBitsForce = -1

// sieveMinPerSub is the least mean sub-store size the sieve splits a store into; tests set
// it to 0 to run the sieve on the small stores of small N.
var sieveMinPerSub = rawMatchMax

// sievePerSub is the mean sub-store size a class part's sieve aims at (see
// countRowSetClasses): its cut bits are ⌊log₂(store/sievePerSub)⌋, at most maxSieveBits.
// Measured on one class of a row set of N = 28 (BenchmarkJoinLists, seed 4, 0x1ac6bb2,
// class 2 of 8, CPU-s of the row set's estimate, load 2–4, 27 Nov): 256: 854; 512: 719,
// 729; 1024: 661, 665; 2048: 797. (The cut bits taken per N, sieveBitsByN, give about
// 500–800 at N = 20–26, for whole stores.) It is countRowSetClasses's at N = 29 (half A
// stored, a store of one weight); countRowSetStoreB's (even N) is sievePerSubB.
var sievePerSub = 1024

// sievePerSubB is sievePerSub for countRowSetStoreB's classes (even N from 26: half B
// stored, weighted): 256 where the AVX-512 kernel weighs bytes, 512 where it weighs
// words, 1,024 without AVX-512. Measured on the
// AVX-512 machine (AMD EPYC, Zen 5), BenchmarkJoinLists, CHESSPUZZLES_JOINCUTS=both with
// CHESSPUZZLES_JOINPERSUB_B, one class of each row set drawn by its size, counted both
// ways in one process in alternating order (30 Nov, bench/log/2026-11-29-join.md,
// "Session 11 … join"): at N = 28 512 took 0.85 ± 0.04 of 1,024's time on 24 classes (14 %
// fewer (batch, query) pairs, 44 % more (query, sub-store) visits), 384 and 768 1.00 and
// 1.02 of 512's; at N = 26 0.96 ± 0.05 on 15 whole row sets. Row sets differ: where a
// cut bit more removes few pairs (the real task 46,756: 3 % fewer) the visits cost more
// than it saves (1.19 and 1.28 of 1,024's time there in one process, 0.97–1.22 as a task):
// so the cut bit that 512 takes over 1,024 is kept only where extraPays predicts it
// saves more (batch, query) pairs than sieveVisitCost times the visits it adds
// (sieveExtraByPairs, countRowSetStoreB; "Session 11 … join2"). On the AVX2 machine (Zen 3, 29 Nov) 512 read 1.002 and 1.036 of 1,024 at N =
// 28, so AVX2 keeps 1,024.
//
// Where the AVX-512 kernel weighs bytes (AVX512BYTES: countBatchesAVX512IndexWeighted,
// runs of one weight padded to 8 lanes), 256, each of its two cut bits over 1,024's kept
// only where extraPays says it pays, from the coarsest (1 Dec, "Session 15 … visit"): on
// 24 classes of N = 28 drawn by their size (seeds 2005 and 2025, both ways in one process,
// alternated) it took 0.956 ± 0.031 of 512's time (seed 2005 0.964 ± 0.026, 2025 0.940 ±
// 0.070). Taking both bits always had read 1.044 and 1.064 on seed 2005's classes
// ("Session 14 … sub").
var sievePerSubB = perSubB(matchIndexed(8, chunkBits, 1), haveMatchAVX512Weighted)

// perSubB is sievePerSubB's figure where the AVX-512 kernels run (avx512), with byte
// weights (bytes), or not.
func perSubB(avx512, bytes bool) int {
	switch {
	case avx512 && bytes:
		return 256
	case avx512:
		return 512
	}
	return 1024
}

// sievePerSubOdd is sievePerSub for countRowSetClasses at N = 27 (half A stored, where
// every class takes its cut bits by its size; N = 29 takes sievePerSub, as measured). Measured at N = 27 (BenchmarkJoinLists,
// 32 row sets, CPU-s a row set, runs alternated, load 1.1–1.3, 28 Nov): seed 9, 512:
// 2.82, 3.05; 1024: 3.06, 3.07; 2048: 3.40, 3.33; seed 6, 256: 3.52, 3.27; 512: 2.95,
// 2.88. The row sets of one large class gain most (up to 1.2 times faster at 512).
var sievePerSubOdd = 512

// sieveBitsFor returns k for n.
func sieveBitsFor(n int) int {
	if sieveBitsForce >= 0 {
		return min(sieveBitsForce, maxSieveBits)
	}
	if n < len(sieveBitsByN) {
		return sieveBitsByN[n]
	}
	return sieveBitsByN[len(sieveBitsByN)-1]
}

// sieveMatcher counts disjoint (stored, query) pairs like matcher, behind a sieve of k cut
// bits and a squeeze of the holes. Its buffers are kept across row sets.
type sieveMatcher struct {
	// exclude holds signature bits the store's patterns all share with one class and
	// its queries never have (countRowSetClasses): never cut bits, never matched. perSub,
	// where positive, chooses k by the store's size (sievePerSub). Both are set by the
	// caller before build.
	exclude uint64
	perSub  int
	// prefer, where set, is the order in which build takes cut bits (occupancyOrder),
	// instead of from the middle of each direction outwards.
	prefer []uint
	// weighted, set by the caller before build, makes a weighted store
	// (countRowSetStoreB): a pattern with c of the bits wbits weighs 2^wshift[c], and its
	// sub-store holds the patterns of each weight in runs of grain lanes of their own
	// (laid out in laid, lvalid and lwts: matcher.resetWeighted). The caller excludes
	// wbits. The grain is weightGrain's unless a test sets grain (8 or 64).
	weighted   bool
	wbits      uint64
	wshift     [3]uint8
	grain      int
	lgrain     int // the grain of the store laid out
	laid       []uint64
	lvalid     []uint64
	lwts       []uint8
	k          int
	cut, keep  bitExtract
	squeeze    bool // matched words are extracted by keep (else used as they are)
	subs       []matcher
	tables     tableArena // the sub-stores' tables (matcher.arena)
	xs, packed []uint64   // per stored pattern: its cut bits, its matched word
	sorted     []uint64   // matched words by sub-store
	qoff       []int      // queries by their cut bits: bucket y is qbuf[qoff[y]:qoff[y+1]]
	qbuf       []uint64
	qx, qc     []uint64
	cb         int      // chunk width of every sub-store (chunkWidth)
	stride     int      // chunks of the widest matched word
	offs       []uint32 // the queries' chunk offsets (chunkOffsets), where the kernel takes them
	start, pos []int    // per sub-store: where its patterns start (build), scatter positions
	// Groups: in a weighted store cut by k ≥ 1 bits, the 2^g sub-stores i0 … i0 + 2^g − 1
	// of an aligned block (i0 a multiple of 2^g, g ≥ 1) are one store, subs[i] for the
	// top one i = i0 + 2^g − 1 (the others empty), laid out from i down to i0. A bucket
	// of queries y meets sub-store i0 + l iff y ⊆ i0 + l: within the group iff the low g
	// bits of y, sel, are a subset of l, and every such l is at least sel, so laid out
	// before it. The bucket is matched against the batches up to the end of member sel,
	// the members it does not meet weighing 0 (matcher.weightsFor). Pairs (g = 1) are
	// never worse than their two sub-stores apart (⌈(a+b)/bw⌉ ≤ ⌈a/bw⌉ + ⌈b/bw⌉ batches for
	// the queries both meet, the same batches for the others), and a larger block is one
	// group where all of it fits in one batch (groupLanes), so that no bucket meets more
	// than one batch where it met one or more before. ends holds the members' byte ends of
	// every group.
	ends []int
	made []bool // per bucket of queries: its chunk offsets are made (countAll)
	// qsample, where set (with coarse, the sub-store size of one cut bit fewer), is a
	// sample of the queries (occupancyOrder's), qclash the bits of those that never meet
	// the store: build then keeps the last cut bit of a weighted store only where
	// extraPays says so.
	qsample []uint64
	qclash  uint64
	coarse  int
	hist    []int     // extraPays's patterns by sub-store and weight
	zeta    []float64 // extraPays's batches and visits by sub-store
	// tree, where set (with tsample, the row set's sample of the queries, and qclash),
	// makes build take its cut bits in treeOrder's order: chosen on this store and the
	// queries that meet it (cutTree). tg, tcand, tsa, tsb and tz are its buffers.
	tree         bool
	tsample      []uint64
	tg           greedyCuts
	tcand        []uint
	tsa, tsb, tz []uint64
}

// sieveVisitCost is what extraPays counts a (query, sub-store) visit as, in (batch,
// query) pairs. Its model leaves out the groups, which make the visits a cut bit adds
// fewer than it counts; 0.1 parts the classes of the real task 46,756 (where the bit
// read 1.1–1.3 times the time) from those of the drawn row sets that gained, by the
// model's pairs saved a visit added (30 Nov, bench/log/2026-11-29-join.md, "Session 11 …
// join2"). Checked with runs of 8 lanes (1 Dec, "Session 15 … visit"): on the classes of
// N = 28 that 0.3 or 1 cut otherwise, both were slower (1 against 0.1 at sub-stores of
// 512: 1.083 ± 0.059 on 7 classes of 24; 0.3 under 256: 1.176 ± 0.132 on 4).
var sieveVisitCost = 0.1

// extraPays reports whether the cut bit last of cut (k ≥ 2 bits) removes more (batch,
// query) pairs from the weighted store sigs than the visits it adds cost, each visit
// counted as sieveVisitCost pairs. Both are predicted on qsample (a sample of the
// queries; those that clash with qclash are left out): a query whose cut bits are Y
// meets the sub-store of the patterns whose cut bits are T iff T and Y are disjoint, and
// a sub-store of L lanes (each weight's run padded to the grain) takes ⌈L / batch⌉
// batches. Groups of sub-stores (which make a fine cut cheaper) are not modelled.
func (s *sieveMatcher) extraPays(sigs []uint64, cut uint64, last uint) bool {
	k := bits.OnesCount64(cut)
	nsub := 1 << k
	s.cut.set(cut)
	s.xs = grow(s.xs, len(sigs))
	extractAll(s.xs, sigs, &s.cut)
	s.hist = grow(s.hist, 3*nsub)
	h := s.hist[:3*nsub]
	clear(h)
	for i, x := range s.xs {
		h[3*x+uint64(bits.OnesCount64(sigs[i]&s.wbits))]++
	}
	grain := s.grain
	if grain == 0 {
		grain = weightGrain(matchWords)
	}
	lanes := func(n int) int { return (n + grain - 1) &^ (grain - 1) }
	bl := 64 * matchWords
	li := bits.OnesCount64(cut & (1<<last - 1)) // last's place in the extracted word
	// Per sub-store T, batches and visits with k bits (1) and with k − 1 (0: T without
	// bit li holds T ∪ {li} too), then summed over the subsets of each mask (zeta).
	s.zeta = grow(s.zeta, 4*nsub)
	z := s.zeta[:4*nsub]
	clear(z)
	b1, v1, b0, v0 := z[:nsub], z[nsub:2*nsub], z[2*nsub:3*nsub], z[3*nsub:]
	for T := range nsub {
		l, l0 := 0, 0
		for c := range 3 {
			l += lanes(h[3*T+c])
			if T>>li&1 == 0 {
				l0 += lanes(h[3*T+c] + h[3*(T|1<<li)+c])
			}
		}
		if l > 0 {
			b1[T], v1[T] = float64((l+bl-1)/bl), 1
		}
		if l0 > 0 {
			b0[T], v0[T] = float64((l0+bl-1)/bl), 1
		}
	}
	for i := range k {
		for T := range nsub {
			if T>>i&1 != 0 {
				u := T &^ (1 << i)
				b1[T] += b1[u]
				v1[T] += v1[u]
				b0[T] += b0[u]
				v0[T] += v0[u]
			}
		}
	}
	mask := uint64(nsub - 1)
	var e0, e1, w0, w1 float64
	step := max(1, len(s.qsample)>>14)
	for i := 0; i < len(s.qsample); i += step {
		q := s.qsample[i]
		if q&s.qclash != 0 {
			continue
		}
		M := ^s.cut.one(q) & mask
		e0 += b0[M]
		e1 += b1[M]
		w0 += v0[M]
		w1 += v1[M]
	}
	return e0-e1 >= sieveVisitCost*(w1-w0)
}

// build prepares the sieve for the store sigs (W-bit diagonal frame per direction, down
// diagonals in bits 0…W−1, up in W…2W−1) with k cut bits.
func (s *sieveMatcher) build(sigs []uint64, W, k int) {
	all := orAll(sigs)
	kept := all
	// Cut bits: from the middle of each direction outwards, alternating, among the bits
	// some stored pattern has (a hole would send every pattern to one sub-store). A store
	// is cut into sub-stores of sieveMinPerSub patterns or more on average (fewer cut bits
	// for a smaller store, none for one that is a single batch or a raw scan already).
	var cut uint64
	kept &^= s.exclude
	if k > 0 && s.perSub > 0 {
		k = min(maxSieveBits, max(1, bits.Len(uint(len(sigs)/s.perSub))-1))
	}
	for k > 0 && len(sigs) < sieveMinPerSub<<k {
		k--
	}
	mid := W / 2
	var order [64]uint8 // the cut bits in the order taken
	if s.tree && k >= 2 {
		// The class's own order (cutTree): its k bits, then extraPays's rule on them.
		for i, b := range s.treeOrder(sigs, kept, k) {
			cut |= 1 << b
			order[i] = uint8(b)
		}
	}
	for i, got := 0, bits.OnesCount64(cut); got < k && i < len(s.prefer); i++ {
		if b := s.prefer[i]; kept>>b&1 != 0 {
			cut |= 1 << b
			order[got] = uint8(b)
			got++
		}
	}
	for d, got := 0, bits.OnesCount64(cut); got < k && d < W; d++ {
		off := mid + (d+1)/2*(1-2*(d&1)) // mid, mid+1, mid−1, mid+2, …
		if off < 0 || off >= W {
			continue
		}
		for _, b := range [2]int{off, W + off} {
			if got < k && kept>>b&1 != 0 && cut>>b&1 == 0 {
				cut |= 1 << b
				order[got] = uint8(b)
				got++
			}
		}
	}
	k = bits.OnesCount64(cut)
	// The cut bits that sub-stores of perSub take over those of coarse (one where perSub
	// is half of coarse, two where it is a quarter) are kept only where they pay
	// (extraPays), from the coarsest: each against the cut of one bit fewer, and none
	// after the first that does not pay.
	if s.qsample != nil && s.weighted && s.coarse > 0 {
		kc := min(maxSieveBits, max(1, bits.Len(uint(len(sigs)/s.coarse))-1))
		var c uint64
		for e := range min(kc, k) {
			c |= 1 << order[e]
		}
		for e := kc; e < k; e++ { // bit order[e] on top of the e bits of c (e ≥ 1)
			pays := s.extraPays(sigs, c|1<<order[e], uint(order[e]))
			if sieveStats != nil {
				if pays {
					sieveStats.extra[1]++
				} else {
					sieveStats.extra[0]++
				}
			}
			if !pays {
				cut = c
				break
			}
			c |= 1 << order[e]
		}
		k = bits.OnesCount64(cut)
	}
	s.k = k
	if sieveStats != nil {
		sieveStats.builds++
		sieveStats.stored += len(sigs)
		sieveStats.byK[k]++
		sieveStats.storedByK[k] += len(sigs)
	}
	keep := kept &^ cut
	// Squeeze when it saves a chunk, of the width the squeezed word would take.
	cb := chunkWidth(bits.OnesCount64(keep), W)
	s.cb = cb
	s.squeeze = (bits.OnesCount64(keep)+cb-1)/cb < (bits.Len64(kept)+cb-1)/cb
	if s.squeeze || k > 0 {
		s.stride = max(1, (bits.OnesCount64(keep)+cb-1)/cb)
	} else {
		s.stride = max(1, (bits.Len64(kept)+cb-1)/cb)
	}
	nsub := 1 << k
	if len(s.subs) < nsub {
		s.subs = append(s.subs, make([]matcher, nsub-len(s.subs))...)
	}
	// The sub-stores' tables from one arena, emptied here: the last store's are done with.
	s.tables.reset()
	for i := range s.subs[:nsub] {
		s.subs[i].arena = &s.tables
	}
	if s.weighted {
		s.lgrain = s.grain
		if s.lgrain == 0 {
			s.lgrain = weightGrain(matchWords)
		}
		// Each class of a sub-store padded to lgrain lanes, each store to a word.
		lanes := len(sigs) + (3*(s.lgrain-1)+63)*nsub
		s.laid = grow(s.laid, lanes)[:0]
		s.lvalid = grow(s.lvalid, lanes/64)[:0]
		s.lwts = grow(s.lwts, lanes/8)[:0]
	}
	if k == 0 {
		m := &s.subs[0]
		m.sigs = sigs
		if s.squeeze {
			s.keep.set(keep)
			s.packed = grow(s.packed, len(sigs))
			extractAll(s.packed, sigs, &s.keep)
			m.sigs = s.packed
		}
		if s.weighted {
			// By weight: a counting sort of the patterns on their classes.
			s.xs = grow(s.xs, len(sigs))
			for i, x := range sigs {
				s.xs[i] = uint64(bits.OnesCount64(x & s.wbits))
			}
			s.sorted, s.start = s.bucketSort(s.sorted, s.start, m.sigs, s.xs, 3)
			s.ends = grow(s.ends, 1)[:0]
			s.layOut(m, s.sorted, s.start, 1)
		} else {
			// Built by countAll, which knows the queries; the OR of the store is known
			// (the OR of the squeezed words is the squeeze of the OR).
			or := all
			if s.squeeze {
				or = s.keep.one(all)
			}
			m.resetKept(m.sigs, or)
		}
		m.cb = cb
		return
	}
	s.squeeze = true
	s.cut.set(cut)
	s.keep.set(keep)
	s.xs = grow(s.xs, len(sigs))
	s.packed = grow(s.packed, len(sigs))
	extractAll(s.xs, sigs, &s.cut)
	extractAll(s.packed, sigs, &s.keep)
	// Sub-store NOT x.
	mask := uint64(nsub - 1)
	for i, x := range s.xs {
		s.xs[i] = ^x & mask
	}
	if s.weighted {
		// Sub-store by sub-store, each by weight (keys 3i + c), the sub-stores of each
		// group laid out as one store (see Groups above).
		for i, x := range s.xs {
			s.xs[i] = 3*x + uint64(bits.OnesCount64(sigs[i]&s.wbits))
		}
		s.sorted, s.start = s.bucketSort(s.sorted, s.start, s.packed, s.xs, 3*nsub)
		s.ends = grow(s.ends, nsub)[:0]
		g := min(k, groupBitsMax)
		for i0 := 0; i0 < nsub; i0 += 1 << g {
			s.group(i0, g, cb)
		}
		return
	}
	s.sorted, s.start = s.bucketSort(s.sorted, s.start, s.packed, s.xs, nsub)
	start := s.start
	for i := range nsub {
		m := &s.subs[i]
		m.reset(s.sorted[start[i]:start[i+1]])
		m.cb = cb
	}
}

// groupBitsMax bounds the g of sieveMatcher's groups: 16 sub-stores a group at most.
const groupBitsMax = 4

// groupLanes is the most lanes of a group of more than two sub-stores: one batch.
func groupLanes() int { return 64 * matchWords }

// group lays out the aligned block of 2^g sub-stores from i0 (g ≥ 1) as one group where
// it is a pair or fits in groupLanes, else each half of it the same way.
func (s *sieveMatcher) group(i0, g, cb int) {
	if g > 1 {
		lanes := 0
		for i := i0; i < i0+1<<g; i++ {
			for c := range 3 {
				lanes += (s.start[3*i+c+1] - s.start[3*i+c] + s.lgrain - 1) &^ (s.lgrain - 1)
			}
		}
		if lanes > groupLanes() {
			s.group(i0, g-1, cb)
			s.group(i0+1<<(g-1), g-1, cb)
			return
		}
	}
	top := i0 + 1<<g - 1
	for i := i0; i < top; i++ {
		s.subs[i].reset(nil)
	}
	m := &s.subs[top]
	s.layOut(m, s.sorted, s.start[3*i0:3*top+4], 1<<g)
	m.cb = cb
}

// layOut appends to s.laid one weighted store of n members and makes it m's
// (matcher.resetWeighted): member l < n being the patterns sorted[start[3l+c]:start[3l+c+1]]
// of each weight class c < 3, laid out from member n − 1 down to 0, each class's run
// padded to whole runs of s.lgrain lanes (so that a byte of lanes, or a word, has one
// weight), the store to whole words. build sizes the buffers so that they never move.
func (s *sieveMatcher) layOut(m *matcher, sorted []uint64, start []int, n int) {
	l0 := len(s.laid) // a whole word
	e0 := len(s.ends)
	s.ends = s.ends[:e0+n]
	for l := n - 1; l >= 0; l-- {
		for c := range 3 {
			g := sorted[start[3*l+c]:start[3*l+c+1]]
			if len(g) == 0 {
				continue
			}
			at := len(s.laid)
			s.laid = append(s.laid, g...)
			s.laid = append(s.laid, make([]uint64, -len(g)&(s.lgrain-1))...)
			s.setLanes(at, len(g), len(s.laid)-at, uint8(1)<<s.wshift[c])
		}
		s.ends[e0+l] = (len(s.laid) - l0) / 8
	}
	s.laid = append(s.laid, make([]uint64, -len(s.laid)&63)...)
	s.lvalid = s.lvalid[:len(s.laid)/64]
	s.lwts = s.lwts[:len(s.laid)/8]
	w0 := l0 / 64
	m.resetWeighted(s.laid[l0:len(s.laid):len(s.laid)], s.lvalid[w0:len(s.lvalid):len(s.lvalid)], s.lwts[8*w0:len(s.lwts):len(s.lwts)], s.ends[e0:e0+n:e0+n], s.lgrain == 64)
}

// setLanes marks the n lanes of s.laid from l valid and the bytes of the run of span
// lanes from l (l and span multiples of 8) as weighing wt, growing lvalid and lwts over
// them.
func (s *sieveMatcher) setLanes(l, n, span int, wt uint8) {
	end := l + span
	if w := (end + 63) / 64; len(s.lvalid) < w {
		n0 := len(s.lvalid)
		s.lvalid = s.lvalid[:w]
		clear(s.lvalid[n0:])
		s.lwts = s.lwts[:8*w]
		clear(s.lwts[8*n0:])
	}
	for k := l / 8; k < end/8; k++ {
		s.lwts[k] = wt
	}
	for i := l; i < l+n; {
		w, b := i/64, i%64
		r := min(64-b, l+n-i)
		v := ^uint64(0)
		if r < 64 {
			v = (1<<r - 1) << b
		}
		s.lvalid[w] |= v
		i += r
	}
}

// countAll returns the number of disjoint (stored, query) pairs over the queries qs.
func (s *sieveMatcher) countAll(qs []uint64) uint64 {
	if len(qs) == 0 {
		return 0
	}
	if s.k == 0 {
		m := &s.subs[0]
		m.use(len(qs))
		if s.squeeze {
			s.qc = grow(s.qc, len(qs))
			extractAll(s.qc, qs, &s.keep)
			qs = s.qc
		}
		var offs []uint32
		// Below 3 batches the offsets cost what they save, but only the offsets kernel
		// takes wide chunks.
		if !m.raw && (!s.weighted || lanesOffsets(m.bw)) && (m.nb > 2 || s.cb != chunkBits) && matchOffsets(m.bw) && !matchIndexed(m.bw, m.cb, m.nch) {
			s.offs = chunkOffsets(s.offs, qs, s.stride, m.bw, s.cb)
			offs = s.offs
		}
		if sieveStats != nil && sieveStats.tally(m, len(qs), 0, s.weighted) {
			return 0
		}
		return m.countAll(qs, offs, s.stride)
	}
	nsub := 1 << s.k
	s.qx = grow(s.qx, len(qs))
	s.qc = grow(s.qc, len(qs))
	extractAll(s.qx, qs, &s.cut)
	extractAll(s.qc, qs, &s.keep)
	s.qbuf, s.qoff = s.bucketSort(s.qbuf, s.qoff, s.qc, s.qx, nsub)
	// A bucket's chunk offsets are made when a batched (not raw) sub-store first meets it.
	useOffs := matchOffsets(matchWords) && (!s.weighted || lanesOffsets(matchWords))
	s.made = grow(s.made, nsub)
	made := s.made
	clear(made)
	if useOffs {
		s.offs = grow(s.offs, len(s.qbuf)*s.stride)
	}
	// Sub-store i meets the queries of every bucket y ⊆ i; whether they are scanned raw
	// or through batches is decided (matcher.use) by how many they are.
	var n uint64
	for i := range nsub {
		m := &s.subs[i]
		if len(m.sigs) == 0 {
			continue
		}
		if !m.built {
			nq := 0
			for y := i; ; y = (y - 1) & i {
				nq += s.qoff[y+1] - s.qoff[y]
				if y == 0 {
					break
				}
			}
			m.use(nq)
		}
		for y := i; ; y = (y - 1) & i {
			if lo, hi := s.qoff[y], s.qoff[y+1]; lo < hi {
				var o []uint32
				if useOffs && !m.raw && !matchIndexed(m.bw, m.cb, m.nch) {
					o = s.offs[lo*s.stride : hi*s.stride]
					if !made[y] {
						chunkOffsets(o, s.qbuf[lo:hi], s.stride, matchWords, s.cb)
						made[y] = true
					}
				}
				switch {
				case sieveStats != nil && sieveStats.tally(m, hi-lo, y, s.weighted):
				case s.weighted:
					// The group's members that y meets (see Groups): i's low bits are all
					// ones.
					n += m.countWeighted(s.qbuf[lo:hi], o, s.stride, m.weightsFor(y&(len(m.wend)-1)))
				default:
					n += m.countAll(s.qbuf[lo:hi], o, s.stride)
				}
			}
			if y == 0 {
				break
			}
		}
	}
	return n
}

// bucketSort is a counting sort: it returns in dst the vals grouped by their keys (each
// below nb; vals in their order within a bucket) and in start the nb+1 bounds of the
// buckets, bucket b being dst[start[b]:start[b+1]]. dst and start are reused (grown as
// needed); s.pos is its scratch. Cost: two passes over keys and one over the buckets.
func (s *sieveMatcher) bucketSort(dst []uint64, start []int, vals, keys []uint64, nb int) ([]uint64, []int) {
	dst = grow(dst, len(vals))
	start = grow(start, nb+1)
	clear(start)
	for _, b := range keys {
		start[b+1]++
	}
	for i := 1; i <= nb; i++ {
		start[i] += start[i-1]
	}
	s.pos = grow(s.pos, nb+1)
	pos := s.pos
	copy(pos, start)
	for i, b := range keys {
		dst[pos[b]] = vals[i]
		pos[b]++
	}
	return dst, start
}

// grow returns b resliced to length n, reallocated if its capacity is short.
func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n, n+n/4)
	}
	return b[:n]
}

// sieveStats, where set (the harness's CHESSPUZZLES_JOINSTATS), tallies what the sieves
// of a worker do: their stores, cut bits and the (batch, query) pairs their kernels take.
// With dry set it only tallies: no pair is matched, and counts read 0. Nil in a count.
var sieveStats *sieveTally

// sieveTally is sieveStats's record.
type sieveTally struct {
	dry    bool
	builds int     // stores built
	stored int     // their patterns
	byK    [24]int // stores by their cut bits k
	visits int     // (query, non-empty sub-store or group) meetings
	raw    int     // raw pair tests
	pairs  int     // (batch, query) pairs
	valid  int     // of their lanes, those holding a pattern that counts for the query
	runs   int     // of their lanes, those of the weight runs that count (valid and their padding)
	subLen int     // the lanes of the sub-stores (or groups' prefixes) met, summed over visits
	extra  [2]int  // extraPays's verdicts on an extra cut bit: dropped, kept
	// storedByK holds the stores' patterns by their k; classBits the cut bits of the
	// classes (countRowSetClasses, countRowSetStoreB) of the last row set.
	storedByK [24]int
	classBits int
	// trees counts the stores whose cut bits treeOrder chose, treeTime its time (wall),
	// treeRowSet and treeOwn what their samples predict the row set's order and theirs
	// leave on the first k bits (the (stored, query) pairs disjoint on them, weighted by
	// each store's pairs).
	trees               int
	treeTime            time.Duration
	treeRowSet, treeOwn float64
	// greedyTime is greedyOrder's time (countRowSetStoreB), greedyBits the bits it
	// ordered in the last row set, both read on statsClock.
	greedyTime time.Duration
	greedyBits int
	// storedA counts the row sets of countRowSetEven by the half stored: B, A.
	storedA [2]int
	// pairsByLen counts the (batch, query) pairs by the matched width of their store
	// (bits.Len64 of the OR of its squeezed patterns: what sets its chunks).
	pairsByLen [65]int
}

// statsClock, where set (by the harness: the process's CPU time), is what sieveTally's
// times are read on, else the wall clock.
var statsClock func() time.Duration

// now reads statsClock.
func (t *sieveTally) now() time.Duration {
	if statsClock != nil {
		return statsClock()
	}
	return time.Duration(time.Now().UnixNano())
}

// tally records a bucket of nq queries meeting m (the member mask y of a group where m is
// weighted) and reports whether the bucket is to be left unmatched (dry).
func (t *sieveTally) tally(m *matcher, nq, y int, weighted bool) bool {
	t.visits += nq
	lanes, valid, runs := len(m.sigs), len(m.sigs), len(m.sigs)
	if weighted {
		wts := m.weightsFor(y & (len(m.wend) - 1))
		lanes, valid, runs = 8*len(wts), 0, 0
		for k, wt := range wts {
			if wt != 0 && k/8 < len(m.wvalid) {
				valid += bits.OnesCount64(m.wvalid[k/8] >> (8 * (k % 8)) & 0xff)
				runs += 8
			}
		}
	}
	t.subLen += nq * valid
	if m.raw {
		t.raw += nq * valid
	} else {
		per := 64 * m.bw
		t.pairs += nq * ((lanes + per - 1) / per)
		var or uint64
		for _, x := range m.sigs {
			or |= x
		}
		t.pairsByLen[bits.Len64(or)] += nq * ((lanes + per - 1) / per)
		t.valid += nq * valid
		t.runs += nq * runs
	}
	return t.dry
}
