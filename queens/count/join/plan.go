package join

import (
	"context"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"sync"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// plan is the join's count.Plan: runs of consecutive counted row sets of each
// sub-problem, then one task that counts the symmetric solutions (see newJoinPlan).
type plan struct {
	n     int
	tasks []task // in id order: tasks[i].ID == i

	once sync.Once // builds tasks on first use (see build)
}

// task is one task of the join's plan: the row sets of Join, or the symmetric search.
type task struct {
	N, ID  int
	Weight int // always 1: the symmetry weights are inside each task's sum
	Cost   uint64
	Join   joinTask
}

// New returns the join's plan of the n×n board, MinJoinN ≤ n ≤ MaxJoinN, of plan version
// JoinPlanVersion. It returns at once: the task list is built on first use (walking all
// row sets twice: milliseconds at n = 20, a few seconds at n = 26–27), so a worker counts
// and checks tasks without it. Memory of a count: see the plan's Memory.
func New(n int) (count.Plan, error) {
	if n < MinJoinN || n > MaxJoinN {
		return nil, fmt.Errorf("board size for the join method must be a whole number from %d to %d, got %d", MinJoinN, MaxJoinN, n)
	}
	return &plan{n: n}, nil
}

// build builds the plan's tasks, once, unless newJoinPlan did.
func (p *plan) build() {
	p.once.Do(func() {
		if p.tasks != nil {
			return
		}
		q, _ := newJoinPlan(p.n) // New checked n, the only error
		p.tasks = q.tasks
	})
}

// N returns the board size.
func (p *plan) N() int { return p.n }

// Method returns count.MethodJoin.
func (p *plan) Method() string { return count.MethodJoin }

// Version returns JoinPlanVersion.
func (p *plan) Version() int { return JoinPlanVersion }

// Len returns the number of tasks.
func (p *plan) Len() int {
	p.build()
	return len(p.tasks)
}

// Task returns task id as a count.Task, or an error if there is none.
func (p *plan) Task(id int) (count.Task, error) {
	if id < 0 || id >= p.Len() {
		return count.Task{}, fmt.Errorf("task id must be from 0 to %d for N=%d, got %d", p.Len()-1, p.n, id)
	}
	return p.tasks[id].public(), nil
}

// Weight returns 1: every task of the join has weight 1.
func (p *plan) Weight(id int) int { return 1 }

// Cost returns the Cost of task id, 0 ≤ id < Len().
func (p *plan) Cost(id int) uint64 {
	p.build()
	return p.tasks[id].Cost
}

// Order yields the ids by decreasing Cost, ties by id.
func (p *plan) Order() iter.Seq[int] {
	p.build()
	return count.SortedOrder(len(p.tasks), p.Cost)
}

// CountTask counts the task t describes (see task.countJoin).
func (p *plan) CountTask(ctx context.Context, t count.Task) (count.Result, error) {
	jt, err := p.parse(t)
	if err != nil {
		return count.Result{ID: t.ID}, err
	}
	return jt.countJoin(ctx)
}

// CheckTask returns t if its description names a run of row sets of a sub-problem of n
// (or the symmetric search), or an error.
func (p *plan) CheckTask(t count.Task) (count.Task, error) {
	jt, err := p.parse(t)
	if err != nil {
		return count.Task{}, err
	}
	if _, err := jt.joinBound(); jt.Join.Sub >= 0 && err != nil {
		return count.Task{}, err
	}
	return jt.public(), nil
}

// CheckResult returns why r cannot be the result of task t (see checkJoinResult).
func (p *plan) CheckResult(t count.Task, r count.Result) error {
	jt, err := p.parse(t)
	if err != nil {
		return err
	}
	if r.ID != jt.ID {
		return fmt.Errorf("result for task %d, but the task is %d", r.ID, jt.ID)
	}
	return jt.checkJoinResult(r)
}

// parse returns the join task that t describes, or an error if t is not a task of a join
// plan of this N: its description is "sub:first:rowsets" (see joinTask), sub −1 for the
// symmetric search ("-1:0:0").
func (p *plan) parse(t count.Task) (task, error) {
	bad := func(why string) (task, error) {
		return task{}, fmt.Errorf("task %d of N=%d is not a task of the join's plan: %s", t.ID, t.N, why)
	}
	if t.N != p.n {
		return bad(fmt.Sprintf("the plan is of N=%d", p.n))
	}
	if t.Method != count.MethodJoin {
		return bad(fmt.Sprintf("method %q", t.Method))
	}
	if t.Weight != 1 {
		return bad(fmt.Sprintf("weight %d, want 1", t.Weight))
	}
	parts := strings.Split(t.Desc, ":")
	if len(parts) != 3 {
		return bad(fmt.Sprintf("description %q is not sub:first:rowsets", t.Desc))
	}
	sub, err1 := strconv.Atoi(parts[0])
	first, err2 := strconv.ParseUint(parts[1], 10, 64)
	k, err3 := strconv.Atoi(parts[2])
	switch {
	case err1 != nil || err2 != nil || err3 != nil:
		return bad(fmt.Sprintf("description %q is not sub:first:rowsets", t.Desc))
	case sub < -1 || sub >= joinSubs(p.n):
		return bad(fmt.Sprintf("sub-problem %d, want -1 to %d", sub, joinSubs(p.n)-1))
	case sub == -1 && (first != 0 || k != 0):
		return bad("the symmetric task names row sets")
	case sub >= 0 && k < 1:
		return bad(fmt.Sprintf("%d row sets", k))
	}
	return task{N: t.N, ID: t.ID, Weight: 1, Cost: t.Cost, Join: joinTask{Sub: sub, First: first, RowSets: k}}, nil
}

// public returns t as a count.Task, its row sets in Desc (see plan.parse).
func (t task) public() count.Task {
	d := strconv.Itoa(t.Join.Sub) + ":" + strconv.FormatUint(t.Join.First, 10) + ":" + strconv.Itoa(t.Join.RowSets)
	return count.Task{N: t.N, ID: t.ID, Method: count.MethodJoin, Weight: 1, Cost: t.Cost, Desc: d}
}

var _ count.Plan = (*plan)(nil)
