package join

import (
	"math"
	"math/bits"
	"unsafe"
)

// southRow holds the south pieces of one row mask of the table (every column set),
// prepared by prepareSouth for one quarter, class ranges and forbidden masks. Consecutive
// row sets in colex order share their south rows (the high bits change slowest), so a
// worker prepares each south piece about once per sub-problem instead of once per row
// set that uses it: at N = 16 that is 0.1 M pieces instead of 8 M.
type southRow struct {
	ok     bool
	t      *quarterTable
	rs     uint32
	r      [2][2]int
	nr     int
	fd, fu uint32
	s, W   uint
	isB    bool
	off    []int32 // by column mask, 2^h+1 entries
	buf    pieceList
}

// ensure makes r hold the row rs prepared for the given class ranges, forbidden masks and
// frame, filling it if its key differs from the last one.
func (r *southRow) ensure(t *quarterTable, rs uint32, rng [2][2]int, nr int, fd, fu uint32, s, W uint, isB bool) {
	if !r.ok || r.t != t || r.rs != rs || r.r != rng || r.nr != nr || r.fd != fd || r.fu != fu || r.s != s || r.W != W || r.isB != isB {
		r.fill(t, rs, rng, nr, fd, fu, s, W, isB)
	}
}

// cell returns the prepared south pieces of columns cols in the row ensure set, their
// clash words and signatures (two slices, not a pieceList: a struct of two slices made
// and copied at once through the stack stalled the loads that read it back).
func (r *southRow) cell(cols uint32) (clash, sig []uint64) {
	lo, hi := r.off[cols], r.off[cols+1]
	return r.buf.clash[lo:hi], r.buf.sig[lo:hi]
}

func (r *southRow) fill(t *quarterTable, rs uint32, rng [2][2]int, nr int, fd, fu uint32, s, W uint, isB bool) {
	*r = southRow{ok: true, t: t, rs: rs, r: rng, nr: nr, fd: fd, fu: fu, s: s, W: W, isB: isB, off: r.off, buf: r.buf.empty()}
	n := 1 << t.h
	if cap(r.off) < n+1 {
		r.off = make([]int32, n+1)
	}
	// prepareSouth's loop, written out here with the lists, their length and the offsets in
	// locals: a call per cell passed and returned the lists through memory, and took as
	// long as the pieces. The row's cells in order, each column mask before a cell and
	// the cell itself starting where the pieces so far end. Room is made first for the
	// pieces of every cell's class ranges.
	row := &t.rows[rs]
	off := r.off[:n+1]
	cs := t.colsByPop[bits.OnesCount32(rs)] // the row's cells, by increasing columns
	m, forbid := uint64(1)<<W-1, uint64(fd)|uint64(fu)<<32
	size := 0
	for ci := range cs {
		for _, cr := range rng[:nr] {
			size += int(row.off[ci<<2+cr[1]] - row.off[ci<<2+cr[0]])
		}
	}
	clash, sig := r.buf.clash, r.buf.sig
	if cap(clash) < size || cap(sig) < size {
		clash, sig = regrow(clash[:0], cap(clash)+size), regrow(sig[:0], cap(sig)+size)
	}
	clash, sig = clash[:size], sig[:size]
	j, c := 0, 0
	for ci, cell := range cs {
		for ; c <= int(cell); c++ {
			off[c] = int32(j)
		}
		for _, cr := range rng[:nr] {
			ps := row.pieces[row.off[ci<<2+cr[0]]:row.off[ci<<2+cr[1]]]
			if forbid != 0 {
				for _, p := range ps {
					clash[j], sig[j] = southWords(p, s, W, m, isB)
					if p&forbid == 0 { // written, kept only if it passes the masks
						j++
					}
				}
				continue
			}
			// Without forbidden masks, the usual case, every piece is kept: no test,
			// and southWords written out (s and W are below 32: the masks by 63 spare
			// the compiler its tests of the shift counts).
			cl, sg := clash[j:j+len(ps)], sig[j:j+len(ps)]
			if isB {
				for i, p := range ps {
					ds, up := p&(1<<32-1), p>>32<<(s&63)&m
					cl[i], sg[i] = ds|up<<32, ds&m|up<<(W&63)
				}
			} else {
				for i, p := range ps {
					ds, us := p&(1<<32-1), p>>32
					cl[i], sg[i] = ds|(us<<(s&63)&m)<<32, ds>>(s&63)&m|(us&m)<<(W&63)
				}
			}
			j += len(ps)
		}
	}
	for ; c < n; c++ {
		off[c] = int32(j)
	}
	off[n] = int32(j)
	r.off, r.buf = off, pieceList{clash[:j], sig[:j]}
}

// cellSouthH is the least h whose south pieces are prepared cell by cell, as a row set
// needs them, instead of a whole table row at a time (southRow). From h = 14 (N = 28, 29)
// a table row holds up to some 2·10⁷ pieces, and three prepared rows would take about
// 1 GiB a worker; a row set there takes minutes, against the few tens of milliseconds of
// preparing the south cells it reads, once per cell that a north cell meets (at most the
// four rows' pieces).
var cellSouthH = 14 // tests lower it to run the cell-by-cell path at small N

// southRowOf returns r, or nil where j's south pieces are prepared cell by cell.
func southRowOf(j *subproblem, r *southRow) *southRow {
	if j.h >= cellSouthH {
		return nil
	}
	return r
}

// classRanges returns the class runs [from, to) of a cell that a quarter with forbidden
// local masks fd, fu may use, as up to two ranges (one for a north quarter: see
// quarterTable), and the forbidden bits left to test.
func classRanges(h int, fd, fu uint32) (r [2][2]int, nr int, fd2, fu2 uint32) {
	long := uint32(1) << (h - 1)
	noDown, noUp := fd&long != 0, fu&long != 0
	switch {
	case noDown && noUp:
		r[0], nr = [2]int{1, 2}, 1
	case noDown:
		r[0], nr = [2]int{1, 3}, 1
	case noUp:
		r[0], nr = [2]int{0, 2}, 1
	default:
		r[0], nr = [2]int{0, 4}, 1
	}
	return r, nr, fd &^ long, fu &^ long
}

// pieceList holds quarter pieces prepared for the join, north or south, as two parallel
// lists: clash[i], the bits the other quarter's piece must not share with piece i (down
// diagonals in the low half, up diagonals in the high half, both in the north quarter's
// frame), and sig[i], its part of the half-board's signature, already in the frame. A
// north and a south piece are compatible iff their clash words share no bit, and their
// half-board's signature is the OR of their sig words (appendPairs).
type pieceList struct{ clash, sig []uint64 }

func (l pieceList) len() int { return len(l.clash) }

// empty returns l with no pieces, keeping its memory.
func (l pieceList) empty() pieceList { return pieceList{l.clash[:0], l.sig[:0]} }

// prepareSouth appends the south pieces of ps (filtered by the forbidden masks fd, fu) in
// the form appendPairs wants. It makes room for all of ps first and writes every piece,
// keeping it by moving on only where it passes the masks: no branch on the filter, and the
// two lists held in locals (appends to out's fields, read back through memory, took about
// twice as long).
func prepareSouth(out pieceList, ps []uint64, fd, fu uint32, s, W uint, isB bool) pieceList {
	m, forbid := uint64(1)<<W-1, uint64(fd)|uint64(fu)<<32
	n := len(out.clash)
	clash, sig := out.clash, out.sig[:n]
	if need := n + len(ps); cap(clash) < need || cap(sig) < need {
		// At least doubled, as append would: the lists grow a cell at a time.
		clash, sig = regrow(clash, cap(clash)+max(len(ps), cap(clash))), regrow(sig, cap(sig)+max(len(ps), cap(sig)))
	}
	clash, sig = clash[:n+len(ps)], sig[:n+len(ps)]
	j := n
	for _, p := range ps {
		clash[j], sig[j] = southWords(p, s, W, m, isB)
		if p&forbid == 0 {
			j++
		}
	}
	return pieceList{clash[:j], sig[:j]}
}

// southWords returns a south piece's clash word and its part of the signature (see
// pieceList) in a frame of width W (mask m = 2^W − 1) at offset s, of half B if isB.
func southWords(p uint64, s, W uint, m uint64, isB bool) (clash, sig uint64) {
	ds, us := p&(1<<32-1), p>>32
	up := us << s & m
	if isB {
		return ds | up<<32, ds&m | up<<W
	}
	return ds | up<<32, ds>>s&m | (us&m)<<W
}

// half appends to out the signatures of the half-boards of one half (north quarter qn,
// south quarter qn+1) on north rows rn and south rows rs using the columns cols. With sr
// non-nil the south pieces come from that row cache; else they are prepared cell by cell
// (the crosses' half B, whose forbidden masks change with every a).
func (w *worker) half(j *subproblem, out []uint64, qn int, rn, rs, cols uint32, isB bool, sr *southRow) []uint64 {
	out, _ = w.halfFrom(j, out, qn, rn, rs, cols, isB, sr, 0, math.MaxInt)
	return out
}

// halfFrom is half over the north column sets from the from-th of |rn| columns on (in
// increasing order), stopping after the first cell that leaves out with limit or more
// signatures. It returns out and the index of the next column set, or −1 if none is left.
func (w *worker) halfFrom(j *subproblem, out []uint64, qn int, rn, rs, cols uint32, isB bool, sr *southRow, from, limit int) ([]uint64, int) {
	return w.halfClassFrom(j, out, qn, rn, rs, cols, isB, sr, from, limit, 0)
}

// halfClassFrom is halfFrom (which is it with bad = 0) without the half-boards whose
// signatures have a bit of bad (half A queried by a class of countRowSetStoreB, which
// must not have the class's cut bits): the north and south pieces with such a bit are
// dropped before their product is made, as evenBClassFrom does for half B. The caller
// still drops the signatures with a bad bit.
func (w *worker) halfClassFrom(j *subproblem, out []uint64, qn int, rn, rs, cols uint32, isB bool, sr *southRow, from, limit int, bad uint64) ([]uint64, int) {
	t := w.t
	h := j.h
	s, W := uint(j.s), uint(2*h-1)
	k := bits.OnesCount32(rn)
	rN, nrN, fdN, fuN := classRanges(h, j.fd[qn], j.fu[qn])
	rS, nrS, fdS, fuS := classRanges(h, j.fd[qn+1], j.fu[qn+1])
	f := newPairFrame(fdN, fuN, s, W, isB)
	if sr != nil {
		sr.ensure(t, rs, rS, nrS, fdS, fuS, s, W, isB)
	}
	if sr != nil && bad == 0 && nrN == 1 && haveCellAVX512 && f.W <= runMaxW {
		return w.halfRuns(out, rn, cols, sr, from, limit, rN[0][0], rN[0][1], &f)
	}
	cs := t.colsByPop[k]
	// Where the south pieces come from the row cache and none are dropped, the cells'
	// pairs are made a run at a time (cellRun), flushed before out is read or returned
	// (halfRuns where they run on AVX-512).
	run := &w.runs[0]
	batch := sr != nil && bad == 0
	for i := from; i < len(cs); i++ {
		if len(out)+run.cand >= limit {
			if out = run.flush(out, &f); len(out) >= limit {
				return out, i
			}
		}
		ci, c := i, cs[i]
		if c&^cols != 0 || t.emptyAt(rn, i) {
			continue
		}
		var sc, ss []uint64
		if sr != nil {
			sc, ss = sr.cell(cols &^ c)
		} else {
			l := w.scratch.empty()
			for i := range nrS {
				l = prepareSouth(l, t.run(rs, cols&^c, rS[i][0], rS[i][1]), fdS, fuS, s, W, isB)
			}
			w.scratch = l
			sc, ss = l.clash, l.sig
		}
		if bad != 0 {
			w.cls[0] = keepSouth(w.cls[0].empty(), sc, ss, bad)
			sc, ss = w.cls[0].clash, w.cls[0].sig
		}
		if len(sc) > 0 {
			for i := range nrN {
				north := t.runAt(rn, ci, rN[i][0], rN[i][1])
				if bad != 0 {
					north = f.keepNorth(w.clsN[0][:0], north, bad)
					w.clsN[0] = north
				}
				if batch {
					out = run.add(out, north, sc, ss, &f)
				} else {
					out = appendPairs(out, north, sc, ss, &f)
				}
			}
		}
	}
	return run.flush(out, &f), -1
}

// halfRuns is halfClassFrom's loop where the cells' pairs are made by a scan of the table
// row (runCellScan, on AVX-512: offsets read and pairs made without a return to Go
// between cells): the south pieces from the row cache sr (ensured), none dropped, the
// north pieces of one class range [lo, hi) of each cell. A cell with more candidates than
// the scan's budget goes to the run (cellRun), by push wherever add would take it as it
// is.
func (w *worker) halfRuns(out []uint64, rn, cols uint32, sr *southRow, from, limit, lo, hi int, f *pairFrame) ([]uint64, int) {
	t := w.t
	row := &t.rows[rn]
	toff, pieces := row.off, row.pieces
	so, sc, ss := sr.off, sr.buf.clash, sr.buf.sig
	run := &w.runs[0]
	cs := t.colsByPop[bits.OnesCount32(rn)]
	scan := &w.cellScan
	scan.set(cs, toff, pieces, sr, cols, lo, hi)
	for i := from; i < len(cs); i++ {
		if len(out)+run.cand >= limit {
			if out = run.flush(out, f); len(out) >= limit {
				return out, i
			}
		}
		budget := min(limit-len(out)-run.cand, scanBudget)
		out = roomFor(out, budget)
		scan.budget = budget
		var j int
		if out, j = runCellScan(out, scan, i, f); j == len(cs) {
			break
		}
		if j > i {
			i = j - 1 // column set j is looked at again, with the budget renewed
			continue
		}
		// Column set i has more candidates than the budget: it goes to the run.
		c := cs[i]
		o := toff[i<<2 : i<<2+5]
		rest := cols &^ c
		a, b := so[rest], so[rest+1]
		north, c0, s0 := pieces[o[lo]:o[hi]], sc[a:b], ss[a:b]
		if !run.push(north, c0, s0) {
			out = run.add(out, north, c0, s0, f)
		}
	}
	return run.flush(out, f), -1
}

// pairFrame holds what a join of north and south pieces needs besides the pieces: the
// north pieces' forbidden masks (down in the low half, up in the high half, as a piece),
// and how a north piece's masks go into the frame of width W (mask m): its clash word is
// (down<<s)&m | (up&m)<<32, its signature (down<<dl)&m | (up>>ur&m)<<W (half A: down masks
// as they are, up masks shifted down by s; B: down masks shifted up by s, up masks as
// they are). cellPairsAVX512 reads the fields by their offsets: they stay in this order.
type pairFrame struct {
	forbid       uint64
	s, dl, ur, W uint64
	m            uint64
}

func newPairFrame(fd, fu uint32, s, W uint, isB bool) pairFrame {
	f := pairFrame{forbid: uint64(fd) | uint64(fu)<<32, s: uint64(s), W: uint64(W), m: uint64(1)<<W - 1, ur: uint64(s)}
	if isB {
		f.dl, f.ur = uint64(s), 0
	}
	return f
}

// keepSouth appends to dst the south pieces (clash words sc, signature parts ss) whose
// signature part has no bit of bad.
func keepSouth(dst pieceList, sc, ss []uint64, bad uint64) pieceList {
	for i, sg := range ss[:len(sc)] {
		if sg&bad == 0 {
			dst.clash, dst.sig = append(dst.clash, sc[i]), append(dst.sig, sg)
		}
	}
	return dst
}

// keepNorth appends to dst the north pieces of src whose part of the signature (in f's
// frame) has no bit of bad.
func (f *pairFrame) keepNorth(dst, src []uint64, bad uint64) []uint64 {
	dl, ur, W, m := f.dl&63, f.ur&63, f.W&63, f.m
	for _, p := range src {
		dn, un := uint64(uint32(p)), p>>32
		if (dn<<dl&m|(un>>ur&m)<<W)&bad == 0 {
			dst = append(dst, p)
		}
	}
	return dst
}

// appendPairs returns out with the signatures of every compatible (north, south) pair
// appended, north pieces filtered by f's forbidden masks. It only makes room: for the
// whole product, or a block of north pieces at a time (at most pairBlock candidates)
// when the product does not fit the capacity left; cellPairs does the work.
// The south pieces are given by their clash words sc and signatures ss.
func appendPairs(out []uint64, north []uint64, sc, ss []uint64, f *pairFrame) []uint64 {
	ns := len(sc)
	if len(out)+len(north)*ns+cellSlack <= cap(out) {
		return cellPairs(out, north, sc, ss, f)
	}
	block := max(1, pairBlock/max(1, ns))
	for len(north) > 0 {
		nb := north[:min(block, len(north))]
		north = north[len(nb):]
		out = cellPairs(roomFor(out, len(nb)*ns), nb, sc, ss, f)
	}
	return out
}

// pairBlock bounds the candidates appendPairs makes room for at once.
const pairBlock = 1 << 14

// cellSlack is the room appendPairs leaves past a cell's last candidate: the AVX-512
// kernel stores eight words at a time.
const cellSlack = 8

// cellPairsGo is cellPairs in Go: for every north piece p off the forbidden masks and
// every south piece, it writes sig(p) | sig(south) and advances past it only if the two
// share no diagonal. The inner loop is branch-free (written through a pointer, without
// the bounds check the compiler cannot drop), so out must have room for
// len(north)·len(south) more words. Its parameters are few and it calls nothing, so that
// its loops keep everything in registers.
func cellPairsGo(out []uint64, north []uint64, sc, ss []uint64, f *pairFrame) []uint64 {
	forbid, s, dl, ur, W, m := f.forbid, f.s&63, f.dl&63, f.ur&63, f.W&63, f.m
	dst := unsafe.Pointer(unsafe.SliceData(out))
	i := uintptr(len(out))
	ss = ss[:len(sc)]
	for _, p := range north {
		if p&forbid != 0 {
			continue
		}
		dn, un := uint64(uint32(p)), p>>32
		nc := dn<<s&m | (un&m)<<32
		ns := dn<<dl&m | (un>>ur&m)<<W
		for k, c := range sc {
			*(*uint64)(unsafe.Add(dst, i*8)) = ns | ss[k]
			i += uintptr((nc&c - 1) >> 63)
		}
	}
	return out[:i]
}

// cellJob is one cell of a run (cellRun): its north pieces, and its south pieces' clash
// words and signatures, as pointers and counts into lists that stay put until the run is
// flushed. cellRunAVX512 reads the fields by their offsets: they stay in this order.
type cellJob struct {
	north      *uint64
	nn         int
	clash, sig *uint64
	ns         int
}

// cellRun gathers cells whose pairs go to one list under one frame, to make them in one
// call (runCells) instead of a call a cell: at N = 16 a cell holds 3.7 north and 4.9
// south pieces on average, and the call and the frame's set-up cost about what its pairs
// do. Where the processor has no AVX-512, add makes each cell's pairs at once
// (appendPairs), as before.
type cellRun struct {
	n    int // pending cells, jobs[:n]
	cand int // their candidates, Σ nn·ns
	jobs [runMaxJobs]cellJob
}

// runMaxJobs and runMaxCand bound a run: a cell is added to it only while the run holds
// fewer than runMaxJobs cells and at most runMaxCand candidates (the room its flush
// makes in the list); a larger cell goes through appendPairs on its own.
const (
	runMaxJobs = 256
	runMaxCand = 1 << 14
)

// runMaxW is the widest frame a run takes: cellRunAVX512 marks the lanes of a cell's
// pieces in bits 61 to 63 of their clash words, above the 32 + W bits of a frame of W ≤
// 29 (N ≤ 30); a wider frame's cells go through appendPairs.
const runMaxW = 29

// add returns out with the pairs of the cell (north pieces, south clash words sc and
// signatures ss, as many as sc, frame f) either appended or pending in r; the pending
// ones are appended by the next flush, which must come before the lists the cell points
// into change and before out is read. Every add to r between two flushes goes to the
// same list with the same frame.
func (r *cellRun) add(out, north, sc, ss []uint64, f *pairFrame) []uint64 {
	if haveCellAVX512 && f.W <= runMaxW && len(north)*len(sc) > 0 && r.push(north, sc, ss) {
		return out
	}
	return r.addSlow(out, north, sc, ss, f)
}

// push adds the cell (north pieces, south clash words sc and signatures ss) to r where add
// would take it as it is, and reports whether it did (a cell without pairs is taken, and
// nothing pended); the caller then adds it by add. Only where r's cells run on AVX-512
// (haveCellAVX512), with a frame of at most runMaxW. Small enough to be inlined, which
// add is not: evenBClassFrom's four adds a cell made N = 16 take about 1.1 times as long.
func (r *cellRun) push(north, sc, ss []uint64) bool {
	nn, ns := len(north), len(sc)
	c := nn * ns
	if c == 0 {
		return true
	}
	if r.n == runMaxJobs || r.cand+c > runMaxCand {
		return false
	}
	// Field by field: a composite literal went through the stack, and its copy's wide
	// loads of the narrow stores just made stalled (store forwarding).
	j := &r.jobs[r.n]
	j.north, j.nn = unsafe.SliceData(north), nn
	j.clash, j.sig, j.ns = unsafe.SliceData(sc), unsafe.SliceData(ss), ns
	r.n++
	r.cand += c
	return true
}

// addSlow is add for a cell that does not go into r as it is: without AVX-512 or with
// more than runMaxCand candidates its pairs are made at once (after r's, for the
// latter), a cell with no pairs is passed over, and else r is flushed first.
func (r *cellRun) addSlow(out, north, sc, ss []uint64, f *pairFrame) []uint64 {
	nn, ns := len(north), len(sc)
	c := nn * ns
	switch {
	case !haveCellAVX512 || f.W > runMaxW:
		return appendPairs(out, north, sc, ss, f)
	case c == 0:
		return out
	case c > runMaxCand:
		return appendPairs(r.flush(out, f), north, sc, ss, f)
	}
	out = r.flush(out, f)
	r.jobs[0] = cellJob{north: &north[0], nn: nn, clash: &sc[0], sig: &ss[:ns][0], ns: ns}
	r.n, r.cand = 1, c
	return out
}

// flush returns out with the pairs of r's pending cells appended, and empties r.
func (r *cellRun) flush(out []uint64, f *pairFrame) []uint64 {
	if r.n == 0 {
		return out
	}
	out = runCells(roomFor(out, r.cand), r.jobs[:r.n], f)
	clear(r.jobs[:r.n])
	r.n, r.cand = 0, 0
	return out
}

// cellRunGo is runCells in Go: cellPairsGo for each cell of jobs in turn; out must have
// room for their candidates.
func cellRunGo(out []uint64, jobs []cellJob, f *pairFrame) []uint64 {
	for _, j := range jobs {
		if j.nn == 0 || j.ns == 0 {
			continue
		}
		out = cellPairsGo(out, unsafe.Slice(j.north, j.nn), unsafe.Slice(j.clash, j.ns), unsafe.Slice(j.sig, j.ns), f)
	}
	return out
}
