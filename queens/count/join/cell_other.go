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

// runQuadScan makes the quads of s from the from-th column set on: it is quadScanGo.
func runQuadScan(q *[3][]uint64, s *quadScan, from int, f *pairFrame, zero bool) int {
	return quadScanGo(q, s, from, f, zero)
}

// runCellScan makes the cells of s from the from-th column set on: it is cellScanGo.
func runCellScan(out []uint64, s *cellScan, from int, f *pairFrame) ([]uint64, int) {
	return cellScanGo(out, s, from, f)
}
