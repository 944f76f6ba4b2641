package join

import (
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestJoinBoundTrue: the real result of every task of the join's plan for N = 4…14 (15
// and 16 with CHESSPUZZLES_LONG-free -short off and no race) passes the bounds, and the
// forgeries of issue 25 (one task's sum raised by 10^15, its pair tests raised to match,
// the symmetric task's counts raised) are refused. It also logs how loose the bound is:
// the sum of the tasks' solution bounds over Q(N).
func TestJoinBoundTrue(t *testing.T) {
	maxN := 14
	if testing.Short() || raceEnabled {
		maxN = 12
	}
	for n := MinN; n <= maxN; n++ {
		p, err := newJoinPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		var total, bound uint64
		for _, task := range p.allTasks() {
			r, err := task.CountContext(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if err := count.Check(p, r); err != nil {
				t.Fatalf("N=%d: the real result of task %d is refused: %v", n, task.ID, err)
			}
			if task.Run.Sub < 0 {
				forged := r
				forged.HalfTurn += 1e15
				if count.Check(p, forged) == nil {
					t.Errorf("N=%d: symmetric task with %d more half-turn solutions accepted", n, uint64(1e15))
				}
				continue
			}
			b, err := task.counterBound()
			if err != nil {
				t.Fatal(err)
			}
			total += r.Solutions
			bound += b.solutions
			for _, f := range []count.Result{
				{ID: r.ID, Solutions: r.Solutions + 1e15, Nodes: r.Nodes, RowSets: r.RowSets, Stored: r.Stored, PairTests: r.PairTests},
				{ID: r.ID, Solutions: r.Solutions + 1e15, Nodes: r.Nodes, RowSets: r.RowSets, Stored: r.Stored, PairTests: r.PairTests + 1e15},
				{ID: r.ID, Solutions: b.solutions + 1, Nodes: r.Nodes, RowSets: r.RowSets, Stored: r.Stored, PairTests: b.pairTests},
				{ID: r.ID, Solutions: r.Solutions, Nodes: r.Nodes + b.queries + 1, RowSets: r.RowSets, Stored: r.Stored, PairTests: r.PairTests},
				{ID: r.ID, Solutions: r.Solutions, Nodes: r.Nodes, RowSets: r.RowSets, Stored: b.stored + 1, PairTests: r.PairTests},
			} {
				if count.Check(p, f) == nil {
					t.Errorf("N=%d task %d: forged %+v accepted (true %+v, bound %+v)", n, task.ID, f, r, b)
				}
			}
		}
		if total > 0 {
			t.Logf("N=%d: tasks' bounds sum to %d, %.1f× their %d solutions", n, bound, float64(bound)/float64(total), total)
		}
	}
}

// TestSymmetricBound holds symmetricBound to its closed forms: 2^h·h! permutations fixed
// by a half turn (OEIS A000165 for even n: 1, 2, 8, 48, 384) and (2m)!/m! by a quarter
// turn (OEIS A037224: 1, 2, 12, 120, 1680), none for n ≡ 2, 3 (mod 4).
func TestSymmetricBound(t *testing.T) {
	for _, tc := range []struct {
		n    int
		p, r uint64
	}{
		{1, 1, 1}, {2, 2, 0}, {3, 2, 0}, {4, 8, 2}, {5, 8, 2}, {6, 48, 0}, {8, 384, 12}, {9, 384, 12}, {12, 46080, 120}, {16, 10321920, 1680},
	} {
		if p, r := symmetricBound(tc.n); p != tc.p || r != tc.r {
			t.Errorf("symmetricBound(%d) = %d, %d, want %d, %d", tc.n, p, r, tc.p, tc.r)
		}
	}
}

// TestJoinBoundLarge: the bound of N = 27's tasks is computed without a cell table
// (factorials) and stays finite or saturates instead of overflowing to a small number.
func TestJoinBoundSaturates(t *testing.T) {
	if got := satMul(1<<40, 1<<40); got != ^uint64(0) {
		t.Errorf("satMul(2^40, 2^40) = %d, want the largest uint64", got)
	}
	if got := satAdd(^uint64(0)-1, 5); got != ^uint64(0) {
		t.Errorf("satAdd overflowed to %d", got)
	}
	if got := halfBound(13, nil, nil, 0b111, 0b11, 0b11111); got != 120 {
		t.Errorf("halfBound without a table = %d, want 5! = 120", got)
	}
}

// TestCheckResultJoin: every task of the join's plan for small N passes CheckResult with
// its real result, and forged variants of it are refused.
func TestCheckResultJoin(t *testing.T) {
	for _, n := range []int{8, 9, 12} {
		p, err := newJoinPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range p.allTasks() {
			r, err := tk.CountContext(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if err := count.Check(p, r); err != nil {
				t.Fatalf("N=%d: the real result of task %d is refused: %v", n, tk.ID, err)
			}
			forged := []count.Result{r, r, r}
			forged[0].RowSets++
			forged[1].HalfTurn, forged[1].Solutions = r.HalfTurn+1, r.Solutions+1
			forged[2].ID = len(p.allTasks())
			if tk.Run.Sub < 0 {
				forged[0].RowSets, forged[0].Solutions = 0, 1
			}
			for i, f := range forged {
				if count.Check(p, f) == nil {
					t.Errorf("N=%d task %d: forged result %d (%+v) accepted", n, tk.ID, i, f)
				}
			}
		}
	}
}
