package join

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"unsafe"
)

// The join method counts Q(N) by joining half-boards instead of searching whole boards.
//
// Cut the board into a left half A (columns 0…h−1, h = ⌊N/2⌋) and a right half B (the last h
// columns; for odd N the middle column is neither). Every row has one queen, so the set E of
// rows whose queen is in A fixes everything rows and columns can say: once E is chosen, a
// half-board of A on rows E and one of B on the other rows only clash on diagonals. So
//
//	Q(N) = Σ over E of #{(a, b): a a half-board of A on rows E, b one of B on the rest,
//	                          no diagonal used by both}.
//
// A half-board is a north quarter piece joined with a south one from the same table (see
// quarterTable): for every column set c of the half with |c| = |E ∩ north rows| the south
// piece must use exactly the rest of the half's columns, so the pair of cells is forced and
// the join is a product of two short lists filtered by a north–south diagonal test. Its
// signature is the set of diagonals that also cross the other half: 2h−1 in each direction,
// one 64-bit word, so "compatible" is sig(a) AND sig(b) = 0, counted 512 stored signatures
// at a time by the bit-sliced matcher.
//
// Coordinates. Rows of the four quarters are numbered in one 2h-bit "row set" word: bits
// 0…h−1 the north rows from the top, bits h…2h−1 the south rows (for odd N the middle row
// is left out). s = N−h is the offset of the south and east quarters (h, or h+1 for odd N).
// With diagonals numbered down = col−row+N−1 and up = row+col over the whole board, a
// piece's local masks shift into place by: NW (down s, up 0), SW (0, s), NE (2s, s),
// SE (s, 2s); the signature frame is bits s…s+2h−2 of both.
//
// Symmetry, even N (weights; total count only).
//  1. A north–south flip maps row set E to reverse(E): only E ≤ reverse(E) is counted,
//     weight 2 (1 for a palindrome).
//  2. The board's long diagonals: D1 (row = col) crosses NW and SE, D2 (row+col = N−1) NE
//     and SW. Reflecting in D1 maps a D2 queen between NE and SW and keeps D1's; reflecting
//     in D2 maps a D1 queen between NW and SE. So A's half-boards are kept only with both
//     segments empty, and each B half-board is weighted 2^(its occupied segments).
//  3. With both long diagonals empty, the half turn maps E to reverse(NOT E), which is
//     canonical under (1) when E is: weight 2 if E < that image, 0 if greater, 1 if equal.
//
// Odd N = 2h+1: the middle row and middle column each hold one queen. Either one queen
// is in the centre (it blocks both long diagonals; rules 1 and 3 apply to the whole row
// set), or the middle row's queen is at column h+a and the middle column's at row h+b with
// a, b ≠ 0, |a| ≠ |b|; the eight symmetries act freely on (a, b), so 0 < a < b ≤ h with
// weight 8 covers them. The crosses with the same b share the row sets and half A (see
// newJoinSub): one store per (b, E) answers the queries of all b−1 values of a, which is
// what keeps odd N from drowning in tiny stores. A row set stores whichever side has
// fewer half-boards (for the centre both halves have the same weight, and for a cross
// half B's half-boards over every a, all of weight 8, are one list), except a cross behind
// the sieve (N ≥ 21), which stores half A: measured faster there (countPairs).

// Costs. The quarter table holds P(h) pieces (118,969 for h = 8, 915,442 for 9, 7.5 M for
// 10, 66.8 M for 11), 8 bytes each, plus 16 bytes per (rows, columns) cell, 4^h cells: 1.9
// MiB at N = 16–17, 11 MiB at 18–19, 73.5 MiB at 20–21, 574 MiB at 22–23 (joinMemory). It is
// built once per process and shared read-only by every worker; a worker's own buffers
// (store, queries, matcher tables) stay under a few MiB to N = 21. Time is the half-board
// enumeration (linear in the half-boards made) plus the matcher: about ⌈2(2h−1)/5⌉ row ANDs
// of 64 bytes per 512 pair tests, with an AVX-512 kernel (VPOPCNTQ; each query's row
// offsets computed once for four batches) where the processor has one, an AVX2 kernel (batches of 256) where it has that, and a pure-Go twin elsewhere
// (build tag purego), held to the same counts by tests. From N = 17 a sieve of k cut bits
// (sieve.go) lets each query meet only the stored half-boards that agree with it on
// the k middle diagonals, and squeezes unused bits out of the matched words. From h = 13
// (N ≥ 26) a row set's cut bits are the diagonals its own half-boards occupy most on both
// sides (occupancyOrder), and at even N it stores its larger half, B, as a weighted store
// queried by half A (countRowSetStoreB).
// South pieces are prepared (clash bits, signature part) a whole table row at a time and
// kept while consecutive row sets share their south rows; the north × south product of a
// cell runs eight south pieces a step with AVX-512 where the processor has it (VPTESTNMQ,
// VPCOMPRESSQ: joinCellAVX512), else in a small Go function whose loop stays in registers.
// The measured times, against frames,
// are in bench/README.md ("Counting: join against frames" for N = 16–19, "The cost of
// N = 20…28 on paper" beyond); the cost model (cost.go) holds them.
//
// Growth: about ×8 a step of N once the matcher dominates (N ≥ 18); odd N costs about
// its place between its even neighbours (N = 17 ≈ 0.27 of N = 18, N = 19 ≈ 0.18 of N = 20).

// joinSub is one sub-problem of the join: the board with its pre-placed queens (none for
// even N).
type joinSub struct {
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

// listMax returns the most half-boards a row set of h holds at once behind the sieve,
// stored and queried (see countRowSet). A stored half-board takes about 90 bytes with its
// matcher tables and a query about 40 with its sieve buckets and chunk offsets. To h = 13
// (N ≤ 25) the store is whole (at most about 1.3·10⁶ half-boards measured, N = 24) and the
// queries go in chunks of 2²² (2²¹ from h = 14; 3·10⁷ of them at N = 26 took some 0.25 GiB
// at once, but each chunk costs the sieve's bucketing again: 6 chunks of 2²¹ made a row
// set of N = 26 1.09 times slower than whole, 16.0 against 14.7 CPU-s, two alternated
// runs each at load 25). At
// h = 13 the store is cut into parts of 2²³ (up to 1.1·10⁷ half-boards a row set seen at
// N = 26, about 1 GiB with its tables), from h = 14 of 2²² (some 7·10⁷ at N = 28), each
// part met by every chunk of queries, half B made again for each (at even N a part is a
// class of half A by its cut bits, met only by the queries off them: countRowSetClasses).
// A part costs the
// queries' pass through the sieve again: a row set of N = 26 with 4.24·10⁶ stored took
// 17.8 CPU-s in parts of 2²² against 14.8 whole (load 20), so parts are as large as a
// worker's 2 GiB allows.
func listMax(h int) (store, query int) {
	if listMaxForce[0] > 0 {
		return listMaxForce[0], listMaxForce[1]
	}
	switch {
	case h >= 14:
		return 1 << 22, 1 << 21
	case h == 13:
		return 1 << 23, 1 << 22
	}
	return math.MaxInt, 1 << 22
}

// listMaxForce, where set, overrides listMax (tests cut small N's lists so).
var listMaxForce [2]int

// quarters, in the order of joinSub.fd: NW, SW (half A), NE, SE (half B).
const (
	qNW = iota
	qSW
	qNE
	qSE
)

// newJoinSub returns sub-problem number sub of the n×n board: 0 is the whole board (even
// n) or the centre queen (odd n); sub = 1…h−1 are the crosses with the middle column's
// queen at row h+b, b = sub+1, and every a = 1…b−1 (set by setCross).
//
// The crosses of one b share their row sets and their half A: the middle-row queen at
// (h, h+a) is in half B, and its diagonals that reach A are inside the signature frame
// (|a| < h), so instead of forbidding them to A's pieces they are added to B's query
// signatures (crossBits), and one store of A serves all b−1 values of a. Only the
// middle-column queen's diagonals are forbidden to A's pieces (for b = h one of them leaves
// the frame, so they must be).
func newJoinSub(n, sub int) joinSub {
	h := n / 2
	j := joinSub{n: n, h: h, s: n - h, free: 1<<(2*h) - 1, k: h, colsA: 1<<h - 1, colsB: 1<<h - 1, weight: 1, sieve: sieveBitsFor(n)}
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
func (j *joinSub) forbid(q0, q1 int, fdG, fuG uint64) {
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
func (j *joinSub) setCross(a int) {
	h, n := j.h, j.n
	mc := h + a
	j.a = a
	j.colsB = (1<<h - 1) &^ (1 << (a - 1))
	j.forbid(qNE, qSE, j.fdB|1<<(mc-h+n-1), j.fuB|1<<(h+mc))
	W := uint(2*h - 1)
	j.crossBits = 1<<(a+h-1) | 1<<(W+uint(h+a-1))
}

// joinSubs returns the number of sub-problems of n: 1 for even n, h for odd (the centre
// and b = 2…h).
func joinSubs(n int) int {
	if n%2 == 0 {
		return 1
	}
	return n / 2
}

// reverseRows maps a row set to its north–south mirror image.
func (j *joinSub) reverseRows(e uint64) uint64 {
	return bits.Reverse64(e) >> (64 - 2*j.h)
}

// rowSetWeight returns E's weight from the row-set rules, or 0 if E is not counted: for
// crosses 1 for every E inside the free rows; otherwise rule 1 (E ≤ reverse(E)), and
// w180 the half-turn weight of rule 3 (for the centre it multiplies the whole row set;
// for even N only B half-boards without long-diagonal queens).
func (j *joinSub) rowSetWeight(e uint64) (w, w180 uint64) {
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
func (j *joinSub) nextRowSet(e uint64) uint64 {
	c := e & -e
	r := e + c
	e = ((r^e)>>2)/c | r
	if e >= 1<<(2*j.h) {
		return 0
	}
	return e
}

// firstRowSet is the first k-subset in colex order.
func (j *joinSub) firstRowSet() uint64 { return 1<<j.k - 1 }

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
	r.off = r.off[:n+1]
	k := bits.OnesCount32(rs)
	for c := range n {
		r.off[c] = int32(r.buf.len())
		if bits.OnesCount(uint(c)) != k {
			continue
		}
		for i := range nr {
			r.buf = prepareSouth(r.buf, t.run(rs, uint32(c), rng[i][0], rng[i][1]), fd, fu, s, W, isB)
		}
	}
	r.off[n] = int32(r.buf.len())
}

// cellSouthH is the least h whose south pieces are prepared cell by cell, as a row set
// needs them, instead of a whole table row at a time (southRow). From h = 14 (N = 28, 29)
// a table row holds up to some 2·10⁷ pieces, and three prepared rows would take about
// 1 GiB a worker; a row set there takes minutes, against the few tens of milliseconds of
// preparing the south cells it reads, once per cell that a north cell meets (at most the
// four rows' pieces).
var cellSouthH = 14 // tests lower it to run the cell-by-cell path at small N

// southRowOf returns r, or nil where j's south pieces are prepared cell by cell.
func southRowOf(j *joinSub, r *southRow) *southRow {
	if j.h >= cellSouthH {
		return nil
	}
	return r
}

// countRowSet counts the pairs of row set e, weighted by the row-set weights.
//
// Behind the sieve (N ≥ 20) it holds at most j.storeMax stored half-boards and
// j.queryMax queries at once: half A is made and stored a part at a time (a run of its
// north column sets), and for each part half B is made again and queried a chunk at a time.
// The counters are those of the whole lists (stored |A|, queries |B|, pair tests |A|·|B|;
// the centre of odd N: the shorter list stored), however they are cut. It returns
// ctx.Err() if ctx is done, looking at it after each chunk of queries (at most seconds
// apart at N = 28, where a row set takes minutes).
func (w *joinWorker) countRowSet(ctx context.Context, j *joinSub, e uint64, wE, w180 uint64, c *joinCounters) (uint64, error) {
	h := uint(j.h)
	lm := uint32(1)<<h - 1
	an, as := uint32(e)&lm, uint32(e>>h)&lm
	rest := j.free &^ e
	bn, bs := uint32(rest)&lm, uint32(rest>>h)&lm
	W := 2*j.h - 1
	if j.sieve == 0 && j.kind != subEven || j.kind == subCentre && j.h < 13 {
		return w.countRowSetWhole(j, an, as, bn, bs, wE, c), nil
	}
	if j.storeMax < math.MaxInt {
		if j.kind == subEven && storeLarger {
			n, _, err := w.countRowSetStoreB(ctx, j, an, as, bn, bs, wE, w180, c, -1)
			return n, err
		}
		n, _, err := w.countRowSetClasses(ctx, j, an, as, bn, bs, wE, w180, c, -1)
		return n, err
	}
	// Half A a part at a time; the first part's passes over B count the queries.
	var stored, queries uint64
	var n [3]uint64
	jb := *j
	jb.forbid(qNE, qSE, j.fdB, j.fuB) // crosses: see countRowSetWhole
	for aFrom, first := 0, true; aFrom >= 0; first = false {
		w.sideA, aFrom = w.halfFrom(j, w.sideA[:0], qNW, an, as, j.colsA, false, southRowOf(j, &w.southA), aFrom, j.storeMax)
		stored += uint64(len(w.sideA))
		if len(w.sideA) == 0 && !first {
			continue
		}
		w.m.build(w.sideA, W, j.sieve)
		switch j.kind {
		case subEven:
			for bFrom := 0; bFrom >= 0; {
				bFrom = w.evenBFrom(j, bn, bs, w180 != 0, bFrom, j.queryMax)
				for k := range w.q {
					n[k] += w.m.countAll(w.q[k])
					if first {
						queries += uint64(len(w.q[k]))
					}
				}
				if err := ctx.Err(); err != nil {
					return 0, err
				}
			}
		case subCross:
			for a, from := 1, 0; a != 0; {
				a, from = w.crossBFrom(j, &jb, bn, bs, a, from, j.queryMax)
				n[0] += w.m.countAll(w.sideB)
				if first {
					queries += uint64(len(w.sideB))
				}
				if err := ctx.Err(); err != nil {
					return 0, err
				}
			}
		default: // the centre, storing half A
			for bFrom := 0; bFrom >= 0; {
				w.sideB, bFrom = w.halfFrom(j, w.sideB[:0], qNE, bn, bs, j.colsB, true, southRowOf(j, &w.southB[0]), bFrom, j.queryMax)
				n[0] += w.m.countAll(w.sideB)
				if first {
					queries += uint64(len(w.sideB))
				}
				if err := ctx.Err(); err != nil {
					return 0, err
				}
			}
		}
	}
	if j.kind == subCentre && queries < stored {
		stored, queries = queries, stored
	}
	c.stored += stored
	c.queries += queries
	c.pairTests += stored * queries
	if j.kind == subEven {
		return wE * (w180*n[0] + 2*n[1] + 4*n[2]), nil
	}
	return wE * n[0], nil
}

// classBitsMax bounds the cut bits that split half A into classes (countRowSetClasses).
const classBitsMax = 6

// classCandidates returns the frame bits countRowSetClasses may split half A by, in the
// order it takes them: the sieve's order (the diagonals nearest the middle of each
// direction, alternating), of which it takes those some stored half-board has (at even N
// half A leaves the middle ones, the board's long diagonals, empty: rule 2).
func classCandidates(W int) [classCandidatesLen]uint {
	mid := uint(W / 2)
	w := uint(W)
	return [classCandidatesLen]uint{mid, w + mid, mid + 1, w + mid + 1, mid - 1, w + mid - 1, mid + 2, w + mid + 2}
}

const classCandidatesLen = 8

// countRowSetClasses is countRowSet where half A may not fit one part (j.storeMax, h ≥
// 13): half A is split by c cut bits (the diagonals whose cut removes the most pairs of
// this row set, occupancyOrder; classCandidates where cutByOccupancy is off) into the
// classes of the half-boards that agree on them, each stored alone (in runs of j.storeMax where a class is larger),
// and a class with cut bits x meets only the queries with none of x's bits: the sieve's
// cut, made by making the lists again instead of holding them. c is the fewest bits
// that leave no class above j.storeMax (at most classBitsMax), so that each stored class
// is as large as a worker's memory allows and its own sieve (sievePerSubOdd) takes as many
// cut bits as its size pays for: the cut bits of the two levels together grow with the
// whole store, not with the part held (at N = 27 with c = 0 too: the one class's sieve
// is sized by it, not by joinSieveBits). A first pass over half A counts the classes (one more
// enumeration of A, and B is made again for every part: both small beside the matching
// from h = 13; a class's half-boards and queries drop the pieces off its cut bits before
// their products are made). With c = 0 it is countRowSet's parts.
//
// The counters are those of the whole lists, as countRowSet's. With only ≥ 0 it matches
// the only-th class that holds half-boards and no other (the sampler of lists_test.go
// times one class so), with only = −2 none, and then leaves the counters' queries out; it
// returns the number of such classes.
func (w *joinWorker) countRowSetClasses(ctx context.Context, j *joinSub, an, as, bn, bs uint32, wE, w180 uint64, c *joinCounters, only int) (uint64, int, error) {
	W := 2*j.h - 1
	jb := *j
	jb.forbid(qNE, qSE, j.fdB, j.fuB) // crosses: see countRowSetWhole
	cand := classCandidates(W)
	var prefer []uint
	if cutByOccupancy {
		prefer = w.occupancyOrder(j, &jb, an, as, bn, bs, w180)
		if len(prefer) >= classCandidatesLen {
			copy(cand[:], prefer)
		}
	}
	// Pass 1: how many half-boards each class of the candidate bits holds.
	split := classSplit{cand: cand}
	var stored, kept uint64
	for from := 0; from >= 0; {
		w.sideA, from = w.halfFrom(j, w.sideA[:0], qNW, an, as, j.colsA, false, southRowOf(j, &w.southA), from, j.storeMax)
		stored += uint64(len(w.sideA))
		kept |= split.add(w.sideA)
	}
	split.choose(kept, j.storeMax)
	cb, outer := split.cb, split.outer
	defer func() { w.m.exclude, w.m.perSub, w.m.prefer = 0, 0, nil }()
	w.m.exclude = outer
	w.m.prefer = prefer
	// At N = 27 every class, one alone included, takes its sieve's cut bits by its size:
	// a fixed 13 (joinSieveBits) made the row sets of one class slower, up to 1.2 times
	// (bench/README.md, "Issue 33: odd N cheaper"). N = 29 keeps what its cost was
	// measured with: classes of a row set of several, by sievePerSub.
	switch {
	case j.h == 13:
		w.m.perSub = sievePerSubOdd
	case cb > 0:
		w.m.perSub = sievePerSub
	}
	var queries uint64
	var n [3]uint64
	first, class := only == -1, 0 // first: the queries are still to count
	for x := range 1 << cb {
		size, X := split.class(x) // X: the class's cut bits, in the frame
		if size == 0 {
			continue
		}
		class++
		match := only == -1 || only == class-1
		if !match && !first {
			continue
		}
		for aFrom := 0; aFrom >= 0; {
			// A run of the class: half A made on from aFrom, the other classes dropped.
			w.sideA = w.sideA[:0]
			for aFrom >= 0 && len(w.sideA) < j.storeMax {
				start := len(w.sideA)
				w.sideA, aFrom = w.halfClassFrom(j, w.sideA, qNW, an, as, j.colsA, false, southRowOf(j, &w.southA), aFrom, j.storeMax, outer&^X)
				k := start
				for _, sig := range w.sideA[start:] {
					w.sideA[k] = sig
					if sig&outer == X {
						k++
					}
				}
				w.sideA = w.sideA[:k]
			}
			if len(w.sideA) == 0 || !match && !first {
				continue
			}
			if match {
				w.m.build(w.sideA, W, j.sieve)
			}
			for b := (queryChunk{}); !b.done; {
				var bad uint64 // the first pass counts every query
				if !first {
					bad = X
				}
				qs := w.nextClassQueries(j, &jb, bn, bs, w180, &b, bad)
				for k, q := range qs {
					if first {
						queries += uint64(len(q))
					}
					if !match {
						continue
					}
					i := 0
					for _, sig := range q {
						q[i] = sig
						if sig&X == 0 {
							i++
						}
					}
					n[k] += w.m.countAll(q[:i])
				}
				if err := ctx.Err(); err != nil {
					return 0, 0, err
				}
			}
			first = false
		}
	}
	for b := (queryChunk{}); first && !b.done; { // no half A: the queries still count
		for _, q := range w.nextQueries(j, &jb, bn, bs, w180, &b) {
			queries += uint64(len(q))
		}
	}
	if j.kind == subCentre && queries < stored {
		stored, queries = queries, stored
	}
	c.stored += stored
	c.queries += queries
	c.pairTests += stored * queries
	if j.kind == subEven {
		return wE * (w180*n[0] + 2*n[1] + 4*n[2]), class, nil
	}
	return wE * n[0], class, nil
}

// storeLarger makes a row set of even N from h = 13 store its half B, about three times
// its half A at N = 26–28, and query it with half A (countRowSetStoreB) instead of the
// other way round. A variable so that the harness can compare (CHESSPUZZLES_JOINSTORE).
var storeLarger = true

// countRowSetStoreB is countRowSetClasses for even N with the roles of the halves
// swapped: half B (its three lists by occupied long-diagonal segments, w.q) is split into
// classes by cut bits and stored a class at a time, a weighted store (sieveMatcher.weighted:
// each half-board weighs what its segments say, 2^segments, or w180 with none, as the
// queries of countRowSetClasses do), and half A is made again for each and queried a
// chunk at a time. The larger half stored gives the two levels of cut bits about log₂ 3
// more bits at the same sub-store size. Counters, return values and only are as
// countRowSetClasses's (stored |A|, queries |B|).
func (w *joinWorker) countRowSetStoreB(ctx context.Context, j *joinSub, an, as, bn, bs uint32, wE, w180 uint64, c *joinCounters, only int) (uint64, int, error) {
	W := 2*j.h - 1
	mid := uint(W / 2)
	long := uint64(1)<<mid | uint64(1)<<(uint(W)+mid) // half A never has these
	cand := classCandidates(W)
	var prefer []uint
	if cutByOccupancy {
		prefer = w.occupancyOrder(j, j, an, as, bn, bs, w180)
		if len(prefer) >= classCandidatesLen {
			copy(cand[:], prefer)
		}
	}
	// Pass 1 over half B: how many half-boards each class of the candidate bits holds.
	split := classSplit{cand: cand}
	var queries, kept uint64
	for b := (queryChunk{}); !b.done; {
		for _, q := range w.nextQueries(j, j, bn, bs, w180, &b) {
			queries += uint64(len(q))
			kept |= split.add(q)
		}
	}
	kept &^= long
	split.choose(kept, j.storeMax)
	cb, outer := split.cb, split.outer
	defer func() {
		w.m.exclude, w.m.perSub, w.m.prefer, w.m.weighted = 0, 0, nil, false
	}()
	w.m.exclude = outer | long
	w.m.prefer = prefer
	w.m.weighted, w.m.wbits = true, long
	w.m.wshift = [3]uint8{uint8(w180 >> 1), 1, 2} // w180 is 1 or 2 where q[0] is made
	if cb > 0 {
		w.m.perSub = sievePerSub
	}
	var stored, n uint64
	first, class := only == -1, 0 // first: half A is still to count
	for x := range 1 << cb {
		size, X := split.class(x) // X: the class's cut bits, in the frame
		if size == 0 {
			continue
		}
		class++
		if only != -1 && only != class-1 {
			continue
		}
		for b := (queryChunk{}); !b.done; {
			// A run of the class: half B made on from b, the other classes dropped.
			w.sideB = w.sideB[:0]
			for !b.done && len(w.sideB) < j.storeMax {
				// A chunk of at most what the store has room for (and a cell more), so
				// that a run holds no more than j.storeMax and a cell, and the chunk no
				// more than j.queryMax and a cell.
				lim := min(j.queryMax, j.storeMax-len(w.sideB))
				b.from = w.evenBClassFrom(j, bn, bs, w180 != 0, b.from, lim, outer&^X)
				b.done = b.from < 0
				for _, q := range w.q {
					for _, sig := range q {
						if sig&outer == X {
							w.sideB = append(w.sideB, sig)
						}
					}
				}
			}
			if len(w.sideB) == 0 {
				continue
			}
			w.m.build(w.sideB, W, j.sieve)
			for aFrom := 0; aFrom >= 0; {
				if first {
					w.sideA, aFrom = w.halfFrom(j, w.sideA[:0], qNW, an, as, j.colsA, false, southRowOf(j, &w.southA), aFrom, j.queryMax)
					stored += uint64(len(w.sideA))
				} else {
					w.sideA, aFrom = w.halfClassFrom(j, w.sideA[:0], qNW, an, as, j.colsA, false, southRowOf(j, &w.southA), aFrom, j.queryMax, X)
				}
				i := 0
				for _, sig := range w.sideA {
					w.sideA[i] = sig
					if sig&X == 0 {
						i++
					}
				}
				n += w.m.countAll(w.sideA[:i])
				if err := ctx.Err(); err != nil {
					return 0, 0, err
				}
			}
			first = false
		}
	}
	for aFrom := 0; first && aFrom >= 0; { // no half B: half A still counts
		w.sideA, aFrom = w.halfFrom(j, w.sideA[:0], qNW, an, as, j.colsA, false, southRowOf(j, &w.southA), aFrom, j.queryMax)
		stored += uint64(len(w.sideA))
	}
	if only != -1 {
		stored = 0
	}
	c.stored += stored
	c.queries += queries
	c.pairTests += stored * queries
	return wE * n, class, nil
}

// evenBClassFrom is evenBFrom (which is it with bad = 0) for the half-boards of one class
// of countRowSetStoreB, those whose signatures have none of the bits bad (the class's outer cut bits it does
// not have): a signature is the OR of its north and south pieces' parts, so the pieces
// with a bad bit are dropped before their product is made, which shrinks it with every
// bad bit (the caller still keeps only the signatures with all of the class's bits).
// Without it half B made again for each of up to 64 classes took most of a row set's
// time at N = 28.
func (w *joinWorker) evenBClassFrom(j *joinSub, rn, rs uint32, zero bool, from, limit int, bad uint64) int {
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
	cs := t.colsByPop[bits.OnesCount32(rn)]
	for i := from; i < len(cs); i++ {
		if len(w.q[0])+len(w.q[1])+len(w.q[2]) >= limit {
			return i
		}
		c := cs[i]
		if c&^cols != 0 || t.emptyCell(rn, c) {
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
		nOff, nOn := t.run(rn, c, 0, 2), t.run(rn, c, 2, 4) // NE off and on D2
		if bad != 0 {
			w.cls[0], w.cls[1] = keepSouth(w.cls[0].empty(), c0, s0, bad), keepSouth(w.cls[1].empty(), c1, s1, bad)
			w.clsN[0], w.clsN[1] = f.keepNorth(w.clsN[0][:0], nOff, bad), f.keepNorth(w.clsN[1][:0], nOn, bad)
			c0, s0, c1, s1 = w.cls[0].clash, w.cls[0].sig, w.cls[1].clash, w.cls[1].sig
			nOff, nOn = w.clsN[0], w.clsN[1]
		}
		if zero {
			w.q[0] = joinPairs(w.q[0], nOff, c0, s0, &f)
		}
		w.q[1] = joinPairs(w.q[1], nOff, c1, s1, &f)
		w.q[1] = joinPairs(w.q[1], nOn, c0, s0, &f)
		w.q[2] = joinPairs(w.q[2], nOn, c1, s1, &f)
	}
	return -1
}

// cutByOccupancy chooses countRowSetClasses's cut bits, of the classes and of their
// sieves, by how often the row set's own half-boards occupy each diagonal
// (occupancyOrder) instead of by a fixed order from the middle of each direction out.
// A variable so that the harness can compare the two (CHESSPUZZLES_JOINCUTS=fixed).
var cutByOccupancy = true

// occupancyStep is the sampling step of occupancyOrder: it counts the diagonals of every
// occupancyStep-th half-board of each side.
const occupancyStep = 16

// occupancyOrder returns the frame bits that both halves of the row set occupy, in
// decreasing order of the share of (stored, query) pairs a cut on the bit removes: the
// product of the shares of half A's and of half B's half-boards (every occupancyStep-th
// one, queries unweighted) that occupy it. So a row set whose queens of A are mostly in
// the north rows (where the down diagonals near the middle cross both halves) is cut on
// down diagonals, not on as many up diagonals as down. It makes both halves once more
// (against dozens of passes of half B in the classes at N = 28).
func (w *joinWorker) occupancyOrder(j, jb *joinSub, an, as, bn, bs uint32, w180 uint64) []uint {
	var occA, occB [64]uint64
	var nA, nB uint64
	tally := func(occ *[64]uint64, sigs []uint64, n *uint64) {
		for i := 0; i < len(sigs); i += occupancyStep {
			for x := sigs[i]; x != 0; x &= x - 1 {
				occ[bits.TrailingZeros64(x)]++
			}
			*n++
		}
	}
	for from := 0; from >= 0; {
		w.sideA, from = w.halfFrom(j, w.sideA[:0], qNW, an, as, j.colsA, false, southRowOf(j, &w.southA), from, j.storeMax)
		tally(&occA, w.sideA, &nA)
	}
	for b := (queryChunk{}); !b.done; {
		for _, q := range w.nextQueries(j, jb, bn, bs, w180, &b) {
			tally(&occB, q, &nB)
		}
	}
	if nA == 0 || nB == 0 {
		return nil
	}
	type scored struct {
		bit   uint
		score float64
	}
	var sc []scored
	for b := range uint(2 * (2*j.h - 1)) {
		if occA[b] > 0 && occB[b] > 0 {
			sc = append(sc, scored{b, float64(occA[b]) / float64(nA) * float64(occB[b]) / float64(nB)})
		}
	}
	slices.SortStableFunc(sc, func(x, y scored) int {
		switch {
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		return 0
	})
	order := make([]uint, len(sc))
	for i, s := range sc {
		order[i] = s.bit
	}
	return order
}

// classSplit chooses the classes that countRowSetClasses and countRowSetStoreB store one
// at a time: add counts the stored half's half-boards by their candidate cut bits cand,
// choose takes the fewest of those bits (in cand's order, those some half-board has, at
// most classBitsMax) that leave no class above the store's limit, and class names a class.
type classSplit struct {
	cand [classCandidatesLen]uint
	// hist8 counts the half-boards by their candidate bits in the order of their
	// positions in the frame (one bit-extract of the candidates' mask, ext), in four
	// histograms filled in turn so that equal neighbours do not wait on one counter.
	hist8 [4][1 << classCandidatesLen]int
	ext   bitExtract
	order []uint                 // the candidates some half-board has, in order
	hist  [1 << classBitsMax]int // half-boards by their bits of order
	cb    int                    // the cut bits taken: order[:cb]
	outer uint64                 // the same, in the frame
}

// add counts sigs by their candidate bits and returns their OR. Cost: one bit-extract and
// one increment a half-board (PEXT where the processor has BMI2).
func (c *classSplit) add(sigs []uint64) uint64 {
	if c.ext.mask == 0 {
		var m uint64
		for _, b := range c.cand {
			m |= 1 << b
		}
		c.ext.set(m)
	}
	var kept uint64
	var x [256]uint64
	for len(sigs) > 0 {
		blk := sigs[:min(len(x), len(sigs))]
		sigs = sigs[len(blk):]
		extractAll(x[:], blk, &c.ext)
		for _, sig := range blk {
			kept |= sig
		}
		xs := x[:len(blk)]
		i := 0
		for ; i+4 <= len(xs); i += 4 {
			c.hist8[0][xs[i]&255]++
			c.hist8[1][xs[i+1]&255]++
			c.hist8[2][xs[i+2]&255]++
			c.hist8[3][xs[i+3]&255]++
		}
		for ; i < len(xs); i++ {
			c.hist8[0][xs[i]&255]++
		}
	}
	return kept
}

// choose sets the classes' cut bits among the candidates in kept: the fewest that leave no
// class above limit half-boards (all of them if none do).
func (c *classSplit) choose(kept uint64, limit int) {
	var pos []int // the order's candidates' places in hist8's index
	for _, b := range c.cand {
		if kept>>b&1 != 0 && len(c.order) < classBitsMax {
			c.order, pos = append(c.order, b), append(pos, bits.OnesCount64(c.ext.mask&(1<<b-1)))
		}
	}
	for x8 := range 1 << classCandidatesLen {
		var x int
		for i, p := range pos {
			x |= x8 >> p & 1 << i
		}
		c.hist[x] += c.hist8[0][x8] + c.hist8[1][x8] + c.hist8[2][x8] + c.hist8[3][x8]
	}
	for c.cb = 0; c.cb < len(c.order); c.cb++ {
		var size [1 << classBitsMax]int
		big := 0
		for x, h := range c.hist {
			size[x&(1<<c.cb-1)] += h
			big = max(big, size[x&(1<<c.cb-1)])
		}
		if big <= limit {
			break
		}
	}
	for _, b := range c.order[:c.cb] {
		c.outer |= 1 << b
	}
}

// class returns the size of class x (x < 2^cb) and its cut bits in the frame.
func (c *classSplit) class(x int) (size int, X uint64) {
	for y, h := range c.hist {
		if y&(1<<c.cb-1) == x {
			size += h
		}
	}
	for i, b := range c.order[:c.cb] {
		X |= uint64(x>>i&1) << b
	}
	return size, X
}

// queryChunk is where the next chunk of a row set's queries starts (nextQueries).
type queryChunk struct {
	a, from int
	done    bool
}

// nextQueries makes the chunk of half B's queries that b names, as countRowSet does by
// kind (even N: the three lists by occupied long-diagonal segments, w.q; a cross: every
// middle-row queen's; the centre: half B), and moves b on. jb is j with only the
// middle-column queen's diagonals forbidden to half B (crosses).
func (w *joinWorker) nextQueries(j, jb *joinSub, bn, bs uint32, w180 uint64, b *queryChunk) [][]uint64 {
	return w.nextClassQueries(j, jb, bn, bs, w180, b, 0)
}

// nextClassQueries is nextQueries (which is it with bad = 0) without most of the queries
// whose signatures have a bit of bad (those that meet a class of countRowSetClasses must
// have none of its cut bits): pieces with such a bit are dropped before their product is
// made, and a cross's middle-row queen a whose diagonals are in bad is passed over. The
// caller still drops the signatures with a bad bit.
func (w *joinWorker) nextClassQueries(j, jb *joinSub, bn, bs uint32, w180 uint64, b *queryChunk, bad uint64) [][]uint64 {
	switch j.kind {
	case subEven:
		b.from = w.evenBClassFrom(j, bn, bs, w180 != 0, b.from, j.queryMax, bad)
		b.done = b.from < 0
		return w.q[:]
	case subCross:
		if b.a == 0 {
			b.a = 1
		}
		b.a, b.from = w.crossBClassFrom(j, jb, bn, bs, b.a, b.from, j.queryMax, bad)
		b.done = b.a == 0
	default:
		w.sideB, b.from = w.halfClassFrom(j, w.sideB[:0], qNE, bn, bs, j.colsB, true, southRowOf(j, &w.southB[0]), b.from, j.queryMax, bad)
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
func (w *joinWorker) crossBFrom(j, jb *joinSub, bn, bs uint32, a, from, limit int) (int, int) {
	return w.crossBClassFrom(j, jb, bn, bs, a, from, limit, 0)
}

// crossBClassFrom is crossBFrom (which is it with bad = 0) without the half-boards of a
// middle-row queen whose diagonals are in bad, and without most others with a bit of
// bad (see nextClassQueries).
func (w *joinWorker) crossBClassFrom(j, jb *joinSub, bn, bs uint32, a, from, limit int, bad uint64) (int, int) {
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

// countRowSetWhole is countRowSet with both halves' lists made whole, the shorter one
// stored: odd N without the sieve (N ≤ 19), and the centre of odd N to 25.
func (w *joinWorker) countRowSetWhole(j *joinSub, an, as, bn, bs uint32, wE uint64, c *joinCounters) uint64 {
	if j.kind == subCross {
		w.sideA = w.half(j, w.sideA[:0], qNW, an, as, j.colsA, false, southRowOf(j, &w.southA))
		// Half B forbids only the middle-column queen's diagonals to its pieces, the
		// same for every a, so its south pieces come from the row cache; the
		// middle-row queen's diagonals are all inside the frame (a < h), so a half-board
		// avoids them iff its signature does, tested on the signature below. The
		// half-boards of every a are one list (each with its a's middle-row queen in its
		// signature): every a has the weight 8, so the sum over a is the count of the
		// list against half A. The counters stay those of A stored and B queried, whichever
		// side the matcher stores (countPairs).
		jb := *j
		jb.forbid(qNE, qSE, j.fdB, j.fuB)
		w.crossBFrom(j, &jb, bn, bs, 1, 0, math.MaxInt)
		return wE * w.countPairs(j, w.sideA, w.sideB, c)
	}
	w.sideA = w.half(j, w.sideA[:0], qNW, an, as, j.colsA, false, southRowOf(j, &w.southA))
	w.sideB = w.half(j, w.sideB[:0], qNE, bn, bs, j.colsB, true, southRowOf(j, &w.southB[0]))
	store, query := w.sideA, w.sideB
	if len(query) < len(store) {
		store, query = query, store
	}
	return wE * w.countPairs(j, store, query, c)
}

// countPairs returns the number of disjoint pairs of x and y, counted as x stored and y
// queried (the task's counters: stored += |x|, queries += |y|, pair tests += |x|·|y|).
// The matcher stores whichever list is shorter (x on a tie) and queries it with the
// other: the pairs are the same either way, and the store is what costs a build. (At
// N = 19 a cross's half A holds about 3,700 half-boards a row set and its half B, over
// every a, about 1,400.) Behind the sieve (cut bits, N ≥ 21) a cross stores its half A
// whatever the sizes: storing the shorter B there made sampled row sets (seed 7, two
// alternated runs each) 1.11× slower at N = 21, 1.16× at 23, 1.18× at 25 and 1.6× at 27.
func (w *joinWorker) countPairs(j *joinSub, x, y []uint64, c *joinCounters) uint64 {
	c.stored += uint64(len(x))
	c.queries += uint64(len(y))
	c.pairTests += uint64(len(x)) * uint64(len(y))
	if len(y) < len(x) && (j.kind != subCross || j.sieve == 0) {
		x, y = y, x
	}
	w.m.build(x, 2*j.h-1, j.sieve)
	return w.m.countAll(y)
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
// half-board's signature is the OR of their sig words (joinProduct).
type pieceList struct{ clash, sig []uint64 }

func (l pieceList) len() int { return len(l.clash) }

// empty returns l with no pieces, keeping its memory.
func (l pieceList) empty() pieceList { return pieceList{l.clash[:0], l.sig[:0]} }

// prepareSouth appends the south pieces of ps (filtered by the forbidden masks fd, fu) in
// the form joinPairs wants.
func prepareSouth(out pieceList, ps []uint64, fd, fu uint32, s, W uint, isB bool) pieceList {
	m := uint64(1)<<W - 1
	for _, p := range ps {
		ds, us := uint64(uint32(p)), p>>32
		if uint32(ds)&fd|uint32(us)&fu != 0 {
			continue
		}
		sig := ds>>s&m | (us&m)<<W
		if isB {
			sig = ds&m | (us<<s&m)<<W
		}
		out.clash = append(out.clash, ds|(us<<s&m)<<32)
		out.sig = append(out.sig, sig)
	}
	return out
}

// half appends to out the signatures of the half-boards of one half (north quarter qn,
// south quarter qn+1) on north rows rn and south rows rs using the columns cols. With sr
// non-nil the south pieces come from that row cache; else they are prepared cell by cell
// (the crosses' half B, whose forbidden masks change with every a).
func (w *joinWorker) half(j *joinSub, out []uint64, qn int, rn, rs, cols uint32, isB bool, sr *southRow) []uint64 {
	out, _ = w.halfFrom(j, out, qn, rn, rs, cols, isB, sr, 0, math.MaxInt)
	return out
}

// halfFrom is half over the north column sets from the from-th of |rn| columns on (in
// increasing order), stopping after the first cell that leaves out with limit or more
// signatures. It returns out and the index of the next column set, or −1 if none is left.
func (w *joinWorker) halfFrom(j *joinSub, out []uint64, qn int, rn, rs, cols uint32, isB bool, sr *southRow, from, limit int) ([]uint64, int) {
	return w.halfClassFrom(j, out, qn, rn, rs, cols, isB, sr, from, limit, 0)
}

// halfClassFrom is halfFrom (which is it with bad = 0) without the half-boards whose
// signatures have a bit of bad (half A queried by a class of countRowSetStoreB, which
// must not have the class's cut bits): the north and south pieces with such a bit are
// dropped before their product is made, as evenBClassFrom does for half B. The caller
// still drops the signatures with a bad bit.
func (w *joinWorker) halfClassFrom(j *joinSub, out []uint64, qn int, rn, rs, cols uint32, isB bool, sr *southRow, from, limit int, bad uint64) ([]uint64, int) {
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
	cs := t.colsByPop[k]
	for i := from; i < len(cs); i++ {
		if len(out) >= limit {
			return out, i
		}
		c := cs[i]
		if c&^cols != 0 || t.emptyCell(rn, c) {
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
				north := t.run(rn, c, rN[i][0], rN[i][1])
				if bad != 0 {
					north = f.keepNorth(w.clsN[0][:0], north, bad)
					w.clsN[0] = north
				}
				out = joinPairs(out, north, sc, ss, &f)
			}
		}
	}
	return out, -1
}

// pairFrame holds what a join of north and south pieces needs besides the pieces: the
// north pieces' forbidden masks (down in the low half, up in the high half, as a piece),
// and how a north piece's masks go into the frame of width W (mask m): its clash word is
// (down<<s)&m | (up&m)<<32, its signature (down<<dl)&m | (up>>ur&m)<<W (half A: down masks
// as they are, up masks shifted down by s; B: down masks shifted up by s, up masks as
// they are). joinCellAVX512 reads the fields by their offsets: they stay in this order.
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

// joinPairs returns out with the signatures of every compatible (north, south) pair
// appended, north pieces filtered by f's forbidden masks. It only makes room: for the
// whole product, or a block of north pieces at a time (at most joinBlock candidates)
// when the product does not fit the capacity left; joinCell does the work.
// The south pieces are given by their clash words sc and signatures ss.
func joinPairs(out []uint64, north []uint64, sc, ss []uint64, f *pairFrame) []uint64 {
	ns := len(sc)
	if len(out)+len(north)*ns+cellSlack <= cap(out) {
		return joinCell(out, north, sc, ss, f)
	}
	block := max(1, joinBlock/max(1, ns))
	for len(north) > 0 {
		nb := north[:min(block, len(north))]
		north = north[len(nb):]
		if need := len(out) + len(nb)*ns + cellSlack; cap(out) < need {
			out = slices.Grow(out, need-len(out)+len(out)/2)
		}
		out = joinCell(out, nb, sc, ss, f)
	}
	return out
}

// joinBlock bounds the candidates joinPairs makes room for at once.
const joinBlock = 1 << 14

// cellSlack is the room joinPairs leaves past a cell's last candidate: the AVX-512
// kernel stores eight words at a time.
const cellSlack = 8

// joinCellGo is joinCell in Go: for every north piece p off the forbidden masks and
// every south piece, it writes sig(p) | sig(south) and advances past it only if the two
// share no diagonal. The inner loop is branch-free (written through a pointer, without
// the bounds check the compiler cannot drop), so out must have room for
// len(north)·len(south) more words. Its parameters are few and it calls nothing, so that
// its loops keep everything in registers.
func joinCellGo(out []uint64, north []uint64, sc, ss []uint64, f *pairFrame) []uint64 {
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

// evenBFrom fills w.q with half B's signatures for even N by the number of occupied
// long-diagonal segments (NE's up long diagonal is D2, SE's down long diagonal is D1);
// with zero false the B half-boards with neither are not needed (their weight is 0). It
// makes those of the north column sets from the from-th on, stopping after the first
// cell that leaves limit or more signatures in w.q, and returns the index of the next
// column set, or −1 if none is left.
func (w *joinWorker) evenBFrom(j *joinSub, rn, rs uint32, zero bool, from, limit int) int {
	return w.evenBClassFrom(j, rn, rs, zero, from, limit, 0)
}
