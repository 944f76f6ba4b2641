//go:build amd64 && !purego

package join

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestMatchWeightedHS holds countBatchesWeighted (the carry-save kernel
// countBatchesAVX2WeightedHS for the queries in fours, countBatchesAVX2Weighted for the
// rest) and countBatchesAVX2WeightedHS alone to countBatchesGoWeighted: 1 to 8 chunks, 1
// to 5 batches (pairs and an odd last one), query counts on both sides of a group of four
// and of a block of 31 groups, and stores whose every valid lane meets every query with
// weights of 64 (the largest byte sums a block can hold).
func TestMatchWeightedHS(t *testing.T) {
	if !lanesOffsets(4) {
		t.Skip("this processor has no AVX2: the weighted kernel is countBatchesGoWeighted")
	}
	defer func(w int) { matchWords = w }(matchWords)
	matchWords = 4
	rng := rand.New(rand.NewPCG(7, 8))
	for nch := 1; nch <= 8; nch++ {
		width := uint(nch * wideChunkBits)
		for _, nb := range []int{1, 2, 3, 5} {
			for _, full := range []bool{false, true} {
				words := 4 * nb
				sigs := sparseSigs(rng, 64*words, width, 2)
				valid := make([]uint64, words)
				wts := make([]uint8, 8*words)
				for w := range valid {
					a, b := rng.Uint64(), rng.Uint64()
					valid[w] = a | b // three lanes in four
				}
				for k := range wts {
					wts[k] = uint8(rng.IntN(65))
				}
				if full {
					clear(sigs)
					for w := range valid {
						valid[w] = ^uint64(0)
					}
					for k := range wts {
						wts[k] = 64
					}
					// One lane, not valid, holds the top bit: nch chunks.
					sigs[len(sigs)-1] = 1 << (width - 1)
					valid[words-1] &^= 1 << 63
				}
				var m matcher
				m.resetWeighted(sigs, valid, wts, []int{len(wts)}, false)
				m.cb = wideChunkBits
				m.build()
				if m.nch != nch {
					t.Fatalf("%d chunks wanted, the store has %d", nch, m.nch)
				}
				for _, nq := range []int{1, 4, 7, 124, 129, 252} {
					qs := sparseSigs(rng, nq, width, 3)
					offs := chunkOffsets(nil, qs, nch, 4, m.cb)
					want := countBatchesGoWeighted(m.tab, m.bs, 4, nch, m.cb, qs, wts)
					if got := countBatchesWeighted(m.tab, m.bs, 4, nch, m.cb, qs, offs, nch, wts); got != want {
						t.Errorf("%d chunks, %d batches, full %v, %d queries: countBatchesWeighted = %d, want %d", nch, nb, full, nq, got, want)
					}
					if q4 := nq &^ 3; q4 > 0 {
						want := countBatchesGoWeighted(m.tab, m.bs, 4, nch, m.cb, qs[:q4], wts)
						if got := countBatchesAVX2WeightedHS(&m.tab[0], m.nb, m.bs, nch, &offs[0], nch, q4, &wts[0]); got != want {
							t.Errorf("%d chunks, %d batches, full %v, %d queries: countBatchesAVX2WeightedHS = %d, want %d", nch, nb, full, q4, got, want)
						}
					}
				}
			}
		}
	}
}

// TestMatchKernelsHS holds countBatches (the carry-save kernel countBatchesAVX2HS for the
// queries in fours, countBatchesAVX2 for the rest) and countBatchesAVX2HS alone to
// countBatchesGo4: 1 to 8 chunks, 1 to 5 batches (pairs and an odd last one), query
// counts on both sides of a group of four and of a block of 31 groups, and stores whose
// every lane meets every query (the largest byte sums a block can hold).
func TestMatchKernelsHS(t *testing.T) {
	if !haveMatchAVX2 {
		t.Skip("this processor has no AVX2: the kernel is countBatchesGo")
	}
	defer func(w int) { matchWords = w }(matchWords)
	matchWords = 4
	rng := rand.New(rand.NewPCG(9, 10))
	for nch := 1; nch <= 8; nch++ {
		width := uint(nch * wideChunkBits)
		for _, nb := range []int{1, 2, 3, 5} {
			for _, full := range []bool{false, true} {
				sigs := sparseSigs(rng, 256*nb, width, 2)
				if full {
					// Every signature empty but the last, which holds the top bit (nch
					// chunks), which no query has: every pair is disjoint.
					clear(sigs)
					sigs[len(sigs)-1] = 1 << (width - 1)
				}
				var m matcher
				m.reset(sigs)
				m.cb = wideChunkBits
				m.build()
				if m.nch != nch {
					t.Fatalf("%d chunks wanted, the store has %d", nch, m.nch)
				}
				for _, nq := range []int{1, 4, 7, 124, 129, 252} {
					qs := sparseSigs(rng, nq, width-1, 3)
					offs := chunkOffsets(nil, qs, nch, 4, m.cb)
					want := countBatchesGo4(m.tab, m.bs, nch, m.cb, qs)
					if got := countBatches(m.tab, m.bs, 4, nch, m.cb, qs, offs, nch); got != want {
						t.Errorf("%d chunks, %d batches, full %v, %d queries: countBatches = %d, want %d", nch, nb, full, nq, got, want)
					}
					if full && want != uint64(nq*len(sigs)) {
						t.Errorf("%d chunks, %d batches, %d queries: countBatchesGo4 = %d, want %d", nch, nb, nq, want, nq*len(sigs))
					}
					if q4 := nq &^ 3; q4 > 0 {
						want := countBatchesGo4(m.tab, m.bs, nch, m.cb, qs[:q4])
						if got := countBatchesAVX2HS(&m.tab[0], m.nb, m.bs, nch, &offs[0], nch, q4); got != want {
							t.Errorf("%d chunks, %d batches, full %v, %d queries: countBatchesAVX2HS = %d, want %d", nch, nb, full, q4, got, want)
						}
					}
				}
			}
		}
	}
}

// TestMatchAVX512Weighted holds countBatchesAVX512IndexWeighted and its ternlog twin
// countBatchesAVX512IndexWeightedT, alone and as countBatchesWeighted runs them, to countBatchesGoWeighted on random tables (rows of
// three densities), queries and weights (0 to 64): chunks of 5 and 6 bits, 1 to 8
// chunks, 1 to 9 batches (groups of four, two and an odd last one), query counts on both
// sides of a block of 31, and tables of all ones with weights of 64 (the largest byte
// sums a block can hold).
func TestMatchAVX512Weighted(t *testing.T) {
	if !haveMatchAVX512Weighted {
		t.Skip("this processor has no AVX-512 BW and BITALG: countBatchesAVX512IndexWeighted does not run")
	}
	ternDefault := kernelTernlog
	defer func() { kernelTernlog = ternDefault }()
	rng := rand.New(rand.NewPCG(49, 8))
	for _, cb := range []int{chunkBits, wideChunkBits} {
		for nch := 1; nch <= 8; nch++ {
			bs := nch << cb * 8
			for _, nb := range []int{1, 2, 3, 4, 5, 6, 7, 9} {
				for _, fill := range []int{0, 1, 2, 3} { // rows of density 1/2, 3/4, 7/8, all ones
					tab := make([]uint64, nb*bs)
					for i := range tab {
						x := ^uint64(0)
						if fill < 3 {
							x = rng.Uint64()
							for range fill {
								x |= rng.Uint64()
							}
						}
						tab[i] = x
					}
					wts := make([]uint8, nb*64)
					for k := range wts {
						wts[k] = uint8(rng.IntN(65))
						if fill == 3 {
							wts[k] = 64
						}
					}
					for _, nq := range []int{1, 2, 30, 31, 32, 33, 62, 63, 100} {
						qs := make([]uint64, nq)
						for i := range qs {
							qs[i] = rng.Uint64()
						}
						want := countBatchesGoWeighted(tab, bs, 8, nch, cb, qs, wts)
						if fill == 3 && want != uint64(nq*nb*512*64) {
							t.Fatalf("all ones, %d batches, %d queries: countBatchesGoWeighted = %d, want %d", nb, nq, want, nq*nb*512*64)
						}
						if got := countBatchesAVX512IndexWeighted(&tab[0], nb, bs, nch, cb, &qs[0], nq, &wts[0]); got != want {
							t.Errorf("chunks of %d, %d chunks, %d batches, fill %d, %d queries: countBatchesAVX512IndexWeighted = %d, want %d", cb, nch, nb, fill, nq, got, want)
						}
						if got := countBatchesAVX512IndexWeightedT(&tab[0], nb, bs, nch, cb, &qs[0], nq, &wts[0]); got != want {
							t.Errorf("chunks of %d, %d chunks, %d batches, fill %d, %d queries: countBatchesAVX512IndexWeightedT = %d, want %d", cb, nch, nb, fill, nq, got, want)
						}
						for _, tern := range []bool{false, true} {
							kernelTernlog = tern
							if got := countBatchesWeighted(tab, bs, 8, nch, cb, qs, nil, 0, wts); got != want {
								t.Errorf("chunks of %d, %d chunks, %d batches, fill %d, %d queries, kernelTernlog %v: countBatchesWeighted = %d, want %d", cb, nch, nb, fill, nq, tern, got, want)
							}
						}
						kernelTernlog = ternDefault
					}
				}
			}
		}
	}
}

// BenchmarkMatchAVX512Loops times countBatchesWeighted's AVX-512 kernel per (batch,
// query) pair by its loops (kernelTernlog, kernelPairs) on stores of 1, 2, 4 and 8
// batches of 5 to 7 chunks of 6 bits (N = 28's half B takes 6), rows of density 3/4 and
// 4,096 random queries: the rows of four batches' six chunks (96 KiB) do not fit a 48 KiB
// L1 cache, two do.
func BenchmarkMatchAVX512Loops(b *testing.B) {
	if !haveMatchAVX512Weighted {
		b.Skip("this processor has no AVX-512 BW and BITALG: countBatchesAVX512IndexWeighted does not run")
	}
	defer func(t, p bool) { kernelTernlog, kernelPairs = t, p }(kernelTernlog, kernelPairs)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, nb := range []int{1, 2, 4, 8} {
		for _, nch := range []int{5, 6, 7, -1, -2, -3, -4, -5} {
			// nch < 0: the mixed layout with −nch chunks of 7 bits (31…35 bits).
			cb, name := wideChunkBits, strconv.Itoa(nch)
			bs := nch << cb * 8
			if nch < 0 {
				cb, nch, name = mixedChunkBits, -nch, fmt.Sprintf("mixed%d", 30-nch)
				bs = (128*nch + 64*(mixedChunks-nch)) * 8
			}
			tab := make([]uint64, nb*bs)
			for i := range tab {
				x, y := rng.Uint64(), rng.Uint64()
				tab[i] = x | y
			}
			wts := make([]uint8, nb*64)
			for i := range wts {
				wts[i] = 1
			}
			qs := make([]uint64, 4096)
			for i := range qs {
				qs[i] = rng.Uint64()
			}
			for _, way := range []struct {
				name        string
				tern, pairs bool
			}{{"and", false, false}, {"ternlog", true, false}, {"pairs", false, true}, {"ternlog+pairs", true, true}} {
				if nb <= 2 && way.pairs {
					continue // the same calls as without
				}
				b.Run(fmt.Sprintf("batches=%d/chunks=%s/%s", nb, name, way.name), func(b *testing.B) {
					kernelTernlog, kernelPairs = way.tern, way.pairs
					for b.Loop() {
						matchSink += countBatchesWeighted(tab, bs, 8, nch, cb, qs, nil, 0, wts)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nb*len(qs)), "ns/batch-query")
				})
			}
		}
	}
}

// BenchmarkMatchHalfBatch times a store of one batch whose patterns fill at most its first
// 256 lanes (N = 16's usual store) per query, by the 512-bit kernel
// (countBatchesAVX512Index) and by countBatchesAVX512IndexHalf, which reads the first half
// of each row, on 1 to 8 chunks of 5 bits and 4,096 random queries.
func BenchmarkMatchHalfBatch(b *testing.B) {
	if !haveMatchAVX512Index {
		b.Skip("this processor has no AVX-512 VPOPCNTQ and BMI2: the indexed kernels do not run")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, nch := range []int{1, 3, 6, 8} {
		bs := nch << chunkBits * 8
		tab := make([]uint64, bs)
		for i := range tab {
			x, y := rng.Uint64(), rng.Uint64()
			tab[i] = x | y
		}
		qs := make([]uint64, 4096)
		for i := range qs {
			qs[i] = rng.Uint64()
		}
		for _, half := range []bool{false, true} {
			b.Run(fmt.Sprintf("chunks=%d/half=%v", nch, half), func(b *testing.B) {
				for b.Loop() {
					if half {
						matchSink += countBatchesAVX512IndexHalf(&tab[0], 1, bs, nch, chunkBits, &qs[0], len(qs))
					} else {
						matchSink += countBatchesAVX512Index(&tab[0], 1, bs, nch, chunkBits, &qs[0], len(qs))
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(qs)), "ns/query")
			})
		}
	}
}
