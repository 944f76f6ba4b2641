//go:build !amd64 || purego

package join

// haveMatchAVX512 is false without assembly.
const haveMatchAVX512 = false

// haveMatchAVX2 is false without assembly.
const haveMatchAVX2 = false

// defaultMatchWords is the batch width without assembly: 8 words.
func defaultMatchWords() int { return 8 }

// matchOffsets is false: countBatchesGo computes the chunk rows from the queries.
func matchOffsets(int) bool { return false }

// countBatches is the query kernel the matcher uses: countBatchesGo.
func countBatches(tab []uint64, bs, bw, nch, cb int, cq []uint64, _ []uint32, _ int) uint64 {
	return countBatchesGo(tab, bs, bw, nch, cb, cq)
}

// matchIndexed is false: countBatchesGo computes the chunk rows from the queries.
func matchIndexed(int, int, int) bool { return false }

// lanesOffsets is false: countBatchesGoLanes computes the chunk rows from the queries.
func lanesOffsets(int) bool { return false }

// countBatchesLanes is countBatchesGoLanes without assembly.
func countBatchesLanes(tab []uint64, bs, bw, nch, cb int, cq []uint64, _ []uint32, _ int, out []uint64) {
	countBatchesGoLanes(tab, bs, bw, nch, cb, cq, out)
}

// haveMatchAVX512Weighted is false without assembly.
const haveMatchAVX512Weighted = false

// weightByByte has no effect without assembly: weighted stores weigh each byte.
var weightByByte = true

// kernelPairs and kernelTernlog choose among the AVX-512 kernels' loops
// (kernel_amd64.go); without assembly they choose nothing.
var kernelPairs, kernelTernlog bool

// weightGrain is the lanes a weighted store gives each run of one weight: 8, a byte
// (countBatchesGoWeighted weighs each byte of lanes).
func weightGrain(int) int { return 8 }

// countBatchesWeighted is countBatchesGoWeighted without assembly.
func countBatchesWeighted(tab []uint64, bs, bw, nch, cb int, cq []uint64, _ []uint32, _ int, wts []uint8) uint64 {
	return countBatchesGoWeighted(tab, bs, bw, nch, cb, cq, wts)
}

// halfBatch has no effect without assembly (countHalfBatch).
var halfBatch = false

// countHalfBatch is false without assembly: countBatchesGo counts every batch whole.
func countHalfBatch([]uint64, int, int, []uint64) (uint64, bool) { return 0, false }
