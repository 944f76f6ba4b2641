package queens

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// fineTestBound returns a bound that splits about half of the v1 frames of n: their median
// Cost.
func fineTestBound(t *testing.T, n int) uint64 {
	t.Helper()
	p, err := NewPlan(n)
	if err != nil {
		t.Fatal(err)
	}
	costs := make([]uint64, len(p.Tasks))
	for i, task := range p.Tasks {
		costs[i] = task.Cost
	}
	slices.Sort(costs)
	if len(costs) == 0 {
		return 1
	}
	return costs[len(costs)/2]
}

func sumPlan(t *testing.T, p *Plan) Counts {
	t.Helper()
	results := make([]TaskResult, len(p.Tasks))
	for i, task := range p.Tasks {
		results[i] = task.Count()
		if err := p.CheckResult(results[i]); err != nil {
			t.Fatalf("N=%d: CheckResult of the true result of task %d (%+v): %v", p.N, i, task, err)
		}
	}
	c, err := p.Sum(results)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func sameCounts(a, b Counts) bool {
	return a.Total.Cmp(b.Total) == 0 && a.HalfTurn.Cmp(b.HalfTurn) == 0 &&
		a.QuarterTurn.Cmp(b.QuarterTurn) == 0 && a.Unique.Cmp(b.Unique) == 0
}

// TestFinePlanKnown counts every N with finely split plans and compares Q, P, R and U with
// the published table, and with the v1 plan's sum.
func TestFinePlanKnown(t *testing.T) {
	maxN := 15
	if testing.Short() {
		maxN = 12
	}
	if longTests() {
		maxN = 17
	}
	for n := 1; n <= maxN; n++ {
		want, ok := Known(n)
		if !ok {
			t.Fatalf("Known(%d) missing", n)
		}
		bounds := []uint64{fineTestBound(t, n)}
		if n <= 11 {
			bounds = append(bounds, 1) // split every frame down to fineMinEmpty empty rows
		}
		for _, bound := range bounds {
			p, err := newFinePlan(n, bound)
			if err != nil {
				t.Fatal(err)
			}
			got := sumPlan(t, p)
			if !sameCounts(got, want) {
				t.Errorf("fine plan of N=%d, bound %d (%d tasks): Q=%v U=%v P=%v R=%v, want %v %v %v %v",
					n, bound, len(p.Tasks), got.Total, got.Unique, got.HalfTurn, got.QuarterTurn,
					want.Total, want.Unique, want.HalfTurn, want.QuarterTurn)
			}
		}
		if n <= 13 {
			v1, _ := NewPlan(n)
			if got := sumPlan(t, v1); !sameCounts(got, want) {
				t.Errorf("v1 plan of N=%d: Q=%v, want %v", n, got.Total, want.Total)
			}
		}
	}
}

// TestFinePlanPartitionsFrames checks, frame by frame, that the children of each v1 frame
// sum exactly to the frame's own result (solutions and both turn counts), and keep its
// weight.
func TestFinePlanPartitionsFrames(t *testing.T) {
	for _, n := range []int{8, 9, 10, 11, 12} {
		v1, _ := NewPlan(n)
		p, err := newFinePlan(n, 1)
		if err != nil {
			t.Fatal(err)
		}
		type key struct{ t, b, l, r int }
		sums := map[key]TaskResult{}
		split := 0
		for _, task := range p.Tasks {
			k := key{task.Top, task.Bottom, task.Left, task.Right}
			r := task.Count()
			s := sums[k]
			s.Solutions += r.Solutions
			s.HalfTurn += r.HalfTurn
			s.QuarterTurn += r.QuarterTurn
			sums[k] = s
			if task.Prefix != "" {
				split++
			}
		}
		if split == 0 {
			t.Fatalf("N=%d: bound 1 split no frame", n)
		}
		for _, f := range v1.Tasks {
			want := f.Count()
			got := sums[key{f.Top, f.Bottom, f.Left, f.Right}]
			if got.Solutions != want.Solutions || got.HalfTurn != want.HalfTurn || got.QuarterTurn != want.QuarterTurn {
				t.Errorf("N=%d frame %d: children sum to %d/%d/%d, frame has %d/%d/%d", n, f.ID,
					got.Solutions, got.HalfTurn, got.QuarterTurn, want.Solutions, want.HalfTurn, want.QuarterTurn)
			}
		}
		for _, task := range p.Tasks {
			if w := v1.Tasks[slices.IndexFunc(v1.Tasks, func(f Task) bool {
				return f.Top == task.Top && f.Bottom == task.Bottom && f.Left == task.Left && f.Right == task.Right
			})].Weight; task.Weight != w {
				t.Fatalf("N=%d task %d has weight %d, its frame %d", n, task.ID, task.Weight, w)
			}
		}
	}
}

// TestFinePlanStable builds plans twice and compares them task by task; ids are positions.
func TestFinePlanStable(t *testing.T) {
	for _, n := range []int{12, 16, 22} {
		a, err := NewFinePlan(n)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := NewFinePlan(n)
		if !slices.Equal(a.Tasks, b.Tasks) {
			t.Fatalf("N=%d: two builds of the fine plan differ", n)
		}
		for i, task := range a.Tasks {
			if task.ID != i || task.Cost == 0 || task.N != n || task.Method != MethodFrames {
				t.Fatalf("N=%d: task at %d is %+v", n, i, task)
			}
		}
		if a.Version != FinePlanVersion {
			t.Fatalf("N=%d: version %d", n, a.Version)
		}
		c, _ := NewPlanVersion(n, FinePlanVersion)
		if !slices.Equal(c.Tasks, a.Tasks) {
			t.Fatalf("N=%d: NewPlanVersion(n, %d) differs from NewFinePlan", n, FinePlanVersion)
		}
	}
	a, _ := newFinePlan(13, 50)
	b, _ := newFinePlan(13, 50)
	if !slices.Equal(a.Tasks, b.Tasks) || len(a.Tasks) <= 1000 {
		t.Fatalf("N=13 cut finely: two builds differ, or too few tasks (%d)", len(a.Tasks))
	}
	if !longTests() {
		t.Log("set CHESSPUZZLES_LONG=1 to build the fine plan of N=27 (minutes, about a gigabyte)")
		return
	}
	// At N = 27 the fine plan must actually split (that is its purpose) and stay within its
	// bound but for tasks with few empty rows.
	p, _ := NewFinePlan(27)
	v1, _ := NewPlan(27)
	if len(p.Tasks) <= len(v1.Tasks) {
		t.Fatalf("N=27: fine plan has %d tasks, v1 %d", len(p.Tasks), len(v1.Tasks))
	}
	for _, task := range p.Tasks {
		var s search
		task.initSearch(&s)
		if task.Cost > FineBound(27) && s.freeRows > fineMinEmpty {
			t.Fatalf("N=27: task %d costs %d > bound %d", task.ID, task.Cost, FineBound(27))
		}
	}
}

// TestFinePlanV1Unchanged checks that version 1 plans and their JSON carry no prefix.
func TestFinePlanV1Unchanged(t *testing.T) {
	p, _ := NewPlanVersion(10, PlanVersion)
	if p.Version != PlanVersion {
		t.Fatalf("version %d", p.Version)
	}
	b, _ := json.Marshal(p.Tasks[0])
	if strings.Contains(string(b), "prefix") {
		t.Fatalf("v1 task JSON has a prefix: %s", b)
	}
	fine, _ := newFinePlan(10, 1)
	b, _ = json.Marshal(fine.Tasks[0])
	var back Task
	if err := json.Unmarshal(b, &back); err != nil || back != fine.Tasks[0] {
		t.Fatalf("task JSON %s does not round-trip: %+v, %v", b, back, err)
	}
}

// TestFineCheckResultForged refuses results that no run of a split task can give.
func TestFineCheckResultForged(t *testing.T) {
	p, _ := newFinePlan(12, 1)
	var sym, plain *Task
	for i := range p.Tasks {
		task := &p.Tasks[i]
		if task.Prefix == "" {
			continue
		}
		if task.mayBeHalfTurn() {
			if r := task.Count(); sym == nil && r.HalfTurn > 0 {
				sym = task
			}
		} else if r := task.Count(); plain == nil && r.Solutions > 0 {
			plain = task
		}
	}
	if sym == nil || plain == nil {
		t.Fatal("no split task with symmetric solutions, or none without")
	}
	good := plain.Count()
	if err := p.CheckResult(good); err != nil {
		t.Fatalf("true result refused: %v", err)
	}
	goodSym := sym.Count()
	forge := func(r TaskResult, f func(*TaskResult)) TaskResult { f(&r); return r }
	tests := []struct {
		name string
		r    TaskResult
	}{
		{"half turn where the prefix rules it out", forge(good, func(r *TaskResult) { r.HalfTurn = 2 })},
		{"quarter above half", forge(goodSym, func(r *TaskResult) { r.QuarterTurn = r.HalfTurn + 1 })},
		{"half above solutions", forge(goodSym, func(r *TaskResult) { r.HalfTurn = r.Solutions + 2 })},
		{"no nodes", forge(good, func(r *TaskResult) { r.Nodes = 0 })},
		{"too many solutions per node", forge(good, func(r *TaskResult) { r.Solutions = 2*r.Nodes + 1 })},
		{"join counters", forge(good, func(r *TaskResult) { r.RowSets = 1 })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := p.CheckResult(tc.r); err == nil {
				t.Errorf("CheckResult(%+v) = nil, want an error", tc.r)
			}
		})
	}
}

// TestCheckFineTask rebuilds every task of finely cut plans from its description alone,
// and refuses descriptions that are no task of the plan.
func TestCheckFineTask(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		bound uint64
	}{
		{"N=1", 1, 1}, {"N=6 cut to the bone", 6, 1}, {"N=11 cut to the bone", 11, 1}, {"N=12 bound 40", 12, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := newFinePlan(tc.n, tc.bound)
			if err != nil {
				t.Fatal(err)
			}
			split := 0
			for _, want := range p.Tasks {
				got, err := CheckFineTask(want, tc.bound)
				if err != nil || got != want {
					t.Fatalf("CheckFineTask(%+v) = %+v, %v; want the task itself", want, got, err)
				}
				if want.Prefix != "" {
					split++
				}
			}
			if tc.n >= 11 && split == 0 {
				t.Fatalf("the plan of N=%d with bound %d splits no frame: the test tests nothing", tc.n, tc.bound)
			}
		})
	}
	p, err := newFinePlan(12, 40)
	if err != nil {
		t.Fatal(err)
	}
	var task Task // a split task
	for _, x := range p.Tasks {
		if strings.Count(x.Prefix, ",") >= 1 {
			task = x
			break
		}
	}
	if task.Prefix == "" {
		t.Fatal("no task of N=12 bound 40 has two prefix queens")
	}
	parent, _, _ := strings.Cut(task.Prefix, ",")
	for _, tc := range []struct {
		name string
		edit func(*Task)
	}{
		{"other cost", func(x *Task) { x.Cost++ }},
		{"other weight", func(x *Task) { x.Weight = 8 / x.Weight }},
		{"unsplit parent", func(x *Task) { x.Prefix = parent }},
		{"prefix queen the plan does not place", func(x *Task) { x.Prefix = parent + ",0:0" }},
		{"prefix written otherwise", func(x *Task) { x.Prefix = strings.Replace(x.Prefix, ":", ":0", 1) }},
		{"split further", func(x *Task) {
			kids := fineChildren(Task{N: x.N, Method: x.Method, Weight: x.Weight, Top: x.Top, Bottom: x.Bottom, Left: x.Left, Right: x.Right, Prefix: x.Prefix, Cost: 1 << 40}, 1)
			x.Prefix = kids[0].Prefix
		}},
		{"frame not a representative", func(x *Task) { x.Top, x.Bottom = x.Bottom, x.Top }},
		{"no frame", func(x *Task) { x.Top = x.N }},
		{"join", func(x *Task) { x.Method = MethodJoin }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := task
			tc.edit(&x)
			if x == task {
				t.Fatalf("the edit changed nothing")
			}
			if got, err := CheckFineTask(x, 40); err == nil {
				t.Errorf("CheckFineTask(%+v) = %+v, want an error", x, got)
			}
		})
	}
}
