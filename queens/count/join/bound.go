package join

import (
	"fmt"
	"math/bits"
	"sync"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/bound"
)

// Upper bounds for the join's tasks, derived from the task alone, so that a result that
// crossed a process boundary cannot add more to a total than its task could.
//
// A row set E of a task is joined from the half-boards of half A on rows E and those of
// half B on the other rows (see the notes in doc.go). A half-board is a north quarter piece on the
// half's north rows joined with a south piece on its south rows, the two using disjoint
// columns that together fill the half's free columns. So the half-boards of a half number
// at most
//
//	H(rn, rs, cols) = Σ over c ⊆ cols with |c| = |rn| of cell(rn, c) · cell(rs, cols∖c),
//
// where cell(r, c) counts the quarter pieces with exactly rows r and columns c, ignoring the
// diagonals the sub-problem forbids and the clash test between north and south (both only
// remove half-boards). The join tests every pair of A's and B's half-boards (for odd N's
// crosses, A's with B's of each a), so a row set makes at most H_A·H_B pair tests (Σ_a
// H_A·H_B(a) for a cross) and each compatible pair adds at most its weight: wE·4 for even
// N (the B half-board's long-diagonal weight is at most 4), wE for the centre, 8 for a
// cross. The bound of a task is the sum over its row sets, computed with saturating
// arithmetic.
//
// The bound is honest and cheap, not tight. Summed over a plan's tasks it is about 3,100
// times Q(N) at N = 12, 28,000 at 16, 270,000 at 20 and 830,000 at 22 (the pair product
// is 20–30 times the pair tests the join makes, and those are 20–130 times its solutions).
// That is still 8 to 190 times tighter than the frames method's e! rule, whose sum over
// its plan is 24,000 times Q(12), 1.1 M times Q(16) and 51 M times Q(20). So it refuses a
// forged sum of a new size (the +10^15 of issue 25 at N = 14, where no task's bound passes
// 1.6·10^8; at N = 20 none passes 10^15), not a modest inflation of one task:
// recomputation (--verify, --replicas) catches that.

// boundTableMaxH is the largest quarter size whose cell counts are tabulated: 4^h
// 32-bit counts (16 MiB at h = 11, the table of N = 22 and 23) from one walk over the P(h)
// pieces (1 s at h = 10, 5 s at h = 11 on a shared core). Above it a cell is bounded by
// k!, the permutations of its k queens, which makes H ≤ h!: far looser, but those N (24
// and more) take weeks.
const boundTableMaxH = 11

var cellCounts struct {
	sync.Mutex
	byH map[int][]uint32
}

// quarterCellCounts returns the number of quarter pieces of the h×h square in each cell,
// indexed rows<<h | cols, built on first use and kept (the last two sizes). It is its own
// walk, not the join's table: the bound does not trust the code it checks.
func quarterCellCounts(h int) []uint32 {
	cellCounts.Lock()
	defer cellCounts.Unlock()
	if c, ok := cellCounts.byH[h]; ok {
		return c
	}
	cnt := make([]uint32, 1<<(2*h))
	countCells(h, 0, 0, 0, 0, 0, cnt)
	if cellCounts.byH == nil || len(cellCounts.byH) >= 2 {
		cellCounts.byH = map[int][]uint32{}
	}
	cellCounts.byH[h] = cnt
	return cnt
}

// countCells places a queen or nothing on row r of the h×h square and on, adding one to
// cnt[rows<<h|cols] for every piece.
func countCells(h, r int, rows, cols, down, up uint32, cnt []uint32) {
	if r == h {
		cnt[rows<<h|cols]++
		return
	}
	countCells(h, r+1, rows, cols, down, up, cnt)
	// Column c is open unless its column, down diagonal (c−r+h−1) or up diagonal (c+r)
	// is taken.
	open := (uint32(1)<<h - 1) &^ (cols | down>>(h-1-r) | up>>r)
	for ; open != 0; open &= open - 1 {
		c := bits.TrailingZeros32(open)
		countCells(h, r+1, rows|1<<r, cols|1<<c, down|1<<(c-r+h-1), up|1<<(c+r), cnt)
	}
}

// halfBound is H(rn, rs, cols) above for quarters of size h, cell counts cnt (nil: k!),
// and byPop the column masks of the square listed by popcount.
func halfBound(h int, cnt []uint32, byPop [][]uint32, rn, rs, cols uint32) uint64 {
	kn, ks := bits.OnesCount32(rn), bits.OnesCount32(rs)
	if kn+ks != bits.OnesCount32(cols) {
		return 0
	}
	if cnt == nil {
		// Σ over C(|cols|, kn) splits of kn!·ks! = |cols|!.
		return bound.Factorial(kn + ks)
	}
	var sum uint64
	for _, c := range byPop[kn] {
		if c&^cols == 0 {
			a, b := uint64(cnt[rn<<h|c]), uint64(cnt[rs<<h|(cols&^c)])
			sum = satAdd(sum, a*b) // each below 2^32: the product fits
		}
	}
	return sum
}

// masksByPop lists the subsets of h bits by popcount, increasing.
func masksByPop(h int) [][]uint32 {
	m := make([][]uint32, h+1)
	for c := range uint32(1) << h {
		k := bits.OnesCount32(c)
		m[k] = append(m[k], c)
	}
	return m
}

// taskBound holds the bounds of one join task's counters.
type taskBound struct {
	solutions, pairTests, stored, queries uint64
}

// counterBound returns the bounds of task t of the join (Sub ≥ 0) and an error if t is not a
// task of the join's plan. It walks the task's row sets once, about |cols|·2^h cell
// lookups a half each: milliseconds for a task of N ≤ 20.
func (t task) counterBound() (taskBound, error) {
	var b taskBound
	if t.N < MinN || t.N > MaxN || t.Run.Sub < 0 || t.Run.Sub >= subproblemCount(t.N) || t.Run.RowSets < 0 {
		return b, fmt.Errorf("task %d is not a task of the join's plan for N=%d", t.ID, t.N)
	}
	j := newSubproblem(t.N, t.Run.Sub)
	h := j.h
	var cnt []uint32
	if h <= boundTableMaxH {
		cnt = quarterCellCounts(h)
	}
	byPop := masksByPop(h)
	lm := uint32(1)<<h - 1
	e := t.Run.First
	if w, _ := j.rowSetWeight(e); w == 0 || e == 0 {
		return b, fmt.Errorf("task %d does not start at a counted row set of N=%d", t.ID, t.N)
	}
	for done := 0; done < t.Run.RowSets; e = j.nextRowSet(e) {
		if e == 0 {
			return b, fmt.Errorf("task %d of N=%d holds more row sets than its sub-problem", t.ID, t.N)
		}
		wE, _ := j.rowSetWeight(e)
		if wE == 0 {
			continue
		}
		done++
		an, as := uint32(e)&lm, uint32(e>>h)&lm
		rest := j.free &^ e
		bn, bs := uint32(rest)&lm, uint32(rest>>h)&lm
		hA := halfBound(h, cnt, byPop, an, as, j.colsA)
		var hB, perPair uint64
		switch j.kind {
		case subEven:
			hB, perPair = halfBound(h, cnt, byPop, bn, bs, j.colsB), 4*wE
			b.stored, b.queries = satAdd(b.stored, hA), satAdd(b.queries, hB)
		case subCentre:
			// The smaller side is stored, the larger queried.
			hB, perPair = halfBound(h, cnt, byPop, bn, bs, j.colsB), wE
			b.stored, b.queries = satAdd(b.stored, min(hA, hB)), satAdd(b.queries, max(hA, hB))
		default:
			for a := 1; a < j.b; a++ {
				hB = satAdd(hB, halfBound(h, cnt, byPop, bn, bs, lm&^(1<<(a-1))))
			}
			perPair = j.weight * wE
			b.stored, b.queries = satAdd(b.stored, hA), satAdd(b.queries, hB)
		}
		pairs := satMul(hA, hB)
		b.pairTests = satAdd(b.pairTests, pairs)
		b.solutions = satAdd(b.solutions, satMul(perPair, pairs))
	}
	return b, nil
}

// checkJoinBound checks r, a result of the join task t (Sub ≥ 0), against the task's
// bounds and against its own pair tests (each adds at most 8 to the sum).
func (t task) checkJoinBound(r count.Result) error {
	b, err := t.counterBound()
	if err != nil {
		return err
	}
	switch {
	case r.PairTests > b.pairTests:
		return fmt.Errorf("task %d: %d pair tests, more than the %d its row sets can make", r.ID, r.PairTests, b.pairTests)
	case r.Solutions > b.solutions:
		return fmt.Errorf("task %d: %d solutions, more than the %d its row sets can hold", r.ID, r.Solutions, b.solutions)
	case r.PairTests < 1<<60 && r.Solutions > 8*r.PairTests:
		return fmt.Errorf("task %d: %d solutions from %d pair tests, more than the 8 a pair can add", r.ID, r.Solutions, r.PairTests)
	case r.Stored > b.stored:
		return fmt.Errorf("task %d: %d stored patterns, more than the %d half-boards its row sets have", r.ID, r.Stored, b.stored)
	case r.Nodes < r.Stored || r.Nodes-r.Stored > b.queries:
		return fmt.Errorf("task %d: %d nodes, but it stored %d patterns and can query at most %d more", r.ID, r.Nodes, r.Stored, b.queries)
	}
	return nil
}

// symmetricBound returns bounds of P(n) and R(n) that need no search: a solution fixed by
// a half turn is a permutation with p[n−1−r] = n−1−p[r], 2^h·h! of them (h = ⌊n/2⌋), and
// one fixed by a quarter turn exists only for n ≡ 0, 1 (mod 4), (2m)!/m! of them (m =
// ⌊n/4⌋; the permutation matrices a quarter turn fixes, OEIS A037224).
func symmetricBound(n int) (halfTurn, quarterTurn uint64) {
	h := n / 2
	halfTurn = satMul(satPow2(h), bound.Factorial(h))
	if n%4 == 0 || n%4 == 1 {
		m := n / 4
		quarterTurn = bound.Factorial(2 * m)
		if quarterTurn != ^uint64(0) {
			quarterTurn /= bound.Factorial(m)
		}
	}
	return halfTurn, quarterTurn
}

func satAdd(a, b uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	if c != 0 {
		return ^uint64(0)
	}
	return s
}

func satMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return ^uint64(0)
	}
	return lo
}

func satPow2(k int) uint64 {
	if k >= 64 {
		return ^uint64(0)
	}
	return 1 << k
}

// checkJoinResult is CheckResult for a task of the join's plan. The symmetric task (Sub < 0)
// counts only solutions fixed by turns; every other task counts all solutions of its row
// sets, none of the turn counts, and must report exactly the row sets it was given.
func (t task) checkJoinResult(r count.Result) error {
	if t.Run.Sub < 0 {
		switch {
		case r.Solutions != 0 || r.RowSets != 0 || r.Stored != 0 || r.PairTests != 0:
			return fmt.Errorf("task %d counts only symmetric solutions, but reports %d solutions, %d row sets, %d patterns, %d pair tests", r.ID, r.Solutions, r.RowSets, r.Stored, r.PairTests)
		case r.QuarterTurn > r.HalfTurn:
			return fmt.Errorf("task %d: %d solutions fixed by a quarter turn, more than the %d fixed by a half turn", r.ID, r.QuarterTurn, r.HalfTurn)
		}
		p, q := symmetricBound(t.N)
		switch {
		case r.HalfTurn > p:
			return fmt.Errorf("task %d: %d solutions fixed by a half turn, more than the %d permutations of N=%d a half turn fixes", r.ID, r.HalfTurn, p, t.N)
		case r.QuarterTurn > q:
			return fmt.Errorf("task %d: %d solutions fixed by a quarter turn, more than the %d permutations of N=%d a quarter turn fixes", r.ID, r.QuarterTurn, q, t.N)
		}
		return nil
	}
	switch {
	case r.HalfTurn != 0 || r.QuarterTurn != 0:
		return fmt.Errorf("task %d counts no symmetric solutions (the plan's last task does), but reports %d and %d", r.ID, r.HalfTurn, r.QuarterTurn)
	case r.RowSets != uint64(t.Run.RowSets):
		return fmt.Errorf("task %d has %d row sets, but its result reports %d", r.ID, t.Run.RowSets, r.RowSets)
	case r.PairTests == 0 && r.Solutions != 0:
		return fmt.Errorf("task %d: %d solutions from no pair tests", r.ID, r.Solutions)
	}
	return t.checkJoinBound(r)
}
