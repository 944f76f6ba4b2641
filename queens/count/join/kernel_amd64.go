//go:build amd64 && !purego

package join

import "github.com/chesspuzzles/chesspuzzles/queens/internal/cpuid"

// haveMatchAVX512 reports whether countBatchesAVX512 may run: it needs AVX-512 F and
// VPOPCNTDQ (Intel Ice Lake and later, AMD Zen 4 and later) and an operating system that
// saves the 512-bit registers.
var haveMatchAVX512 = cpuid.AVX512POPCNT

// haveMatchAVX512Index reports whether countBatchesAVX512Index may run: the AVX-512
// kernel's needs and BMI2 (RORX).
var haveMatchAVX512Index = haveMatchAVX512 && cpuid.BMI2

// haveMatchAVX2 reports whether countBatchesAVX2 may run: AVX2 and an operating system
// that saves the 256-bit registers.
var haveMatchAVX2 = cpuid.AVX2

// defaultMatchWords is the batch width the kernel in use wants: 8 words for AVX-512, 4
// for AVX2, else 8.
func defaultMatchWords() int {
	if !haveMatchAVX512 && haveMatchAVX2 {
		return 4
	}
	return 8
}

// matchOffsets reports whether the kernel for batches of bw words takes the queries' chunk
// offsets (chunkOffsets): the AVX2 kernel does, and the AVX-512 one.
func matchOffsets(bw int) bool { return bw == 4 && haveMatchAVX2 || bw == 8 && haveMatchAVX512 }

// countBatches is the query kernel the matcher uses. With AVX-512 (batches of 8 words):
// for up to 8 chunks of 5 or 6 bits the kernel that computes each query's row offsets
// once for a group of four batches (countBatchesAVX512Index, measured 1.3× faster than
// offsets made first at N = 20 and 1.6× at N = 22, 27 Nov), else on the queries' chunk
// offsets offs (stride slots a query) where given, else one batch at a time. With AVX2
// (batches of 4): on the offsets where given (for up to 8 chunks countBatchesAVX2HS for
// the queries in fours, countBatchesAVX2 for the last one to three), else computing them.
// Else countBatchesGo.
// All give the same count (TestMatchKernels).
func countBatches(tab []uint64, bs, bw, nch, cb int, cq []uint64, offs []uint32, stride int) uint64 {
	if len(tab) > 0 && len(cq) > 0 {
		switch {
		case bw == 4 && haveMatchAVX2 && stride >= nch && len(offs) >= len(cq)*stride:
			nb := len(tab) / bs
			q4 := len(cq) &^ 3
			if nch > 8 || q4 == 0 {
				return countBatchesAVX2(&tab[0], nb, bs, nch, &offs[0], stride, len(cq))
			}
			n := countBatchesAVX2HS(&tab[0], nb, bs, nch, &offs[0], stride, q4)
			if q4 < len(cq) {
				n += countBatchesAVX2(&tab[0], nb, bs, nch, &offs[q4*stride], stride, len(cq)-q4)
			}
			return n
		case bw == 8 && haveMatchAVX512 && cb != mixedChunkBits && stride >= nch && len(offs) >= len(cq)*stride:
			return countBatchesAVX512Offs(&tab[0], len(tab)/bs, bs, nch, &offs[0], stride, len(cq))
		case bw == 8 && matchIndexed(bw, cb, nch):
			nb := len(tab) / bs
			kernel := countBatchesAVX512Index
			if kernelTernlog {
				kernel = countBatchesAVX512IndexT
			}
			if nb <= 2 || !pairsOnly(bs) {
				return kernel(&tab[0], nb, bs, nch, cb, &cq[0], len(cq))
			}
			var n uint64
			for b := 0; b < nb; b += 2 {
				n += kernel(&tab[b*bs], min(2, nb-b), bs, nch, cb, &cq[0], len(cq))
			}
			return n
		case cb != chunkBits:
		case bw == 8 && haveMatchAVX512:
			return countBatchesAVX512(&tab[0], len(tab)/bs, bs, nch, &cq[0], len(cq))
		case bw == 4 && haveMatchAVX2:
			return countBatchesAVX2Index(&tab[0], len(tab)/bs, bs, nch, &cq[0], len(cq))
		}
	}
	return countBatchesGo(tab, bs, bw, nch, cb, cq)
}

// countBatchesAVX2 is countBatchesGo4 in assembly (kernel_amd64.s), on the queries'
// chunk offsets (nq queries of stride slots at offs): per (batch, query) one 256-bit row
// AND per chunk, each row's offset loaded, not computed (a loop unrolled for each chunk
// count up to 8), and a nibble-table popcount (VPSHUFB, VPSADBW).
//
//go:noescape
func countBatchesAVX2(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int) uint64

// countBatchesAVX2Index is countBatchesAVX2 computing each row's offset from the query
// (six instructions a chunk): for a store of one or two batches, where making the offsets
// first would cost as much as the matching.
//
//go:noescape
func countBatchesAVX2Index(tab *uint64, nb, bs, nch int, cq *uint64, nq int) uint64

// countBatchesAVX512 is countBatchesGo in assembly (kernel_amd64.s): one 512-bit
// row AND per chunk and one VPOPCNTQ per (batch, query).
//
//go:noescape
func countBatchesAVX512(tab *uint64, nb, bs, nch int, cq *uint64, nq int) uint64

// countBatchesAVX512Offs is countBatchesAVX512 on the queries' chunk offsets (nq queries
// of stride slots at offs, chunkOffsets), for chunks of any width: per (batch, query) one
// offset load and one 512-bit row AND a chunk, four batches at a time (one offset load
// for four row ANDs), then two, then one, and one VPOPCNTQ per (batch, query).
//
//go:noescape
func countBatchesAVX512Offs(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int) uint64

// matchIndexed reports whether the kernel for batches of bw words and nch chunks of cb
// bits (or the mixed layout: cb = mixedChunkBits, nch of its chunks 7 bits wide)
// computes each query's row offsets itself, once for a group of up to four batches
// (countBatchesAVX512Index), so that making them first (chunkOffsets) pays only where a
// query meets many batches one after another.
func matchIndexed(bw, cb, nch int) bool {
	return bw == 8 && haveMatchAVX512Index && (nch <= 8 && (cb == chunkBits || cb == wideChunkBits) ||
		cb == mixedChunkBits && nch >= 1 && nch <= mixedChunks)
}

// countBatchesAVX512Index is countBatchesAVX512 for chunks of 5 or 6 bits and at most 8
// chunks, or the mixed layouts (cb = mixedChunkBits: five chunks, the first nch = 1…5 of
// them 7 bits wide, chunkSpan), four batches at a time (then two, then one): each query's
// row offsets are computed once for the group (two instructions a chunk) and each shared
// by four row ANDs.
//
//go:noescape
func countBatchesAVX512Index(tab *uint64, nb, bs, nch, cb int, cq *uint64, nq int) uint64

// countBatchesAVX512IndexHalf is countBatchesAVX512Index on one batch (nb and bs not
// read) whose lanes 256–511 hold no pattern: it reads the first half of each row only
// (256-bit loads, ANDs and popcounts), so a store of one batch filled to at most half
// costs about half as much where the processor splits 512-bit operations (AMD Zen 4).
// nq ≥ 1; the matcher calls it through countHalfBatch.
//
//go:noescape
func countBatchesAVX512IndexHalf(tab *uint64, nb, bs, nch, cb int, cq *uint64, nq int) uint64

// halfBatch says the matcher counts a store of one batch whose patterns fill at most its
// first 256 lanes by countBatchesAVX512IndexHalf (countHalfBatch): wherever the indexed
// kernel runs. Only such stores: where a store has more batches, the 512-bit kernel shares
// each query's row offsets among them, and its last batch counted apart measured no
// faster. Tests turn it off to hold it to the 512-bit kernel and the Go build.
var halfBatch = haveMatchAVX512Index

// countHalfBatch returns countBatches's count over the one batch tab (8-word rows, the
// indexed kernels' chunks: matchIndexed) whose lanes 256–511 hold no pattern, and true;
// or false where halfBatch is off or the chunks are not the indexed kernels'.
func countHalfBatch(tab []uint64, nch, cb int, cq []uint64) (uint64, bool) {
	if !halfBatch || !matchIndexed(8, cb, nch) || len(tab) == 0 || len(cq) == 0 {
		return 0, false
	}
	return countBatchesAVX512IndexHalf(&tab[0], 1, len(tab), nch, cb, &cq[0], len(cq)), true
}

// countBatchesAVX512IndexT is countBatchesAVX512Index ANDing two chunks' rows at a time
// (VPTERNLOGQ): the same loads, about half the vector ANDs.
//
//go:noescape
func countBatchesAVX512IndexT(tab *uint64, nb, bs, nch, cb int, cq *uint64, nq int) uint64

// countBatchesAVX512IndexLanes is countBatchesAVX512Index (not its mixed layouts) keeping
// each word of each batch apart: it sets out[8·b + w] (nb·8 of them) to the lanes of word w of batch b left set,
// summed over the nq ≥ 1 queries, for a store whose words weigh differently
// (matcher.countWeighted).
//
//go:noescape
func countBatchesAVX512IndexLanes(tab *uint64, nb, bs, nch, cb int, cq *uint64, nq int, out *uint64)

// countBatchesAVX2Lanes is countBatchesAVX2 keeping the words apart: it sets out[4·b + w]
// (nb·4 of them) to the lanes of word w of batch b left set, summed over the nq ≥ 1
// queries (stride uint32 chunk offsets each, chunkOffsets), for a store whose words weigh
// differently (matcher.countWeighted).
//
//go:noescape
func countBatchesAVX2Lanes(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int, out *uint64)

// lanesOffsets reports whether countBatchesLanes takes the queries' chunk offsets for
// batches of bw words: the AVX2 kernel does.
func lanesOffsets(bw int) bool { return bw == 4 && haveMatchAVX2 }

// countBatchesLanes sets out[bw·b + w] (len(tab)/bs·bw of them) to the number of lanes of
// word w of batch b that the queries cq leave set, summed over the queries:
// countBatchesAVX512IndexLanes where it runs, countBatchesAVX2Lanes on the queries' chunk
// offsets offs (stride slots a query) where given, else countBatchesGoLanes.
func countBatchesLanes(tab []uint64, bs, bw, nch, cb int, cq []uint64, offs []uint32, stride int, out []uint64) {
	switch {
	case len(tab) == 0 || len(cq) == 0:
	case matchIndexed(bw, cb, nch) && cb != mixedChunkBits: // its loops have no mixed layout
		countBatchesAVX512IndexLanes(&tab[0], len(tab)/bs, bs, nch, cb, &cq[0], len(cq), &out[0])
		return
	case lanesOffsets(bw) && stride >= nch && len(offs) >= len(cq)*stride:
		countBatchesAVX2Lanes(&tab[0], len(tab)/bs, bs, nch, &offs[0], stride, len(cq), &out[0])
		return
	}
	countBatchesGoLanes(tab, bs, bw, nch, cb, cq, out)
}

// haveMatchAVX512Weighted reports whether countBatchesAVX512IndexWeighted may run:
// countBatchesAVX512Index's needs and AVX-512 BW and BITALG (byte popcounts, VPOPCNTB).
var haveMatchAVX512Weighted = haveMatchAVX512Index && cpuid.AVX512BYTES

// weightByByte says that weighted stores of 8-word batches weigh each byte of lanes
// (countBatchesAVX512IndexWeighted) where it runs; the measuring harness clears it to
// compare the per-word layout (BenchmarkJoinLists, CHESSPUZZLES_JOINGRAIN).
var weightByByte = true

// weightGrain is the lanes a weighted store gives each run of one weight (sieveMatcher's
// layout): 8 where the weights go by bytes (countBatchesWeighted: AVX2, pure Go, and
// AVX-512 with byte popcounts), 64 where the AVX-512 kernel runs without byte popcounts
// (countBatchesAVX512IndexLanes counts whole words, weighed after).
func weightGrain(bw int) int {
	if bw == 8 && haveMatchAVX512Index && !(haveMatchAVX512Weighted && weightByByte) {
		return 64
	}
	return 8
}

// countBatchesWeighted returns the sum over the queries cq and the batches of tab of the
// lanes each query leaves set, lane l of word w of batch b weighing wts[(bw·b + w)·8 + l/8]
// (at most 64; 0 for lanes that hold no pattern). On the queries' chunk offsets offs
// (stride slots a query) where the AVX2 kernels run and they are given, for up to 8
// chunks: countBatchesAVX2WeightedHS for the queries in fours, countBatchesAVX2Weighted
// for the last one to three (a second pass over the batches); for batches of 8 words
// countBatchesAVX512IndexWeighted where it runs (up to 8 chunks of 5 or 6 bits); else
// countBatchesGoWeighted.
func countBatchesWeighted(tab []uint64, bs, bw, nch, cb int, cq []uint64, offs []uint32, stride int, wts []uint8) uint64 {
	switch {
	case len(tab) == 0 || len(cq) == 0:
		return 0
	case haveMatchAVX512Weighted && matchIndexed(bw, cb, nch):
		nb := len(tab) / bs
		kernel := countBatchesAVX512IndexWeighted
		if kernelTernlog {
			kernel = countBatchesAVX512IndexWeightedT
		}
		if nb <= 2 || !pairsOnly(bs) {
			return kernel(&tab[0], nb, bs, nch, cb, &cq[0], len(cq), &wts[0])
		}
		var n uint64
		for b := 0; b < nb; b += 2 {
			n += kernel(&tab[b*bs], min(2, nb-b), bs, nch, cb, &cq[0], len(cq), &wts[64*b])
		}
		return n
	case lanesOffsets(bw) && nch <= 8 && stride >= nch && len(offs) >= len(cq)*stride:
		nb := len(tab) / bs
		var n uint64
		q4 := len(cq) &^ 3
		if q4 > 0 {
			n = countBatchesAVX2WeightedHS(&tab[0], nb, bs, nch, &offs[0], stride, q4, &wts[0])
		}
		if q4 < len(cq) {
			n += countBatchesAVX2Weighted(&tab[0], nb, bs, nch, &offs[q4*stride], stride, len(cq)-q4, &wts[0])
		}
		return n
	}
	return countBatchesGoWeighted(tab, bs, bw, nch, cb, cq, wts)
}

// countBatchesAVX512IndexWeighted is countBatchesAVX512Index weighing each lane
// (countBatchesGoWeighted), for chunks of 5 or 6 bits and at most 8 chunks or the mixed
// layouts: the nq ≥ 1
// queries' byte popcounts (VPOPCNTB) are summed bytewise for up to 31 queries at a time,
// then multiplied by the bytes' weights (wts: 64 a batch, each at most 64) and added up
// (VPMADDUBSW, VPMADDWD), so that a weight's run needs only 8 lanes, not a word.
//
//go:noescape
func countBatchesAVX512IndexWeighted(tab *uint64, nb, bs, nch, cb int, cq *uint64, nq int, wts *uint8) uint64

// countBatchesAVX512IndexWeightedT is countBatchesAVX512IndexWeighted ANDing two chunks'
// rows at a time (VPTERNLOGQ): the same loads, about half the vector ANDs.
//
//go:noescape
func countBatchesAVX512IndexWeightedT(tab *uint64, nb, bs, nch, cb int, cq *uint64, nq int, wts *uint8) uint64

// kernelPairs says that countBatches and countBatchesWeighted give the AVX-512 kernels
// (countBatchesAVX512Index, countBatchesAVX512IndexWeighted and their ternlog twins) at
// most two batches a call where four batches' rows would not fit 32 KiB (pairsOnly), so
// that their loops take the batches two at a time, not four: sharing a query's row offsets
// among four batches saves two scalar instructions a chunk, but four batches' rows of six
// chunks of 6 bits (96 KiB) do not fit a 48 KiB L1 data cache, and two (48 KiB) nearly do.
// The measuring harness sets it (CHESSPUZZLES_JOINKERNEL) to compare the two. With
// kernelTernlog, on a 2-core Intel Xeon with AVX-512 (1 Dec 2026; bench/log/
// 2026-11-29-join.md, "Session 19 … lead"): whole row sets 0.920 ± 0.019 of the kernels'
// time before at N = 28 (16 row sets), 0.906 ± 0.018 at 27 (16) and 0.921 ± 0.008 at 29
// (6). Alone, on a 2-core AMD EPYC (Zen 5), N = 28: 0.965 ± 0.037 (8 row sets;
// bench/log/2026-11-29-join.md, "Session 21 … kernels"), where the two together read
// 1.010 ± 0.039.
var kernelPairs = true

// pairsOnly reports whether the AVX-512 kernels take the batches of bs words at most two
// at a time (kernelPairs, and four batches' rows above 32 KiB: chunks of 6 bits from 3
// chunks, of 5 bits from 5, every mixed layout).
func pairsOnly(bs int) bool { return kernelPairs && 4*8*bs > 32<<10 }

// kernelTernlog says that countBatches and countBatchesWeighted run the ternlog twins
// countBatchesAVX512IndexT and countBatchesAVX512IndexWeightedT where they would run
// countBatchesAVX512Index and countBatchesAVX512IndexWeighted. The measuring harness sets
// it (CHESSPUZZLES_JOINKERNEL) to compare the two (see kernelPairs for what the two
// together measured on Intel). It is on on Intel processors only (cpuid.Intel): on a
// 2-core AMD EPYC (Zen 5), N = 28, whole row sets, kernelPairs alone took 0.949 of the
// time of both (16 row sets, seeds 2005 and 2025: 0.933 ± 0.094 and 0.960 ± 0.072;
// "Session 21 … kernels").
var kernelTernlog = cpuid.Intel

// countBatchesAVX2Weighted is countBatchesAVX2 weighing each lane (countBatchesGoWeighted):
// the nq ≥ 1 queries' byte popcounts are summed bytewise for up to 31 queries at a time (at
// most 248 a byte), then multiplied by the bytes' weights (wts: 32 a batch, each at most
// 64) and added up (VPMADDUBSW, VPMADDWD), so a lane's weight costs nothing a query.
//
//go:noescape
func countBatchesAVX2Weighted(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int, wts *uint8) uint64

// countBatchesAVX2WeightedHS is countBatchesAVX2Weighted for a positive multiple of 4
// queries, counting four queries' rows of a batch at a time with carry-save adders
// (Harley–Seal): one byte popcount a batch and four queries instead of four, for fifteen
// bitwise operations, the ones and twos left at the end popcounted once.
//
//go:noescape
func countBatchesAVX2WeightedHS(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int, wts *uint8) uint64

// countBatchesAVX2HS is countBatchesAVX2 for a positive multiple of 4 queries and 1 to 8
// chunks, counting the rows of four queries in two batches at a time with carry-save
// adders (Harley–Seal): one byte popcount for eight (batch, query) pairs instead of eight,
// for 35 bitwise operations.
//
//go:noescape
func countBatchesAVX2HS(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int) uint64
