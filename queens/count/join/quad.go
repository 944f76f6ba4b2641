package join

import (
	"unsafe"
)

// A quad is one column set's four cells of an even half B (evenBRuns): its north pieces
// off the long diagonal D2 and on it, against its south pieces off D1 (list 0) and on D1
// (list 1). Its pairs go to three lists by how many long diagonals they hold: off×off to
// the first (where zero), off×on and on×off to the second, on×on to the third.
//
// quadMax is the most pieces a block of north pieces holds (one vector register), and
// quadNorthMax the most a north list of a quad holds: the scan makes a longer list's
// pairs eight north pieces of each class at a time. quadSouthMax is the most a south
// list holds: the scan makes a list's pairs sixteen south pieces at a time in two
// registers (as cellRunAVX512's rmedium does), eight or fewer in one. At N = 16, 61 % of
// half B's candidates are in column sets whose four lists all hold at most 8, and most of
// the rest have north lists of 0 to 3 and south lists of 8 to 15; of the 34,000 column sets
// that did not fit lists of 8 and 16, 20,000 had north lists of 9 to 16, and nearly all
// the rest south lists of 17 to 48.
//
// Quads of south lists of 9 or more are made only for frames of at most quadMediumW
// columns (N = 16): there they made the count 1–3 % faster; at N = 20 (shard 3/16) the
// whole process was 1.01–1.05 times slower in five of five alternated pairs, at N = 18
// even within the noise, so wider frames keep them in the cell runs.
//
// quadCandMax is the most candidates one quad has; scanBudget the most a scan is given
// at once (the room it needs in each list).
const (
	quadMax      = 8
	quadNorthMax = 16
	quadSouthMax = 48
	quadMediumW  = 15
	quadCandMax  = 2 * quadNorthMax * 2 * quadSouthMax
	scanBudget   = runMaxCand
)

// quadScanAVX512 compares with quadMax, quadNorthMax and quadCandMax as the numbers 8,
// 16 and 3072: an index out of range here stops the build if one of them changes.
var (
	_ = [1]struct{}{}[quadMax-8]
	_ = [1]struct{}{}[quadNorthMax-16]
	_ = [1]struct{}{}[quadCandMax-3072]
)

// quadScan is what a scan of one table row's column sets reads (runQuadScan): the row's
// column sets and offsets, its pieces, the two south rows' offsets by column set (off D1,
// on D1) and their clash words and signatures. quadScanAVX512 reads the fields by their
// offsets: they stay in this order.
type quadScan struct {
	cs       *uint32 // the column sets of the row's popcount, end of them
	end      int
	toff     *uint32 // the row's offsets: four runs a column set, and one end
	pieces   *uint64 // the row's pieces
	o0       *int32  // south off D1: start of the cell of rest columns at o0[rest]
	c0, s0   *uint64 // its clash words and signatures
	o1       *int32  // south on D1, likewise
	c1, s1   *uint64
	cols     uint64 // half B's columns
	southMax int    // the most south pieces a list of a quad takes (quadMax or quadSouthMax)
	budget   int    // candidates the scan may still make; it stops below quadCandMax
	// scratch of quadScanAVX512, between a column set's offsets and its quad
	//lint:ignore U1000 written and read by quadScanAVX512
	scratch [13]uintptr
}

// set points s at the column sets cs of table row (toff, pieces) and the south row
// caches s0, s1 (off and on D1) for half B's columns cols.
func (s *quadScan) set(cs, toff []uint32, pieces []uint64, s0, s1 *southRow, cols uint32, southMax int) {
	s.cs, s.end = unsafe.SliceData(cs), len(cs)
	s.toff, s.pieces = unsafe.SliceData(toff), unsafe.SliceData(pieces)
	s.o0, s.c0, s.s0 = unsafe.SliceData(s0.off), unsafe.SliceData(s0.buf.clash), unsafe.SliceData(s0.buf.sig)
	s.o1, s.c1, s.s1 = unsafe.SliceData(s1.off), unsafe.SliceData(s1.buf.clash), unsafe.SliceData(s1.buf.sig)
	s.cols, s.southMax = uint64(cols), southMax
}

// quadScanGo is runQuadScan in Go: for each quad, cellPairsGo of its four cells (off×off
// only where zero).
func quadScanGo(q *[3][]uint64, s *quadScan, from int, f *pairFrame, zero bool) int {
	cs := unsafe.Slice(s.cs, s.end)
	toff := unsafe.Slice(s.toff, 4*s.end+1)
	i := from
	for ; ; i++ {
		var o []uint32
		var rest uint32
		if i, o, rest = nextColSet(cs, toff, uint32(s.cols), i); o == nil {
			break
		}
		o0, o1 := unsafe.Slice(s.o0, rest+2), unsafe.Slice(s.o1, rest+2)
		a, b := int(o[2]-o[0]), int(o[4]-o[2])
		a0, n0 := int(o0[rest]), int(o0[rest+1]-o0[rest])
		a1, n1 := int(o1[rest]), int(o1[rest+1]-o1[rest])
		if max(a, b) > quadNorthMax || max(n0, n1) > s.southMax || s.budget < quadCandMax {
			break
		}
		s.budget -= (a + b) * (n0 + n1)
		north := unsafe.Slice(s.pieces, int(o[4]))[o[0]:]
		nOff, nOn := north[:a], north[a:]
		c0, s0 := unsafe.Slice(s.c0, a0+n0)[a0:], unsafe.Slice(s.s0, a0+n0)[a0:]
		c1, s1 := unsafe.Slice(s.c1, a1+n1)[a1:], unsafe.Slice(s.s1, a1+n1)[a1:]
		if zero {
			q[0] = cellPairsGo(q[0], nOff, c0, s0, f)
		}
		q[1] = cellPairsGo(q[1], nOff, c1, s1, f)
		q[1] = cellPairsGo(q[1], nOn, c0, s0, f)
		q[2] = cellPairsGo(q[2], nOn, c1, s1, f)
	}
	return i
}

// roomForScan grows each list of q to room for n more signatures and cellSlack.
func roomForScan(q *[3][]uint64, n int) {
	for k := range q {
		q[k] = roomFor(q[k], n)
	}
}
