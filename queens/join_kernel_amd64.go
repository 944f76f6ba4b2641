//go:build amd64 && !purego

package queens

// haveMatchAVX512 reports whether countBatchesAVX512 may run: it needs AVX-512 F and
// VPOPCNTDQ (Intel Ice Lake and later, AMD Zen 4 and later) and an operating system that
// saves the 512-bit registers.
var haveMatchAVX512 = cpuHasAVX512Popcnt()

// countBatches is the query kernel the matcher uses: AVX-512 where the processor has it,
// else countBatchesGo. Both give the same count (TestMatchKernels).
func countBatches(tab []uint64, bs, nch int, cq []uint64) uint64 {
	if haveMatchAVX512 && len(tab) > 0 && len(cq) > 0 {
		return countBatchesAVX512(&tab[0], len(tab)/bs, bs, nch, &cq[0], len(cq))
	}
	return countBatchesGo(tab, bs, nch, cq)
}

// countBatchesAVX512 is countBatchesGo in assembly (join_kernel_amd64.s): one 512-bit
// row AND per chunk and one VPOPCNTQ per (batch, query).
//
//go:noescape
func countBatchesAVX512(tab *uint64, nb, bs, nch int, cq *uint64, nq int) uint64

// cpuHasAVX512Popcnt reports AVX-512 F and VPOPCNTDQ in CPUID leaf 7 and the ZMM state
// enabled in XCR0.
func cpuHasAVX512Popcnt() bool
