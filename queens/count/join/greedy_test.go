package join

import (
	"fmt"
	"testing"
)

// TestCountRowSetGreedy holds the counts of n = 12 with half B stored in classes and
// their sieves (countRowSetStoreB), and of n = 13 with half A stored so (countRowSetClasses,
// odd N's path), the cut bits of both levels taken in greedyOrder's order, to the whole
// lists', every task, and checks that the order cut some stores otherwise than
// occupancyOrder's (else the test would hold nothing new).
func TestCountRowSetGreedy(t *testing.T) {
	defer func(f, m, p, o, pb int, l [2]int, h, gh, go_ int, g bool, st *sieveTally) {
		sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubOdd, sievePerSubB, listMaxForce, storeBMinH, cutGreedyMinH, cutGreedyOddMinH, cutGreedy, sieveStats = f, m, p, o, pb, l, h, gh, go_, g, st
	}(sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubOdd, sievePerSubB, listMaxForce, storeBMinH, cutGreedyMinH, cutGreedyOddMinH, cutGreedy, sieveStats)
	for _, n := range []int{12, 13} {
		t.Run(fmt.Sprint("n", n), func(t *testing.T) {
			sieveMinPerSub, sieveBitsForce, listMaxForce = 0, 4, [2]int{}
			cutGreedy, storeBMinH = false, 11
			whole := rowSetResults(t, n)
			sievePerSub, sievePerSubOdd, sievePerSubB, storeBMinH, listMaxForce = 8, 8, 4, 0, [2]int{50, 40}
			cutGreedyMinH, cutGreedyOddMinH = 0, 0
			var tallies [2]sieveTally
			for way, greedy := range []bool{false, true} {
				cutGreedy = greedy
				sieveStats = &tallies[way]
				cut := rowSetResults(t, n)
				sieveStats = nil
				sameTasks(t, map[bool]string{false: "occupancyOrder's cut bits", true: "greedyOrder's cut bits"}[greedy], cut, whole)
			}
			o, g := tallies[0], tallies[1]
			t.Logf("n = %d, occupancyOrder: %d visits, %d (batch, query) pairs, %d raw pair tests; greedyOrder: %d, %d, %d", n, o.visits, o.pairs, o.raw, g.visits, g.pairs, g.raw)
			if o.visits == g.visits && o.pairs == g.pairs && o.raw == g.raw {
				t.Errorf("n = %d: greedyOrder cut every store as occupancyOrder did (%d visits, %d pairs, %d raw pair tests)", n, o.visits, o.pairs, o.raw)
			}
		})
	}
}

// TestCutGreedyDefault holds cutGreedy's default to where it was measured: on where the
// AVX-512 kernels run, off on AVX2 and in pure Go; from h = 14 on both paths (N = 28 with
// half B stored, N = 29 with half A).
func TestCutGreedyDefault(t *testing.T) {
	if want := matchIndexed(8, chunkBits, 1); cutGreedy != want || cutGreedyMinH != 14 || cutGreedyOddMinH != 14 {
		t.Errorf("cutGreedy %v from h = %d (half B stored), %d (half A), want %v from h = 14 and 14 (AVX-512 kernels: %v)", cutGreedy, cutGreedyMinH, cutGreedyOddMinH, want, want)
	}
}
