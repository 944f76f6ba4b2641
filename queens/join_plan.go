package queens

import (
	"context"
	"fmt"
)

// The two counting methods a plan can have.
const (
	// MethodFrames pre-places the border queens and searches the rest (NewPlan): any N,
	// tiny memory.
	MethodFrames = "frames"
	// MethodJoin joins half-boards built from a quarter-board table (NewJoinPlan): far
	// faster where its table fits in memory.
	MethodJoin = "join"
)

// JoinPlanVersion identifies the way [NewJoinPlan] cuts a count into tasks and what each
// task's partial sum holds. It pins every choice that changes a task's sum or counters:
// the row-set bit order (north rows then south rows, from the top), colex order of row
// sets, the canonical rule E ≤ reverse(E), the half-turn rule, the long-diagonal weights,
// the order of odd N's sub-problems (centre, then crosses by b, each with every a), the group size,
// the side stored for odd N (the smaller, A on ties) and the matcher's definition of a
// pair test. Join versions count from 101, apart from the frames' PlanVersion, so that a
// version number alone names the method wherever it travels (checkpoints, shard files,
// NATS subjects and job ids).
const JoinPlanVersion = 101

// NewPlanVersion returns the plan of n for plan version v: NewPlan for PlanVersion,
// NewJoinPlan for JoinPlanVersion, an error for any other version.
func NewPlanVersion(n, v int) (*Plan, error) {
	switch v {
	case PlanVersion:
		return NewPlan(n)
	case JoinPlanVersion:
		return NewJoinPlan(n)
	case FinePlanVersion:
		return NewFinePlan(n)
	}
	return nil, fmt.Errorf("plan version %d is not one of this build (%d frames, %d join)", v, PlanVersion, JoinPlanVersion)
}

// MinJoinN and MaxJoinN bound the N that NewJoinPlan accepts. Above 23 the quarter table
// needs gigabytes (see JoinMemory); callers check it against what the machine has.
const (
	MinJoinN = 4
	MaxJoinN = 27
)

// AutoJoinMaxN is the largest N that an automatic choice of method gives to the join.
// Measured on a Xeon by bench/cost.sh (timed samples of both plans' tasks), the join takes
// 9.1 core-hours at N = 22 against 29 by frames, and 61 against 237 at N = 23; at N = 24
// it takes 2177 ±20% against 2237, no less, with a 5 GiB table and tasks of up to 4.3
// hours where the fine frame plan's are about one.
const AutoJoinMaxN = 23

// joinTasksTarget is about how many tasks a join plan has: enough for a pool or a cluster
// to balance, few enough that a task (a group of row sets) amortises its setup.
const joinTasksTarget = 512

// A JoinTask is the part of a [Task] of the join method: Sub names the sub-problem (0 the
// whole board for even N or the centre queen for odd N, 1… the crosses with the middle
// column's queen on row h+Sub+1 (all positions of the middle row's queen), −1 the
// search for symmetric solutions), and the task counts RowSets counted row sets of it from
// First on, in colex order.
type JoinTask struct {
	Sub     int    `json:"sub"`
	First   uint64 `json:"first"`
	RowSets int    `json:"row_sets"`
}

// NewJoinPlan returns the join's plan for the n×n board, MinJoinN ≤ n ≤ MaxJoinN: groups of
// consecutive counted row sets of each sub-problem, then one task (the last id) that counts
// the solutions fixed by a half turn and by a quarter turn (see SymmetricCounts), so that the
// plan's sum holds Q, P and R and gives U exactly. Every task has Weight 1: the symmetry
// weights are inside each task's partial sum. Building the plan walks all row sets once
// (C(2h, h) per sub-problem: milliseconds at n = 20); the quarter table is built by the
// first task that runs (see JoinMemory).
func NewJoinPlan(n int) (*Plan, error) {
	if n < MinJoinN || n > MaxJoinN {
		return nil, fmt.Errorf("board size for the join method must be a whole number from %d to %d, got %d", MinJoinN, MaxJoinN, n)
	}
	p := &Plan{N: n, Method: MethodJoin, Version: JoinPlanVersion}
	subs := joinSubs(n)
	counts := make([]int, subs)
	total := 0
	for sub := range subs {
		j := newJoinSub(n, sub)
		for e := j.firstRowSet(); e != 0; e = j.nextRowSet(e) {
			if w, _ := j.rowSetWeight(e); w != 0 {
				counts[sub]++
			}
		}
		total += counts[sub]
	}
	group := max(1, (total+joinTasksTarget-1)/joinTasksTarget)
	for sub := range subs {
		j := newJoinSub(n, sub)
		in := 0
		for e := j.firstRowSet(); e != 0; e = j.nextRowSet(e) {
			if w, _ := j.rowSetWeight(e); w == 0 {
				continue
			}
			if in == 0 {
				p.Tasks = append(p.Tasks, Task{N: n, ID: len(p.Tasks), Method: MethodJoin, Weight: 1,
					Join: JoinTask{Sub: sub, First: e}})
			}
			t := &p.Tasks[len(p.Tasks)-1]
			t.Join.RowSets++
			t.Cost += uint64(j.cost())
			if in++; in == group {
				in = 0
			}
		}
	}
	// The symmetric-solution search is one task that cannot be split, about as long as
	// the largest row-set group (12 ms at n = 18, 0.3 s at n = 20 on one core); it gets a
	// Cost above every other task's so that a pool starts it first (tasks go out by
	// decreasing Cost) instead of leaving it as a tail that one worker runs alone.
	var top uint64
	for _, t := range p.Tasks {
		top = max(top, t.Cost)
	}
	p.Tasks = append(p.Tasks, Task{N: n, ID: len(p.Tasks), Method: MethodJoin, Weight: 1, Join: JoinTask{Sub: -1}, Cost: top + 1})
	return p, nil
}

// cost is a row set's relative cost: one store of half A, then b−1 query passes for the
// crosses of row b (each a fraction of the centre's or even N's single pass).
func (j *joinSub) cost() int {
	if j.kind == subCross {
		return 2 + j.b
	}
	return 4
}

// RowSet returns the task that counts only the i-th counted row set of the join task t,
// 0 ≤ i < t.Join.RowSets. Row sets of one task share a sub-problem and so a Cost per row
// set (t.Cost / t.Join.RowSets), which makes a uniform sample of them an unbiased timing
// of a task too long to run whole (bench/cost times N ≥ 22 so). It walks i row sets: well
// under a millisecond.
func (t Task) RowSet(i int) (Task, error) {
	if t.Method != MethodJoin || t.Join.Sub < 0 || i < 0 || i >= t.Join.RowSets ||
		t.N < MinJoinN || t.N > MaxJoinN || t.Join.Sub >= joinSubs(t.N) {
		return Task{}, fmt.Errorf("row set %d is not in task %d of the join's plan for N=%d", i, t.ID, t.N)
	}
	j := newJoinSub(t.N, t.Join.Sub)
	e := t.Join.First
	for k := 0; ; e = j.nextRowSet(e) {
		if e == 0 {
			return Task{}, fmt.Errorf("row set %d is not in task %d of the join's plan for N=%d", i, t.ID, t.N)
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
	s.Join.First, s.Join.RowSets = e, 1
	s.Cost = t.Cost / uint64(t.Join.RowSets)
	return s, nil
}

// countJoin runs a task of the join.
func (t Task) countJoin(ctx context.Context) (TaskResult, error) {
	res := TaskResult{ID: t.ID}
	if t.Join.Sub < 0 {
		p, r, nodes, err := symmetricCounts(ctx, t.N)
		res.HalfTurn, res.QuarterTurn, res.Nodes = p, r, nodes
		return res, err
	}
	if t.N < MinJoinN || t.N > MaxJoinN || t.Join.Sub >= joinSubs(t.N) || t.Join.RowSets < 0 {
		return res, fmt.Errorf("join task %d of N=%d is not a task of the plan", t.ID, t.N)
	}
	tab, err := sharedQuarterTable(ctx, t.N/2)
	if err != nil {
		return res, err
	}
	w := joinWorkers.Get().(*joinWorker)
	defer joinWorkers.Put(w)
	w.t = tab
	j := newJoinSub(t.N, t.Join.Sub)
	var c joinCounters
	sum, err := w.countRowSets(ctx, &j, t.Join.First, t.Join.RowSets, &c)
	if err != nil {
		return res, err
	}
	res.Solutions = sum
	res.RowSets, res.Stored, res.PairTests = c.rowSets, c.stored, c.pairTests
	res.Nodes = c.stored + c.queries
	return res, nil
}

// JoinMemory returns the bytes the join needs for n: the quarter table, shared by all
// workers of a process, and the buffers of one worker (store, queries, matcher, prepared
// south pieces), which grow with the largest row set. The table is 8 bytes a quarter piece plus 16 bytes per
// cell of 4^h cells: about 1.3 MB for n = 16–17, 8.3 MB for 18–19, 77 MB for 20–21,
// 0.8 GB for 22–23, 6.4 GB for 24–25 and 60 GB for 26–27.
func JoinMemory(n int) (table, perWorker uint64) {
	h := n / 2
	table = joinTableBytes(n)
	// Largest store measured: 878 patterns at n = 16, 4,996 at 18, growing about 5.7× per
	// 2; queries up to about twice that; matcher tables 4·⌈bits/5⌉·8 bytes a pattern.
	patterns := 900.0
	for i := 8; i < h; i++ {
		patterns *= 2.4
	}
	perWorker = uint64(patterns*(8+16+8*8+64)) + 1<<20
	// Three prepared south rows (16 bytes a piece) of at most the largest table row:
	// 1,174 pieces at h = 8, 5,366 at 9, 26,548 at 10, 143,140 at 11, about P(h)/100
	// shrinking 1.7× a step of h.
	row := float64(quarterPieceCount(h)) / 100
	for i := 8; i < h; i++ {
		row /= 1.7
	}
	perWorker += uint64(3 * 16 * row)
	return table, perWorker
}

// CountJoin counts the solutions of the n×n board with the join method, running the tasks
// of NewJoinPlan one after another on the calling goroutine, and returns ctx.Err() if ctx
// is done first. It takes about 0.1 s for n = 16 and several seconds for n = 18 on one
// core; memory is JoinMemory(n).
func CountJoin(ctx context.Context, n int) (Counts, error) {
	p, err := NewJoinPlan(n)
	if err != nil {
		return Counts{}, err
	}
	return p.countHere(ctx)
}
