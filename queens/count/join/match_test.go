package join

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"unsafe"
)

// TestTranspose64 checks the block-swap transpose against the bit-by-bit definition.
func TestTranspose64(t *testing.T) {
	var a, want [64]uint64
	for i := range a {
		a[i] = rand.Uint64()
	}
	for i := range 64 {
		for b := range 64 {
			if a[i]>>b&1 != 0 {
				want[b] |= 1 << i
			}
		}
	}
	got := a
	transpose64(&got)
	if got != want {
		t.Fatalf("mismatch")
	}
	// transpose64Low: the same on words below 2^32.
	for i := range a {
		a[i] &= 1<<32 - 1
	}
	want = a
	transpose64(&want)
	got = a
	transpose64Low(&got)
	if got != want {
		t.Fatalf("transpose64Low mismatch")
	}
}

// TestMatchKernels holds the matcher (with the assembly kernel where this machine has it)
// to the definition: for random stores and queries of several sizes, the count of stored
// signatures disjoint from each query, computed pair by pair, with batches of 8 words (the
// AVX-512 kernel's) and of 4 (the AVX2 kernel's), chunks of chunkBits and wideChunkBits,
// and wide chunks in the mixed layouts (31 to 35 bits): where the kernels run them
// (mixedOn), forced on any machine (mixedForce: the pure-Go twins) and off.
// countBatchesGo and the kernel in use must both agree.
func TestMatchKernels(t *testing.T) {
	defer func(w int) { matchWords = w }(matchWords)
	tern, pairs, half := kernelTernlog, kernelPairs, halfBatch
	defer func() { kernelTernlog, kernelPairs, halfBatch = tern, pairs, half }()
	defer func(on, force bool) { mixedOn, mixedForce = on, force }(mixedOn, mixedForce)
	rng := rand.New(rand.NewPCG(1, 2))
	mixedMet := 0
	for _, bw := range []int{8, 4} {
		matchWords = bw
		for _, cb := range []int{chunkBits, wideChunkBits} {
			for _, size := range []int{0, 1, 8, 9, 47, 48, 100, 255, 256, 257, 511, 512, 513, 1500, 2600} {
				for _, width := range []uint{3, 10, 15, 20, 25, 30, 31, 32, 33, 34, 35, 40, 50} { // 1…8 and 10 chunks
					for mixed := range 3 {
						if mixed > 0 && (cb != wideChunkBits || width <= 30 || width > 35) {
							continue
						}
						mixedOn, mixedForce = mixed != 0, mixed == 2
						var m matcher
						m.sigs = sparseSigs(rng, size, width, 2)
						qs := sparseSigs(rng, 300, width, 3)
						var want uint64
						for _, q := range qs {
							for _, s := range m.sigs {
								if s&q == 0 {
									want++
								}
							}
						}
						// Used for no queries (a raw scan), as many as come, and very
						// many (batches from 9 signatures up).
						for _, nq := range []int{0, len(qs), 1 << 30} {
							m.reset(m.sigs)
							m.cb = cb
							m.use(nq)
							if raw := size <= rawQueryPairs || size*nq < rawBuildPairs; m.raw != raw {
								t.Errorf("%d words, store %d, used for %d queries: raw %v, want %v", bw, size, nq, m.raw, raw)
							}
							// The chunk offsets, one slot a chunk or two more.
							for extra := range 3 {
								stride := (int(width)+cb-1)/cb + extra
								offs := chunkOffsets(nil, qs, stride, bw, cb)
								if got := m.countAll(qs, offs, stride); got != want {
									t.Errorf("%d words, chunks of %d, store %d, width %d, built for %d queries, stride %d: countAll = %d, want %d (AVX-512 %v, AVX2 %v)", bw, cb, size, width, nq, stride, got, want, haveMatchAVX512, haveMatchAVX2)
								}
							}
							// Without offsets, by each of the AVX-512 kernels' loops
							// (kernelTernlog, kernelPairs, halfBatch; no effect elsewhere).
							for way := range 8 {
								kernelTernlog, kernelPairs, halfBatch = way&1 != 0, way&2 != 0, way&4 != 0
								if got := m.countAll(qs, nil, 0); got != want {
									t.Errorf("%d words, chunks of %d, store %d, width %d, built for %d queries, no offsets, kernelTernlog %v, kernelPairs %v, halfBatch %v: countAll = %d, want %d", bw, cb, size, width, nq, kernelTernlog, kernelPairs, halfBatch, got, want)
								}
							}
							kernelTernlog, kernelPairs, halfBatch = tern, pairs, half
							if !m.raw {
								kn, kc := m.kernelChunks()
								if got := countBatchesGo(m.tab, m.bs, m.bw, kn, kc, qs); got != want {
									t.Errorf("%d words, chunks of %d (mixed %d), store %d, width %d: countBatchesGo = %d, want %d", bw, cb, m.mix, size, width, got, want)
								}
								if m.mix > 0 {
									mixedMet++
								}
								if (mixed == 2 || mixed == 1 && matchIndexed(bw, mixedChunkBits, 1)) && bw == 8 && m.mix == 0 && m.nch != 5 {
									t.Errorf("%d words, store %d, width %d, mixed %d: %d chunks of %d, not mixed", bw, size, width, mixed, m.nch, m.cb)
								}
							}
						}
					}
				}
			}
		}
	}
	mixedOn, mixedForce = true, false
	if mixedMet == 0 {
		t.Errorf("no store was laid out in the mixed layout")
	}
}

// BenchmarkMatchKernel times the matcher's query kernel on stores of 1 to 4 batches, 7
// chunks (N = 22's squeezed width) and 2,000 queries, per (batch, query) pair.
func BenchmarkMatchKernel(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{256, 600, 1024} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			var m matcher
			m.sigs = make([]uint64, size)
			for i := range m.sigs {
				a, b := rng.Uint64(), rng.Uint64()
				m.sigs[i] = a & b & (1<<34 - 1)
			}
			qs := make([]uint64, 2000)
			for i := range qs {
				a, b, c := rng.Uint64(), rng.Uint64(), rng.Uint64()
				qs[i] = a & b & c & (1<<34 - 1)
			}
			m.reset(m.sigs)
			m.build()
			stride := m.nch
			offs := chunkOffsets(nil, qs, stride, m.bw, m.cb)
			for b.Loop() {
				matchSink += m.countAll(qs, offs, stride)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*m.nb*len(qs)), "ns/batch-query")
		})
	}
}

var matchSink uint64

// TestMatchWeighted holds a weighted store's count (lanes weighing what their byte's weight
// says, padding lanes never counted), and its count over the first bytes alone
// (countWeighted, as the sieve's pairs of sub-stores ask), raw and in batches of either
// width and chunks of either size, with weights by byte (countBatchesAVX2Weighted on chunk
// offsets where that runs, else countBatchesGoWeighted) and by word
// (countBatchesAVX512IndexLanes where it runs, countBatchesAVX2Lanes, countBatchesGoLanes),
// to a count from the definition. Stores of all-empty patterns with weights of 64 meet the
// kernel's largest sums (each block of 31 queries).
func TestMatchWeighted(t *testing.T) {
	defer func(w int) { matchWords = w }(matchWords)
	defer func(on, force bool) { mixedOn, mixedForce = on, force }(mixedOn, mixedForce)
	rng := rand.New(rand.NewPCG(3, 4))
	mixedMet := 0
	for _, bw := range []int{8, 4} {
		matchWords = bw
		for _, cb := range []int{chunkBits, wideChunkBits} {
			for _, byWord := range []bool{false, true} {
				for _, words := range []int{1, 2, 7, 8, 9, 17, 33} {
					for _, width := range []uint{0, 3, 20, 31, 33, 34, 35, 40, 50} {
						for mixed := range 3 {
							if mixed > 0 && (cb != wideChunkBits || width <= 30 || width > 35) {
								continue
							}
							mixedOn, mixedForce = mixed != 0, mixed == 2
							sigs := make([]uint64, 64*words)
							valid := make([]uint64, words)
							wts := make([]uint8, 8*words)
							for w := range words {
								a, b := rng.Uint64(), rng.Uint64()
								valid[w] = a | b
								if w%3 == 0 {
									valid[w] &= 1<<rng.IntN(64) - 1
								}
							}
							for k := range wts {
								wts[k] = uint8(1) << rng.IntN(3)
								if width == 0 {
									wts[k] = 64 // the largest weight, every lane met
								}
								if byWord {
									wts[k] = wts[k&^7]
								}
							}
							if width != 0 {
								copy(sigs, sparseSigs(rng, len(sigs), width, 2))
							}
							qs := sparseSigs(rng, 100, max(width, 1), 3)
							// want[p]: the count over the first p bytes (countWeighted's prefix).
							want := make([]uint64, 8*words+1)
							for i, s := range sigs {
								if valid[i/64]>>(i%64)&1 == 0 {
									continue
								}
								for _, q := range qs {
									if s&q == 0 {
										want[i/8+1] += uint64(wts[i/8])
									}
								}
							}
							for p := range 8 * words {
								want[p+1] += want[p]
							}
							prefixes := []int{0, 1, 3, 4*words - 1, 8*words - 8, 8*words - 1}
							if byWord {
								prefixes = []int{0, 8, 8 * (words / 2), 8 * (words - 1)}
							}
							for _, use := range []int{0, 1 << 30} {
								var m matcher
								m.resetWeighted(sigs, valid, wts, []int{len(wts)}, byWord)
								m.cb = cb
								m.use(use)
								if m.mix > 0 {
									mixedMet++
								}
								if got := m.countAll(qs, nil, 0); got != want[8*words] {
									t.Errorf("%d words a row, chunks of %d (mixed %d), by word %v, %d words stored, width %d, raw %v: weighted count %d, want %d", bw, cb, m.mix, byWord, words, width, m.raw, got, want[8*words])
								}
								for _, p := range prefixes {
									if p < 0 {
										continue
									}
									if got := m.countWeighted(qs, nil, 0, wts[:p]); got != want[p] {
										t.Errorf("%d words a row, chunks of %d (mixed %d), by word %v, %d words stored, width %d, raw %v: weighted count of the first %d bytes %d, want %d", bw, cb, m.mix, byWord, words, width, m.raw, p, got, want[p])
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if mixedMet == 0 {
		t.Errorf("no weighted store was laid out in the mixed layout")
	}
}

// FuzzMatchWeighted holds countBatchesWeighted (the AVX2 kernel where it runs) to
// countBatchesGoWeighted on stores, queries and weights drawn from the fuzzer's seed: 1 to
// 12 batches of 4 words, 1 to 8 chunks, up to 100 queries, weights up to 64.
func FuzzMatchWeighted(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint8(6), uint8(40))
	f.Add(uint64(2), uint8(1), uint8(1), uint8(1))
	f.Add(uint64(3), uint8(12), uint8(8), uint8(100))
	defer func(w int) { matchWords = w }(matchWords)
	matchWords = 4
	f.Fuzz(func(t *testing.T, seed uint64, batches, chunks, queries uint8) {
		rng := rand.New(rand.NewPCG(seed, 9))
		nb, nch, nq := int(batches)%12+1, int(chunks)%8+1, int(queries)%100+1
		width := uint(min(64, nch*wideChunkBits))
		var m matcher
		words := 4 * nb
		sigs := sparseSigs(rng, 64*words-rng.IntN(64), width, 1+rng.IntN(3))
		valid := make([]uint64, words)
		wts := make([]uint8, 8*words)
		for w := range valid {
			a, b := rng.Uint64(), rng.Uint64()
			valid[w] = a | b // three lanes in four
		}
		for k := range wts {
			wts[k] = uint8(rng.IntN(65))
		}
		m.resetWeighted(sigs, valid, wts, []int{len(wts)}, false)
		m.cb = wideChunkBits
		m.build()
		qs := sparseSigs(rng, nq, width, 1+rng.IntN(3))
		offs := chunkOffsets(nil, qs, m.nch, 4, m.cb)
		got := countBatchesWeighted(m.tab, m.bs, 4, m.nch, m.cb, qs, offs, m.nch, wts)
		want := countBatchesGoWeighted(m.tab, m.bs, 4, m.nch, m.cb, qs, wts)
		if got != want {
			t.Errorf("%d batches, %d chunks, %d queries: countBatchesWeighted = %d, countBatchesGoWeighted %d", m.nb, m.nch, nq, got, want)
		}
	})
}

// sparseSigs returns n random signatures of width bits, each the AND of ands random
// words: sparse, as half-boards' are (a quarter of the bits for ands = 2).
func sparseSigs(rng *rand.Rand, n int, width uint, ands int) []uint64 {
	sigs := make([]uint64, n)
	for i := range sigs {
		x := uint64(1)<<width - 1
		for range ands {
			x &= rng.Uint64()
		}
		sigs[i] = x
	}
	return sigs
}

// BenchmarkMatchWeighted times the weighted store's kernels, by byte (countBatchesWeighted)
// and by word (countBatchesLanes, bw-word suffix), on stores of 3 to 5 batches (9, 13 and 17 words), 6 chunks of wideChunkBits and 600 queries: the
// mean sub-store and bucket of a real task of N = 28 (3.35 batches and 600 queries a call,
// bench/log/2026-11-29-join.md), in CPU nanoseconds per (batch, query) pair.
func BenchmarkMatchWeighted(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, words := range []int{9, 13, 17} {
		for _, byWord := range []bool{false, true} {
			name := strconv.Itoa(words)
			if byWord {
				name += "-word"
			}
			b.Run(name, func(b *testing.B) {
				sigs := sparseSigs(rng, 64*words, 36, 2)
				valid := make([]uint64, words)
				wts := make([]uint8, 8*words)
				for w := range valid {
					valid[w] = ^uint64(0)
				}
				for k := range wts {
					wts[k] = uint8(1) << (k / 8 % 3)
				}
				qs := sparseSigs(rng, 600, 36, 3)
				var m matcher
				m.resetWeighted(sigs, valid, wts, []int{len(wts)}, byWord)
				m.cb = wideChunkBits
				m.build()
				offs := chunkOffsets(nil, qs, m.nch, m.bw, m.cb)
				c0 := cpuTime()
				for b.Loop() {
					matchSink += m.countAll(qs, offs, m.nch)
				}
				// CPU time, not wall time: the machine is shared.
				b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N*m.nb*len(qs)), "cpu-ns/batch-query")
			})
		}
	}
}

// TestTableArena holds tableArena's tables to their contract: 64-byte aligned, n words,
// no two of one round overlapping (each filled with its own mark and read back after the
// round), tables larger than a block in blocks of their own, and a round after reset
// reusing the blocks the one before made (no new block for the same sizes); small tables
// in small blocks, not a full one.
func TestTableArena(t *testing.T) {
	var a tableArena
	sizes := []int{3072, 24576, 5, arenaBlockWords + 100, 1, arenaBlockWords / 2, arenaBlockWords/2 - 3, 100000}
	first := 0
	for round := range 3 {
		a.reset()
		var tabs [][]uint64
		for i, n := range sizes {
			tab := a.take(n)
			if len(tab) != n || cap(tab) != n {
				t.Fatalf("round %d, take(%d): len %d, cap %d", round, n, len(tab), cap(tab))
			}
			if p := uintptr(unsafe.Pointer(&tab[0])); p%64 != 0 {
				t.Fatalf("round %d, take(%d) at %#x: not 64-byte aligned", round, n, p)
			}
			for k := range tab {
				tab[k] = uint64(i + 1)
			}
			tabs = append(tabs, tab)
		}
		for i, tab := range tabs {
			for k, x := range tab {
				if x != uint64(i+1) {
					t.Fatalf("round %d: table %d (%d words) word %d reads %d: overwritten by table %d", round, i, len(tab), k, x, x-1)
				}
			}
		}
		own := false
		for _, b := range a.blocks {
			own = own || len(b) == arenaBlockWords+108
		}
		if !own {
			t.Errorf("round %d: the table of %d words has no block of its own", round, arenaBlockWords+100)
		}
		if round == 0 {
			first = len(a.blocks)
			continue
		}
		if blocks := len(a.blocks); blocks != first {
			t.Errorf("round %d: %d blocks, want the first round's %d, reused", round, blocks, first)
		}
	}
	// Small tables take small blocks: 64 tables of 1,000 words hold well under one full
	// block (arenaFirstWords doubling), not arenaBlockWords.
	var small tableArena
	for range 64 {
		small.take(1000)
	}
	held := 0
	for _, b := range small.blocks {
		held += len(b)
	}
	if held < 64*1000 || held > 4*64*1000+arenaFirstWords {
		t.Errorf("64 tables of 1,000 words hold %d words in %d blocks, want at least 64,000 and at most %d", held, len(small.blocks), 4*64*1000+arenaFirstWords)
	}
}

// TestOrAll holds orAll to a word-by-word OR for lists of every length to 13 (whole
// steps of four and every remainder), each word with one bit of its own.
func TestOrAll(t *testing.T) {
	for n := range 14 {
		xs := make([]uint64, n)
		var want uint64
		for i := range xs {
			xs[i] = 1 << (5*i + n%5)
			want |= xs[i]
		}
		if got := orAll(xs); got != want {
			t.Fatalf("orAll of %d words = %#x, want %#x", n, got, want)
		}
	}
}
