package join

import (
	"unsafe"
)

// cellScan is what a scan of one table row's cells reads (runCellScan), for a half whose
// south pieces come from one south row: the row's column sets and offsets, its pieces,
// the class range [lo, hi) of a cell's runs that holds its north pieces, and the south
// row's offsets by column set, clash words and signatures. cellScanAVX512 reads the
// fields by their offsets: they stay in this order.
type cellScan struct {
	cs     *uint32 // the column sets of the row's popcount, end of them
	end    int
	toff   *uint32 // the row's offsets: four runs a column set, and one end
	pieces *uint64 // the row's pieces
	so     *int32  // the south row: start of the cell of rest columns at so[rest]
	sc, ss *uint64 // its clash words and signatures
	cols   uint64  // the half's columns
	lo, hi int     // the north pieces of column set i: toff[4i+lo] to toff[4i+hi]
	budget int     // candidates the scan may still make
}

// set points s at the column sets cs of table row (toff, pieces), north pieces in the
// class range [lo, hi) of each cell, and the south row cache sr, for the half's columns
// cols.
func (s *cellScan) set(cs, toff []uint32, pieces []uint64, sr *southRow, cols uint32, lo, hi int) {
	s.cs, s.end = unsafe.SliceData(cs), len(cs)
	s.toff, s.pieces = unsafe.SliceData(toff), unsafe.SliceData(pieces)
	s.so, s.sc, s.ss = unsafe.SliceData(sr.off), unsafe.SliceData(sr.buf.clash), unsafe.SliceData(sr.buf.sig)
	s.cols, s.lo, s.hi = uint64(cols), lo, hi
}

// cellScanGo is runCellScan in Go: cellPairsGo of each cell in turn.
func cellScanGo(out []uint64, s *cellScan, from int, f *pairFrame) ([]uint64, int) {
	cs := unsafe.Slice(s.cs, s.end)
	toff := unsafe.Slice(s.toff, 4*s.end+1)
	i := from
	for ; ; i++ {
		var o []uint32
		var rest uint32
		if i, o, rest = nextColSet(cs, toff, uint32(s.cols), i); o == nil {
			break
		}
		so := unsafe.Slice(s.so, rest+2)
		a, ns := int(so[rest]), int(so[rest+1]-so[rest])
		north := unsafe.Slice(s.pieces, int(o[s.hi]))[o[s.lo]:]
		cand := len(north) * ns
		if cand > s.budget {
			break
		}
		s.budget -= cand
		if cand > 0 {
			out = cellPairsGo(out, north, unsafe.Slice(s.sc, a+ns)[a:], unsafe.Slice(s.ss, a+ns)[a:], f)
		}
	}
	return out, i
}

// nextColSet returns the first column set from i on of the table row (cs, toff) whose
// columns lie in cols and which holds pieces, its five offsets in the row and the columns
// left to the south (cols &^ its columns), or len(cs) and nil where none is left: the
// Go twins' part of the scans' COLSET.
func nextColSet(cs, toff []uint32, cols uint32, i int) (int, []uint32, uint32) {
	for ; i < len(cs); i++ {
		c := cs[i]
		if o := toff[i<<2 : i<<2+5]; c&^cols == 0 && o[0] != o[4] {
			return i, o, cols &^ c
		}
	}
	return i, nil, 0
}

// roomFor returns out with room for n more signatures and cellSlack, grown where it must
// grow (regrow) to that need and half its length more, or an eighth of n more where that
// is more. Every list of pairs grows through it. The eighth is for the quad scan, which
// asks for its whole budget (scanBudget) each time: a list emptied by a flush keeps the few
// signatures a cell run added since (48 at most at N = 16), and growing past them by the
// list's capacity, as before, doubled all three lists (0.8 MiB of N = 16's 3.5 MiB of
// allocations, which then took a garbage collection a program with the runtime's default
// settings pays for).
func roomFor(out []uint64, n int) []uint64 {
	if need := len(out) + n + cellSlack; cap(out) < need {
		out = regrow(out, need+max(len(out)/2, n/8))
	}
	return out
}

// regrow returns s in a new array of capacity c ≥ len(s), the rest zero, as
// slices.Grow(s, c-len(s)) does but for capacity rounding. slices.Grow appends zeros, which
// writes the whole new capacity; make leaves memory fresh from the system unwritten (it is
// zero already), so a list's capacity past what a row set writes costs no page fault. At
// N = 16, whose process starts on an empty heap and never collects it, that was about 160
// of its 1,600 page faults.
func regrow[T any](s []T, c int) []T {
	t := make([]T, len(s), c)
	copy(t, s)
	return t
}
