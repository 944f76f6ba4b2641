package join

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"unsafe"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// worker holds one goroutine's buffers for the join: the store, the queries and the
// matcher, kept across row sets and tasks (a sync.Pool hands them out).
type worker struct {
	t       *quarterTable
	m       sieveMatcher
	sideA   []uint64
	sideB   []uint64
	q       [3][]uint64 // even N: B half-boards by occupied long-diagonal segments
	q1      [1][]uint64 // odd N: w.sideB, as nextQueries returns it
	scratch pieceList
	// scratch1 holds evenB's second class of south pieces where they are prepared cell
	// by cell (h ≥ cellSouthH).
	scratch1 pieceList
	// cls and clsN hold one cell's south and north pieces of half B that a class of
	// countRowSetStoreB may use (evenBClassFrom).
	cls  [2]pieceList
	clsN [2][]uint64
	// South pieces prepared for appendPairs, a whole table row (south rows) at a time:
	// half A's south quarter, and half B's by class (even N: off D1, on D1; odd N: [0]).
	southA southRow
	southB [2]southRow
	// runs hold the cells whose pairs are pending, a run a list of w.q (half A and odd
	// N's half B use runs[0]); every function that adds to them flushes them before it
	// returns.
	runs     [3]cellRun
	quads    quadScan // evenBRuns' scan of a row's quads
	cellScan cellScan // halfRuns' scan of a row's cells
	// classSizes holds, after countRowSetClasses or countRowSetStoreB with only = −2, the
	// stored half-boards of each class that holds any, in class order: the weights by which
	// the sampler of lists_test.go draws the class it times.
	classSizes []int
	// sampleA holds, after occupancyOrder, its sample of half A (every occupancyStep-th
	// half-board).
	sampleA []uint64
	// sampleB holds, after occupancyOrder where greedyCutsFor holds, a sample of half B of
	// at most 2·greedySample half-boards (every 2^i·occupancyStep-th one); sizeB the
	// half-boards of half B.
	sampleB []uint64
	sizeB   int
	// sizeA is half A's half-boards, counted by occupancyOrder. occ holds occupancyOrder's
	// bits where storesA made them, occReady until the row set's count takes them.
	sizeA    int
	occ      []uint
	occReady bool
	// greedy holds greedyOrder's buffers.
	greedy greedyCuts
}

var workerPool = sync.Pool{New: func() any { return new(worker) }}

// counters are the deterministic counters of a join task.
type counters struct {
	rowSets, stored, queries, pairTests uint64
}

// countRowSets counts n counted row sets of sub-problem j starting at (and including) the
// counted row set e0. It returns the weighted partial sum.
func (w *worker) countRowSets(ctx context.Context, j *subproblem, e0 uint64, n int, c *counters) (uint64, error) {
	var sum uint64
	e := e0
	for done := 0; done < n; e = j.nextRowSet(e) {
		if e == 0 {
			break
		}
		r := j.rowSet(e)
		if r.w == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		done++
		c.rowSets++
		n, err := w.countRowSet(ctx, j, r, c)
		if err != nil {
			return 0, err
		}
		sum += j.weight * n
	}
	return sum, nil
}

// countJoin runs a task of the join. It needs no plan: the task names its row sets. The
// quarter table comes whole or by rows (tableFor), within the process's memory limit.
func (t task) countJoin(ctx context.Context) (count.Result, error) {
	res := count.Result{ID: t.ID}
	if t.Run.Sub < 0 {
		p, r, nodes, err := symmetricCounts(ctx, t.N)
		res.HalfTurn, res.QuarterTurn, res.Nodes = p, r, nodes
		return res, err
	}
	if t.N < MinN || t.N > MaxN || t.Run.Sub >= subproblemCount(t.N) || t.Run.RowSets < 0 {
		return res, fmt.Errorf("join task %d of N=%d is not a task of the plan", t.ID, t.N)
	}
	tab, err := tableFor(ctx, t.N)
	if err != nil {
		return res, err
	}
	return t.countJoinTable(ctx, tab)
}

// countJoinTable runs a row-set task of the join on the table tab (whole or partial).
func (t task) countJoinTable(ctx context.Context, tab *quarterTable) (count.Result, error) {
	res := count.Result{ID: t.ID}
	w := workerPool.Get().(*worker)
	defer workerPool.Put(w)
	w.t = tab
	j := newSubproblem(t.N, t.Run.Sub)
	var c counters
	var sum uint64
	var err error
	if tab.cache == nil {
		sum, err = w.countRowSets(ctx, &j, t.Run.First, t.Run.RowSets, &c)
	} else {
		// A row set at a time, holding the four rows of the table it reads.
		e := t.Run.First
		for done := 0; done < t.Run.RowSets && e != 0; e = j.nextRowSet(e) {
			r := j.rowSet(e)
			if r.w == 0 {
				continue
			}
			rows := r.tableRows()
			if err = tab.acquire(ctx, rows[:]); err != nil {
				break
			}
			var s uint64
			s, err = w.countRowSets(ctx, &j, e, 1, &c)
			tab.release(rows[:])
			if err != nil {
				break
			}
			sum += s
			done++
		}
	}
	if err != nil {
		return res, err
	}
	res.Solutions = sum
	res.RowSets, res.Stored, res.PairTests = c.rowSets, c.stored, c.pairTests
	res.Nodes = c.stored + c.queries
	return res, nil
}

// memoryOf returns the bytes of the join's quarter table for n, whole (8 bytes a
// quarter piece plus 16 bytes per cell of C(2h, h) cells: 1.1 MiB for n = 16–17, 7.8 MiB
// for 18–19, 60.4 MiB for 20–21, 521 MiB for 22–23, 4.76 GiB for 24–25, 47.5 GiB for 26–27),
// and of one worker's buffers (store, queries, matcher, prepared south pieces), which grow
// with the largest row set. A process holds the whole table, shared by its workers, only
// where it fits the memory limit; else it holds some of the table's rows (see
// Plan.Memory, which answers for a whole count).
func memoryOf(n int) (table, perWorker uint64) {
	h := n / 2
	table = tableBytes(n)
	// The largest store seen, half-boards (BenchmarkJoinLists, 20–100 sampled row sets:
	// 27,720 at N = 20, 214,450 at 22, 1,268,102 at 24, 10,564,629 at 26, ×6–8 a step of
	// h), taken half again for the row sets not sampled, and at most the store of a part
	// (listMax) plus one cell's overshoot; queries about three times the store, in chunks.
	// A stored half-board takes about 100 bytes with the sieve's copies and the matcher's
	// tables, a query about 48 with its copies and chunk offsets.
	largest := []float64{8: 900, 9: 5130, 10: 42000, 11: 320000, 12: 1.9e6, 13: 1.6e7}
	patterns := largest[min(max(h, 8), 13)]
	for i := 13; i < h; i++ {
		patterns *= 8
	}
	// Even N from h = storeBMinH stores half B, about three times half A, and queries
	// A; below h = 13 its sieve takes a cut bit per doubling of sievePerSubWhole.
	storeMax, queryMax := listMax(h)
	stored, queried := patterns, 3*patterns
	k := sieveBitsFor(n)
	if n%2 == 0 && storeLarger && h >= storeBMinH {
		stored, queried = 3*patterns, patterns
		if h < 13 {
			k = min(maxSieveBits, bits.Len(uint(stored)/uint(sievePerSubWhole))-1)
		}
	}
	store := min(stored, 1.25*float64(storeMax))
	queries := min(queried, 1.25*float64(queryMax))
	perWorker = uint64(100*store+48*queries) + 1<<20
	// Three prepared south rows (16 bytes a piece) of at most the largest table row, or
	// from h = 14 two prepared cells.
	if h < cellSouthH {
		perWorker += 3 * 16 * maxRowPieces(h)
	}
	// The sieve's 2^k sub-store matchers, each with its fixed rows (about 36 MiB at k = 13).
	perWorker += uint64(1<<k) * uint64(unsafe.Sizeof(matcher{}))
	return table, perWorker
}
