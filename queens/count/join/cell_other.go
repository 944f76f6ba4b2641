//go:build !amd64 || purego

package join

// haveCellAVX512 is false without assembly.
const haveCellAVX512 = false

// joinCell appends to out the signatures of the compatible pairs of north and south
// pieces (see joinCellGo, which it is); out must have room for len(north)·len(south)
// more words.
func joinCell(out []uint64, north []uint64, south pieceList, f *pairFrame) []uint64 {
	return joinCellGo(out, north, south, f)
}
