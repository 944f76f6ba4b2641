package queens

import (
	"math"
	"strings"
	"testing"
)

// TestCheckResultTrue: every true result of every task of N = 1 to 13 passes CheckResult.
// A rule that refused a true result would make a distributed count redo that task for ever.
func TestCheckResultTrue(t *testing.T) {
	maxN := 14
	if testing.Short() || raceEnabled {
		maxN = 11
	}
	for n := 1; n <= maxN; n++ {
		p, err := NewPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range p.Tasks {
			r := task.Count()
			if err := p.CheckResult(r); err != nil {
				t.Fatalf("N=%d: CheckResult(%+v) = %v for the true result", n, r, err)
			}
		}
	}
}

// TestCheckResultForged: results impossible for their task are refused, each with a reason.
func TestCheckResultForged(t *testing.T) {
	p, err := NewPlan(13)
	if err != nil {
		t.Fatal(err)
	}
	// Find tasks of each kind: a frame fixed by nothing, by a half turn, by a quarter turn.
	// (No valid frame is fixed by a reflection.)
	var plain, half, quarter = -1, -1, -1
	for _, task := range p.Tasks {
		f := frame{task.N, task.Top, task.Bottom, task.Left, task.Right}
		r := task.Count()
		switch {
		case task.Weight == 8 && plain < 0 && r.Solutions > 3:
			plain = task.ID
		case task.Weight == 4 && f.halfTurnFixed() && half < 0 && r.HalfTurn > 0:
			half = task.ID
		case task.Weight <= 2 && f.image(1) == f && quarter < 0:
			quarter = task.ID
		}
	}
	if plain < 0 || half < 0 || quarter < 0 {
		t.Fatalf("N=13 has no task of some kind: plain %d, half %d, quarter %d", plain, half, quarter)
	}
	truth := func(id int) TaskResult { return p.Tasks[id].Count() }
	edit := func(id int, f func(*TaskResult)) TaskResult {
		r := truth(id)
		f(&r)
		return r
	}
	tests := []struct {
		name string
		r    TaskResult
		want string
	}{
		{"id negative", TaskResult{ID: -1}, "not in the plan"},
		{"id too big", TaskResult{ID: len(p.Tasks)}, "not in the plan"},
		{"half turn above solutions", edit(half, func(r *TaskResult) { r.HalfTurn = r.Solutions + 2 }), "more than its"},
		{"quarter above half", edit(half, func(r *TaskResult) { r.QuarterTurn = r.HalfTurn + 1 }), "quarter turn, more than"},
		{"half turn on a plain frame", edit(plain, func(r *TaskResult) { r.HalfTurn = 2 }), "no half turn fixes its frame"},
		{"quarter turn on a half-turn frame", edit(half, func(r *TaskResult) { r.QuarterTurn = 1 }), "no quarter turn fixes"},
		{"parity of a half-turn frame", edit(half, func(r *TaskResult) { r.Solutions++ }), "whole classes"},
		{"no nodes", edit(plain, func(r *TaskResult) { r.Nodes = 0 }), "0 nodes"},
		{"more solutions than nodes allow", edit(plain, func(r *TaskResult) { r.Solutions = 2*r.Nodes + 1 }), "more than the 2 a node"},
		{"more solutions than permutations", edit(plain, func(r *TaskResult) { r.Solutions, r.Nodes = 1<<40, math.MaxUint64 }), "ways to fill"},
		{"the issue's forgery", TaskResult{ID: plain, Solutions: 1 << 40}, "0 nodes"},
		{"quarter-turn classes", edit(quarter, func(r *TaskResult) { r.HalfTurn += 2; r.Solutions += 2; r.QuarterTurn++ }), "whole classes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := p.CheckResult(tt.r)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("CheckResult(%+v) = %v, want an error saying %q", tt.r, err, tt.want)
			}
		})
	}
}

// TestCheckResultSmallBoards: N = 1 accepts only its one true result.
func TestCheckResultSmallBoards(t *testing.T) {
	p, _ := NewPlan(1)
	if err := p.CheckResult(p.Tasks[0].Count()); err != nil {
		t.Errorf("N=1: %v", err)
	}
	if err := p.CheckResult(TaskResult{Solutions: 2, HalfTurn: 1, QuarterTurn: 1, Nodes: 1}); err == nil {
		t.Errorf("N=1 accepted 2 solutions")
	}
}

// TestCheckResultJoin: every task of the join's plan for small N passes CheckResult with
// its real result, and forged variants of it are refused.
func TestCheckResultJoin(t *testing.T) {
	for _, n := range []int{8, 9, 12} {
		p, err := NewJoinPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range p.Tasks {
			r, err := task.CountContext(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if err := p.CheckResult(r); err != nil {
				t.Fatalf("N=%d: the real result of task %d is refused: %v", n, task.ID, err)
			}
			forged := []TaskResult{r, r, r}
			forged[0].RowSets++
			forged[1].HalfTurn, forged[1].Solutions = r.HalfTurn+1, r.Solutions+1
			forged[2].ID = len(p.Tasks)
			if task.Join.Sub < 0 {
				forged[0].RowSets, forged[0].Solutions = 0, 1
			}
			for i, f := range forged {
				if p.CheckResult(f) == nil {
					t.Errorf("N=%d task %d: forged result %d (%+v) accepted", n, task.ID, i, f)
				}
			}
		}
	}
}
