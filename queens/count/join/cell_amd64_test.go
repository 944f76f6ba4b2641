//go:build amd64 && !purego

package join

// cellKernels lists cellPairs and, where the processor has AVX2, the two AVX2 kernels
// called on their own: cellPairsAVX2 on south lists of whole steps of four, and
// cellPairsAVX2South on any cell.
func cellKernels() []cellKernel {
	ks := []cellKernel{{name: "cellPairs", fits: func(int, int) bool { return true }, run: cellPairs}}
	if !haveCellAVX2 {
		return ks
	}
	asm := func(kernel func(dst, north *uint64, nn int, clash, sig *uint64, ns int, f *pairFrame) int) func(out []uint64, north []uint64, sc, ss []uint64, f *pairFrame) []uint64 {
		return func(out []uint64, north []uint64, sc, ss []uint64, f *pairFrame) []uint64 {
			if len(north) == 0 || len(sc) == 0 {
				return out
			}
			n := kernel(&out[len(out):cap(out)][0], &north[0], len(north), &sc[0], &ss[:len(sc)][0], len(sc), f)
			return out[:len(out)+n]
		}
	}
	return append(ks,
		cellKernel{name: "cellPairsAVX2", fits: func(_, ns int) bool { return ns%4 == 0 }, run: asm(cellPairsAVX2)},
		cellKernel{name: "cellPairsAVX2South", fits: func(int, int) bool { return true }, run: asm(cellPairsAVX2South)},
	)
}
