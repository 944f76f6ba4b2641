package join

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestExtractTwins holds the bit-extract (pure Go, and PEXT where this machine has BMI2)
// to its definition, bit by bit, on random words and masks of a few runs and of many.
func TestExtractTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	masks := []uint64{0, 1, ^uint64(0), 1 << 63, 0x5555555555555555, 0xaaaaaaaaaaaaaaaa, 0x0000_0003_fffb_ffbf}
	for range 200 {
		masks = append(masks, rng.Uint64(), sparse(rng, 3), ^sparse(rng, 2))
	}
	src := make([]uint64, 100)
	for i := range src {
		src[i] = rng.Uint64()
	}
	src[0], src[1] = 0, ^uint64(0)
	for _, mask := range masks {
		checkExtract(t, mask, src)
	}
}

// sparse returns the AND of k random words: each bit set with probability 2^−k.
func sparse(rng *rand.Rand, k int) uint64 {
	x := ^uint64(0)
	for range k {
		x &= rng.Uint64()
	}
	return x
}

// checkExtract compares extractGo and extractAll with the definition for one mask.
func checkExtract(t *testing.T, mask uint64, src []uint64) {
	t.Helper()
	var e bitExtract
	e.set(mask)
	got, got2 := make([]uint64, len(src)), make([]uint64, len(src))
	extractGo(got, src, &e)
	extractAll(got2, src, &e)
	for i, x := range src {
		var want uint64
		o := 0
		for b := range 64 {
			if mask>>b&1 != 0 {
				want |= (x >> b & 1) << o
				o++
			}
		}
		if got[i] != want || got2[i] != want || e.one(x) != want {
			t.Fatalf("extract of %#x by %#x: go %#x, in use %#x (PEXT %v), want %#x", x, mask, got[i], got2[i], havePEXT, want)
		}
	}
}

// FuzzExtract holds the bit-extract twins to the definition on fuzzed words and masks.
func FuzzExtract(f *testing.F) {
	f.Add(uint64(0x0123456789abcdef), uint64(0x00ff00ff00ff00ff), uint64(1))
	f.Add(^uint64(0), ^uint64(0), uint64(0))
	f.Fuzz(func(t *testing.T, x, mask, y uint64) {
		checkExtract(t, mask, []uint64{x, y, x ^ y})
	})
}

// TestSieveMatcher holds the sieve to the definition: for random stores and queries of
// several sizes, widths and cut bits, the count of stored signatures disjoint from each
// query, pair by pair. Stores have holes (bits no pattern has) as half-boards do. Every
// case runs with wide chunks wherever they save a chunk (wideChunkMin 0) and never. One
// matcher a k serves every case of that k, as a worker's serves its row sets: fresh in
// the first, and after that on buffers a store of another size, width or chunk width
// left behind. (A fresh one a case made 2^14 sub-store matchers, 77 MB, 36 times over
// at k = 14: 70 % of the test's time under -race was the race detector's range checks
// of those allocations.)
func TestSieveMatcher(t *testing.T) {
	defer func(f, m, w, x int) {
		sieveBitsForce, sieveMinPerSub, wideChunkMin, wideChunkAVX512W = f, m, w, x
	}(sieveBitsForce, sieveMinPerSub, wideChunkMin, wideChunkAVX512W)
	sieveMinPerSub, wideChunkAVX512W = 0, 0
	rng := rand.New(rand.NewPCG(5, 6))
	byK := map[int]*sieveMatcher{}
	for _, wideMin := range []int{0, 1 << 30} {
		wideChunkMin = wideMin
		for _, W := range []int{9, 17, 21} {
			for _, size := range []int{0, 1, 47, 300, 1500, 5000} {
				for _, k := range []int{0, 1, 3, 6, 8, 11, maxSieveBits} { // 9–13 are used from N = 24
					sieveBitsForce = k
					width := uint(2 * W)
					holes := uint64(1)<<(W/2) | uint64(1)<<(W+W/2) | uint64(1)<<(W/2+2)
					sigs := make([]uint64, size)
					for i := range sigs {
						sigs[i] = sparse(rng, 2) & (1<<width - 1) &^ holes
					}
					qs := make([]uint64, 200)
					for i := range qs {
						qs[i] = sparse(rng, 3) & (1<<width - 1)
					}
					var want uint64
					for _, q := range qs {
						for _, s := range sigs {
							if s&q == 0 {
								want++
							}
						}
					}
					s := byK[k]
					if s == nil {
						s = new(sieveMatcher)
						byK[k] = s
					}
					s.build(sigs, W, k)
					if got := s.countAll(qs); got != want {
						t.Errorf("W %d, store %d, k %d (used %d), chunks of %d: countAll = %d, want %d", W, size, k, s.k, s.cb, got, want)
					}
					// Again on the same buffers, with fewer queries.
					want = 0
					for _, q := range qs[:50] {
						for _, s := range sigs {
							want += uint64(bits.OnesCount64(^(s & q)) / 64)
						}
					}
					if got := s.countAll(qs[:50]); got != want {
						t.Errorf("W %d, store %d, k %d, wide from %d again: countAll = %d, want %d", W, size, k, wideMin, got, want)
					}
				}
			}
		}
	}
}

// TestSieveWeighted holds the sieve of a weighted store (countRowSetStoreB: a pattern
// with c of the bits wbits weighs 2^wshift[c]; sub-stores in groups; runs of one weight a
// byte and a word long) to the definition, pair by pair, for random stores of several sizes (small ones leave
// sub-stores of a batch or less, raw or batched), cut bits and widths, and again with
// fewer queries on the same buffers. -short takes a quarter of the cases.
func TestSieveWeighted(t *testing.T) {
	defer func(m, w, x int) { sieveMinPerSub, wideChunkMin, wideChunkAVX512W = m, w, x }(sieveMinPerSub, wideChunkMin, wideChunkAVX512W)
	sieveMinPerSub, wideChunkAVX512W = 0, 0
	rng := rand.New(rand.NewPCG(7, 8))
	Ws, sizes, ks := []int{9, 21}, []int{0, 1, 70, 300, 1500, 5000}, []int{0, 1, 2, 5, 9}
	wideMins := []int{0, 1 << 30}
	if testing.Short() {
		Ws, sizes, ks, wideMins = []int{21}, []int{0, 1, 70, 1500}, []int{0, 1, 5}, []int{0}
	}
	for i := range 2 * len(wideMins) {
		wideMin, grain := wideMins[i/2], 8<<(3*(i%2)) // runs of a byte and of a word
		wideChunkMin = wideMin
		for _, W := range Ws {
			long := uint64(1)<<(W/2) | uint64(1)<<(W+W/2)
			for _, size := range sizes {
				for _, k := range ks {
					sigs := make([]uint64, size)
					for i := range sigs {
						sigs[i] = sparse(rng, 2) & (1<<(2*W) - 1)
					}
					qs := make([]uint64, 300)
					for i := range qs {
						qs[i] = sparse(rng, 3) & (1<<(2*W) - 1) &^ long // queries never have wbits
					}
					shift := [3]uint8{uint8(rng.IntN(2)), 1, 2}
					want := func(qs []uint64) uint64 {
						var n uint64
						for _, q := range qs {
							for _, s := range sigs {
								if s&q == 0 {
									n += 1 << shift[bits.OnesCount64(s&long)]
								}
							}
						}
						return n
					}
					var s sieveMatcher
					s.exclude, s.weighted, s.wbits, s.wshift, s.grain = long, true, long, shift, grain
					s.build(sigs, W, k)
					if got, want := s.countAll(qs), want(qs); got != want {
						t.Errorf("W %d, store %d, k %d (used %d), chunks of %d, runs of %d: weighted countAll = %d, want %d", W, size, k, s.k, s.cb, grain, got, want)
					}
					if got, want := s.countAll(qs[:7]), want(qs[:7]); got != want {
						t.Errorf("W %d, store %d, k %d, wide from %d, runs of %d, 7 queries: weighted countAll = %d, want %d", W, size, k, wideMin, grain, got, want)
					}
				}
			}
		}
	}
}

// TestCountJoinSieve counts Q(n) with the sieve forced at small n, where tasks are fast
// and stores small, against the published values (Known), for even and odd n.
func TestCountJoinSieve(t *testing.T) {
	defer func(f, m int) { sieveBitsForce, sieveMinPerSub = f, m }(sieveBitsForce, sieveMinPerSub)
	sieveMinPerSub = 0
	cases := []struct{ n, k int }{{10, 2}, {11, 3}, {12, 1}, {12, 4}, {13, 2}, {13, 5}}
	if !testing.Short() {
		// n = 14 is nine tenths of the test's time: the same cuts on a larger board.
		cases = append(cases, struct{ n, k int }{14, 3}, struct{ n, k int }{14, 6})
	}
	if !testing.Short() && !raceEnabled {
		// A few seconds of CPU without the race detector, far more with it.
		cases = append(cases, struct{ n, k int }{15, 2}, struct{ n, k int }{16, 3})
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("n%d-k%d", c.n, c.k), func(t *testing.T) {
			sieveBitsForce = c.k
			got, err := CountJoin(context.Background(), c.n)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := count.Known(c.n)
			if got.Total.Cmp(want.Total) != 0 || got.Unique.Cmp(want.Unique) != 0 {
				t.Errorf("CountJoin(%d) with %d cut bits = %v, %v fundamental; want %v, %v", c.n, c.k, got.Total, got.Unique, want.Total, want.Unique)
			}
		})
	}
}

// TestCountRowSetCut holds countRowSet's cut lists (half A stored a part at a time, half B
// queried a chunk at a time, as N = 28–29 must) and the south pieces prepared cell by cell
// to the whole lists: every task of the plan for small n, behind a forced sieve, gives the
// same result, counters included, with lists cut to a few dozen half-boards as whole, its
// cut bits chosen by occupancy or from the middle out; and whole lists with half B stored
// at even n (storeBMinH, as from N = 22) give it too.
func TestCountRowSetCut(t *testing.T) {
	defer func(f, m, c, p, o, pb int, l [2]int) {
		sieveBitsForce, sieveMinPerSub, cellSouthH, sievePerSub, sievePerSubOdd, sievePerSubB, listMaxForce = f, m, c, p, o, pb, l
	}(sieveBitsForce, sieveMinPerSub, cellSouthH, sievePerSub, sievePerSubOdd, sievePerSubB, listMaxForce)
	sieveMinPerSub, sievePerSub, sievePerSubOdd, sievePerSubB = 0, 4, 4, 4
	cases := []struct{ n, k, store, query int }{{10, 2, 7, 5}, {11, 3, 16, 3}, {12, 2, 50, 40}, {13, 2, 1, 1}, {13, 4, 100, 30}}
	if !testing.Short() {
		// the largest n: half the test's time; n = 10 and 12 are cut the same even-n ways
		cases = append(cases, struct{ n, k, store, query int }{14, 3, 64, 64})
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("n%d-k%d-%d-%d", c.n, c.k, c.store, c.query), func(t *testing.T) {
			sieveBitsForce = c.k
			results := func() []count.Result { return rowSetResults(t, c.n) }
			cellSouthH, listMaxForce = 14, [2]int{}
			whole := results()
			defer func(h int) { storeBMinH = h }(storeBMinH)
			storeBMinH = 0
			for i, r := range results() {
				if r != whole[i] {
					t.Errorf("task %d: %+v with half B stored whole, %+v with half A", i, r, whole[i])
				}
			}
			cellSouthH, listMaxForce = 0, [2]int{c.store, c.query}
			defer func(o bool) { cutByOccupancy = o }(cutByOccupancy)
			// Even n: half B stored in classes (as N = 26 and 28) and half A (as odd N).
			for _, minH := range []int{0, 99} {
				storeBMinH = minH
				for _, occ := range []bool{true, false} {
					if minH == 99 && (c.n%2 == 1 || !occ) {
						continue // odd n stores half A either way
					}
					cutByOccupancy = occ
					cut := results()
					sameTasks(t, fmt.Sprintf("cut bits by occupancy: %v, half B stored from h = %d", occ, minH), cut, whole)
				}
			}
		})
	}
}

func mustTable(t *testing.T, n int) *quarterTable {
	tab, err := sharedQuarterTable(context.Background(), n/2)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestSieveTally holds the harness's tally (sieveStats) to its definition: on a plain and
// a weighted store behind a sieve of 5 cut bits, the lanes it says the queries met that
// hold a pattern are the (query, pattern) pairs that agree on the cut bits, pair by pair;
// a tally leaves the count as it is, and a dry one the same tallies with a count of 0.
func TestSieveTally(t *testing.T) {
	defer func(m int) { sieveMinPerSub = m }(sieveMinPerSub)
	sieveMinPerSub = 0
	defer func() { sieveStats = nil }()
	rng := rand.New(rand.NewPCG(11, 12))
	const W = 21
	long := uint64(1)<<(W/2) | uint64(1)<<(W+W/2)
	sigs := make([]uint64, 3000)
	for i := range sigs {
		sigs[i] = sparse(rng, 2) & (1<<(2*W) - 1)
	}
	qs := make([]uint64, 400)
	for i := range qs {
		qs[i] = sparse(rng, 3) & (1<<(2*W) - 1) &^ long
	}
	for _, weighted := range []bool{false, true} {
		var s sieveMatcher
		if weighted {
			s.exclude, s.weighted, s.wbits, s.wshift = long, true, long, [3]uint8{0, 1, 2}
		}
		s.build(sigs, W, 5)
		if s.k != 5 {
			t.Fatalf("weighted %v: k = %d, want 5", weighted, s.k)
		}
		want := s.countAll(qs)
		var met int
		for _, q := range qs {
			for _, x := range sigs {
				if x&q&s.cut.mask == 0 {
					met++
				}
			}
		}
		var tallies [2]sieveTally
		for i, dry := range []bool{false, true} {
			sieveStats = &sieveTally{dry: dry}
			got := s.countAll(qs)
			tallies[i] = *sieveStats
			sieveStats = nil
			if wantDry := map[bool]uint64{false: want, true: 0}[dry]; got != wantDry {
				t.Errorf("weighted %v, dry %v: countAll = %d, want %d", weighted, dry, got, wantDry)
			}
			if n := tallies[i].subLen; n != met {
				t.Errorf("weighted %v, dry %v: tallied %d lanes holding a pattern, want %d pairs agreeing on the cut bits", weighted, dry, n, met)
			}
			if tb := tallies[i]; tb.pairs*64*matchWords < tb.runs || tb.runs < tb.valid || tb.valid+tb.raw != tb.subLen {
				t.Errorf("weighted %v, dry %v: %d (batch, query) pairs hold %d lanes, raw %d, met %d", weighted, dry, tb.pairs, tb.valid, tb.raw, tb.subLen)
			}
		}
		if tallies[1].dry = false; tallies[0] != tallies[1] {
			t.Errorf("weighted %v: tallies %+v counting, %+v dry", weighted, tallies[0], tallies[1])
		}
	}
}

// TestExtraPays holds extraPays to its model on a store it can be worked out for by hand
// (four queries): 4 batches of patterns with neither cut bit and 4 with the last cut bit only. Where every
// query has the last bit, the bit halves the batches they meet and adds no visit: it pays.
// Where half of them have it, it saves 2 batches a query for half a visit: it pays. Where
// none has it, every query meets both halves (the same 8 batches) in two visits: it does
// not.
func TestExtraPays(t *testing.T) {
	bl := 64 * matchWords
	sigs := make([]uint64, 8*bl)
	for i := 4 * bl; i < len(sigs); i++ {
		sigs[i] = 1 << 1
	}
	var s sieveMatcher
	s.weighted = true
	for _, c := range []struct {
		share float64
		want  bool
	}{{1, true}, {0.5, true}, {0, false}} {
		s.qsample = s.qsample[:0]
		for i := range 4 {
			q := uint64(0)
			if float64(i) < 4*c.share {
				q = 1 << 1
			}
			s.qsample = append(s.qsample, q)
		}
		if got := s.extraPays(sigs, 0b11, 1); got != c.want {
			t.Errorf("extraPays with the last bit in a share %v of the queries = %v, want %v", c.share, got, c.want)
		}
	}
}

// TestCountRowSetExtraBit holds the counts of even n, half B stored in classes, to the
// whole lists' where the extra cut bits of sievePerSubB are taken only where they pay,
// always (a visit costing nothing) and never (a visit costing more than any pairs), with
// sub-stores of half sievePerSub's (one extra bit) and of a quarter (two, each judged
// against one bit fewer), and checks that the always and never ways took and dropped a
// bit at least once, and that a quarter's kept more bits than a half's.
func TestCountRowSetExtraBit(t *testing.T) {
	defer func(f, m, p, pb int, l [2]int, c float64, h int, st *sieveTally) {
		sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubB, listMaxForce, sieveVisitCost, storeBMinH, sieveStats = f, m, p, pb, l, c, h, st
	}(sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubB, listMaxForce, sieveVisitCost, storeBMinH, sieveStats)
	sieveMinPerSub, sievePerSub, sieveBitsForce = 0, 8, 4
	n := 12
	results := func() []count.Result { return rowSetResults(t, n) }
	listMaxForce = [2]int{}
	whole := results()
	storeBMinH, listMaxForce = 0, [2]int{50, 40}
	var always [5]int // verdicts kept with visits costing nothing, by sievePerSubB
	for _, pb := range []int{4, 2} {
		sievePerSubB = pb
		for _, cost := range []float64{0.1, -1e18, 1e18} {
			sieveVisitCost = cost
			tally := &sieveTally{}
			sieveStats = tally
			cut := results()
			sieveStats = nil
			sameTasks(t, fmt.Sprintf("sub-stores of %d, visit cost %g", pb, cost), cut, whole)
			if cost < 0 && tally.extra[1] == 0 || cost > 1e9 && tally.extra[0] == 0 {
				t.Errorf("sub-stores of %d, visit cost %g: extra cut bit kept %d times, dropped %d", pb, cost, tally.extra[1], tally.extra[0])
			}
			if cost < 0 {
				always[pb] = tally.extra[1]
			}
			t.Logf("sub-stores of %d, visit cost %g: extra cut bit kept %d times, dropped %d", pb, cost, tally.extra[1], tally.extra[0])
		}
	}
	// A quarter's stores judge a second bit where a half's judge one (and some where a
	// half's judge none): more bits kept where visits cost nothing.
	if always[2] <= always[4] {
		t.Errorf("extra cut bits kept with visits costing nothing: %d with sub-stores of 2, %d with 4; want more", always[2], always[4])
	}
}

// TestSievePerSubBDefault holds sievePerSubB's default to the kernels that run (256
// where the AVX-512 kernel weighs bytes, 512 where it weighs words, 1,024 without
// AVX-512) and, at n = 12, the counts of sub-stores in the default's proportion to
// sievePerSub's (a quarter on AVX512BYTES: two cut bits over the coarse cut, each judged
// by extraPays at the default visit cost) to the whole lists', every task.
func TestSievePerSubBDefault(t *testing.T) {
	want := 1024
	switch {
	case matchIndexed(8, chunkBits, 1) && haveMatchAVX512Weighted:
		want = 256
	case matchIndexed(8, chunkBits, 1):
		want = 512
	}
	if sievePerSubB != want || perSubB(true, true) != 256 || perSubB(true, false) != 512 || perSubB(false, false) != 1024 {
		t.Fatalf("sievePerSubB %d, want %d; perSubB: %d with byte weights, %d without, %d without AVX-512", sievePerSubB, want, perSubB(true, true), perSubB(true, false), perSubB(false, false))
	}
	defer func(f, m, p, pb int, l [2]int, h int, st *sieveTally) {
		sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubB, listMaxForce, storeBMinH, sieveStats = f, m, p, pb, l, h, st
	}(sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubB, listMaxForce, storeBMinH, sieveStats)
	n := 12
	sieveMinPerSub, sieveBitsForce, listMaxForce = 0, 4, [2]int{}
	whole := rowSetResults(t, n)
	sievePerSubB = 8 * sievePerSubB / sievePerSub
	sievePerSub, storeBMinH, listMaxForce = 8, 0, [2]int{50, 40}
	tally := &sieveTally{}
	sieveStats = tally
	cut := rowSetResults(t, n)
	sieveStats = nil
	sameTasks(t, fmt.Sprintf("sub-stores of %d (sievePerSub %d)", sievePerSubB, sievePerSub), cut, whole)
	if judged := tally.extra[0] + tally.extra[1]; (sievePerSubB < sievePerSub) != (judged > 0) {
		t.Errorf("sub-stores of %d (sievePerSub %d): extra cut bits kept %d, dropped %d", sievePerSubB, sievePerSub, tally.extra[1], tally.extra[0])
	}
	t.Logf("sub-stores of %d (sievePerSub %d): %d stores, extra cut bits kept %d, dropped %d", sievePerSubB, sievePerSub, tally.builds, tally.extra[1], tally.extra[0])
}

// sameTasks fails the test unless the results cut (counted as what says) equal whole's,
// task by task.
func sameTasks(t *testing.T, what string, cut, whole []count.Result) {
	t.Helper()
	if len(cut) != len(whole) {
		t.Fatalf("%s: %d tasks cut, %d whole", what, len(cut), len(whole))
	}
	for i := range whole {
		if cut[i] != whole[i] {
			t.Errorf("%s: task %d: %+v with cut lists, %+v whole", what, i, cut[i], whole[i])
		}
	}
}

// rowSetResults counts every row-set task of the join's plan of n (not the symmetric
// task) with the package's settings as they are, one result a task in the plan's order.
func rowSetResults(t *testing.T, n int) []count.Result {
	t.Helper()
	p, err := newJoinPlan(n)
	if err != nil {
		t.Fatal(err)
	}
	var rs []count.Result
	for _, task := range p.allTasks() {
		if task.Run.Sub < 0 {
			continue
		}
		r, err := task.countJoinTable(context.Background(), mustTable(t, n))
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

// TestCountRowSetWeightGrain holds the counts of even n, half B stored in classes
// (weighted stores), to the whole lists' with the weights' runs of 8 lanes (weighed by
// bytes: countBatchesAVX512IndexWeighted where AVX-512 runs with byte popcounts) and, on
// AVX-512, of 64 (weighed by words: countBatchesAVX512IndexLanes): every task exact.
func TestCountRowSetWeightGrain(t *testing.T) {
	defer func(f, m, p, pb int, l [2]int, h int, b bool) {
		sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubB, listMaxForce, storeBMinH, weightByByte = f, m, p, pb, l, h, b
	}(sieveBitsForce, sieveMinPerSub, sievePerSub, sievePerSubB, listMaxForce, storeBMinH, weightByByte)
	sieveMinPerSub, sievePerSub, sievePerSubB, sieveBitsForce = 0, 8, 4, 4
	n := 12
	listMaxForce = [2]int{}
	whole := rowSetResults(t, n)
	storeBMinH, listMaxForce = 0, [2]int{50, 40}
	for _, byByte := range []bool{true, false} {
		weightByByte = byByte
		grain := weightGrain(matchWords)
		if byByte && grain != 8 {
			t.Errorf("weights by bytes: weightGrain(%d) = %d, want 8", matchWords, grain)
		}
		cut := rowSetResults(t, n)
		sameTasks(t, fmt.Sprintf("runs of %d lanes", grain), cut, whole)
		t.Logf("runs of %d lanes (matchWords %d): %d tasks exact", grain, matchWords, len(whole))
	}
}

// TestSieveKeptKnown holds the OR a single store is handed at build (resetKept) to the OR
// of its words as build would take it: stores with and without holes to squeeze, with
// and without excluded bits that the store's words do have.
func TestSieveKeptKnown(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 30))
	const W = 15
	for _, holes := range []uint64{0, 1<<3 | 1<<9 | 1<<20 | 1<<26} {
		for _, exclude := range []uint64{0, 1<<5 | 1<<22} {
			sigs := make([]uint64, 300)
			for i := range sigs {
				sigs[i] = sparse(rng, 2) & (1<<(2*W) - 1) &^ holes
			}
			sigs[0] |= exclude
			var s sieveMatcher
			s.exclude = exclude
			s.build(sigs, W, 0)
			m := &s.subs[0]
			if !m.keptOK {
				t.Fatalf("holes %#x, excluded %#x: the store's OR was not handed over", holes, exclude)
			}
			if want := orAll(m.sigs); m.kept != want {
				t.Fatalf("holes %#x, excluded %#x (squeezed %v): handed %#x, the store's OR is %#x", holes, exclude, s.squeeze, m.kept, want)
			}
		}
	}
}
