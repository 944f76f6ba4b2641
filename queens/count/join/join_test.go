package join

import (
	"context"
	"strconv"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// loadSymmetric returns the published P(n) and R(n) (queens.Known: OEIS A032522, A033148)
// for n = 2…27.
func loadSymmetric(t testing.TB) map[int][2]uint64 {
	t.Helper()
	m := make(map[int][2]uint64)
	for n := 2; n <= count.MaxKnownN; n++ {
		c, _ := count.Known(n)
		m[n] = [2]uint64{c.HalfTurn.Uint64(), c.QuarterTurn.Uint64()}
	}
	return m
}

// TestCountJoinKnown checks Q(n) and U(n) by the join against the published values, to
// n = 17. Under -race, the whole test runs again in a child without the detector
// (runWithoutRace), n = 4 to 17; the race detector watches the same code on the boards
// to 13 (14 and 15 took 80 s of the test's 161 under -race at load 8, 30 Nov).
func TestCountJoinKnown(t *testing.T) {
	k := loadKnown(t)
	top := 17
	switch {
	case testing.Short():
		top = 13 // 14 and 15 (12 s at load 13) run without -short; TestCountJoinSieve has 12 and 13 too
	case raceEnabled:
		top = 13
		runWithoutRace(t, "TestCountJoinKnown")
	}
	for n := MinN; n <= top; n++ {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			c, err := CountJoin(context.Background(), n)
			if err != nil {
				t.Fatal(err)
			}
			if c.Total.Cmp(k[n].total) != 0 || c.Unique.Cmp(k[n].unique) != 0 {
				t.Errorf("CountJoin(%d) = %v, %v fundamental; want %v, %v", n, c.Total, c.Unique, k[n].total, k[n].unique)
			}
		})
	}
}

// TestSymmetricCountsKnown checks P(n) and R(n) against the published values.
func TestSymmetricCountsKnown(t *testing.T) {
	k := loadSymmetric(t)
	top := 20
	if testing.Short() {
		top = 16
	}
	for n := 2; n <= top; n++ {
		p, r, _, err := symmetricCounts(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		if p != k[n][0] || r != k[n][1] {
			t.Errorf("SymmetricCounts(%d) = %d, %d; want %d, %d", n, p, r, k[n][0], k[n][1])
		}
	}
}

// TestJoinAgreesWithFrames checks the join against the frame method, an independent
// search, on every board both count quickly: Q, U, P and R.
func TestJoinAgreesWithFrames(t *testing.T) {
	for n := MinN; n <= 13; n++ {
		j, err := CountJoin(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		fp, err := frames.New(n, frames.PlanVersion)
		if err != nil {
			t.Fatal(err)
		}
		f, err := count.Here(context.Background(), fp)
		if err != nil {
			t.Fatal(err)
		}
		if j.Total.Cmp(f.Total) != 0 || j.Unique.Cmp(f.Unique) != 0 || j.HalfTurn.Cmp(f.HalfTurn) != 0 || j.QuarterTurn.Cmp(f.QuarterTurn) != 0 {
			t.Errorf("N=%d: join %v/%v/%v/%v, frames %v/%v/%v/%v (Q/U/P/R)", n, j.Total, j.Unique, j.HalfTurn, j.QuarterTurn, f.Total, f.Unique, f.HalfTurn, f.QuarterTurn)
		}
	}
}

// TestJoinPlan checks the plan's shape: ids in order, the symmetric-solution task last,
// every task's partial sum and counters reproduced by a second run, and the sum exact.
func TestJoinPlan(t *testing.T) {
	k := loadKnown(t)
	for _, n := range []int{12, 13} {
		p, err := newJoinPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		if p.Method() != count.MethodJoin || p.Version() != PlanVersion || len(p.allTasks()) < 2 {
			t.Fatalf("newJoinPlan(%d): method %q version %d, %d tasks", n, p.Method(), p.Version(), len(p.allTasks()))
		}
		var results []count.Result
		for i, tk := range p.allTasks() {
			if tk.ID != i || tk.Weight != 1 || tk.Cost == 0 {
				t.Fatalf("task %d: %+v", i, tk)
			}
			r1, r2 := tk.Count(), tk.Count()
			if r1 != r2 {
				t.Errorf("N=%d task %d: %+v then %+v", n, i, r1, r2)
			}
			if i < len(p.allTasks())-1 && (r1.RowSets == 0 || r1.RowSets != uint64(tk.Run.RowSets)) {
				t.Errorf("N=%d task %d counted %d row sets, want %d", n, i, r1.RowSets, tk.Run.RowSets)
			}
			results = append(results, r1)
		}
		c, err := count.Sum(p, results)
		if err != nil || c.Total.Cmp(k[n].total) != 0 || c.Unique.Cmp(k[n].unique) != 0 {
			t.Errorf("N=%d: sum %v, %v fundamental (%v); want %v, %v", n, c.Total, c.Unique, err, k[n].total, k[n].unique)
		}
	}
	for _, n := range []int{3, MaxN + 1} {
		if _, err := newJoinPlan(n); err == nil {
			t.Errorf("newJoinPlan(%d) accepted", n)
		}
	}
}

// TestJoinRowSets checks that a task's row sets, counted one by one through task.RowSet,
// add up to the task's own counts, and that RowSet refuses what is not a row set of the task.
func TestJoinRowSets(t *testing.T) {
	for _, n := range []int{12, 13} {
		p, err := newJoinPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range p.allTasks()[:len(p.allTasks())-1] {
			whole := tk.Count()
			var sum, rowSets, stored, pairs uint64
			for i := range tk.Run.RowSets {
				s, err := tk.rowSet(i)
				if err != nil {
					t.Fatalf("N=%d task %d row set %d: %v", n, tk.ID, i, err)
				}
				if i > 0 && s.Run.First == tk.Run.First {
					t.Fatalf("N=%d task %d: row set %d is the first one again", n, tk.ID, i)
				}
				r := s.Count()
				sum += r.Solutions
				rowSets += r.RowSets
				stored += r.Stored
				pairs += r.PairTests
			}
			if sum != whole.Solutions || rowSets != whole.RowSets || stored != whole.Stored || pairs != whole.PairTests {
				t.Errorf("N=%d task %d: row sets add up to %d solutions, %d row sets, %d stored, %d pair tests; the task: %+v",
					n, tk.ID, sum, rowSets, stored, pairs, whole)
			}
			if _, err := tk.rowSet(tk.Run.RowSets); err == nil {
				t.Errorf("N=%d task %d: rowSet(%d) accepted", n, tk.ID, tk.Run.RowSets)
			}
		}
		if _, err := p.allTasks()[len(p.allTasks())-1].rowSet(0); err == nil {
			t.Errorf("N=%d: RowSet of the symmetric task accepted", n)
		}
	}
}

// TestJoinCancel checks a join task stops soon after its context is done.
func TestJoinCancel(t *testing.T) {
	p, err := newJoinPlan(17)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.allTasks()[0].CountContext(ctx); err == nil {
		t.Error("CountContext with a done context returned no error")
	}
}
