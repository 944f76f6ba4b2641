package join

import "testing"

// TestCountRowSetGreedy holds the counts of n = 12 with half B stored in classes and
// their sieves, the cut bits of both taken in greedyOrder's order, to the whole lists',
// every task, and checks that the order cut some stores otherwise than occupancyOrder's
// (else the test would hold nothing new).
func TestCountRowSetGreedy(t *testing.T) {
	defer func(f, m, p, pb int, l [2]int, h, gh int, g bool, st *sieveTally) {
		sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubB, listMaxForce, storeBMinH, cutGreedyMinH, cutGreedy, sieveStats = f, m, p, pb, l, h, gh, g, st
	}(sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubB, listMaxForce, storeBMinH, cutGreedyMinH, cutGreedy, sieveStats)
	n := 12
	sieveMinPerSub, sieveBitsForce, listMaxForce = 0, 4, [2]int{}
	cutGreedy = false
	whole := rowSetResults(t, n)
	sievePerSub, sievePerSubB, storeBMinH, listMaxForce, cutGreedyMinH = 8, 4, 0, [2]int{50, 40}, 0
	var tallies [2]sieveTally
	for way, greedy := range []bool{false, true} {
		cutGreedy = greedy
		sieveStats = &tallies[way]
		cut := rowSetResults(t, n)
		sieveStats = nil
		sameTasks(t, map[bool]string{false: "occupancyOrder's cut bits", true: "greedyOrder's cut bits"}[greedy], cut, whole)
	}
	o, g := tallies[0], tallies[1]
	t.Logf("occupancyOrder: %d visits, %d (batch, query) pairs, %d raw pair tests; greedyOrder: %d, %d, %d", o.visits, o.pairs, o.raw, g.visits, g.pairs, g.raw)
	if o.visits == g.visits && o.pairs == g.pairs && o.raw == g.raw {
		t.Errorf("greedyOrder cut every store as occupancyOrder did (%d visits, %d pairs, %d raw pair tests)", o.visits, o.pairs, o.raw)
	}
}

// TestCutGreedyDefault holds cutGreedy's default to where it was measured: on where the
// AVX-512 kernels run, off on AVX2 and in pure Go.
func TestCutGreedyDefault(t *testing.T) {
	if want := matchIndexed(8, chunkBits, 1); cutGreedy != want || cutGreedyMinH != 14 {
		t.Errorf("cutGreedy %v from h = %d, want %v from h = 14 (AVX-512 kernels: %v)", cutGreedy, cutGreedyMinH, want, want)
	}
}
