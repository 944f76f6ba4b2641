package join

import "testing"

// TestCountRowSetTree holds every row-set task of n = 12 counted with each class's sieve
// bits in its own order (cutTree: classes of 50 half-boards, sieves of 4 cut bits, the
// row set's greedy order from h = 0) to the whole lists' counts, and checks that the
// tree cut some store otherwise than the row set's order.
func TestCountRowSetTree(t *testing.T) {
	defer func(f, m, p, pb int, l [2]int, h, gh int, g, tr bool, st *sieveTally) {
		sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubB, listMaxForce, storeBMinH, cutGreedyMinH, cutGreedy, cutTree, sieveStats = f, m, p, pb, l, h, gh, g, tr, st
	}(sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubB, listMaxForce, storeBMinH, cutGreedyMinH, cutGreedy, cutTree, sieveStats)
	n := 12
	sieveMinPerSub, sieveBitsForce, listMaxForce = 0, 4, [2]int{}
	cutGreedy, cutTree = false, false
	whole := rowSetResults(t, n)
	sievePerSub, sievePerSubB, storeBMinH, listMaxForce, cutGreedyMinH = 8, 4, 0, [2]int{50, 40}, 0
	cutGreedy = true
	var tallies [2]sieveTally
	for way, tree := range []bool{false, true} {
		cutTree = tree
		sieveStats = &tallies[way]
		cut := rowSetResults(t, n)
		sieveStats = nil
		sameTasks(t, map[bool]string{false: "the row set's greedy order", true: "each class's own order"}[tree], cut, whole)
	}
	o, g := tallies[0], tallies[1]
	t.Logf("row set's order: %d visits, %d (batch, query) pairs, %d raw pair tests; own order (%d stores): %d, %d, %d", o.visits, o.pairs, o.raw, g.trees, g.visits, g.pairs, g.raw)
	if g.trees == 0 {
		t.Error("no store took its own order")
	}
	if o.visits == g.visits && o.pairs == g.pairs && o.raw == g.raw {
		t.Errorf("each class's own order cut every store as the row set's did (%d visits, %d pairs, %d raw pair tests)", o.visits, o.pairs, o.raw)
	}
}

// TestDisjointOn holds disjointOn to the pairs counted one by one.
func TestDisjointOn(t *testing.T) {
	var sa, sb []uint64
	x := uint64(0x9e3779b97f4a7c15)
	for i := range 300 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if i%2 == 0 {
			sa = append(sa, x&0xffff)
		} else {
			sb = append(sb, x&0xffff)
		}
	}
	cut := []uint{3, 9, 0, 15, 7}
	var m uint64
	for _, b := range cut {
		m |= 1 << b
	}
	want := pairsDisjointOn(sa, sb, m)
	var z []uint64
	if got := disjointOn(sa, sb, cut, &z); got != want {
		t.Errorf("disjointOn: %d pairs, counted one by one %d", got, want)
	}
}
