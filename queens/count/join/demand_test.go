package join

import (
	"context"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// newDemandPlan returns a plan of DemandPlanVersion with blocks of blockRows counted row
// sets and tasks aimed at taskSeconds: the same machinery as the default, cut small.
func newDemandPlan(n, blockRows int, taskSeconds float64) *demandPlan {
	return &demandPlan{n: n, blockRows: blockRows, taskSeconds: taskSeconds}
}

// TestDemandCover: the tasks of DemandPlanVersion, made one by one from the cut table,
// take every counted row set of every sub-problem once, in colex order, then the symmetric
// task; each is a task CheckTask accepts (and with a changed field, refuses); Order yields
// every id once by decreasing Cost, ties by id. Blocks of 1 to 4,096 row sets, tasks
// aimed at the default half core-hour (at least tasksTarget) and at a picosecond (the
// bound is then the costliest row set).
func TestDemandCover(t *testing.T) {
	for _, c := range []struct {
		name      string
		n, block  int
		taskSecs  float64
		wantSplit bool // some task has more than one row set
	}{
		{"N=6 blocks of 3", 6, 3, demandTaskSeconds, false}, // fewer row sets than tasksTarget
		{"N=9 blocks of 1", 9, 1, demandTaskSeconds, false},
		{"N=11 blocks of 64", 11, 64, demandTaskSeconds, false},
		{"N=12 blocks of 64, tiny tasks", 12, 64, 1e-12, true}, // cheap row sets share the costliest's bound
		{"N=13 blocks of 3", 13, 3, demandTaskSeconds, true},
		{"N=14 blocks of 4096", 14, demandBlockRows, demandTaskSeconds, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newDemandPlan(c.n, c.block, c.taskSecs)
			if err := p.Build(context.Background()); err != nil {
				t.Fatal(err)
			}
			worker := newDemandPlan(c.n, c.block, c.taskSecs)
			id, split := 0, false
			for sub := range subproblemCount(c.n) {
				j := newSubproblem(c.n, sub)
				var cur task
				left := 0 // row sets of cur still to see
				for e := j.firstRowSet(); e != 0; e = j.nextRowSet(e) {
					if w, _ := j.rowSetWeight(e); w == 0 {
						continue
					}
					if left == 0 {
						cur = p.t.taskAt(id)
						if cur.Run.Sub != sub || cur.Run.First != e || cur.Run.RowSets < 1 {
							t.Fatalf("task %d is %+v, want one of sub-problem %d from row set %#x", id, cur.Run, sub, e)
						}
						if cur.Cost != p.Cost(id) {
							t.Fatalf("task %d: Cost %d, Plan.Cost %d", id, cur.Cost, p.Cost(id))
						}
						split = split || cur.Run.RowSets > 1
						checkDemandTask(t, worker, cur)
						left = cur.Run.RowSets
						id++
					}
					left--
				}
				if left != 0 {
					t.Fatalf("task %d runs past the end of sub-problem %d", id-1, sub)
				}
			}
			if id != p.Len()-1 {
				t.Fatalf("the row sets made %d tasks, the plan has %d and the symmetric one", id, p.Len()-1)
			}
			sym := p.t.taskAt(id)
			if sym.Run.Sub != -1 {
				t.Fatalf("the last task is %+v, want the symmetric one", sym.Run)
			}
			checkDemandTask(t, worker, sym)
			if split != c.wantSplit {
				t.Errorf("some task of more than one row set: %v, want %v", split, c.wantSplit)
			}
			seen := make([]bool, p.Len())
			last, k := -1, 0
			for id := range p.Order() {
				if seen[id] {
					t.Fatalf("Order yields %d twice", id)
				}
				seen[id] = true
				if last >= 0 && (p.Cost(id) > p.Cost(last) || p.Cost(id) == p.Cost(last) && id < last) {
					t.Fatalf("Order yields %d (Cost %d) after %d (Cost %d)", id, p.Cost(id), last, p.Cost(last))
				}
				last = id
				k++
			}
			if k != p.Len() {
				t.Fatalf("Order yields %d ids of %d", k, p.Len())
			}
		})
	}
}

// checkDemandTask checks that a worker's plan (of the same cut) takes task x back and
// refuses it with any field of its description changed.
func checkDemandTask(t *testing.T, worker *demandPlan, x task) {
	t.Helper()
	if got, err := worker.CheckTask(x.public()); err != nil || got != x.public() {
		t.Fatalf("CheckTask(%+v) = %+v, %v; want it back", x.public(), got, err)
	}
	for _, f := range []func(*task){
		func(y *task) { y.Cost++ },
		func(y *task) { y.ID++ },
		func(y *task) { y.Run.RowSets++ },
		func(y *task) { y.Run.First ^= 2 },
	} {
		y := x
		f(&y)
		if _, err := worker.CheckTask(y.public()); err == nil {
			t.Fatalf("CheckTask accepted %+v, a changed %+v", y.public(), x.public())
		}
	}
}

// TestDemandCounts: the plans of DemandPlanVersion, cut small, sum to Q(N) and U(N) (OEIS
// A000170, A002562, checked by count.Tally.Final) for N = 4 to 14 (to 13 with -short: N = 14
// is most of the test's time). Under -race, N = 4 to 13 with the detector and the whole
// test again in a child without it (runWithoutRace): N = 14 was most of the test's 63 s
// under -race at load 8 (30 Nov).
func TestDemandCounts(t *testing.T) {
	top := 14
	switch {
	case testing.Short():
		top = 13
	case raceEnabled:
		top = 13
		runWithoutRace(t, "TestDemandCounts")
	}
	for n := MinN; n <= top; n++ {
		p := newDemandPlan(n, 5, 1e-12)
		c, err := count.Here(context.Background(), p)
		if err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		if want, _ := count.Known(n); c.Total.Cmp(want.Total) != 0 {
			t.Fatalf("N=%d: %s solutions, want %s", n, c.Total, want.Total)
		}
	}
}

// TestDefaultVersion: the default plan is PlanVersion to N = 28 and DemandPlanVersion at
// 29, NewVersion takes either at any N, and refuses others.
func TestDefaultVersion(t *testing.T) {
	for _, c := range []struct{ n, v, want int }{
		{12, 0, PlanVersion}, {28, 0, PlanVersion}, {29, 0, DemandPlanVersion},
		{12, DemandPlanVersion, DemandPlanVersion}, {29, PlanVersion, PlanVersion},
	} {
		p, err := NewVersion(c.n, c.v)
		if err != nil || p.Version() != c.want {
			t.Errorf("NewVersion(%d, %d) = %v, %v; want version %d", c.n, c.v, p, err, c.want)
		}
	}
	if p, _ := New(29); p.Version() != DemandPlanVersion {
		t.Errorf("New(29).Version() = %d, want %d", p.Version(), DemandPlanVersion)
	}
	if _, err := NewVersion(12, 101); err == nil || err.Error() != "plan version of the join method must be 102 or 103, got 101" {
		t.Errorf("NewVersion(12, 101) error = %v", err)
	}
}
