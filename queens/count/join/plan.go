package join

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/lazy"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/order"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/taskdesc"
)

// plan is the join's count.Plan: runs of consecutive counted row sets of each
// sub-problem, then one task that counts the symmetric solutions (see newJoinPlan). It
// holds its tasks compactly, in id order, 20 bytes a task (8.35·10⁶ tasks at n = 27: about
// 170 MB, where task structs took gigabytes), and makes a task on demand (taskAt).
type plan struct {
	n       int
	first   []uint64 // each task's first row set (0 for the symmetric task)
	cost    []uint64 // each task's Cost
	rowSets []uint32 // each task's number of row sets (0 for the symmetric task)
	subEnd  []int32  // subEnd[s]: the first id after sub-problem s's tasks

	once  lazy.Once // builds the task arrays (see Build)
	order struct {
		sync.Once
		ids []uint32 // ids costliest first, ties by id
	}
}

// task is one task of the join's plan: the row sets of Run, or the symmetric search.
type task struct {
	N, ID  int
	Weight int // always 1: the symmetry weights are inside each task's sum
	Cost   uint64
	Run    rowSetRun
}

// taskFormat reads the count.Task of a join plan into its task (readTask).
var taskFormat = taskdesc.Format[task]{Method: count.MethodJoin, Plan: "the join's plan", Read: readTask}

// readTask returns the join task that t describes, or why it describes none: its weight is
// 1 and its description "sub:first:rowsets" (see rowSetRun), sub −1 for the symmetric
// search ("-1:0:0").
func readTask(t count.Task) (task, error) {
	if t.Weight != 1 {
		return task{}, fmt.Errorf("weight %d, want 1", t.Weight)
	}
	parts := strings.Split(t.Desc, ":")
	if len(parts) != 3 {
		return task{}, fmt.Errorf("description %q is not sub:first:rowsets", t.Desc)
	}
	sub, err1 := strconv.Atoi(parts[0])
	first, err2 := strconv.ParseUint(parts[1], 10, 64)
	k, err3 := strconv.Atoi(parts[2])
	switch {
	case err1 != nil || err2 != nil || err3 != nil:
		return task{}, fmt.Errorf("description %q is not sub:first:rowsets", t.Desc)
	case sub < -1 || sub >= subproblemCount(t.N):
		return task{}, fmt.Errorf("sub-problem %d, want -1 to %d", sub, subproblemCount(t.N)-1)
	case sub == -1 && (first != 0 || k != 0):
		return task{}, fmt.Errorf("the symmetric task names row sets")
	case sub >= 0 && k < 1:
		return task{}, fmt.Errorf("%d row sets", k)
	}
	return task{N: t.N, ID: t.ID, Weight: 1, Cost: t.Cost, Run: rowSetRun{Sub: sub, First: first, RowSets: k}}, nil
}

// CountContext runs the task (countJoin), or stops when ctx is done.
func (t task) CountContext(ctx context.Context) (count.Result, error) { return t.countJoin(ctx) }

// CheckResult returns why r cannot be the task's result (checkJoinResult).
func (t task) CheckResult(r count.Result) error {
	if r.ID != t.ID {
		return fmt.Errorf("result for task %d, but the task is %d", r.ID, t.ID)
	}
	return t.checkJoinResult(r)
}

// public returns t as a count.Task, its row sets in Desc (see readTask).
func (t task) public() count.Task {
	d := strconv.Itoa(t.Run.Sub) + ":" + strconv.FormatUint(t.Run.First, 10) + ":" + strconv.Itoa(t.Run.RowSets)
	return count.Task{N: t.N, ID: t.ID, Method: count.MethodJoin, Weight: 1, Cost: t.Cost, Desc: d}
}

// New returns the join's plan of the n×n board, MinN ≤ n ≤ MaxN, of its default version
// (DefaultVersion: PlanVersion to N = 28, DemandPlanVersion from 29; NewVersion takes
// either). It returns at once: the task list (for DemandPlanVersion its cut table) is
// built on first use (walking all row sets twice: milliseconds at n = 20, a few seconds
// at n = 26–27), so a worker counts tasks without it. Memory of a count: see the plan's
// Memory.
func New(n int) (count.Plan, error) { return NewVersion(n, 0) }

// Build builds the plan's task list unless it is built, or returns ctx.Err() if ctx is
// done first; a later call builds it again from the start. It walks all row sets twice
// (milliseconds at n = 20, a few seconds at n = 26–27), looking at ctx every 2¹⁶ row sets
// (a millisecond or so).
func (p *plan) Build(ctx context.Context) error {
	return p.once.Do(func() error {
		if p.cost != nil {
			return nil // newJoinPlan built it
		}
		q, err := buildJoinPlan(ctx, p.n)
		if err != nil {
			return err
		}
		p.first, p.cost, p.rowSets, p.subEnd = q.first, q.cost, q.rowSets, q.subEnd
		return nil
	})
}

// build is Build without a context, for the methods that build on first use.
func (p *plan) build() {
	if err := p.Build(context.Background()); err != nil {
		panic(fmt.Sprintf("join: %v", err)) // New checked n, the only other error
	}
}

// N returns the board size.
func (p *plan) N() int { return p.n }

// Method returns count.MethodJoin.
func (p *plan) Method() string { return count.MethodJoin }

// Version returns PlanVersion.
func (p *plan) Version() int { return PlanVersion }

// Len returns the number of tasks.
func (p *plan) Len() int {
	p.build()
	return len(p.cost)
}

// taskAt returns task id, 0 ≤ id < Len().
func (p *plan) taskAt(id int) task {
	p.build()
	t := task{N: p.n, ID: id, Weight: 1, Cost: p.cost[id], Run: rowSetRun{Sub: -1}}
	if id < len(p.cost)-1 {
		sub, _ := slices.BinarySearch(p.subEnd, int32(id+1))
		t.Run = rowSetRun{Sub: sub, First: p.first[id], RowSets: int(p.rowSets[id])}
	}
	return t
}

// Task returns task id as a count.Task, or an error if there is none.
func (p *plan) Task(id int) (count.Task, error) {
	if id < 0 || id >= p.Len() {
		return count.Task{}, fmt.Errorf("task id must be from 0 to %d for N=%d, got %d", p.Len()-1, p.n, id)
	}
	return p.taskAt(id).public(), nil
}

// Weight returns 1: every task of the join has weight 1.
func (p *plan) Weight(id int) int { return 1 }

// Cost returns the Cost of task id, 0 ≤ id < Len().
func (p *plan) Cost(id int) uint64 {
	p.build()
	return p.cost[id]
}

// Order yields the ids by decreasing Cost, ties by id. The first call sorts the ids (4
// bytes a task, n log n).
func (p *plan) Order() iter.Seq[int] {
	p.build()
	p.order.Do(func() { p.order.ids = order.ByCost(len(p.cost), p.Cost) })
	return func(yield func(int) bool) {
		for _, id := range p.order.ids {
			if !yield(int(id)) {
				return
			}
		}
	}
}

// CountTask counts the task t describes (see task.countJoin), after reading its
// description (taskFormat).
func (p *plan) CountTask(ctx context.Context, t count.Task) (count.Result, error) {
	return taskFormat.CountTask(ctx, p.n, t)
}

// CheckTask returns t if its description names a task the plan of n could have cut (see
// task.rebuild), else an error. It never builds the plan.
func (p *plan) CheckTask(t count.Task) (count.Task, error) {
	return taskFormat.CheckTask(p.n, t, task.rebuild)
}

// rebuild returns t as a count.Task if it is a run of row sets that the plan of n could
// have cut (checkRun: its row sets exist, their modelled costs sum to its Cost within the
// plan's bound, and the plan would have ended the task where it ends), or the symmetric
// search; else an error. It walks the task's row sets and, once per process, all of n's
// row sets for the bound (a second or two at n = 27).
func (t task) rebuild() (count.Task, error) {
	if t.Run.Sub >= 0 {
		if err := t.checkRun(); err != nil {
			return count.Task{}, err
		}
		if _, err := t.counterBound(); err != nil {
			return count.Task{}, err
		}
	}
	return t.public(), nil
}

// CheckResult returns why r cannot be the result of task t (see task.CheckResult).
func (p *plan) CheckResult(t count.Task, r count.Result) error {
	return taskFormat.CheckResult(p.n, t, r)
}

var _ count.Plan = (*plan)(nil)
