package join

import (
	"slices"
	"unsafe"
)

// quadJob is one column set's four cells of an even half B (evenBRuns): its north pieces
// off the long diagonal D2 (nOff of them) and then on it (nOn) from north, its south
// pieces off D1 (clash0, sig0; ns0) and on D1 (clash1, sig1; ns1), each north count at
// most quadMax, each south count at most quadSouthMax. Its pairs go to three lists by how many long diagonals they hold: off×off to
// the first (where the run takes them), off×on and on×off to the second, on×on to the
// third. cellQuadAVX512 reads the fields by their offsets: they stay in this order.
type quadJob struct {
	north        *uint64
	nOff, nOn    int
	clash0, sig0 *uint64
	ns0          int
	clash1, sig1 *uint64
	ns1          int
}

// quadMax is the most pieces a north list of a quad holds: each fits one vector
// register. quadSouthMax is the most a south list holds: two registers (cellQuadAVX512
// makes a cell of 9 to 16 south pieces as cellRunAVX512's rmedium does). At N = 16, 61 %
// of half B's candidates are in column sets whose four lists all hold at most 8, and most
// of the rest have north lists of 0 to 3 and south lists of 8 to 15.
//
// Quads of south lists of 9 to 16 are made only for frames of at most quadMediumW
// columns (N = 16): there they made the count 1–3 % faster; at N = 20 (shard 3/16) the
// whole process was 1.01–1.05 times slower in five of five alternated pairs, at N = 18
// even within the noise, so wider frames keep them in the cell runs.
const (
	quadMax      = 8
	quadSouthMax = 16
	quadMediumW  = 15
	quadMaxCand  = runMaxCand - 4*quadMax*quadSouthMax // a quad's room left in a run
)

// quadRun gathers the quads of a row set's half B, to make their pairs in one call
// (runQuads) with each block of north pieces and each south list made ready once for the
// two cells that use it.
type quadRun struct {
	n    int  // pending quads, jobs[:n]
	cand int  // their candidates, all lists together (the room flush makes in each)
	zero bool // whether off×off pairs are made; set only while no quad is pending
	jobs [runMaxJobs]quadJob
}

// push adds the quad (north pieces at north: a off D2, then b on it; south pieces off D1:
// n0 clash words at c0, signatures at s0; on D1: n1 at c1, s1) to r and reports whether
// it did: only where each north list holds at most quadMax pieces, each south list at
// most southMax (quadMax or quadSouthMax), and r has room. Never on a processor without AVX-512 or for a frame
// wider than runMaxW (the caller checks those once). Small enough to be inlined.
func (r *quadRun) push(north *uint64, a, b int, c0, s0 *uint64, n0 int, c1, s1 *uint64, n1, southMax int) bool {
	if max(a, b) > quadMax || max(n0, n1) > southMax || r.n == runMaxJobs || r.cand > quadMaxCand {
		return false
	}
	j := &r.jobs[r.n]
	j.north, j.nOff, j.nOn = north, a, b
	j.clash0, j.sig0, j.ns0 = c0, s0, n0
	j.clash1, j.sig1, j.ns1 = c1, s1, n1
	r.n++
	r.cand += (a + b) * (n0 + n1)
	return true
}

// flush appends the pairs of r's pending quads to the lists of q (off×off ones only where
// r.zero), and empties r.
func (r *quadRun) flush(q *[3][]uint64, f *pairFrame) {
	if r.n == 0 {
		return
	}
	for k := range q {
		if need := len(q[k]) + r.cand + cellSlack; cap(q[k]) < need {
			q[k] = slices.Grow(q[k], need-len(q[k])+len(q[k])/2)
		}
	}
	runQuads(q, r.jobs[:r.n], f, r.zero)
	clear(r.jobs[:r.n])
	r.n, r.cand = 0, 0
}

// quadRunGo is runQuads in Go: for each quad, cellPairsGo of its four cells (off×off only
// where zero); each list of q must have room for its candidates.
func quadRunGo(q *[3][]uint64, jobs []quadJob, f *pairFrame, zero bool) {
	for _, j := range jobs {
		nOff := unsafe.Slice(j.north, j.nOff+j.nOn)
		nOn := nOff[j.nOff:]
		nOff = nOff[:j.nOff]
		c0, s0 := unsafe.Slice(j.clash0, j.ns0), unsafe.Slice(j.sig0, j.ns0)
		c1, s1 := unsafe.Slice(j.clash1, j.ns1), unsafe.Slice(j.sig1, j.ns1)
		if zero {
			q[0] = cellPairsGo(q[0], nOff, c0, s0, f)
		}
		q[1] = cellPairsGo(q[1], nOff, c1, s1, f)
		q[1] = cellPairsGo(q[1], nOn, c0, s0, f)
		q[2] = cellPairsGo(q[2], nOn, c1, s1, f)
	}
}
