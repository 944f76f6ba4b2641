package join

import (
	"fmt"
	"math/rand/v2"
	"slices"
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

// TestGreedyMore holds greedyCuts.more after choose of k bits to choose of all of them at
// once, for every k.
func TestGreedyMore(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 2))
	cand := []uint{3, 0, 7, 1, 9, 2, 8, 4, 6, 5, 11, 10}
	var sa, sb []uint64
	for i := range 500 {
		x, y := rng.Uint64(), rng.Uint64()
		s := x & y & 0xfff // each bit set one time in four
		if i%3 == 0 {
			s |= (s & 0x3f) << 6 // neighbours together
		}
		if i%2 == 0 {
			sa = append(sa, s)
		} else {
			sb = append(sb, s)
		}
	}
	all := new(greedyCuts).choose(sa, sb, cand, len(cand))
	for k := range len(cand) + 1 {
		g := new(greedyCuts)
		first := g.choose(sa, sb, cand, k)
		got := g.more(sa, sb, cand, len(cand))
		if !slices.Equal(first, all[:k]) || !slices.Equal(got, all) {
			t.Errorf("choose of %d bits %v then more %v, want %v", k, first, got, all)
		}
	}
}

// TestCountRowSetGreedyAfterSplit holds TestCountRowSetGreedy's counts, every task, to the
// whole lists' with greedyOrder's bits taken before the class split and after it
// (greedyAfterSplit).
func TestCountRowSetGreedyAfterSplit(t *testing.T) {
	defer func(f, m, p, pb int, l [2]int, h, gh int, g, a bool, st *sieveTally) {
		sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubB, listMaxForce, storeBMinH, cutGreedyMinH, cutGreedy, greedyAfterSplit, sieveStats = f, m, p, pb, l, h, gh, g, a, st
	}(sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubB, listMaxForce, storeBMinH, cutGreedyMinH, cutGreedy, greedyAfterSplit, sieveStats)
	n := 12
	sieveMinPerSub, sieveBitsForce, listMaxForce = 0, 4, [2]int{}
	cutGreedy = false
	whole := rowSetResults(t, n)
	sievePerSub, sievePerSubB, storeBMinH, listMaxForce, cutGreedyMinH = 8, 4, 0, [2]int{50, 40}, 0
	cutGreedy = true
	var tallies [2]sieveTally
	for way, after := range []bool{false, true} {
		greedyAfterSplit = after
		sieveStats = &tallies[way]
		cut := rowSetResults(t, n)
		sieveStats = nil
		sameTasks(t, map[bool]string{false: "greedyOrder's bits before the split", true: "after the split"}[after], cut, whole)
	}
	t.Logf("greedyOrder's bits before the class split: %d visits, %d (batch, query) pairs; after: %d, %d", tallies[0].visits, tallies[0].pairs, tallies[1].visits, tallies[1].pairs)
}

// BenchmarkGreedyChoose times greedyCuts.choose of greedyBitsMax bits among 45 candidates
// on samples of the sizes greedyOrder takes (2^16 of half A, 2^17 of half B), each
// half-board 14 bits of 54 (as many diagonals of each direction as a half-board of N = 28
// has queens).
func BenchmarkGreedyChoose(b *testing.B) {
	rng := rand.New(rand.NewPCG(49, 3))
	sig := func() uint64 {
		var s uint64
		for bits := 0; bits < 14; {
			if x := uint64(1) << rng.IntN(54); s&x == 0 {
				s |= x
				bits++
			}
		}
		return s
	}
	sa, sb := make([]uint64, greedySample), make([]uint64, 2*greedySample)
	for i := range sa {
		sa[i] = sig()
	}
	for i := range sb {
		sb[i] = sig()
	}
	cand := make([]uint, 45)
	for i := range cand {
		cand[i] = uint(i)
	}
	var g greedyCuts
	for b.Loop() {
		g.choose(sa, sb, cand, greedyBitsMax)
	}
}

// TestGreedyPrune holds greedyCuts.choose with greedyPrune (candidates skipped by their
// bounds) to the same bits as without it, on samples of 14 bits of 54 (ties likely
// among the rarer bits) and of neighbours taken together.
func TestGreedyPrune(t *testing.T) {
	defer func(p bool) { greedyPrune = p }(greedyPrune)
	rng := rand.New(rand.NewPCG(49, 4))
	for round := range 6 {
		var sa, sb []uint64
		for i := range 3000 {
			var s uint64
			for bits := 0; bits < 3+round*2; {
				if x := uint64(1) << rng.IntN(54); s&x == 0 {
					s |= x
					bits++
				}
			}
			if i%4 == 0 {
				s |= (s & 0x3ff) << 10
			}
			if i%3 == 0 {
				sa = append(sa, s)
			} else {
				sb = append(sb, s)
			}
		}
		cand := make([]uint, 54)
		for i := range cand {
			cand[i] = uint((i*7 + round) % 54)
		}
		var got [2][]uint
		for way, prune := range []bool{false, true} {
			greedyPrune = prune
			got[way] = new(greedyCuts).choose(sa, sb, cand, 15)
		}
		if !slices.Equal(got[0], got[1]) {
			t.Errorf("round %d: pruned %v, every candidate %v", round, got[1], got[0])
		}
	}
}
