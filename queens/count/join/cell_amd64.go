//go:build amd64 && !purego

package join

import (
	"unsafe"

	"github.com/chesspuzzles/chesspuzzles/queens/internal/cpuid"
)

// haveCellAVX512 reports whether cellPairsAVX512 may run: it needs AVX-512 F (with the
// operating system saving the 512-bit registers; cpuid reports it together with VPOPCNTDQ:
// Intel Ice Lake and later, AMD Zen 4 and later), POPCNT and BMI2.
var haveCellAVX512 = cpuid.AVX512POPCNT && cpuid.BMI2

// haveCellAVX2 reports whether cellPairsAVX2 may run: AVX2, BMI2 (SHLX, SHRX) and
// POPCNT (every processor with AVX2 has the other two).
var haveCellAVX2 = cpuid.AVX2 && cpuid.BMI2 && cpuid.POPCNT

// cellPairs appends to out the signatures of the compatible pairs of north and south
// pieces (clash words sc, signatures ss), those of cellPairsGo; out must have room for
// len(north)·len(sc) + cellSlack more words. With AVX-512 it is cellPairsAVX512. With
// AVX2 it takes whichever order makes fewer vector steps: cellPairsAVX2South (north
// pieces four to a step, each south piece broadcast; the usual case, and every cell whose
// south list is short) or cellPairsAVX2 for the south pieces four at a time and
// cellPairsAVX2South for the last one to three (cells of one to three north pieces and
// many south ones). The signatures are the same but may come in another order
// (TestJoinCell).
func cellPairs(out []uint64, north []uint64, sc, ss []uint64, f *pairFrame) []uint64 {
	nn, ns := len(north), len(sc)
	if nn == 0 || ns == 0 {
		return out
	}
	if haveCellAVX512 {
		n := cellPairsAVX512(&out[len(out):cap(out)][0], &north[0], nn, &sc[0], &ss[:ns][0], ns, f)
		return out[:len(out)+n]
	}
	if !haveCellAVX2 {
		return cellPairsGo(out, north, sc, ss, f)
	}
	q, n4 := (nn+3)/4, ns&^3
	if q*ns <= nn*(n4/4)+q*(ns-n4) {
		n := cellPairsAVX2South(&out[len(out):cap(out)][0], &north[0], nn, &sc[0], &ss[:ns][0], ns, f)
		return out[:len(out)+n]
	}
	n := cellPairsAVX2(&out[len(out):cap(out)][0], &north[0], nn, &sc[0], &ss[:ns][0], n4, f)
	out = out[:len(out)+n]
	if n4 < ns {
		n = cellPairsAVX2South(&out[len(out):cap(out)][0], &north[0], nn, &sc[n4], &ss[n4:ns][0], ns-n4, f)
		out = out[:len(out)+n]
	}
	return out
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

// cellPairsAVX2 writes at dst the signatures of cellPairsGo for nn north pieces and ns
// south pieces (ns a multiple of 4, as two lists), north piece by north piece, and
// returns how many it wrote: each north piece is broadcast against four south pieces a
// step, and the compatible pairs' signatures packed by a table of VPERMD indexes. It
// stores up to 3 words past the last one it counts. Measured against cellPairsGo in
// bench/log/2026-11-29-join.md.
//
//go:noescape
func cellPairsAVX2(dst, north *uint64, nn int, clash, sig *uint64, ns int, f *pairFrame) int

// cellPairsAVX2South writes at dst the signatures of cellPairsGo for nn north pieces and
// ns south pieces (any counts, as two lists), south piece by south piece, and returns how
// many it wrote: the north pieces go four at a time, their clash words and signatures made
// in vector registers, and each south piece is broadcast against the block; the
// compatible pairs' signatures are packed as in cellPairsAVX2. It reads no word past the
// lists and stores up to 3 words past the last one it counts.
//
//go:noescape
func cellPairsAVX2South(dst, north *uint64, nn int, clash, sig *uint64, ns int, f *pairFrame) int

// runCells appends to out the signatures of every cell of jobs, those of cellRunGo in
// some order; out must have room for their candidates (Σ nn·ns) and cellSlack more
// words. It is cellRunAVX512; callers run cells this way only where haveCellAVX512.
func runCells(out []uint64, jobs []cellJob, f *pairFrame) []uint64 {
	if len(jobs) == 0 {
		return out
	}
	n := cellRunAVX512(&out[len(out):cap(out)][0], &jobs[0], len(jobs), f)
	return out[:len(out)+n]
}

// cellRunAVX512 writes at dst the signatures of cellPairsAVX512 for each of the nj cells
// at jobs in turn (a cell with no north or no south pieces writes none), and returns how
// many it wrote. The frame's registers are set once for the whole run. It stores up to 7
// words past the last one it counts.
//
//go:noescape
func cellRunAVX512(dst *uint64, jobs *cellJob, nj int, f *pairFrame) int

// runQuadScan makes the quads of s's column sets from the from-th on, in order, appending
// their pairs to the lists of q (the first only where zero), for as long as each column
// set's north lists hold at most quadNorthMax pieces and its south lists at most s.southMax,
// and s.budget, less each quad's candidates, stays at least quadCandMax. Column sets not
// within half B's columns or without north pieces are passed over. It returns the index
// of the first column set not made (s.end if none is left). Each list must have room for
// s.budget more signatures and cellSlack (roomForScan), and f must have no forbidden
// masks (the scan keeps every north piece). It is quadScanAVX512 (quadScanGo makes the
// same pairs in some order and stops at the same place); callers scan only where
// haveCellAVX512.
func runQuadScan(q *[3][]uint64, s *quadScan, from int, f *pairFrame, zero bool) int {
	var cur [3]uintptr
	for k := range q {
		cur[k] = uintptr(unsafe.Pointer(unsafe.SliceData(q[k]))) + uintptr(len(q[k]))*8
	}
	start := cur
	i := quadScanAVX512(&cur, s, from, f, zero)
	for k := range q {
		q[k] = q[k][:len(q[k])+int(cur[k]-start[k])/8]
	}
	return i
}

// quadScanAVX512 is runQuadScan with each list's cursor in cur, which it moves past the
// pairs it writes. A column set's offsets are read and its quad made without a return to
// Go between column sets: the quad's two north blocks made once and each south list loaded
// once, a pair of a block and a list made as cellRunAVX512 makes a cell whose pieces fit
// one register a side (south lists of 9 to 16: two registers, as rmedium). It stores up to
// 7 words past each cursor's last.
//
//go:noescape
func quadScanAVX512(cur *[3]uintptr, s *quadScan, from int, f *pairFrame, zero bool) int

// runCellScan returns out with the pairs of s's cells from the from-th column set on
// appended, in order, for as long as s.budget covers each cell's candidates (north pieces
// times south pieces; s.budget is lowered by each), and the index of the first column set
// not made (s.end if none is left). Column sets not within the half's columns or without
// pieces are passed over. out must have room for s.budget more signatures and cellSlack
// (roomFor). It is cellScanAVX512 (cellScanGo makes the same pairs in some order and
// stops at the same place); callers scan only where haveCellAVX512, with a frame of at
// most runMaxW.
func runCellScan(out []uint64, s *cellScan, from int, f *pairFrame) ([]uint64, int) {
	n, i := cellScanAVX512(unsafe.SliceData(out[len(out):cap(out)]), s, from, f)
	return out[:len(out)+n], i
}

// cellScanAVX512 is runCellScan writing at dst: it returns how many signatures it wrote
// and the first column set not made. A cell's offsets are read and its pairs made as
// cellRunAVX512 makes a cell, without a return to Go between cells. It stores up to 7
// words past the last one it counts.
//
//go:noescape
func cellScanAVX512(dst *uint64, s *cellScan, from int, f *pairFrame) (int, int)

// cellBodyAVX512 makes one cell's pairs for cellRunAVX512 and cellScanAVX512, which call
// it with their registers set (cell_amd64.s); it is never called from Go.
//
//lint:ignore U1000 called from assembly only
func cellBodyAVX512()
