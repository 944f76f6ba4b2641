package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// Knight's tours. A plan of knight's-tour tasks (work.KnightPlan) runs through the same
// coordinator, workers, buckets, leases, seals, verification, replicas and snapshots as a
// queens plan: [KnightPlan] presents it as a count.Plan, so that every rule the package
// comment states for queens holds for it by the same code. Its job id names the puzzle,
// the board, the plan kind and its version ([KnightJobID]: "k8x8-open-ends-v1"); a worker
// rebuilds the plan from that id alone (work.NewKnightPlan, a millisecond) and takes the task
// by id, checking the message's description against it. In the count.Plan it shows:
//
//   - N is 0 (no queens board), Method "knight-" and the kind, Version the plan's;
//   - a task's Weight and Desc are the work.Task's, its Cost 1 (a knight plan has no
//     forecast, and every task costs something);
//   - a result's Solutions are the task's tours (unweighted; a task of more than 2⁶⁴
//     tours is an error), Nodes the states summed over the sweep's cells, Stored the most
//     states after one cell: the counters a re-run reproduces; its other counters are 0;
//   - the total is the tally's weighted Solutions, held against the published count of
//     the plan (work.KnightPlan.Published) where there is one.
//
// A worker asks for knight tasks by listing the plan kinds it runs ([WantMsg].Knight); a
// worker of a build before knight jobs lists none and is given none.

// knightPrefix begins every knight job id; a queens job id begins with "q".
const knightPrefix = "k"

// KnightJobID returns the job id of the knight plan of a name ("8x8 open-ends v1"):
// "k8x8-open-ends-v1", one token of a NATS subject and of a bucket key.
func KnightJobID(name string) (string, error) {
	rows, cols, kind, v, err := work.ParseKnightPlanName(name)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s%dx%d-%s-v%d", knightPrefix, rows, cols, kind, v), nil
}

// ParseKnightJobID returns the name of the plan a knight job id names: the inverse of
// [KnightJobID].
func ParseKnightJobID(job string) (string, error) {
	bad := fmt.Errorf("knight job id must look like k<rows>x<cols>-<kind>-v<version>, got %q", job)
	rest, ok := strings.CutPrefix(job, knightPrefix)
	board, rest, ok2 := strings.Cut(rest, "-")
	i := strings.LastIndex(rest, "-v")
	if !ok || !ok2 || i < 0 {
		return "", bad
	}
	name := board + " " + rest[:i] + " v" + rest[i+2:]
	if j, err := KnightJobID(name); err != nil || j != job {
		return "", bad
	}
	return name, nil
}

// IsKnightJob reports whether job is a knight job's id (by its first letter: see
// ParseKnightJobID for its whole form).
func IsKnightJob(job string) bool { return strings.HasPrefix(job, knightPrefix) }

// knightPlan is a work.KnightPlan seen as a count.Plan (see the comment above).
type knightPlan struct {
	p       *work.KnightPlan // its MaxMemory bounds each task when it runs here
	name    string
	job     string
	kind    string
	version int
	order   []int
}

// KnightPlan returns p as a count.Plan that [Count], [Coordinator.Run] and [Worker] run as
// a knight job. It costs a sort of the tasks by cost.
func KnightPlan(p *work.KnightPlan) (count.Plan, error) {
	name := p.Name()
	_, _, kind, v, err := work.ParseKnightPlanName(name)
	if err != nil {
		return nil, err
	}
	job, _ := KnightJobID(name)
	k := &knightPlan{p: p, name: name, job: job, kind: kind, version: v}
	k.order = make([]int, p.Len())
	for id := range k.order {
		k.order[id] = id
	}
	slices.SortStableFunc(k.order, func(a, b int) int { return cmp.Compare(k.Cost(b), k.Cost(a)) })
	return k, nil
}

// knightOf returns the knight plan that plan is, if it is one.
func knightOf(plan count.Plan) (*knightPlan, bool) {
	k, ok := plan.(*knightPlan)
	return k, ok
}

// jobOf returns the job id of a plan: a knight job's, or JobID(N, version).
func jobOf(plan count.Plan) string {
	if k, ok := knightOf(plan); ok {
		return k.job
	}
	return JobID(plan.N(), plan.Version())
}

// KnightKinds are the knight plan kinds, with their versions, that this build's workers
// run: "open-ends v1".
func KnightKinds() []string { return work.KnightKinds() }

// publishedKnight returns the published count a knight plan's total must equal, if any:
// a test hook switches it off, as published does for queens.
var publishedKnight = func(p *work.KnightPlan) (*big.Int, bool) { return p.Published() }

// publishedTotal returns the published total of plan's count, if any, and its name for
// logs.
func publishedTotal(plan count.Plan) (*big.Int, string, bool) {
	if k, ok := knightOf(plan); ok {
		want, ok := publishedKnight(k.p)
		return want, k.name, ok
	}
	c, ok := published(plan.N())
	return c.Total, fmt.Sprintf("N=%d", plan.N()), ok
}

func (k *knightPlan) N() int                          { return 0 }
func (k *knightPlan) Method() string                  { return "knight-" + k.kind }
func (k *knightPlan) Version() int                    { return k.version }
func (k *knightPlan) Build(ctx context.Context) error { return ctx.Err() }
func (k *knightPlan) Len() int                        { return k.p.Len() }
func (k *knightPlan) Weight(id int) int               { t, _ := k.p.Task(id); return int(t.Weight) }

// Cost is 1 for every task: a knight plan has no forecast.
func (k *knightPlan) Cost(int) uint64 { return 1 }

func (k *knightPlan) Order() iter.Seq[int] { return slices.Values(k.order) }

func (k *knightPlan) Task(id int) (count.Task, error) {
	if id < 0 || id >= k.p.Len() {
		return count.Task{}, fmt.Errorf("task %d: the plan %s has tasks 0 to %d", id, k.name, k.p.Len()-1)
	}
	t, _ := k.p.Task(id)
	return count.Task{ID: id, Method: k.Method(), Weight: int(t.Weight), Cost: k.Cost(id), Desc: t.Desc}, nil
}

// CheckTask returns t if it is the plan's task of its id, as this build makes it.
func (k *knightPlan) CheckTask(t count.Task) (count.Task, error) {
	want, err := k.Task(t.ID)
	if err == nil && t != want {
		err = fmt.Errorf("task %d is described otherwise than in the plan %s", t.ID, k.name)
	}
	return want, err
}

// CountTask runs task t.ID of the plan, which t must describe.
func (k *knightPlan) CountTask(ctx context.Context, t count.Task) (count.Result, error) {
	if _, err := k.CheckTask(t); err != nil {
		return count.Result{}, err
	}
	wt, _ := k.p.Task(t.ID)
	wr, err := k.p.RunTask(ctx, wt)
	if err != nil {
		return count.Result{ID: t.ID}, err
	}
	r, err := work.OpenResult(wr)
	if err != nil {
		return count.Result{}, err
	}
	if !r.Tours.IsUint64() || r.States < 0 || r.Peak < 0 {
		return count.Result{}, fmt.Errorf("task %d of %s: %v tours, %d states, peak %d: more than a result carries", t.ID, k.name, r.Tours, r.States, r.Peak)
	}
	return count.Result{ID: r.ID, Solutions: r.Tours.Uint64(), Nodes: uint64(r.States), Stored: uint64(r.Peak)}, nil
}

// toursResult returns r as the knight result it carries.
func toursResult(r count.Result) work.Result {
	return work.KnightResult(kcount.OpenResult{ID: r.ID, Tours: new(big.Int).SetUint64(r.Solutions), States: int64(r.Nodes), Peak: int64(r.Stored)})
}

// CheckResult returns why r cannot be the result of t: counters a knight task has not, or
// what work.KnightPlan.Check refuses.
func (k *knightPlan) CheckResult(t count.Task, r count.Result) error {
	switch {
	case r.ID != t.ID:
		return fmt.Errorf("result of task %d given for task %d", r.ID, t.ID)
	case r.HalfTurn != 0 || r.QuarterTurn != 0 || r.RowSets != 0 || r.PairTests != 0:
		return fmt.Errorf("task %d: a knight task's result has no turn or join counters", r.ID)
	case r.Nodes > 1<<62 || r.Stored > 1<<62:
		return fmt.Errorf("task %d: %d states summed, peak %d: impossible", r.ID, r.Nodes, r.Stored)
	}
	return k.p.Check(toursResult(r))
}

// Memory says nothing of a knight plan's tasks (their bound is the worker's --max-memory).
func (k *knightPlan) Memory(int, uint64) (uint64, bool) { return 0, true }

// CoreSeconds returns 0: a knight plan has no forecast.
func (k *knightPlan) CoreSeconds() float64 { return 0 }

// errNoEstimate is what Estimate returns: a knight plan is estimated by knight estimate.
var errNoEstimate = errors.New("a knight plan is estimated by \"knight estimate\", not by the queens sampler")

func (k *knightPlan) Estimate(context.Context, count.EstimateOptions) (count.Estimate, error) {
	return count.Estimate{}, errNoEstimate
}

// knightTask returns the plan and task a knight job's message names, the plan built from
// the job id (once per job: w.cachedPlan keeps it), or why this build cannot run it.
func (w *Worker) knightTask(m TaskMsg) (count.Plan, count.Task, error) {
	name, err := ParseKnightJobID(m.Job)
	if err != nil {
		return nil, count.Task{}, err
	}
	if m.N != 0 {
		return nil, count.Task{}, fmt.Errorf("task %d of knight job %s names a queens board N=%d", m.ID, m.Job, m.N)
	}
	p, err := w.cachedPlan(m.Job, func() (count.Plan, error) {
		tp, err := work.NewKnightPlan(name)
		if err != nil {
			return nil, err
		}
		tp.MaxMemory = w.MaxMemory
		kp, err := KnightPlan(tp)
		if err == nil && kp.Version() != m.PlanVersion {
			err = fmt.Errorf("task %d of job %s says plan version %d", m.ID, m.Job, m.PlanVersion)
		}
		return kp, err
	})
	if err != nil {
		return nil, count.Task{}, err
	}
	t, err := p.Task(m.ID)
	if err == nil && m.Task != nil && *m.Task != t {
		err = fmt.Errorf("the message describes task %d otherwise than the plan %s", m.ID, name)
	}
	return p, t, err
}

// runsKnight reports whether a worker that asked with w runs the knight plan k.
func (w WantMsg) runsKnight(k *knightPlan) bool {
	return slices.Contains(w.Knight, work.KnightFamily(k.kind)+" v"+strconv.Itoa(k.version))
}
