package tours

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/internal/work"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// Plan is a count of a board's knight's tours cut into independent tasks, as every runner
// takes it: [Run] in one process with a checkpoint, [Compute] and [Merge] by slices in
// result files, and internal/work/cluster's NATS workers. A plan is a pure function of its
// Name: the same name gives the same tasks (ids, weights, costs) on every machine, and a
// task run anywhere gives the same result with the same counters, so that a result
// recorded by one run can be summed into another's, and a second run of a task checks the
// first. A Plan is safe for concurrent use.
//
// Two kinds implement it: "open-ends" ([OpenEnds]: kcount.OpenPlan, a task for each class
// of pairs of end squares) and the kinds [NewPlan] adds by name. A new kind needs a
// constructor in NewPlan (which a worker calls with the name alone, so it must be cheap:
// build what a task needs in RunTask, not in the constructor) and these methods.
type Plan interface {
	// Name identifies the plan: its board, kind and version, "8x8 open-ends v1" (see
	// [PlanName]). Files, checkpoints and job ids carry it, and a runner refuses results
	// recorded under another name.
	Name() string
	// Size returns the board's rows and columns.
	Size() (rows, cols int)
	// Len returns the number of tasks: their ids are 0 to Len()−1.
	Len() int
	// Task returns task id (0 ≤ id < Len).
	Task(id int) Task
	// RunTask counts task id and returns its result, or ctx.Err() within milliseconds of
	// ctx being done, or a *kcount.MemoryError if the task needs more than
	// opts.MaxMemory. Its cost is the task's (Task(id).Cost forecasts it).
	RunTask(ctx context.Context, id int, opts TaskOptions) (Result, error)
	// Check returns why r cannot be the result of task r.ID, or nil if it can: the task
	// exists, its count and counters are possible. It never runs the task: a wrong
	// result that keeps to the rules is found only by running the task again.
	Check(r Result) error
	// Total returns the plan's count from one result of each task (a task's results given
	// twice must be equal, and count once): Σ weight × tours. It refuses results Check
	// refuses, a task without a result and two different results of one task.
	Total(rs []Result) (*big.Int, error)
	// Published returns the published value of the count the plan makes (the board's
	// directed open tours: kcount.PublishedOpen), if known: a total unlike it is refused.
	Published() (*big.Int, bool)

	// open returns the kcount.OpenPlan the plan presents (Neutral).
	open() *kcount.OpenPlan
}

// Task is one task of a Plan.
type Task struct {
	ID int
	// Weight is how many of the plan's tours each tour the task counts stands for: the
	// plan's total is Σ Weight × tours.
	Weight int64
	// Cost is the task's forecast core-seconds on the machine of bench/README.md, or 0
	// if the plan has no forecast; schedulers hand out costly tasks first.
	Cost float64
	// Label says what the task counts, for people: "ends a1–c2".
	Label string
}

// Result is what a task found: its tours (unweighted) and the counters of its sweep (the
// states after each cell summed over the cells, and the most after one cell), which a
// re-run reproduces exactly.
type Result = kcount.OpenResult

// TaskOptions say how RunTask counts.
type TaskOptions struct {
	// MaxMemory bounds the task's state store (0: none).
	MaxMemory int64
	// Status, if not nil, is called after each cell of the task's sweep.
	Status func(kcount.Status)
}

// PlanName returns the name of the plan of a kind and version on a rows×cols board:
// "8x8 open-ends v1".
func PlanName(rows, cols int, kind string, version int) string {
	return fmt.Sprintf("%dx%d %s v%d", rows, cols, kind, version)
}

// ParsePlanName is the inverse of PlanName. A kind is made of lower-case letters, digits
// and dashes.
func ParsePlanName(name string) (rows, cols int, kind string, version int, err error) {
	bad := fmt.Errorf("plan name %q: want <rows>x<cols> <kind> v<version>, as \"8x8 open-ends v1\"", name)
	f := strings.Fields(name)
	if len(f) != 3 || strings.Join(f, " ") != name {
		return 0, 0, "", 0, bad
	}
	rs, cs, ok := strings.Cut(f[0], "x")
	vs, ok2 := strings.CutPrefix(f[2], "v")
	rows, err1 := strconv.Atoi(rs)
	cols, err2 := strconv.Atoi(cs)
	version, err3 := strconv.Atoi(vs)
	if !ok || !ok2 || err1 != nil || err2 != nil || err3 != nil || rows < 1 || cols < 1 || version < 1 || !kindOK(f[1]) ||
		PlanName(rows, cols, f[1], version) != name {
		return 0, 0, "", 0, bad
	}
	return rows, cols, f[1], version, nil
}

func kindOK(kind string) bool {
	if kind == "" {
		return false
	}
	for _, c := range kind {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// KindOpenEnds is the kind of [OpenEnds] plans.
const KindOpenEnds = "open-ends"

// Kinds returns the plan kinds (split plans by their family, KindOpenSplit), each with the
// version, that NewPlan makes: "open-ends v1", "open-split v1".
func Kinds() []string {
	return []string{KindOpenEnds + " v" + strconv.Itoa(kcount.OpenPlanVersion), KindOpenSplit + " v" + strconv.Itoa(kcount.SplitPlanVersion)}
}

// KindOpenSplit is the family of the split plans' kinds: each is "open-split-" and its
// levels (OpenSplit), and a worker that runs one runs them all.
const KindOpenSplit = "open-split"

// Family returns the family of a plan kind, as Kinds lists them: "open-split" for every
// "open-split-LEVELS", else the kind itself.
func Family(kind string) string {
	if strings.HasPrefix(kind, KindOpenSplit+"-") {
		return KindOpenSplit
	}
	return kind
}

// NewPlan returns the plan a name names (see [PlanName]), as this build makes it, or an
// error saying which names it can make. It takes the kind's constructor's time (a
// millisecond for an 8×8 open-ends plan).
func NewPlan(name string) (Plan, error) {
	rows, cols, kind, version, err := ParsePlanName(name)
	if err != nil {
		return nil, err
	}
	switch kind {
	case KindOpenEnds:
		if version != kcount.OpenPlanVersion {
			return nil, fmt.Errorf("plan %q: this build makes %s plans of version %d only", name, kind, kcount.OpenPlanVersion)
		}
		p, err := kcount.NewOpenPlan(rows, cols)
		if err != nil {
			return nil, err
		}
		return OpenEnds(p), nil
	}
	if strings.HasPrefix(kind, "open-split-") {
		return newOpenSplit(name, rows, cols, kind, version)
	}
	return nil, fmt.Errorf("plan %q: this build makes plans of kind %s and open-split-LEVELS only", name, KindOpenEnds)
}

// OpenEnds returns p as a Plan of kind "open-ends". Its tasks have no forecast cost (0).
func OpenEnds(p *kcount.OpenPlan) Plan { return openEnds{p} }

type openEnds struct{ p *kcount.OpenPlan }

func (o openEnds) Name() string                        { return o.p.Name() }
func (o openEnds) Size() (int, int)                    { return o.p.Rows, o.p.Cols }
func (o openEnds) Len() int                            { return len(o.p.Tasks) }
func (o openEnds) Check(r Result) error                { return o.p.Check(r) }
func (o openEnds) Total(rs []Result) (*big.Int, error) { return o.p.Total(rs) }
func (o openEnds) Published() (*big.Int, bool)         { return kcount.PublishedOpen(o.p.Rows, o.p.Cols) }

func (o openEnds) Task(id int) Task {
	t := o.p.Tasks[id]
	sz := board.Size{Rows: o.p.Rows, Cols: o.p.Cols}
	return Task{ID: t.ID, Weight: t.Weight, Label: "ends " + sz.Name(t.Start) + "–" + sz.Name(t.End)}
}

func (o openEnds) RunTask(ctx context.Context, id int, opts TaskOptions) (Result, error) {
	if id < 0 || id >= len(o.p.Tasks) {
		return Result{}, fmt.Errorf("task %d: the plan %s has tasks 0 to %d", id, o.p.Name(), len(o.p.Tasks)-1)
	}
	return kcount.CountOpenTask(ctx, o.p.Rows, o.p.Cols, o.p.Tasks[id], opts.MaxMemory, opts.Status)
}

// Neutral returns p as the neutral plan every runner of package work takes
// (work.KnightPlan).
func Neutral(p Plan) *work.KnightPlan {
	return work.Knight(p.open())
}

func (o openEnds) open() *kcount.OpenPlan  { return o.p }
func (o openSplit) open() *kcount.OpenPlan { return o.p }
