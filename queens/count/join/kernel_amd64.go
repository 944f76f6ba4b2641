//go:build amd64 && !purego

package join

import "github.com/chesspuzzles/chesspuzzles/queens/internal/cpuid"

// haveMatchAVX512 reports whether countBatchesAVX512 may run: it needs AVX-512 F and
// VPOPCNTDQ (Intel Ice Lake and later, AMD Zen 4 and later) and an operating system that
// saves the 512-bit registers.
var haveMatchAVX512 = cpuid.AVX512POPCNT

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
// offsets (chunkOffsets): the AVX2 kernel does.
func matchOffsets(bw int) bool { return bw == 4 && haveMatchAVX2 }

// countBatches is the query kernel the matcher uses: AVX-512 for batches of 8 words where
// the processor has it, AVX2 for batches of 4 given the queries' chunk offsets offs
// (stride slots a query) or without them, else countBatchesGo. The AVX2 offsets kernel
// takes chunks of any width cb; the others in assembly only chunkBits. All give the same
// count (TestMatchKernels).
func countBatches(tab []uint64, bs, bw, nch, cb int, cq []uint64, offs []uint32, stride int) uint64 {
	if len(tab) > 0 && len(cq) > 0 {
		switch {
		case bw == 4 && haveMatchAVX2 && stride >= nch && len(offs) >= len(cq)*stride:
			return countBatchesAVX2(&tab[0], len(tab)/bs, bs, nch, &offs[0], stride, len(cq))
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
