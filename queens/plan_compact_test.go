package queens

import (
	"slices"
	"testing"
)

// TestCompactPlanSame checks that a compact fine plan holds the same tasks, ids, weights,
// costs and hand-out order as the plan held in Tasks, for a few cuts.
func TestCompactPlanSame(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		bound uint64
	}{
		{"n=8 bound 1", 8, 1},
		{"n=11 bound 1", 11, 1},
		{"n=13 bound 50", 13, 50},
		{"n=16 default", 16, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, err := newFinePlan(tc.n, tc.bound)
			if err != nil {
				t.Fatal(err)
			}
			got, err := newCompactFinePlan(tc.n, tc.bound)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Compact() || got.Tasks != nil || got.Len() != len(want.Tasks) || got.Version != FinePlanVersion {
				t.Fatalf("compact plan: compact %v, %d tasks, version %d; want %d tasks", got.Compact(), got.Len(), got.Version, len(want.Tasks))
			}
			for i, w := range want.Tasks {
				g, err := got.Task(i)
				if err != nil || g != w || got.weight(i) != w.Weight || got.cost(i) != w.Cost {
					t.Fatalf("task %d: compact %+v (%v), want %+v", i, g, err, w)
				}
			}
			if !slices.Equal(slices.Collect(got.Order()), slices.Collect(want.Order())) {
				t.Fatal("hand-out orders differ")
			}
			if !slices.Equal(got.ByCost(), want.ByCost()) {
				t.Fatal("ByCost differs")
			}
			for _, k := range []int{1, 3} {
				for i := range k {
					a, _ := got.Shard(i, k)
					b, _ := want.Shard(i, k)
					if !slices.Equal(a, b) {
						t.Fatalf("shard %d/%d differs", i, k)
					}
				}
			}
			if _, err := got.Task(got.Len()); err == nil {
				t.Fatalf("Task(%d) of a plan of %d tasks gave no error", got.Len(), got.Len())
			}
		})
	}
}

// TestCompactPlanCounts sums a compact plan's tasks through a Tally and CheckResult and
// compares with the published counts.
func TestCompactPlanCounts(t *testing.T) {
	for _, n := range []int{9, 12} {
		p, err := NewFinePlanBound(n, 1)
		if err != nil {
			t.Fatal(err)
		}
		tally := p.NewTally()
		for task := range p.All() {
			r := task.Count()
			if err := p.CheckResult(r); err != nil {
				t.Fatalf("N=%d task %d: %v", n, task.ID, err)
			}
			tally.Add(r)
		}
		want, _ := Known(n)
		if got := tally.Counts(); !tally.Complete() || !sameCounts(got, want) {
			t.Fatalf("N=%d compact plan of %d tasks: Q=%v U=%v, want %v %v", n, p.Len(), got.Total, got.Unique, want.Total, want.Unique)
		}
		if c, _ := p.countHere(t.Context()); !sameCounts(c, want) {
			t.Fatalf("N=%d countHere of the compact plan: Q=%v, want %v", n, c.Total, want.Total)
		}
	}
}

// TestFineFromN checks FineFromN: the fine plan is the v1 plan below it and splits at it.
func TestFineFromN(t *testing.T) {
	ns := []int{16, 20}
	if testing.Short() {
		ns = ns[:1]
	}
	ns = append(ns, FineFromN-1)
	for _, n := range ns {
		v1, _ := NewPlan(n)
		b := FineBound(n)
		for _, task := range v1.Tasks {
			if task.Cost > b {
				t.Fatalf("N=%d < FineFromN: frame %d costs %d > FineBound %d, so v2 differs from v1", n, task.ID, task.Cost, b)
			}
		}
		if FramesPlanVersion(n) != PlanVersion {
			t.Fatalf("FramesPlanVersion(%d) = %d", n, FramesPlanVersion(n))
		}
	}
	v1, _ := NewPlan(FineFromN)
	b := FineBound(FineFromN)
	if !slices.ContainsFunc(v1.Tasks, func(task Task) bool { return task.Cost > b }) {
		t.Fatalf("N=%d: no frame above the bound %d: FineFromN is too small", FineFromN, b)
	}
	if FramesPlanVersion(FineFromN) != FinePlanVersion {
		t.Fatalf("FramesPlanVersion(%d) = %d", FineFromN, FramesPlanVersion(FineFromN))
	}
}

// TestChildrenPartition checks that Children's results sum to the task's, for the first
// frames of N = 11 and for their children in turn.
func TestChildrenPartition(t *testing.T) {
	p, _ := NewPlan(11)
	var check func(task Task, depth int)
	check = func(task Task, depth int) {
		kids := task.Children()
		if kids == nil {
			return
		}
		want := task.Count()
		var got TaskResult
		for _, c := range kids {
			r := c.Count()
			got.Solutions += r.Solutions
			got.HalfTurn += r.HalfTurn
			got.QuarterTurn += r.QuarterTurn
			if depth < 1 {
				check(c, depth+1)
			}
		}
		if got.Solutions != want.Solutions || got.HalfTurn != want.HalfTurn || got.QuarterTurn != want.QuarterTurn {
			t.Fatalf("task %+v: children sum to %d/%d/%d, task has %d/%d/%d", task, got.Solutions, got.HalfTurn, got.QuarterTurn, want.Solutions, want.HalfTurn, want.QuarterTurn)
		}
	}
	for _, task := range p.Tasks[:60] {
		check(task, 0)
	}
}
