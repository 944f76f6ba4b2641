package work

import (
	"context"
	"math/big"
	"slices"
	"strings"
	"testing"

	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// runAll runs every task of p through the neutral interface alone and returns the results.
func runAll(t *testing.T, p Plan) []Result {
	t.Helper()
	ctx := context.Background()
	if err := Build(ctx, p); err != nil {
		t.Fatal(err)
	}
	var rs []Result
	for id := range p.Order() {
		task, err := p.Task(id)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.RunTask(ctx, task)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Check(r); err != nil {
			t.Fatalf("task %d: Check of its own result: %v", id, err)
		}
		rs = append(rs, r)
	}
	return rs
}

// TestPlansTotal: each adapter's plan, run task by task through Plan alone, sums to the
// published count, and gives back the results of the plan it presents.
func TestPlansTotal(t *testing.T) {
	var plans []Plan
	for _, method := range []string{count.MethodFrames, count.MethodJoin} {
		cp, err := queens.NewPlan(9, method, 0)
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, Queens(cp))
	}
	op, err := kcount.NewOpenPlan(5, 5)
	if err != nil {
		t.Fatal(err)
	}
	plans = append(plans, Knight(op))
	for _, p := range plans {
		t.Run(p.Job(), func(t *testing.T) {
			rs := runAll(t, p)
			total, err := Total(p, rs)
			want, ok := p.Published()
			if err != nil || !ok || total.Cmp(want) != 0 {
				t.Fatalf("Total = %v, %v; want %v (published: %v)", total, err, want, ok)
			}
			switch p := p.(type) {
			case *QueensPlan:
				for _, r := range rs {
					cr, err := p.CountResult(r)
					if err != nil || !p.Result(cr).Equal(r) {
						t.Fatalf("task %d: CountResult = %+v, %v; Result of it is not %+v", r.ID, cr, err, r)
					}
				}
			case *KnightPlan:
				for _, r := range rs {
					o, err := OpenResult(r)
					if err != nil || !KnightResult(o).Equal(r) {
						t.Fatalf("task %d: OpenResult = %+v, %v; KnightResult of it is not %+v", r.ID, o, err, r)
					}
				}
			}
		})
	}
	if got, want := plans[2].Job(), "k5x5-open-ends-v1"; got != want {
		t.Errorf("the 5×5 knight plan's Job() = %q, want %q", got, want)
	}
	if got := plans[0].Job(); !strings.HasPrefix(got, "q9v") {
		t.Errorf("the N=9 queens plan's Job() = %q, want q9v…", got)
	}
}

// TestPlanRefuses: Check refuses results whose counters are not the plan's, and Total a
// missing task and two different results of one task.
func TestPlanRefuses(t *testing.T) {
	cp, err := queens.NewPlan(8, count.MethodFrames, 0)
	if err != nil {
		t.Fatal(err)
	}
	q := Queens(cp)
	op, err := kcount.NewOpenPlan(5, 5)
	if err != nil {
		t.Fatal(err)
	}
	k := Knight(op)
	rs := runAll(t, q)
	good := rs[0]
	for _, tc := range []struct {
		name string
		p    Plan
		r    Result
	}{
		{"queens result without counters", q, Result{ID: good.ID, Count: good.Count}},
		{"queens counters renamed", q, Result{ID: good.ID, Count: good.Count, Counters: []Counter{{"nodes", 1}, {"half_turn", 0}, {"quarter_turn", 0}}}},
		{"queens count past 2⁶⁴", q, Result{ID: good.ID, Count: new(big.Int).Lsh(big.NewInt(1), 64), Counters: good.Counters}},
		{"queens task out of the plan", q, Result{ID: q.Len(), Count: good.Count, Counters: good.Counters}},
		{"a queens result for a knight plan", k, Result{ID: 0, Count: good.Count, Counters: good.Counters}},
		{"knight peak above states", k, Result{ID: 0, Count: big.NewInt(1), Counters: []Counter{{"states", 1}, {"peak", 2}}}},
		{"knight count negative", k, Result{ID: 0, Count: big.NewInt(-1), Counters: []Counter{{"states", 2}, {"peak", 1}}}},
	} {
		if err := tc.p.Check(tc.r); err == nil {
			t.Errorf("%s: Check(%+v) = nil, want an error", tc.name, tc.r)
		}
	}
	if _, err := Total(q, rs[1:]); err == nil {
		t.Error("Total without task 0's result: no error")
	}
	twice := slices.Clone(rs)
	other := good
	other.Counters = slices.Clone(good.Counters)
	other.Counters[2].Value++ // nodes
	twice = append(twice, good, other)
	if _, err := Total(q, twice); err == nil {
		t.Error("Total with two different results of one task: no error")
	}
	if total, err := Total(q, append(slices.Clone(rs), good)); err != nil || total.Int64() != 92 {
		t.Errorf("Total with one result given twice = %v, %v; want 92", total, err)
	}
}

// TestSliceRules: a queens plan is dealt round-robin in its order, a knight plan by id
// modulo K; either way the K slices hold every task once.
func TestSliceRules(t *testing.T) {
	cp, err := queens.NewPlan(10, count.MethodFrames, 0)
	if err != nil {
		t.Fatal(err)
	}
	q := Queens(cp)
	if err := Build(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	op, err := kcount.NewOpenPlan(6, 6)
	if err != nil {
		t.Fatal(err)
	}
	k := Knight(op)
	for _, p := range []Plan{q, k} {
		const K = 3
		seen := make([]int, p.Len())
		for i := range K {
			ids, err := Slice(p, i, K)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range ids {
				seen[id]++
			}
			if _, ok := p.(*KnightPlan); ok && len(ids) > 0 && ids[0] != i {
				t.Errorf("%s slice %d/%d begins with task %d, want %d", p.Job(), i, K, ids[0], i)
			}
		}
		for id, n := range seen {
			if n != 1 {
				t.Fatalf("%s: task %d is in %d of the %d slices", p.Job(), id, n, K)
			}
		}
	}
	order := slices.Collect(q.Order())
	ids, _ := Slice(q, 1, 3)
	if ids[0] != order[1] || ids[1] != order[4] {
		t.Errorf("queens slice 1/3 begins %v, want the 2nd and 5th of the order %v", ids[:2], order[:5])
	}
	if _, err := Slice(k, 0, k.Len()+1); err == nil {
		t.Errorf("knight slice 0/%d of %d tasks: no error", k.Len()+1, k.Len())
	}
}

// otherMethod is a count.Plan of a method neither frames nor join, as cluster's knight
// plans are until the cluster takes Plan.
type otherMethod struct{ count.Plan }

func (otherMethod) Method() string { return "knight-open-ends" }

// TestQueensKeepsEveryCounter: a result of a count.Plan of another method keeps every
// counter through Queens (work.Run of a knight job's tasks compares them with a worker's).
func TestQueensKeepsEveryCounter(t *testing.T) {
	cp, err := queens.NewPlan(6, count.MethodFrames, 0)
	if err != nil {
		t.Fatal(err)
	}
	q := Queens(otherMethod{cp})
	r := count.Result{ID: 1, Solutions: 2, HalfTurn: 3, QuarterTurn: 4, Nodes: 5, RowSets: 6, Stored: 7, PairTests: 8}
	if got, err := q.CountResult(q.Result(r)); err != nil || got != r {
		t.Errorf("CountResult(Result(%+v)) = %+v, %v", r, got, err)
	}
}
