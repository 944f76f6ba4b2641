package join

import "math/bits"

// evenBClassFrom is evenBFrom (which is it with bad = 0) for the half-boards of one class
// of countRowSetStoreB, those whose signatures have none of the bits bad (the class's outer cut bits it does
// not have): a signature is the OR of its north and south pieces' parts, so the pieces
// with a bad bit are dropped before their product is made, which shrinks it with every
// bad bit (the caller still keeps only the signatures with all of the class's bits).
// Without it half B made again for each of up to 64 classes took most of a row set's
// time at N = 28.
func (w *worker) evenBClassFrom(j *subproblem, rn, rs uint32, zero bool, from, limit int, bad uint64) int {
	t := w.t
	s, W := uint(j.s), uint(2*j.h-1)
	for k := range w.q {
		w.q[k] = w.q[k][:0]
	}
	cols := j.colsB
	f := newPairFrame(0, 0, s, W, true)
	off, on := [2][2]int{{1, 3}}, [2][2]int{{0, 1}, {3, 4}} // SE off D1, on D1
	byCell := j.h >= cellSouthH
	if !byCell {
		w.southB[0].ensure(t, rs, off, 1, 0, 0, s, W, true)
		w.southB[1].ensure(t, rs, on, 2, 0, 0, s, W, true)
	}
	// Where the south pieces come from the row caches and none are dropped, the cells'
	// pairs are made a run at a time, a run a list (cellRun, AVX-512): evenBRuns.
	if !byCell && bad == 0 && haveCellAVX512 && f.W <= runMaxW {
		return w.evenBRuns(rn, cols, zero, from, limit, &f)
	}
	cs := t.colsByPop[bits.OnesCount32(rn)]
	for i := from; i < len(cs); i++ {
		if len(w.q[0])+len(w.q[1])+len(w.q[2])+w.runs[0].cand+w.runs[1].cand+w.runs[2].cand >= limit {
			w.flushQ(&f)
			if len(w.q[0])+len(w.q[1])+len(w.q[2]) >= limit {
				return i
			}
		}
		c := cs[i]
		if c&^cols != 0 || t.emptyAt(rn, i) {
			continue
		}
		var c0, s0, c1, s1 []uint64 // south off D1, on D1: clash words, signatures
		if byCell {
			l0 := prepareSouth(w.scratch.empty(), t.run(rs, cols&^c, off[0][0], off[0][1]), 0, 0, s, W, true)
			l1 := prepareSouth(w.scratch1.empty(), t.run(rs, cols&^c, on[0][0], on[0][1]), 0, 0, s, W, true)
			l1 = prepareSouth(l1, t.run(rs, cols&^c, on[1][0], on[1][1]), 0, 0, s, W, true)
			w.scratch, w.scratch1 = l0, l1
			c0, s0, c1, s1 = l0.clash, l0.sig, l1.clash, l1.sig
		} else {
			c0, s0 = w.southB[0].cell(cols &^ c)
			c1, s1 = w.southB[1].cell(cols &^ c)
		}
		nOff, nOn := t.runAt(rn, i, 0, 2), t.runAt(rn, i, 2, 4) // NE off and on D2
		if bad != 0 {
			w.cls[0], w.cls[1] = keepSouth(w.cls[0].empty(), c0, s0, bad), keepSouth(w.cls[1].empty(), c1, s1, bad)
			w.clsN[0], w.clsN[1] = f.keepNorth(w.clsN[0][:0], nOff, bad), f.keepNorth(w.clsN[1][:0], nOn, bad)
			c0, s0, c1, s1 = w.cls[0].clash, w.cls[0].sig, w.cls[1].clash, w.cls[1].sig
			nOff, nOn = w.clsN[0], w.clsN[1]
		}
		if zero {
			w.q[0] = appendPairs(w.q[0], nOff, c0, s0, &f)
		}
		w.q[1] = appendPairs(w.q[1], nOff, c1, s1, &f)
		w.q[1] = appendPairs(w.q[1], nOn, c0, s0, &f)
		w.q[2] = appendPairs(w.q[2], nOn, c1, s1, &f)
	}
	w.flushQ(&f)
	return -1
}

// evenBRuns is evenBClassFrom's loop where every cell's pairs are made a run at a time,
// a run a list (cellRun, on AVX-512): south pieces from the row caches (southB, ensured),
// none dropped. Column sets whose north lists each hold at most quadNorthMax pieces and south
// lists at most quadSouthMax (quadMax for frames wider than quadMediumW) are made by a
// scan of the row (runQuadScan: offsets read and each quad's two north blocks made and
// its two south lists loaded once for its four cells, without a return to Go between
// column sets); the scan stops at the first column set that does not fit, whose cells go
// to the runs, added inline (push) wherever add would take them as they are: four calls
// of add a cell made N = 16 take about 1.1 times as long. Every run is flushed before it
// returns.
func (w *worker) evenBRuns(rn, cols uint32, zero bool, from, limit int, f *pairFrame) int {
	t := w.t
	row := &t.rows[rn]
	toff, pieces := row.off, row.pieces
	o0, sc0, ss0 := w.southB[0].off, w.southB[0].buf.clash, w.southB[0].buf.sig
	o1, sc1, ss1 := w.southB[1].off, w.southB[1].buf.clash, w.southB[1].buf.sig
	r0, r1, r2 := &w.runs[0], &w.runs[1], &w.runs[2]
	southMax := quadMax
	if f.W <= quadMediumW {
		southMax = quadSouthMax
	}
	cs := t.colsByPop[bits.OnesCount32(rn)]
	sc := &w.quads
	scan := f.forbid == 0 // always at even N's half B; the scan takes no forbidden masks
	sc.set(cs, toff, pieces, &w.southB[0], &w.southB[1], cols, southMax)
	made := len(w.q[0]) + len(w.q[1]) + len(w.q[2])
	for i := from; i < len(cs); i++ {
		pend := made + r0.cand + r1.cand + r2.cand
		if pend >= limit {
			w.flushQ(f)
			if made = len(w.q[0]) + len(w.q[1]) + len(w.q[2]); made >= limit {
				return i
			}
			pend = made
		}
		if budget := min(limit-pend, scanBudget); scan && budget >= quadCandMax {
			roomForScan(&w.q, budget)
			sc.budget = budget
			j := runQuadScan(&w.q, sc, i, f, zero)
			made = len(w.q[0]) + len(w.q[1]) + len(w.q[2])
			if j == len(cs) {
				break
			}
			if i = j; sc.budget < quadCandMax {
				i-- // the budget ran out: column set j is looked at again
				continue
			}
		}
		// Column set i does not fit a quad, or too little is left of the limit for one.
		c := cs[i]
		o := toff[i<<2 : i<<2+5]
		if c&^cols != 0 || o[0] == o[4] {
			continue
		}
		nOff, nOn := pieces[o[0]:o[2]], pieces[o[2]:o[4]] // NE off and on D2
		rest := cols &^ c
		a0, b0 := o0[rest], o0[rest+1] // SE off D1
		a1, b1 := o1[rest], o1[rest+1] // SE on D1
		c0, s0 := sc0[a0:b0], ss0[a0:b0]
		c1, s1 := sc1[a1:b1], ss1[a1:b1]
		added := false // by add, which may flush a run into its list
		if zero && !r0.push(nOff, c0, s0) {
			w.q[0], added = r0.add(w.q[0], nOff, c0, s0, f), true
		}
		if !r1.push(nOff, c1, s1) {
			w.q[1], added = r1.add(w.q[1], nOff, c1, s1, f), true
		}
		if !r1.push(nOn, c0, s0) {
			w.q[1], added = r1.add(w.q[1], nOn, c0, s0, f), true
		}
		if !r2.push(nOn, c1, s1) {
			w.q[2], added = r2.add(w.q[2], nOn, c1, s1, f), true
		}
		if added {
			made = len(w.q[0]) + len(w.q[1]) + len(w.q[2])
		}
	}
	w.flushQ(f)
	return -1
}

// flushQ appends to each list of w.q the pairs pending in its run.
func (w *worker) flushQ(f *pairFrame) {
	for k := range w.q {
		w.q[k] = w.runs[k].flush(w.q[k], f)
	}
}

// queryChunk is where the next chunk of a row set's queries starts (nextQueries).
type queryChunk struct {
	a, from int
	done    bool
}

// nextQueries makes the chunk of row set r's queries (its half B) that b names, as countRowSet does by
// kind (even N: the three lists by occupied long-diagonal segments, w.q; a cross: every
// middle-row queen's; the centre: half B), and moves b on. jb is j with only the
// middle-column queen's diagonals forbidden to half B (crosses).
func (w *worker) nextQueries(j, jb *subproblem, r rowSet, b *queryChunk) [][]uint64 {
	return w.nextClassQueries(j, jb, r, b, 0)
}

// nextClassQueries is nextQueries (which is it with bad = 0) without most of the queries
// whose signatures have a bit of bad (those that meet a class of countRowSetClasses must
// have none of its cut bits): pieces with such a bit are dropped before their product is
// made, and a cross's middle-row queen a whose diagonals are in bad is passed over. The
// caller still drops the signatures with a bad bit.
func (w *worker) nextClassQueries(j, jb *subproblem, r rowSet, b *queryChunk, bad uint64) [][]uint64 {
	switch j.kind {
	case subEven:
		b.from = w.evenBClassFrom(j, r.bn, r.bs, r.w180 != 0, b.from, j.queryMax, bad)
		b.done = b.from < 0
		return w.q[:]
	case subCross:
		if b.a == 0 {
			b.a = 1
		}
		b.a, b.from = w.crossBClassFrom(j, jb, r.bn, r.bs, b.a, b.from, j.queryMax, bad)
		b.done = b.a == 0
	default:
		w.sideB, b.from = w.halfClassFrom(j, w.sideB[:0], qNE, r.bn, r.bs, j.colsB, true, southRowOf(j, &w.southB[0]), b.from, j.queryMax, bad)
		b.done = b.from < 0
	}
	w.q1[0] = w.sideB
	return w.q1[:]
}

// crossBFrom sets w.sideB to the next chunk of a cross's half B over every middle-row
// queen a (see countRowSetWhole), from queen a and north column set from on, stopping
// once it holds limit or more signatures. It returns where the next chunk starts, or
// a = 0 when none is left. jb is j with only the middle-column queen's diagonals
// forbidden to half B.
func (w *worker) crossBFrom(j, jb *subproblem, bn, bs uint32, a, from, limit int) (int, int) {
	return w.crossBClassFrom(j, jb, bn, bs, a, from, limit, 0)
}

// crossBClassFrom is crossBFrom (which is it with bad = 0) without the half-boards of a
// middle-row queen whose diagonals are in bad, and without most others with a bit of
// bad (see nextClassQueries).
func (w *worker) crossBClassFrom(j, jb *subproblem, bn, bs uint32, a, from, limit int, bad uint64) (int, int) {
	w.sideB = w.sideB[:0]
	for ; a < j.b; a, from = a+1, 0 {
		j.setCross(a)
		if j.crossBits&bad != 0 {
			continue
		}
		start := len(w.sideB)
		var next int
		w.sideB, next = w.halfClassFrom(jb, w.sideB, qNE, bn, bs, j.colsB, true, southRowOf(j, &w.southB[0]), from, limit, bad)
		k := start
		for _, sig := range w.sideB[start:] {
			w.sideB[k] = sig | j.crossBits
			k += int((sig&j.crossBits - 1) >> 63)
		}
		w.sideB = w.sideB[:k]
		if next >= 0 {
			return a, next
		}
	}
	return 0, 0
}

// evenBFrom fills w.q with half B's signatures for even N by the number of occupied
// long-diagonal segments (NE's up long diagonal is D2, SE's down long diagonal is D1);
// with zero false the B half-boards with neither are not needed (their weight is 0). It
// makes those of the north column sets from the from-th on, stopping after the first
// cell that leaves limit or more signatures in w.q, and returns the index of the next
// column set, or −1 if none is left.
func (w *worker) evenBFrom(j *subproblem, rn, rs uint32, zero bool, from, limit int) int {
	return w.evenBClassFrom(j, rn, rs, zero, from, limit, 0)
}
