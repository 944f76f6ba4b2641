//go:build !amd64 || purego

package queens

// haveMatchAVX512 is false without assembly.
const haveMatchAVX512 = false

// countBatches is the query kernel the matcher uses: countBatchesGo.
func countBatches(tab []uint64, bs, nch int, cq []uint64) uint64 {
	return countBatchesGo(tab, bs, nch, cq)
}
