//go:build !amd64 || purego

package join

// haveCellAVX512 is false without assembly.
const haveCellAVX512 = false

// cellPairs appends to out the signatures of the compatible pairs of north and south
// pieces (clash words sc, signatures ss; see cellPairsGo, which it is); out must have room for len(north)·len(south)
// more words.
func cellPairs(out []uint64, north []uint64, sc, ss []uint64, f *pairFrame) []uint64 {
	return cellPairsGo(out, north, sc, ss, f)
}

// haveCellAVX2 is false without assembly.
const haveCellAVX2 = false

// runCells appends to out the signatures of every cell of jobs: it is cellRunGo.
func runCells(out []uint64, jobs []cellJob, f *pairFrame) []uint64 {
	return cellRunGo(out, jobs, f)
}

// runQuads appends the pairs of every quad of jobs to the lists of q: it is quadRunGo.
func runQuads(q *[3][]uint64, jobs []quadJob, f *pairFrame, zero bool) {
	quadRunGo(q, jobs, f, zero)
}
