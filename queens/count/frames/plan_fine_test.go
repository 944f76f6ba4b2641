package frames

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// fineTestBound returns a bound that splits about half of the v1 frames of n: their median
// Cost.
func fineTestBound(t *testing.T, n int) uint64 {
	t.Helper()
	p, err := newPlan(n)
	if err != nil {
		t.Fatal(err)
	}
	costs := make([]uint64, len(p.tasks))
	for i, tk := range p.tasks {
		costs[i] = tk.Cost
	}
	slices.Sort(costs)
	if len(costs) == 0 {
		return 1
	}
	return costs[len(costs)/2]
}

func sumPlan(t *testing.T, p *plan) count.Counts {
	t.Helper()
	results := make([]count.Result, len(p.tasks))
	for i, tk := range p.tasks {
		results[i] = tk.Count()
		if err := count.Check(p, results[i]); err != nil {
			t.Fatalf("N=%d: CheckResult of the true result of task %d (%+v): %v", p.n, i, tk, err)
		}
	}
	c, err := count.Sum(p, results)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func sameCounts(a, b count.Counts) bool {
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
		want, ok := count.Known(n)
		if !ok {
			t.Fatalf("count.Known(%d) missing", n)
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
					n, bound, len(p.tasks), got.Total, got.Unique, got.HalfTurn, got.QuarterTurn,
					want.Total, want.Unique, want.HalfTurn, want.QuarterTurn)
			}
		}
		if n <= 13 {
			v1, _ := newPlan(n)
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
		v1, _ := newPlan(n)
		p, err := newFinePlan(n, 1)
		if err != nil {
			t.Fatal(err)
		}
		type key struct{ t, b, l, r int }
		sums := map[key]count.Result{}
		split := 0
		for _, tk := range p.tasks {
			k := key{tk.Top, tk.Bottom, tk.Left, tk.Right}
			r := tk.Count()
			s := sums[k]
			s.Solutions += r.Solutions
			s.HalfTurn += r.HalfTurn
			s.QuarterTurn += r.QuarterTurn
			sums[k] = s
			if tk.Prefix != "" {
				split++
			}
		}
		if split == 0 {
			t.Fatalf("N=%d: bound 1 split no frame", n)
		}
		for _, f := range v1.tasks {
			want := f.Count()
			got := sums[key{f.Top, f.Bottom, f.Left, f.Right}]
			if got.Solutions != want.Solutions || got.HalfTurn != want.HalfTurn || got.QuarterTurn != want.QuarterTurn {
				t.Errorf("N=%d frame %d: children sum to %d/%d/%d, frame has %d/%d/%d", n, f.ID,
					got.Solutions, got.HalfTurn, got.QuarterTurn, want.Solutions, want.HalfTurn, want.QuarterTurn)
			}
		}
		for _, tk := range p.tasks {
			if w := v1.tasks[slices.IndexFunc(v1.tasks, func(f task) bool {
				return f.Top == tk.Top && f.Bottom == tk.Bottom && f.Left == tk.Left && f.Right == tk.Right
			})].Weight; tk.Weight != w {
				t.Fatalf("N=%d task %d has weight %d, its frame %d", n, tk.ID, tk.Weight, w)
			}
		}
	}
}

// TestFinePlanStable builds plans twice and compares them task by task; ids are positions.
func TestFinePlanStable(t *testing.T) {
	for _, n := range []int{12, 16, 22} {
		a, err := newFinePlan(n, 0)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := newFinePlan(n, 0)
		if !slices.Equal(a.tasks, b.tasks) {
			t.Fatalf("N=%d: two builds of the fine plan differ", n)
		}
		for i, tk := range a.tasks {
			if tk.ID != i || tk.Cost == 0 || tk.N != n {
				t.Fatalf("N=%d: task at %d is %+v", n, i, tk)
			}
		}
		if a.version != FinePlanVersion {
			t.Fatalf("N=%d: version %d", n, a.version)
		}
		c, _ := newPlanVersion(n, FinePlanVersion)
		if !slices.Equal(c.tasks, a.tasks) {
			t.Fatalf("N=%d: newPlanVersion(n, %d) differs from NewFinePlan", n, FinePlanVersion)
		}
	}
	a, _ := newFinePlan(13, 50)
	b, _ := newFinePlan(13, 50)
	if !slices.Equal(a.tasks, b.tasks) || len(a.tasks) <= 1000 {
		t.Fatalf("N=13 cut finely: two builds differ, or too few tasks (%d)", len(a.tasks))
	}
	if !longTests() {
		t.Log("set CHESSPUZZLES_LONG=1 to build the fine plan of N=27 (minutes, about a gigabyte)")
		return
	}
	// At N = 27 the fine plan must actually split (that is its purpose) and stay within its
	// bound but for tasks with few empty rows.
	p, _ := newFinePlan(27, 0)
	v1, _ := newPlan(27)
	if len(p.tasks) <= len(v1.tasks) {
		t.Fatalf("N=27: fine plan has %d tasks, v1 %d", len(p.tasks), len(v1.tasks))
	}
	for _, tk := range p.tasks {
		var s search
		tk.initSearch(&s)
		if tk.Cost > fineBound(27) && s.freeRows > fineMinEmpty {
			t.Fatalf("N=27: task %d costs %d > bound %d", tk.ID, tk.Cost, fineBound(27))
		}
	}
}

// TestFinePlanV1Unchanged checks that version 1 plans and their JSON carry no prefix.
func TestFinePlanV1Unchanged(t *testing.T) {
	p, _ := newPlanVersion(10, PlanVersion)
	if p.version != PlanVersion {
		t.Fatalf("version %d", p.version)
	}
	b, _ := json.Marshal(p.tasks[0])
	if strings.Contains(string(b), "prefix") {
		t.Fatalf("v1 task JSON has a prefix: %s", b)
	}
	fine, _ := newFinePlan(10, 1)
	b, _ = json.Marshal(fine.tasks[0])
	var back task
	if err := json.Unmarshal(b, &back); err != nil || back != fine.tasks[0] {
		t.Fatalf("task JSON %s does not round-trip: %+v, %v", b, back, err)
	}
}

// TestFineCheckResultForged refuses results that no run of a split task can give.
func TestFineCheckResultForged(t *testing.T) {
	p, _ := newFinePlan(12, 1)
	var sym, plain *task
	for i := range p.tasks {
		tk := &p.tasks[i]
		if tk.Prefix == "" {
			continue
		}
		if tk.mayBeHalfTurn() {
			if r := tk.Count(); sym == nil && r.HalfTurn > 0 {
				sym = tk
			}
		} else if r := tk.Count(); plain == nil && r.Solutions > 0 {
			plain = tk
		}
	}
	if sym == nil || plain == nil {
		t.Fatal("no split task with symmetric solutions, or none without")
	}
	good := plain.Count()
	if err := count.Check(p, good); err != nil {
		t.Fatalf("true result refused: %v", err)
	}
	goodSym := sym.Count()
	forge := func(r count.Result, f func(*count.Result)) count.Result { f(&r); return r }
	tests := []struct {
		name string
		r    count.Result
	}{
		{"half turn where the prefix rules it out", forge(good, func(r *count.Result) { r.HalfTurn = 2 })},
		{"quarter above half", forge(goodSym, func(r *count.Result) { r.QuarterTurn = r.HalfTurn + 1 })},
		{"half above solutions", forge(goodSym, func(r *count.Result) { r.HalfTurn = r.Solutions + 2 })},
		{"no nodes", forge(good, func(r *count.Result) { r.Nodes = 0 })},
		{"too many solutions per node", forge(good, func(r *count.Result) { r.Solutions = 2*r.Nodes + 1 })},
		{"join counters", forge(good, func(r *count.Result) { r.RowSets = 1 })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := count.Check(p, tc.r); err == nil {
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
			for _, want := range p.tasks {
				got, err := checkFineTask(want, tc.bound)
				if err != nil || got != want {
					t.Fatalf("checkFineTask(%+v) = %+v, %v; want the task itself", want, got, err)
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
	var tk task // a split task
	for _, x := range p.tasks {
		if strings.Count(x.Prefix, ",") >= 1 {
			tk = x
			break
		}
	}
	if tk.Prefix == "" {
		t.Fatal("no task of N=12 bound 40 has two prefix queens")
	}
	parent, _, _ := strings.Cut(tk.Prefix, ",")
	for _, tc := range []struct {
		name string
		edit func(*task)
	}{
		{"other cost", func(x *task) { x.Cost++ }},
		{"other weight", func(x *task) { x.Weight = 8 / x.Weight }},
		{"unsplit parent", func(x *task) { x.Prefix = parent }},
		{"prefix queen the plan does not place", func(x *task) { x.Prefix = parent + ",0:0" }},
		{"prefix written otherwise", func(x *task) { x.Prefix = strings.Replace(x.Prefix, ":", ":0", 1) }},
		{"split further", func(x *task) {
			kids := fineChildren(task{N: x.N, Weight: x.Weight, Top: x.Top, Bottom: x.Bottom, Left: x.Left, Right: x.Right, Prefix: x.Prefix, Cost: 1 << 40}, 1)
			x.Prefix = kids[0].Prefix
		}},
		{"frame not a representative", func(x *task) { x.Top, x.Bottom = x.Bottom, x.Top }},
		{"no frame", func(x *task) { x.Top = x.N }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := tk
			tc.edit(&x)
			if x == tk {
				t.Fatalf("the edit changed nothing")
			}
			if got, err := checkFineTask(x, 40); err == nil {
				t.Errorf("checkFineTask(%+v) = %+v, want an error", x, got)
			}
		})
	}
}
