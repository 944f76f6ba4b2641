package join

import "time"

// cutTree makes each class of countRowSetStoreB take its sieve's cut bits in an order
// chosen greedily on that class's own stored half-boards and the queries that can meet
// it (those with none of its class bits), instead of the row set's order after the
// class bits (greedyOrder's): a decision tree of depth 2 (class bits, then each class's
// own sieve bits) instead of one order. It applies where greedyOrder's order is taken
// (cutGreedy, from h = cutGreedyMinH). Off: dry at N = 28 (14 row sets, seeds 2005 and
// 2025) it left 0.996 and 0.991 of the row set's order's (batch, query) pairs at 0.98
// and 1.05 of its visits, for 0.2–2 s a row set (1 Dec, bench/log/2026-11-29-join.md,
// "Session 18 … tree"): the row set's greedy order is already about as good on each
// class. A variable so that the harness can compare (CHESSPUZZLES_JOINTREE=on|off|both).
var cutTree = false

// treeSample bounds the half-boards of each side that a class's sieve order is chosen
// on (its stored half-boards thinned, the queries of the row set's sample that meet it).
// A variable so that the harness can try others (CHESSPUZZLES_JOINTREESAMPLE).
var treeSample = 1 << 12

// treeExamine bounds the queries of the row set's sample that a class examines for its
// own (those with none of its class bits).
const treeExamine = 1 << 16

// treeOrder returns the k cut bits of the store sigs (k ≥ 2) in the order greedyCuts.choose
// takes them on a sample of sigs and of s.tsample's queries that meet the store (none of
// s.qclash's bits), among the first k + treeExtraCand bits of s.prefer that kept holds.
// It returns nil where there is no query in the sample (the caller keeps prefer's order).
func (s *sieveMatcher) treeOrder(sigs []uint64, kept uint64, k int) []uint {
	var t0 time.Duration
	if sieveStats != nil {
		t0 = sieveStats.now()
	}
	s.tcand = s.tcand[:0]
	for _, b := range s.prefer {
		if kept>>b&1 != 0 && len(s.tcand) < k+treeExtraCand {
			s.tcand = append(s.tcand, b)
		}
	}
	s.tsb = s.tsb[:0]
	step := max(1, (len(sigs)+treeSample-1)/treeSample)
	for i := 0; i < len(sigs); i += step {
		s.tsb = append(s.tsb, sigs[i])
	}
	s.tsa = s.tsa[:0]
	step = max(1, len(s.tsample)/treeExamine)
	examined := 0
	for i := 0; i < len(s.tsample); i += step {
		examined++
		if q := s.tsample[i]; q&s.qclash == 0 {
			s.tsa = append(s.tsa, q)
		}
	}
	if len(s.tsa) == 0 || len(s.tcand) < k {
		return nil
	}
	met := len(s.tsa)
	if len(s.tsa) > treeSample {
		n, step := 0, (len(s.tsa)+treeSample-1)/treeSample
		for i := 0; i < len(s.tsa); i += step {
			s.tsa[n] = s.tsa[i]
			n++
		}
		s.tsa = s.tsa[:n]
	}
	order := s.tg.choose(s.tsa, s.tsb, s.tcand, k)
	if sieveStats != nil {
		t := sieveStats
		t.treeTime += t.now() - t0
		t.trees++
		// What the class's sample says each order leaves: its pairs disjoint on the
		// first k bits of the row set's order (prefer's, as build takes them without
		// the tree) and on the tree's, weighted by the class's pairs (stored half-boards
		// times the share of the examined queries that meet it).
		pass := float64(met) / float64(examined)
		wt := float64(len(sigs)) * pass / (float64(len(s.tsa)) * float64(len(s.tsb)))
		t.treeRowSet += wt * float64(disjointOn(s.tsa, s.tsb, s.tcand[:k], &s.tz))
		t.treeOwn += wt * float64(disjointOn(s.tsa, s.tsb, order, &s.tz))
	}
	return order
}

// treeExtraCand is how many of prefer's bits beyond the k a class takes are candidates
// for its own order. A variable so that the harness can try others
// (CHESSPUZZLES_JOINTREECAND).
var treeExtraCand = 16

// disjointOn counts the pairs of (sa, sb) disjoint on all the bits of cut (at most
// greedyBitsMax), z its buffer.
func disjointOn(sa, sb []uint64, cut []uint, z *[]uint64) uint64 {
	k := len(cut)
	*z = grow(*z, 1<<k)
	h := (*z)[:1<<k]
	clear(h)
	id := func(s uint64) int {
		x := 0
		for i, b := range cut {
			x |= int(s>>b&1) << i
		}
		return x
	}
	for _, s := range sb {
		h[id(s)]++
	}
	zetaSum(h, k)
	var d uint64
	mask := 1<<k - 1
	for _, s := range sa {
		d += h[^id(s)&mask]
	}
	return d
}
