package join

import (
	"math/rand/v2"
	"testing"
)

// TestClassSplit holds the classes of countRowSetClasses and countRowSetStoreB to their
// definition: for random stores and candidate bits (in any order of position), the bits
// taken are the first candidates some half-board has, the fewest that leave no class
// above the limit, and each class's size is the number of half-boards with exactly its
// cut bits, counted one by one.
func TestClassSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		n := rng.IntN(2000)
		sigs := make([]uint64, n)
		for i := range sigs {
			sigs[i] = sparse(rng, 1+rng.IntN(3)) & (1<<50 - 1)
		}
		var cand [classCandidatesLen]uint
		perm := rng.Perm(50)
		for i := range cand {
			cand[i] = uint(perm[i])
		}
		limit := 1 + rng.IntN(max(1, n))
		c := classSplit{cand: cand}
		k := rng.IntN(n + 1) // in two pieces, as the passes add a chunk at a time
		kept := c.add(sigs[:k]) | c.add(sigs[k:])
		var or uint64
		for _, s := range sigs {
			or |= s
		}
		if kept != or {
			t.Fatalf("trial %d: add's OR %#x, want %#x", trial, kept, or)
		}
		c.choose(kept, limit)
		var order []uint
		for _, b := range cand {
			if or>>b&1 != 0 && len(order) < classBitsMax {
				order = append(order, b)
			}
		}
		if len(c.order) != len(order) || c.cb > len(order) {
			t.Fatalf("trial %d: order %v, cut bits %d, want order %v", trial, c.order, c.cb, order)
		}
		for i := range order {
			if c.order[i] != order[i] {
				t.Fatalf("trial %d: order %v, want %v", trial, c.order, order)
			}
		}
		sizes := func(cb int) (map[uint64]int, int) {
			var outer uint64
			for _, b := range order[:cb] {
				outer |= 1 << b
			}
			m := map[uint64]int{}
			big := 0
			for _, s := range sigs {
				m[s&outer]++
				big = max(big, m[s&outer])
			}
			return m, big
		}
		want, big := sizes(c.cb)
		if big > limit && c.cb < len(order) {
			t.Fatalf("trial %d: %d cut bits leave a class of %d above the limit %d", trial, c.cb, big, limit)
		}
		if c.cb > 0 {
			if _, b := sizes(c.cb - 1); b <= limit {
				t.Fatalf("trial %d: %d cut bits taken, %d would do (largest class %d, limit %d)", trial, c.cb, c.cb-1, b, limit)
			}
		}
		total := 0
		for x := range 1 << c.cb {
			size, X := c.class(x)
			if size != want[X] {
				t.Fatalf("trial %d: class %d (bits %#x) holds %d, want %d", trial, x, X, size, want[X])
			}
			if X&^c.outer != 0 {
				t.Fatalf("trial %d: class %d's bits %#x outside the cut bits %#x", trial, x, X, c.outer)
			}
			total += size
		}
		if total != n {
			t.Fatalf("trial %d: classes hold %d, want %d", trial, total, n)
		}
	}
}

// TestCountRowSetStoreBySize holds the counts of even n with the stored half chosen by
// size (storeBySize: half A in classes where it is more than storeAOver times half B,
// else half B) to the whole lists', every task, with occupancyOrder's and greedyOrder's
// cut bits, and checks that both halves were stored in some row sets (else the test would
// hold one path only).
func TestCountRowSetStoreBySize(t *testing.T) {
	defer func(f, m, p, o, pb, ea int, l [2]int, h, sh, gh, go_ int, g, bs bool, st *sieveTally) {
		sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubOdd, sievePerSubB, sievePerSubEvenA, listMaxForce, storeBMinH, storeBySizeMinH, cutGreedyMinH, cutGreedyOddMinH, cutGreedy, storeBySize, sieveStats = f, m, p, o, pb, ea, l, h, sh, gh, go_, g, bs, st
	}(sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubOdd, sievePerSubB, sievePerSubEvenA, listMaxForce, storeBMinH, storeBySizeMinH, cutGreedyMinH, cutGreedyOddMinH, cutGreedy, storeBySize, sieveStats)
	for _, n := range []int{10, 12} {
		sieveMinPerSub, sieveBitsForce, listMaxForce = 0, 4, [2]int{}
		cutGreedy, storeBMinH, storeBySize = false, 11, false
		whole := rowSetResults(t, n)
		sievePerSub, sievePerSubOdd, sievePerSubB, sievePerSubEvenA, storeBMinH, listMaxForce = 8, 8, 4, 6, 0, [2]int{50, 40}
		storeBySize, storeBySizeMinH, cutGreedyMinH, cutGreedyOddMinH = true, 0, 0, 0
		for _, greedy := range []bool{false, true} {
			cutGreedy = greedy
			var tally sieveTally
			sieveStats = &tally
			cut := rowSetResults(t, n)
			sieveStats = nil
			sameTasks(t, "the stored half by size", cut, whole)
			t.Logf("n = %d, greedyOrder %v: half B stored in %d row sets, half A in %d", n, greedy, tally.storedA[0], tally.storedA[1])
			if tally.storedA[0] == 0 || tally.storedA[1] == 0 {
				t.Errorf("n = %d, greedyOrder %v: half B stored in %d row sets, half A in %d: want both", n, greedy, tally.storedA[0], tally.storedA[1])
			}
		}
	}
}

// TestStoreBySizeDefault holds storeBySize to where it was measured: on where the
// AVX-512 kernels run (off on AVX2 and in pure Go) from h = 14 (N = 28), half A stored
// where it holds more half-boards than half B.
func TestStoreBySizeDefault(t *testing.T) {
	want := matchIndexed(8, chunkBits, 1)
	if storeBySize != want || storeBySizeMinH != 14 || storeAOver != 1.0 || sievePerSubEvenA != 512 || sievePerSubOdd14 != 512 {
		t.Errorf("storeBySize %v from h = %d, half A over %g times half B, sub-stores of %d (N = 29: %d); want %v (AVX-512 kernels: %v) from h = 14 over 1.0, of 512 (512)", storeBySize, storeBySizeMinH, storeAOver, sievePerSubEvenA, sievePerSubOdd14, want, want)
	}
}
