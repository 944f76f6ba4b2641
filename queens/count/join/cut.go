package join

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sync"
)

// PlanVersion identifies the way [New] cuts a count into tasks and what each
// task's partial sum holds. It pins every choice that changes a task's sum or counters:
// the row-set bit order (north rows then south rows, from the top), colex order of row
// sets, the canonical rule E ≤ reverse(E), the half-turn rule, the long-diagonal weights,
// the order of odd N's sub-problems (centre, then crosses by b, each with every a), the
// row-set cost model and the cost bound that cut the row sets into tasks (see
// New), the side stored for odd N (the smaller, A on ties) and the matcher's
// definition of a pair test. Join versions count from 101, apart from
// frames.PlanVersion, so that a version number alone names the method wherever it travels
// (checkpoints, shard files, NATS subjects and job ids). Version 101 grouped a fixed
// number of row sets a task (about 512 tasks at every N: four core-hours a task at
// N = 24); 102 cuts by cost, so that no task is much over a core-hour. Version 102
// reached N = 27 until 27 November 2026; it now reaches N = 29 with the tasks of N ≤ 27
// unchanged (maxPlanTasks binds from N = 28 only). Its cut of N = 28–29 rests on the
// extrapolated piece counts of h = 14 (quarterPiecesByQueens) and the extrapolated
// cutCoreHours: both are frozen with the version. From N = 29 the default is
// DemandPlanVersion instead, whose tasks are made on demand without that cap.
const PlanVersion = 102

// MinN and MaxN bound the N that New accepts. From N = 24 the whole
// quarter table needs gigabytes (see memoryOf), and a task builds only the rows of it
// that its row sets need (see Plan.Memory). At N = 30 the largest table rows of h = 15
// would take about 1.4 GiB each (four a row set), and the count some 10⁸ core-hours by the
// model: the join stops at 29.
const (
	MinN = 4
	MaxN = 29
)

// maxPlanTasks bounds the number of tasks the plan's cost bound aims at: 2²⁴, so that a
// plan's compact arrays (20 bytes a task) stay under about 0.7 GiB at N = 29, where the
// cut model asks for some 10⁹ tasks of half a core-hour. It binds from N = 28 only (N = 27
// asks for 7.6·10⁶), so the tasks of N ≤ 27 are those plan version 102 always cut.
const maxPlanTasks = 1 << 24

// tasksTarget is the fewest tasks a join plan is cut into: enough for a pool or a
// cluster to balance, few enough that a task (a group of row sets) amortises its setup.
// Where the plan's modelled time over maxTaskSeconds asks for more, it gets more.
const tasksTarget = 512

// maxTaskSeconds is the modelled time on one core (see Plan.CoreSeconds) that a join
// task should not exceed: half a core-hour, so that with the model's error (a task's
// row sets take from about a third to three times their modelled share) hardly any task
// exceeds about a core-hour.
const maxTaskSeconds = 1800

// A rowSetRun is the part of a task of the join method: Sub names the sub-problem (0 the
// whole board for even N or the centre queen for odd N, 1… the crosses with the middle
// column's queen on row h+Sub+1 (all positions of the middle row's queen), −1 the
// search for symmetric solutions), and the task counts RowSets counted row sets of it from
// First on, in colex order.
type rowSetRun struct {
	Sub     int    `json:"sub"`
	First   uint64 `json:"first"`
	RowSets int    `json:"row_sets"`
}

// buildJoinPlan returns the join's plan for the n×n board, MinN ≤ n ≤ MaxN: runs of
// consecutive counted row sets of each sub-problem, then one task (the last id) that counts
// the solutions fixed by a half turn and by a quarter turn (see SymmetricCounts), so that the
// plan's sum holds Q, P and R and gives U exactly. Every task has Weight 1: the symmetry
// weights are inside each task's partial sum.
//
// Each row set has a modelled cost (subproblem.rowSetCost: its half-boards from the sizes of
// the quarter table's rows, and their pair tests); a task's Cost is the sum of its row
// sets'. Row sets are added to a task, in colex order, while its Cost stays within a bound:
// the plan's total cost over the larger of tasksTarget and the modelled time over
// maxTaskSeconds, or a single row set's cost where one is larger. So tasks end up
// between about half and all of the bound (a task is cut only when the next row set would
// overflow it), the largest at most about twice the mean: about 500 tasks to N = 22,
// some 2,000 to 5,000 at N = 24, and as many as the model asks beyond, none of more than
// about a core-hour. Building the plan walks all row sets twice (C(2h, h) per
// sub-problem: milliseconds at n = 20, a few seconds at n = 26–27); the quarter table is
// built by the tasks that run (see Plan.Memory).
//
// It returns ctx.Err() if ctx is done first, looking at it every 2¹⁶ row sets.
func buildJoinPlan(ctx context.Context, n int) (*plan, error) {
	if n < MinN || n > MaxN {
		return nil, fmt.Errorf("board size for the join method must be a whole number from %d to %d, got %d", MinN, MaxN, n)
	}
	p := &plan{n: n}
	m, bound, err := planBound(ctx, n)
	if err != nil {
		return nil, err
	}
	var top, open uint64 // open: the Cost of the last task while it takes row sets, else 0
	for sub := range subproblemCount(n) {
		j := newSubproblem(n, sub)
		open = 0
		for i, e := 0, j.firstRowSet(); e != 0; i, e = i+1, j.nextRowSet(e) {
			if i%ctxEvery == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if w, _ := j.rowSetWeight(e); w == 0 {
				continue
			}
			c := m.cost(&j, e)
			if open != 0 && open+c > bound {
				open = 0
			}
			if open == 0 {
				p.first = append(p.first, e)
				p.cost = append(p.cost, 0)
				p.rowSets = append(p.rowSets, 0)
			}
			last := len(p.cost) - 1
			p.rowSets[last]++
			p.cost[last] += c
			open = p.cost[last]
			top = max(top, open)
		}
		p.subEnd = append(p.subEnd, int32(len(p.cost)))
	}
	// The symmetric-solution search is one task that cannot be split, about as long as
	// a row-set task at n = 18–20 (12 ms at n = 18, 0.3 s at n = 20 on one core) and far
	// shorter beyond (0.9 s at n = 22, 9 s at 24); it gets a Cost above every other
	// task's so that a pool starts it first (tasks go out by decreasing Cost) instead of
	// leaving it as a tail that one worker runs alone.
	p.first = append(p.first, 0)
	p.cost = append(p.cost, top+1)
	p.rowSets = append(p.rowSets, 0)
	p.first, p.cost, p.rowSets = slices.Clip(p.first), slices.Clip(p.cost), slices.Clip(p.rowSets)
	return p, nil
}

// planBounds caches planBound by n: a worker checks every task it gets against the bound.
var planBounds sync.Map // int → boundOf

type boundOf struct {
	m     rowSetModel
	bound uint64
}

// planBound returns the row-set cost model of n and the bound on a task's Cost that cuts
// the plan's row sets into tasks: the plan's total cost over the larger of
// tasksTarget and the modelled time over maxTaskSeconds, or a single row set's cost
// where one is larger. It walks all row sets once (C(2h, h) per sub-problem: a second or
// two at n = 26–27), once per process and n, or returns ctx.Err() if ctx is done first,
// looking at it every 2¹⁶ row sets.
func planBound(ctx context.Context, n int) (rowSetModel, uint64, error) {
	if b, ok := planBounds.Load(n); ok {
		return b.(boundOf).m, b.(boundOf).bound, nil
	}
	m := newRowSetModel(n)
	var total, top uint64
	for sub := range subproblemCount(n) {
		j := newSubproblem(n, sub)
		for i, e := 0, j.firstRowSet(); e != 0; i, e = i+1, j.nextRowSet(e) {
			if i%ctxEvery == 0 && ctx.Err() != nil {
				return rowSetModel{}, 0, ctx.Err()
			}
			if w, _ := j.rowSetWeight(e); w != 0 {
				c := m.cost(&j, e)
				total += c
				top = max(top, c)
			}
		}
	}
	tasks := min(max(tasksTarget, int(min(cutModelSeconds(n)/maxTaskSeconds, 1<<40))), maxPlanTasks)
	bound := max(top, total/uint64(tasks))
	planBounds.Store(n, boundOf{m, bound})
	return m, bound, nil
}

// ctxEvery is how many row sets the plan's walks take between looks at their context:
// 2¹⁶, a millisecond or so.
const ctxEvery = 1 << 16

// checkRun returns an error unless t's row sets are a run the plan could cut: First a
// counted row set of the sub-problem, RowSets counted row sets from it, their modelled
// costs summing to t.Cost, within the plan's bound unless the run is one row set, and the
// next counted row set (if any) overflowing it, as the plan cuts a task only then. It walks
// the task's row sets (microseconds each) and, once per process, all of n's (planBound).
func (t task) checkRun() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("task %d of N=%d is not a task of the join's plan: %s", t.ID, t.N, fmt.Sprintf(format, args...))
	}
	j := newSubproblem(t.N, t.Run.Sub)
	e := t.Run.First
	if w, _ := j.rowSetWeight(e); w == 0 || bits.OnesCount64(e) != j.k {
		return bad("%#x is not a counted row set of sub-problem %d", e, t.Run.Sub)
	}
	m, bound, _ := planBound(context.Background(), t.N) // no error without a context's end
	var cost uint64
	for k := 0; ; e = j.nextRowSet(e) {
		if e == 0 {
			if k < t.Run.RowSets {
				return bad("sub-problem %d has only %d counted row sets from %#x, not %d", t.Run.Sub, k, t.Run.First, t.Run.RowSets)
			}
			break
		}
		if w, _ := j.rowSetWeight(e); w == 0 {
			continue
		}
		c := m.cost(&j, e)
		if k == t.Run.RowSets {
			if cost+c <= bound {
				return bad("the plan would add the next row set to it (cost %d + %d within the bound %d)", cost, c, bound)
			}
			break
		}
		cost += c
		k++
	}
	switch {
	case cost != t.Cost:
		return bad("cost %d, but its row sets cost %d", t.Cost, cost)
	case t.Run.RowSets > 1 && cost > bound:
		return bad("cost %d is over the plan's bound %d", cost, bound)
	}
	return nil
}

// rowSetModel holds what the cost of a row set is modelled from: the mean number of
// quarter pieces in a table row of k queens, rowMean[k] = (pieces of k queens) / C(h, k),
// and the binomials C(h, k).
type rowSetModel struct {
	rowMean []float64
	binom   []float64
	unit    float64
}

func newRowSetModel(n int) rowSetModel {
	h := n / 2
	byPop := quarterPiecesByQueens(h)
	m := rowSetModel{rowMean: make([]float64, h+1), binom: make([]float64, h+1), unit: 1024}
	for i := 8; i < h; i++ {
		m.unit *= 4
	}
	for k := range h + 1 {
		b := 1.0
		for i := range k {
			b = b * float64(h-i) / float64(i+1)
		}
		m.binom[k] = b
		m.rowMean[k] = float64(byPop[k]) / b
	}
	return m
}

// cost is the modelled work of row set e of sub-problem j, in units of m.unit
// nanoseconds or so (a microsecond at h ≤ 8, four times that a step of h beyond, so
// that a plan's total stays near 10^15–10^16 from n = 24 to 27, far inside 64 bits): its half-boards A and B, each modelled as the candidates of a half on rows
// of k north and k' south queens, rowMean[k]·rowMean[k']/C(h, k) (the cells of a row of k
// queens hold rowMean[k]/C(h, k) pieces on average, and each of the C(h, k) column sets
// pairs one north cell with one south cell), and the pair tests of A's store against B's
// queries, 512 a few nanoseconds (a cross makes B's queries once for each of its b−1
// middle-row queens). The model ignores the diagonals between north and south, so it
// is a relative cost: Plan.CoreSeconds turns it into time by measurement.
func (m *rowSetModel) cost(j *subproblem, e uint64) uint64 {
	h := uint(j.h)
	lm := uint64(1)<<h - 1
	rest := j.free &^ e
	an, as := bits.OnesCount64(e&lm), bits.OnesCount64(e>>h)
	bn, bs := bits.OnesCount64(rest&lm), bits.OnesCount64(rest>>h)
	a := m.rowMean[an] * m.rowMean[as] / m.binom[an]
	b := m.rowMean[bn] * m.rowMean[bs] / m.binom[bn]
	passes := 1.0
	if j.kind == subCross {
		passes = float64(j.b - 1)
	}
	return uint64((4*(a+passes*b)+passes*a*b/128)/m.unit) + 1
}

// rowSet returns the task that counts only the i-th counted row set of the join task t,
// 0 ≤ i < t.Run.RowSets. Row sets of one task share a sub-problem and so a Cost per row
// set (t.Cost / t.Run.RowSets), which makes a uniform sample of them an unbiased timing
// of a task too long to run whole (Estimate times N ≥ 22 so). It walks i row sets: well
// under a millisecond.
func (t task) rowSet(i int) (task, error) {
	if t.Run.Sub < 0 || i < 0 || i >= t.Run.RowSets ||
		t.N < MinN || t.N > MaxN || t.Run.Sub >= subproblemCount(t.N) {
		return task{}, fmt.Errorf("row set %d is not in task %d of the join's plan for N=%d", i, t.ID, t.N)
	}
	j := newSubproblem(t.N, t.Run.Sub)
	e := t.Run.First
	for k := 0; ; e = j.nextRowSet(e) {
		if e == 0 {
			return task{}, fmt.Errorf("row set %d is not in task %d of the join's plan for N=%d", i, t.ID, t.N)
		}
		if w, _ := j.rowSetWeight(e); w == 0 {
			continue
		}
		if k == i {
			break
		}
		k++
	}
	s := t
	s.Run.First, s.Run.RowSets = e, 1
	s.Cost = t.Cost / uint64(t.Run.RowSets)
	return s, nil
}
