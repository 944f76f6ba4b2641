package frames

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/taskdesc"
)

// New returns the frames plan of the n×n board, 1 ≤ n ≤ count.MaxN, for plan version v:
// PlanVersion (a task per class of frames) or, for n ≤ maxFineN, FinePlanVersion (frames
// whose estimated cost exceeds fineBound(n) split by the queens of their next rows, so that
// no task is much over a core-hour). It returns at once: the task list is built on first use (a fraction
// of a second for version 1; for version 2 seconds at n = 25–26, about 4.5 minutes and
// 290 MB at n = 27, held compactly), so a worker counts and checks tasks without it.
func New(n, v int) (count.Plan, error) {
	if n < 1 || n > count.MaxN {
		return nil, fmt.Errorf("board size must be a whole number from 1 to %d, got %d", count.MaxN, n)
	}
	if v != PlanVersion && v != FinePlanVersion {
		return nil, fmt.Errorf("frames plan version must be %d or %d, got %d", PlanVersion, FinePlanVersion, v)
	}
	if v == FinePlanVersion && n > maxFineN {
		return nil, fmt.Errorf("the fine frames plan (version %d) is made for N up to %d, got %d: its billions of tasks would not fit; use version %d", FinePlanVersion, maxFineN, n, PlanVersion)
	}
	return &plan{n: n, version: v}, nil
}

// Build builds the plan's task list unless it is built, or returns ctx.Err() if ctx is
// done first; a later call builds it again from the start. It looks at ctx after each
// frame is split (milliseconds apart). Cost: a fraction of a second for version 1; for
// version 2 seconds at n = 25–26 and about 4.5 minutes and 290 MB at n = 27.
func (p *plan) Build(ctx context.Context) error {
	return p.once.Do(func() error {
		if p.tasks != nil || p.compact != nil {
			return nil // a constructor of this package built it
		}
		var q *plan
		var err error
		if p.version == FinePlanVersion {
			q, err = newCompactFinePlan(ctx, p.n, 0)
		} else {
			q, err = buildPlan(ctx, p.n)
		}
		if err != nil {
			return err
		}
		p.tasks, p.compact = q.tasks, q.compact
		return nil
	})
}

// build is Build without a context, for the methods that build on first use.
func (p *plan) build() {
	if err := p.Build(context.Background()); err != nil {
		// New checked n and v; the only error left is a fine plan of more than 2³²
		// tasks, which New refuses (maxFineN).
		panic(fmt.Sprintf("frames: %v", err))
	}
}

// N returns the board size.
func (p *plan) N() int { return p.n }

// Method returns count.MethodFrames.
func (p *plan) Method() string { return count.MethodFrames }

// Version returns PlanVersion or FinePlanVersion.
func (p *plan) Version() int { return p.version }

// Task returns task id as a count.Task, or an error if there is none.
func (p *plan) Task(id int) (count.Task, error) {
	if id < 0 || id >= p.Len() {
		return count.Task{}, fmt.Errorf("task id must be from 0 to %d for N=%d, got %d", p.Len()-1, p.n, id)
	}
	return p.taskAt(id).public(), nil
}

// CountTask counts the task t describes (see task.CountContext), after reading its
// description (taskFormat); a description that names no frame is an error.
func (p *plan) CountTask(ctx context.Context, t count.Task) (count.Result, error) {
	return taskFormat.CountTask(ctx, p.n, t)
}

// CheckTask returns t rebuilt as a task of this plan (see rebuild), or an error if the plan
// has no such task.
func (p *plan) CheckTask(t count.Task) (count.Task, error) {
	return taskFormat.CheckTask(p.n, t, p.rebuild)
}

// rebuild returns ft rebuilt as a task of this plan from its frame, Weight, prefix and
// Cost (see checkFineTask), or an error if the plan has no such task. Cost: one estimate
// per child of each split on the way (about a hundred microseconds at n = 27), and, once
// per process for version 2, fineBound (a fraction of a second).
func (p *plan) rebuild(ft task) (count.Task, error) {
	bound := uint64(math.MaxUint64) // version 1 splits nothing
	switch {
	case p.bound != 0:
		bound = p.bound
	case p.version == FinePlanVersion:
		bound = fineBoundCached(p.n)
	}
	c, err := checkFineTask(ft, bound)
	if err != nil {
		return count.Task{}, err
	}
	return c.public(), nil
}

// CheckResult returns why r cannot be the result of task t (see task.CheckResult).
func (p *plan) CheckResult(t count.Task, r count.Result) error {
	return taskFormat.CheckResult(p.n, t, r)
}

// taskFormat reads the count.Task of a frames plan into its task (readTask).
var taskFormat = taskdesc.Format[task]{Method: count.MethodFrames, Plan: "the frames plan", Read: readTask}

// readTask returns the frames task that t describes, or why it describes none: its
// description is "top,bottom,left,right", then, for a task of the fine plan with a prefix,
// "/" and the prefix ("row:col" pairs, comma-separated).
func readTask(t count.Task) (task, error) {
	frame, prefix, _ := strings.Cut(t.Desc, "/")
	parts := strings.Split(frame, ",")
	if len(parts) != 4 || len(t.Desc) > 8*count.MaxN {
		return task{}, fmt.Errorf("description %q is not top,bottom,left,right[/prefix]", t.Desc)
	}
	var v [4]int
	for i, s := range parts {
		x, err := strconv.Atoi(s)
		if err != nil || x < 0 || x >= t.N {
			return task{}, fmt.Errorf("description %q names a line outside the board", t.Desc)
		}
		v[i] = x
	}
	return task{N: t.N, ID: t.ID, Weight: t.Weight, Top: v[0], Bottom: v[1], Left: v[2], Right: v[3], Prefix: prefix, Cost: t.Cost}, nil
}

// public returns t as a count.Task, its frame and prefix in Desc (see readTask).
func (t task) public() count.Task {
	d := strconv.Itoa(t.Top) + "," + strconv.Itoa(t.Bottom) + "," + strconv.Itoa(t.Left) + "," + strconv.Itoa(t.Right)
	if t.Prefix != "" {
		d += "/" + t.Prefix
	}
	return count.Task{N: t.N, ID: t.ID, Method: count.MethodFrames, Weight: t.Weight, Cost: t.Cost, Desc: d}
}

// NewBound returns the fine plan of n cut with bound on each task's Cost (0 taken as 1)
// instead of the plan's own, built and held compactly (a second or so at n = 14; a bound
// of 1 cuts n = 14 into about 4·10⁵ tasks of microseconds). It is for the tests and
// benchmarks of what runs plans, through internal/boundplan: its Version is the fine
// plan's, but unless bound is the plan's own its task ids are not those of any real plan,
// so its results must never be mixed with a real count's (see that package).
func NewBound(n int, bound uint64) (count.Plan, error) {
	return newCompactFinePlan(context.Background(), n, max(bound, 1))
}
