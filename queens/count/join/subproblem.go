package join

import "math/bits"

// subproblem is one sub-problem of the join: the board with its pre-placed queens (none for
// even N).
type subproblem struct {
	n, h, s int
	kind    int    // subEven, subCentre or subCross
	a, b    int    // cross: middle-row queen at column h+a, middle-column queen at row h+b
	free    uint64 // row-set bits that may hold a queen of A or B
	k       int    // |E|: queens of half A
	colsA   uint32 // free local columns of A and of B
	colsB   uint32
	weight  uint64 // 8 for a cross, else 1 (row-set weights come on top)
	sieve   int    // cut bits of the matcher's sieve (sieveBitsFor)
	// storeMax and queryMax bound the half-boards a row set holds at once behind the
	// sieve (see countRowSet and listMax).
	storeMax, queryMax int
	// crosses: the middle-column queen's forbidden global diagonals, and the frame bits of
	// the middle-row queen's (set by setCross).
	fdB, fuB  uint64
	crossBits uint64
	// forbidden local diagonal masks per quarter (NW, SW, NE, SE) for pieces.
	fd, fu [4]uint32
}

const (
	subEven = iota
	subCentre
	subCross
)

// quarters, in the order of subproblem.fd: NW, SW (half A), NE, SE (half B).
const (
	qNW = iota
	qSW
	qNE
	qSE
)

// newSubproblem returns sub-problem number sub of the n×n board: 0 is the whole board (even
// n) or the centre queen (odd n); sub = 1…h−1 are the crosses with the middle column's
// queen at row h+b, b = sub+1, and every a = 1…b−1 (set by setCross).
//
// The crosses of one b share their row sets and their half A: the middle-row queen at
// (h, h+a) is in half B, and its diagonals that reach A are inside the signature frame
// (|a| < h), so instead of forbidding them to A's pieces they are added to B's query
// signatures (crossBits), and one store of A serves all b−1 values of a. Only the
// middle-column queen's diagonals are forbidden to A's pieces (for b = h one of them leaves
// the frame, so they must be).
func newSubproblem(n, sub int) subproblem {
	h := n / 2
	j := subproblem{n: n, h: h, s: n - h, free: 1<<(2*h) - 1, k: h, colsA: 1<<h - 1, colsB: 1<<h - 1, weight: 1, sieve: sieveBitsFor(n)}
	j.storeMax, j.queryMax = listMax(h)
	long := uint64(1) << (n - 1) // D1's down index and D2's up index
	switch {
	case n%2 == 0:
		// Rule 2: half A keeps only half-boards off both long diagonals; B's are
		// weighted instead.
		j.kind = subEven
		j.forbid(qNW, qSW, long, long)
	case sub == 0:
		j.kind = subCentre
		j.forbid(qNW, qSE, long, long)
	default:
		j.kind = subCross
		j.b = sub + 1
		j.weight = 8
		mr := h + j.b // queen at (mr, h)
		j.free &^= 1 << (h + j.b - 1)
		j.fdB, j.fuB = 1<<(h-mr+n-1), 1<<(mr+h)
		j.forbid(qNW, qSW, j.fdB, j.fuB)
	}
	return j
}

// forbid sets the forbidden local masks of quarters q0…q1 from global diagonal masks.
func (j *subproblem) forbid(q0, q1 int, fdG, fuG uint64) {
	s := uint(j.s)
	lm := uint64(1)<<(2*j.h-1) - 1
	shifts := [4][2]uint{{s, 0}, {0, s}, {2 * s, s}, {s, 2 * s}}
	for q := q0; q <= q1; q++ {
		j.fd[q] = uint32(fdG >> shifts[q][0] & lm)
		j.fu[q] = uint32(fuG >> shifts[q][1] & lm)
	}
}

// setCross sets a cross's middle-row queen at (h, h+a): half B loses column a−1 and
// both queens' diagonals, and crossBits holds the frame bits of that queen's diagonals.
func (j *subproblem) setCross(a int) {
	h, n := j.h, j.n
	mc := h + a
	j.a = a
	j.colsB = (1<<h - 1) &^ (1 << (a - 1))
	j.forbid(qNE, qSE, j.fdB|1<<(mc-h+n-1), j.fuB|1<<(h+mc))
	W := uint(2*h - 1)
	j.crossBits = 1<<(a+h-1) | 1<<(W+uint(h+a-1))
}

// subproblemCount returns the number of sub-problems of n: 1 for even n, h for odd (the centre
// and b = 2…h).
func subproblemCount(n int) int {
	if n%2 == 0 {
		return 1
	}
	return n / 2
}

// reverseRows maps a row set to its north–south mirror image.
func (j *subproblem) reverseRows(e uint64) uint64 {
	return bits.Reverse64(e) >> (64 - 2*j.h)
}

// rowSetWeight returns E's weight from the row-set rules, or 0 if E is not counted: for
// crosses 1 for every E inside the free rows; otherwise rule 1 (E ≤ reverse(E)), and
// w180 the half-turn weight of rule 3 (for the centre it multiplies the whole row set;
// for even N only B half-boards without long-diagonal queens).
func (j *subproblem) rowSetWeight(e uint64) (w, w180 uint64) {
	if e&^j.free != 0 {
		return 0, 0
	}
	if j.kind == subCross {
		return 1, 1
	}
	r := j.reverseRows(e)
	switch {
	case e > r:
		return 0, 0
	case e == r:
		w = 1
	default:
		w = 2
	}
	img := j.reverseRows(^e & j.free)
	switch {
	case e < img:
		w180 = 2
	case e == img:
		w180 = 1
	}
	if j.kind == subCentre {
		return w * w180, 1
	}
	return w, w180
}

// nextRowSet returns the next k-subset after e of 2h bits in colex order (Gosper's hack),
// or 0 when there is none.
func (j *subproblem) nextRowSet(e uint64) uint64 {
	c := e & -e
	r := e + c
	e = ((r^e)>>2)/c | r
	if e >= 1<<(2*j.h) {
		return 0
	}
	return e
}

// firstRowSet is the first k-subset in colex order.
func (j *subproblem) firstRowSet() uint64 { return 1<<j.k - 1 }

// A rowSet is a counted row set E of a sub-problem as the join reads it: the four rows of
// the quarter table it joins, half A's north and south rows (those of E) and half B's (the
// free rows not in E), and its weights by the row-set rules (see rowSetWeight).
type rowSet struct {
	an, as, bn, bs uint32
	w, w180        uint64
}

// rowSet returns row set e of j, its weight w = 0 if e is not counted.
func (j *subproblem) rowSet(e uint64) rowSet {
	h := uint(j.h)
	lm := uint64(1)<<h - 1
	rest := j.free &^ e
	r := rowSet{an: uint32(e & lm), as: uint32(e >> h & lm), bn: uint32(rest & lm), bs: uint32(rest >> h & lm)}
	r.w, r.w180 = j.rowSetWeight(e)
	return r
}

// tableRows returns the four rows of the quarter table that row set r reads, in the order
// of its fields.
func (r *rowSet) tableRows() [4]uint32 { return [4]uint32{r.an, r.as, r.bn, r.bs} }
