//go:build amd64 && !purego

package join

import "github.com/chesspuzzles/chesspuzzles/queens/internal/cpuid"

// haveCellAVX512 reports whether cellPairsAVX512 may run: it needs AVX-512 F (with the
// operating system saving the 512-bit registers; cpuid reports it together with VPOPCNTDQ:
// Intel Ice Lake and later, AMD Zen 4 and later), POPCNT and BMI2.
var haveCellAVX512 = cpuid.AVX512POPCNT && cpuid.BMI2

// cellPairs appends to out the signatures of the compatible pairs of north and south
// pieces (clash words sc, signatures ss), those of cellPairsGo; out must have room for
// len(north)·len(sc) + cellSlack more words. With AVX-512 it is cellPairsAVX512, whose
// signatures are the same but may come in another order (TestJoinCell).
func cellPairs(out []uint64, north []uint64, sc, ss []uint64, f *pairFrame) []uint64 {
	if len(north) == 0 || len(sc) == 0 {
		return out
	}
	if !haveCellAVX512 {
		return cellPairsGo(out, north, sc, ss, f)
	}
	n := cellPairsAVX512(&out[len(out):cap(out)][0], &north[0], len(north), &sc[0], &ss[:len(sc)][0], len(sc), f)
	return out[:len(out)+n]
}

// cellPairsAVX512 writes at dst the signatures of cellPairsGo (nn north pieces, ns south
// pieces as two lists), in some order, and returns how many it wrote. North pieces go
// eight at a time: their masks are put into the frame in vector registers, and the
// block's pairs are made either north piece by north piece (each broadcast against the
// south pieces eight a step) or, where that takes fewer steps, south piece by south piece
// (each broadcast against the block); a step is a VPTESTNMQ of clash words and a
// VPCOMPRESSQ of the ORed signatures into a register stored whole. It stores up to 7
// words past the last one it counts.
//
//go:noescape
func cellPairsAVX512(dst, north *uint64, nn int, clash, sig *uint64, ns int, f *pairFrame) int
