package frames

import (
	"math"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestCheckResultTrue: every true result of every task of N = 1 to 13 passes CheckResult.
// A rule that refused a true result would make a distributed count redo that task for ever.
func TestCheckResultTrue(t *testing.T) {
	maxN := 14
	if testing.Short() || raceEnabled {
		maxN = 11
	}
	for n := 1; n <= maxN; n++ {
		p, err := newPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range p.tasks {
			r := tk.Count()
			if err := count.Check(p, r); err != nil {
				t.Fatalf("N=%d: CheckResult(%+v) = %v for the true result", n, r, err)
			}
		}
	}
}

// TestCheckResultForged: results impossible for their task are refused, each with a reason.
func TestCheckResultForged(t *testing.T) {
	p, err := newPlan(13)
	if err != nil {
		t.Fatal(err)
	}
	// Find tasks of each kind: a frame fixed by nothing, by a half turn, by a quarter turn.
	// (No valid frame is fixed by a reflection.)
	var plain, half, quarter = -1, -1, -1
	for _, tk := range p.tasks {
		f := frame{tk.N, tk.Top, tk.Bottom, tk.Left, tk.Right}
		r := tk.Count()
		switch {
		case tk.Weight == 8 && plain < 0 && r.Solutions > 3:
			plain = tk.ID
		case tk.Weight == 4 && f.halfTurnFixed() && half < 0 && r.HalfTurn > 0:
			half = tk.ID
		case tk.Weight <= 2 && f.image(1) == f && quarter < 0:
			quarter = tk.ID
		}
	}
	if plain < 0 || half < 0 || quarter < 0 {
		t.Fatalf("N=13 has no task of some kind: plain %d, half %d, quarter %d", plain, half, quarter)
	}
	truth := func(id int) count.Result { return p.tasks[id].Count() }
	edit := func(id int, f func(*count.Result)) count.Result {
		r := truth(id)
		f(&r)
		return r
	}
	tests := []struct {
		name string
		r    count.Result
		want string
	}{
		{"id negative", count.Result{ID: -1}, "not in the plan"},
		{"id too big", count.Result{ID: len(p.tasks)}, "not in the plan"},
		{"half turn above solutions", edit(half, func(r *count.Result) { r.HalfTurn = r.Solutions + 2 }), "more than its"},
		{"quarter above half", edit(half, func(r *count.Result) { r.QuarterTurn = r.HalfTurn + 1 }), "quarter turn, more than"},
		{"half turn on a plain frame", edit(plain, func(r *count.Result) { r.HalfTurn = 2 }), "no half turn fixes its frame"},
		{"quarter turn on a half-turn frame", edit(half, func(r *count.Result) { r.QuarterTurn = 1 }), "no quarter turn fixes"},
		{"parity of a half-turn frame", edit(half, func(r *count.Result) { r.Solutions++ }), "whole classes"},
		{"no nodes", edit(plain, func(r *count.Result) { r.Nodes = 0 }), "0 nodes"},
		{"more solutions than nodes allow", edit(plain, func(r *count.Result) { r.Solutions = 2*r.Nodes + 1 }), "more than the 2 a node"},
		{"more solutions than permutations", edit(plain, func(r *count.Result) { r.Solutions, r.Nodes = 1<<40, math.MaxUint64 }), "ways to fill"},
		{"the issue's forgery", count.Result{ID: plain, Solutions: 1 << 40}, "0 nodes"},
		{"quarter-turn classes", edit(quarter, func(r *count.Result) { r.HalfTurn += 2; r.Solutions += 2; r.QuarterTurn++ }), "whole classes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := count.Check(p, tt.r)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("CheckResult(%+v) = %v, want an error saying %q", tt.r, err, tt.want)
			}
		})
	}
}

// TestCheckResultSmallBoards: N = 1 accepts only its one true result.
func TestCheckResultSmallBoards(t *testing.T) {
	p, _ := newPlan(1)
	if err := count.Check(p, p.tasks[0].Count()); err != nil {
		t.Errorf("N=1: %v", err)
	}
	if err := count.Check(p, count.Result{Solutions: 2, HalfTurn: 1, QuarterTurn: 1, Nodes: 1}); err == nil {
		t.Errorf("N=1 accepted 2 solutions")
	}
}
