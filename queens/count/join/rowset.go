package join

import (
	"context"
	"math"
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

// countRowSet counts the pairs of row set r, weighted by its weights.
//
// Behind the sieve (N ≥ 20) it holds at most j.storeMax stored half-boards and
// j.queryMax queries at once: half A is made and stored a part at a time (a run of its
// north column sets), and for each part half B is made again and queried a chunk at a time.
// The counters are those of the whole lists (stored |A|, queries |B|, pair tests |A|·|B|;
// the centre of odd N: the shorter list stored), however they are cut. It returns
// ctx.Err() if ctx is done, looking at it after each chunk of queries (at most seconds
// apart at N = 28, where a row set takes minutes). From h = storeBMinH (N ≥ 22) an even
// row set stores half B instead (countRowSetStoreB), with the same counters, or from
// h = storeBySizeMinH (N ≥ 28) whichever half storesA chooses by size (countRowSetEven).
func (w *worker) countRowSet(ctx context.Context, j *subproblem, r rowSet, c *counters) (uint64, error) {
	W := 2*j.h - 1
	if j.sieve == 0 && j.kind != subEven || j.kind == subCentre && j.h < 13 {
		return w.countRowSetWhole(j, r, c), nil
	}
	if j.kind == subEven && storeLarger && j.h >= storeBMinH {
		n, _, err := w.countRowSetEven(ctx, j, r, c, -1)
		return n, err
	}
	if j.storeMax < math.MaxInt {
		n, _, err := w.countRowSetClasses(ctx, j, r, c, -1)
		return n, err
	}
	// Half A a part at a time; the first part's passes over B count the queries.
	var stored, queries uint64
	var n [3]uint64
	jb := *j
	jb.forbid(qNE, qSE, j.fdB, j.fuB) // crosses: see countRowSetWhole
	for aFrom, first := 0, true; aFrom >= 0; first = false {
		w.sideA, aFrom = w.halfFrom(j, w.sideA[:0], qNW, r.an, r.as, j.colsA, false, southRowOf(j, &w.southA), aFrom, j.storeMax)
		stored += uint64(len(w.sideA))
		if len(w.sideA) == 0 && !first {
			continue
		}
		w.m.build(w.sideA, W, j.sieve)
		switch j.kind {
		case subEven:
			for bFrom := 0; bFrom >= 0; {
				bFrom = w.evenBFrom(j, r.bn, r.bs, r.w180 != 0, bFrom, j.queryMax)
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
				a, from = w.crossBFrom(j, &jb, r.bn, r.bs, a, from, j.queryMax)
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
				w.sideB, bFrom = w.halfFrom(j, w.sideB[:0], qNE, r.bn, r.bs, j.colsB, true, southRowOf(j, &w.southB[0]), bFrom, j.queryMax)
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
		return r.w * (r.w180*n[0] + 2*n[1] + 4*n[2]), nil
	}
	return r.w * n[0], nil
}

// countRowSetWhole is countRowSet with both halves' lists made whole, the shorter one
// stored: odd N without the sieve (N ≤ 19), and the centre of odd N to 25.
func (w *worker) countRowSetWhole(j *subproblem, r rowSet, c *counters) uint64 {
	if j.kind == subCross {
		w.sideA = w.half(j, w.sideA[:0], qNW, r.an, r.as, j.colsA, false, southRowOf(j, &w.southA))
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
		w.crossBFrom(j, &jb, r.bn, r.bs, 1, 0, math.MaxInt)
		return r.w * w.countPairs(j, w.sideA, w.sideB, c)
	}
	w.sideA = w.half(j, w.sideA[:0], qNW, r.an, r.as, j.colsA, false, southRowOf(j, &w.southA))
	w.sideB = w.half(j, w.sideB[:0], qNE, r.bn, r.bs, j.colsB, true, southRowOf(j, &w.southB[0]))
	store, query := w.sideA, w.sideB
	if len(query) < len(store) {
		store, query = query, store
	}
	return r.w * w.countPairs(j, store, query, c)
}

// countPairs returns the number of disjoint pairs of x and y, counted as x stored and y
// queried (the task's counters: stored += |x|, queries += |y|, pair tests += |x|·|y|).
// The matcher stores whichever list is shorter (x on a tie) and queries it with the
// other: the pairs are the same either way, and the store is what costs a build. (At
// N = 19 a cross's half A holds about 3,700 half-boards a row set and its half B, over
// every a, about 1,400.) Behind the sieve (cut bits, N ≥ 21) a cross stores its half A
// whatever the sizes: storing the shorter B there made sampled row sets (seed 7, two
// alternated runs each) 1.11× slower at N = 21, 1.16× at 23, 1.18× at 25 and 1.6× at 27.
func (w *worker) countPairs(j *subproblem, x, y []uint64, c *counters) uint64 {
	c.stored += uint64(len(x))
	c.queries += uint64(len(y))
	c.pairTests += uint64(len(x)) * uint64(len(y))
	if len(y) < len(x) && (j.kind != subCross || j.sieve == 0) {
		x, y = y, x
	}
	w.m.build(x, 2*j.h-1, j.sieve)
	return w.m.countAll(y)
}
