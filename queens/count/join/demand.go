package join

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"math"
	"slices"
	"sort"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/lazy"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/model"
)

// DemandPlanVersion identifies the join's plan whose tasks are made on demand from a cut
// table (demandPlan): the row sets of each sub-problem, in colex order, in blocks of
// demandBlockRows counted row sets, each block cut into runs of row sets by cost as
// PlanVersion cuts a sub-problem (a task ends where the next row set would take it over
// the bound), with no cap on the number of tasks. The table holds a block's first row
// set, its first task id and its summed cost: 20 bytes a block, where PlanVersion holds 20
// bytes a task. A task's Cost is its block's mean (so that Cost needs no walk), and the
// bound is the plan's modelled time (demandCoreHours, frozen with the version) over
// demandTaskSeconds. It counts every N from MinN to MaxN (so that its machinery is tested
// at small N) and is the default from DemandFromN, where PlanVersion's cap of 2²⁴ tasks
// made tasks of several core-hours.
const DemandPlanVersion = 103

// DemandFromN is the first N whose join plan is DemandPlanVersion by default: N = 29,
// where PlanVersion's 1.8·10⁷ tasks take about four core-hours each. Below it the
// default stays PlanVersion, whose tasks are unchanged.
const DemandFromN = 29

// demandBlockRows is the number of counted row sets a block of the cut table holds: a
// task is found by walking at most that many row sets and their costs (about 0.2 ms),
// and the table of N = 29 holds some 10⁵ blocks (a few MB).
const demandBlockRows = 1 << 12

// demandTaskSeconds is the modelled time (demandCoreHours) the cut aims a task at: half
// a core-hour, so that a task of twice the mean stays within about a core-hour.
const demandTaskSeconds = 1800

// demandCoreHours is the model DemandPlanVersion cuts by, frozen with the version:
// measuredCoreHours as it stood when the version was fixed (27 November 2026), and for
// N = 29, which no sample had timed on the code of that day, 2·10⁷ core-hours: a real
// task of N = 29 took 0.41 of the model of the afternoon (1.7·10⁸ core-hours; bench/log/2026-11-27.md,
// "Issue 33 items 3–5"), and the classes of half A made N = 28's row sets about 3 times
// faster since ("Issue 33 item 2"). bench/log/2026-11-27.md, "Issue 33: N = 29 tasks on demand",
// holds what the tasks then took.
var demandCoreHours = map[int]float64{
	16: 0.215 / 3600, 17: 2.2 / 3600, 18: 7.3 / 3600, 19: 46.1 / 3600,
	20: 0.063, 21: 0.436, 22: 3.23, 23: 23.6, 24: 215, 25: 1344, 26: 17800, 27: 92000,
	28: 2.81e6, 29: 2.0e7,
}

// DefaultVersion returns the join's plan version a count of n takes unless one is asked
// for: DemandPlanVersion from DemandFromN, PlanVersion below.
func DefaultVersion(n int) int {
	if n >= DemandFromN {
		return DemandPlanVersion
	}
	return PlanVersion
}

// NewVersion returns the join's plan of the n×n board, MinN ≤ n ≤ MaxN, of version v:
// PlanVersion, DemandPlanVersion, or 0 for DefaultVersion(n). Like New it returns at once.
func NewVersion(n, v int) (count.Plan, error) {
	if n < MinN || n > MaxN {
		return nil, fmt.Errorf("board size for the join method must be a whole number from %d to %d, got %d", MinN, MaxN, n)
	}
	if v == 0 {
		v = DefaultVersion(n)
	}
	switch v {
	case PlanVersion:
		return &plan{n: n}, nil
	case DemandPlanVersion:
		return &demandPlan{n: n, blockRows: demandBlockRows, taskSeconds: demandTaskSeconds}, nil
	}
	return nil, fmt.Errorf("plan version of the join method must be %d or %d, got %d", PlanVersion, DemandPlanVersion, v)
}

// demandPlan is the join's plan of DemandPlanVersion (see there): a cut table built on
// first use, from which Task makes any task by walking its block.
type demandPlan struct {
	n           int
	blockRows   int     // counted row sets a block (demandBlockRows; smaller in tests)
	taskSeconds float64 // modelled seconds a task aims at (demandTaskSeconds)
	once        lazy.Once
	t           *cutTable
}

// cutTable is the compact form of a demandPlan: blocks of consecutive counted row sets,
// each cut into tasks on demand (block).
type cutTable struct {
	n         int
	blockRows int
	m         rowSetModel
	bound     uint64   // the largest Cost of a task of more than one row set
	first     []uint64 // each block's first counted row set
	firstTask []uint32 // each block's first task id, then the number of row-set tasks
	cost      []uint64 // each block's summed Cost
	subEnd    []int32  // subEnd[s]: the first block after sub-problem s's
	order     []uint32 // blocks by decreasing Cost a task, ties by first id
	top       uint64   // the largest Cost of a row-set task
	rowSets   uint64   // counted row sets
	total     uint64   // their summed modelled cost
}

// buildCutTable returns the cut table of n with blocks of blockRows counted row sets and
// tasks aimed at taskSeconds of demandCoreHours' model, or ctx.Err(). It walks all row
// sets twice (C(2h, h) a sub-problem: about 10 s of CPU at n = 29), looking at ctx every
// 2¹⁶ row sets, and holds 20 bytes a block.
func buildCutTable(ctx context.Context, n, blockRows int, taskSeconds float64) (*cutTable, error) {
	c := &cutTable{n: n, blockRows: blockRows, m: newRowSetModel(n)}
	var top uint64
	for sub := range subproblemCount(n) {
		j := newSubproblem(n, sub)
		for i, e := 0, j.firstRowSet(); e != 0; i, e = i+1, j.nextRowSet(e) {
			if i%ctxEvery == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if w, _ := j.rowSetWeight(e); w != 0 {
				x := c.m.cost(&j, e)
				c.total += x
				top = max(top, x)
				c.rowSets++
			}
		}
	}
	tasks := max(tasksTarget, min(model.Seconds(demandCoreHours, n)/taskSeconds, 1<<40))
	c.bound = max(top, uint64(float64(c.total)/tasks))
	var id uint64
	for sub := range subproblemCount(n) {
		j := newSubproblem(n, sub)
		var in int      // counted row sets in the open block
		var open uint64 // the Cost of the block's last task while it takes row sets
		for i, e := 0, j.firstRowSet(); e != 0; i, e = i+1, j.nextRowSet(e) {
			if i%ctxEvery == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if w, _ := j.rowSetWeight(e); w == 0 {
				continue
			}
			if in == blockRows {
				in = 0
			}
			if in == 0 {
				c.first = append(c.first, e)
				c.firstTask = append(c.firstTask, uint32(id))
				c.cost = append(c.cost, 0)
				open = 0
			}
			in++
			x := c.m.cost(&j, e)
			if open != 0 && open+x > c.bound {
				open = 0
			}
			if open == 0 {
				id++
				if id >= math.MaxUint32 {
					return nil, fmt.Errorf("the join's plan of N=%d would have more than %d tasks", n, uint32(math.MaxUint32))
				}
			}
			open += x
			c.cost[len(c.cost)-1] += x
		}
		c.subEnd = append(c.subEnd, int32(len(c.first)))
	}
	c.firstTask = append(c.firstTask, uint32(id))
	c.first, c.firstTask, c.cost = slices.Clip(c.first), slices.Clip(c.firstTask), slices.Clip(c.cost)
	c.order = make([]uint32, len(c.first))
	for b := range c.order {
		c.order[b] = uint32(b)
		c.top = max(c.top, c.blockCost(b))
	}
	slices.SortStableFunc(c.order, func(a, b uint32) int { return cmp.Compare(c.blockCost(int(b)), c.blockCost(int(a))) })
	return c, nil
}

// tasks returns the number of row-set tasks (the symmetric task comes after them).
func (c *cutTable) tasks() int { return int(c.firstTask[len(c.firstTask)-1]) }

// blockCost returns the Cost of each task of block b: the block's summed cost over its
// tasks, at least 1.
func (c *cutTable) blockCost(b int) uint64 {
	k := uint64(c.firstTask[b+1] - c.firstTask[b])
	return max(c.cost[b]/k, 1)
}

// blockOf returns the block that holds row-set task id, 0 ≤ id < tasks().
func (c *cutTable) blockOf(id int) int {
	return sort.Search(len(c.first), func(b int) bool { return int(c.firstTask[b+1]) > id })
}

// subOf returns the sub-problem of block b.
func (c *cutTable) subOf(b int) int {
	s, _ := slices.BinarySearch(c.subEnd, int32(b+1))
	return s
}

// block yields the tasks of block b in id order, each as its first row set, number of row
// sets and summed modelled cost: the cut of buildCutTable, walked again (at most
// blockRows counted row sets).
func (c *cutTable) block(b int) iter.Seq2[int, rowSetRun] {
	return func(yield func(int, rowSetRun) bool) {
		sub := c.subOf(b)
		j := newSubproblem(c.n, sub)
		id := int(c.firstTask[b])
		cur := rowSetRun{Sub: sub}
		var open uint64
		in := 0
		for e := c.first[b]; e != 0 && in < c.blockRows; e = j.nextRowSet(e) {
			if w, _ := j.rowSetWeight(e); w == 0 {
				continue
			}
			in++
			x := c.m.cost(&j, e)
			if open != 0 && open+x > c.bound {
				if !yield(id, cur) {
					return
				}
				id++
				open = 0
			}
			if open == 0 {
				cur = rowSetRun{Sub: sub, First: e}
			}
			cur.RowSets++
			open += x
		}
		if open != 0 {
			yield(id, cur)
		}
	}
}

// taskAt returns task id of the plan, 0 ≤ id ≤ tasks() (the last the symmetric one).
func (c *cutTable) taskAt(id int) task {
	if id == c.tasks() {
		return task{N: c.n, ID: id, Weight: 1, Cost: c.top + 1, Run: rowSetRun{Sub: -1}}
	}
	b := c.blockOf(id)
	t := task{N: c.n, ID: id, Weight: 1, Cost: c.blockCost(b)}
	for k, jt := range c.block(b) {
		if k == id {
			t.Run = jt
			break
		}
	}
	return t
}

// Build builds the cut table unless it is built, or returns ctx.Err() if ctx is done
// first (see buildCutTable); a later call builds it again from the start.
func (p *demandPlan) Build(ctx context.Context) error {
	return p.once.Do(func() error {
		t, err := buildCutTable(ctx, p.n, p.blockRows, p.taskSeconds)
		if err != nil {
			return err
		}
		p.t = t
		return nil
	})
}

func (p *demandPlan) table() *cutTable {
	if err := p.Build(context.Background()); err != nil {
		panic(fmt.Sprintf("join: %v", err)) // only a context's end can fail a build
	}
	return p.t
}

// N returns the board size.
func (p *demandPlan) N() int { return p.n }

// Method returns count.MethodJoin.
func (p *demandPlan) Method() string { return count.MethodJoin }

// Version returns DemandPlanVersion.
func (p *demandPlan) Version() int { return DemandPlanVersion }

// Len returns the number of tasks: the row-set tasks and the symmetric one.
func (p *demandPlan) Len() int { return p.table().tasks() + 1 }

// Task returns task id, made from the cut table by walking its block (well under a
// millisecond), or an error if the plan has none.
func (p *demandPlan) Task(id int) (count.Task, error) {
	if id < 0 || id >= p.Len() {
		return count.Task{}, fmt.Errorf("task id must be from 0 to %d for N=%d, got %d", p.Len()-1, p.n, id)
	}
	return p.t.taskAt(id).public(), nil
}

// Weight returns 1: every task of the join has weight 1.
func (p *demandPlan) Weight(id int) int { return 1 }

// Cost returns the Cost of task id, 0 ≤ id < Len(): its block's mean, a binary search.
func (p *demandPlan) Cost(id int) uint64 {
	c := p.table()
	if id == c.tasks() {
		return c.top + 1
	}
	return c.blockCost(c.blockOf(id))
}

// Order yields the ids by decreasing Cost, ties by id: the symmetric task, then each
// block's ids in the order of its blocks (the tasks of a block share a Cost and their ids
// are consecutive, so this is the order of all ids). It holds 4 bytes a block.
func (p *demandPlan) Order() iter.Seq[int] {
	c := p.table()
	return func(yield func(int) bool) {
		if !yield(c.tasks()) {
			return
		}
		for _, b := range c.order {
			for id := c.firstTask[b]; id < c.firstTask[b+1]; id++ {
				if !yield(int(id)) {
					return
				}
			}
		}
	}
}

// CountTask counts the task t describes (see task.countJoin): the plans of both versions
// describe a task alike.
func (p *demandPlan) CountTask(ctx context.Context, t count.Task) (count.Result, error) {
	return taskFormat.CountTask(ctx, p.n, t)
}

// CheckTask returns t if it is task t.ID of the plan as the cut table makes it (its row
// sets and Cost), else an error. It builds the cut table on first use (see Build: some
// seconds and a few MB at n = 29), once per plan.
func (p *demandPlan) CheckTask(t count.Task) (count.Task, error) {
	return taskFormat.CheckTask(p.n, t, func(x task) (count.Task, error) {
		c := p.table()
		if x.ID < 0 || x.ID > c.tasks() {
			return count.Task{}, fmt.Errorf("task %d of N=%d is not a task of the join's plan: ids are 0 to %d", x.ID, x.N, c.tasks())
		}
		want := c.taskAt(x.ID)
		if x != want {
			return count.Task{}, fmt.Errorf("task %d of N=%d is not a task of the join's plan (version %d): it is %q of Cost %d, not %q of Cost %d",
				x.ID, x.N, DemandPlanVersion, x.public().Desc, x.Cost, want.public().Desc, want.Cost)
		}
		return want.public(), nil
	})
}

// CheckResult returns why r cannot be the result of task t (see task.CheckResult).
func (p *demandPlan) CheckResult(t count.Task, r count.Result) error {
	return taskFormat.CheckResult(p.n, t, r)
}

// Memory is that of the plan of PlanVersion: the tasks are runs of row sets alike.
func (p *demandPlan) Memory(workers int, limit uint64) (need uint64, fits bool) {
	return (&plan{n: p.n}).Memory(workers, limit)
}

// CoreSeconds returns the modelled time of the whole count (see plan.CoreSeconds).
func (p *demandPlan) CoreSeconds() float64 { return modelSeconds(p.n) }

// Estimate times the join of the plan on the calling goroutine (see plan.Estimate).
func (p *demandPlan) Estimate(ctx context.Context, opts count.EstimateOptions) (count.Estimate, error) {
	if err := p.Build(ctx); err != nil {
		return count.Estimate{}, err
	}
	c := p.t
	return estimateTasks(ctx, p.n, p.CoreSeconds(), c.tasks()+1, c.total, c.top, c.rowSets, c.taskAt, opts)
}

var _ count.Plan = (*demandPlan)(nil)
