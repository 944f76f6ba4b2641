//go:build !amd64 || purego

package join

// haveMatchAVX512 is false without assembly.
const haveMatchAVX512 = false

// haveMatchAVX2 is false without assembly.
const haveMatchAVX2 = false

// defaultMatchWords is the batch width without assembly: 8 words.
func defaultMatchWords() int { return 8 }

// countBatches is the query kernel the matcher uses: countBatchesGo.
func countBatches(tab []uint64, bs, bw, nch int, cq []uint64) uint64 {
	return countBatchesGo(tab, bs, bw, nch, cq)
}
