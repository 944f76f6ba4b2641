package frames

import (
	"context"
	"slices"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
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
			got, err := newCompactFinePlan(context.Background(), tc.n, tc.bound)
			if err != nil {
				t.Fatal(err)
			}
			if !(got.compact != nil) || got.tasks != nil || got.Len() != len(want.tasks) || got.version != FinePlanVersion {
				t.Fatalf("compact plan: compact %v, %d tasks, version %d; want %d tasks", (got.compact != nil), got.Len(), got.version, len(want.tasks))
			}
			for i, w := range want.tasks {
				g, err := got.Task(i)
				if err != nil || g != w.public() || got.Weight(i) != w.Weight || got.Cost(i) != w.Cost {
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
					a, _ := shardTasks(got, i, k)
					b, _ := shardTasks(want, i, k)
					if !slices.Equal(a, b) {
						t.Fatalf("shard %d/%d differs", i, k)
					}
				}
			}
			if _, err := got.Task(got.Len()); err == nil {
				t.Fatalf("task(%d) of a plan of %d tasks gave no error", got.Len(), got.Len())
			}
		})
	}
}

// TestCompactPlanCounts sums a compact plan's tasks through a Tally and CheckResult and
// compares with the published counts.
func TestCompactPlanCounts(t *testing.T) {
	for _, n := range []int{9, 12} {
		p, err := newCompactFinePlan(context.Background(), n, max(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		tally := count.NewTally(p)
		for tk := range p.All() {
			r := tk.Count()
			if err := count.Check(p, r); err != nil {
				t.Fatalf("N=%d task %d: %v", n, tk.ID, err)
			}
			tally.Add(r)
		}
		want, _ := count.Known(n)
		if got := tally.Counts(); !tally.Complete() || !sameCounts(got, want) {
			t.Fatalf("N=%d compact plan of %d tasks: Q=%v U=%v, want %v %v", n, p.Len(), got.Total, got.Unique, want.Total, want.Unique)
		}
		if c, _ := count.Here(t.Context(), p); !sameCounts(c, want) {
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
		v1, _ := newPlan(n)
		b := fineBound(n)
		for _, tk := range v1.tasks {
			if tk.Cost > b {
				t.Fatalf("N=%d < FineFromN: frame %d costs %d > fineBound %d, so v2 differs from v1", n, tk.ID, tk.Cost, b)
			}
		}
		if DefaultVersion(n) != PlanVersion {
			t.Fatalf("DefaultVersion(%d) = %d", n, DefaultVersion(n))
		}
	}
	v1, _ := newPlan(FineFromN)
	b := fineBound(FineFromN)
	if !slices.ContainsFunc(v1.tasks, func(tk task) bool { return tk.Cost > b }) {
		t.Fatalf("N=%d: no frame above the bound %d: FineFromN is too small", FineFromN, b)
	}
	if DefaultVersion(FineFromN) != FinePlanVersion {
		t.Fatalf("DefaultVersion(%d) = %d", FineFromN, DefaultVersion(FineFromN))
	}
}

// TestChildrenPartition checks that Children's results sum to the task's, for the first
// frames of N = 11 and for their children in turn.
func TestChildrenPartition(t *testing.T) {
	p, _ := newPlan(11)
	var check func(tk task, depth int)
	check = func(tk task, depth int) {
		kids := tk.children()
		if kids == nil {
			return
		}
		want := tk.Count()
		var got count.Result
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
			t.Fatalf("task %+v: children sum to %d/%d/%d, task has %d/%d/%d", tk, got.Solutions, got.HalfTurn, got.QuarterTurn, want.Solutions, want.HalfTurn, want.QuarterTurn)
		}
	}
	for _, tk := range p.tasks[:60] {
		check(tk, 0)
	}
}
