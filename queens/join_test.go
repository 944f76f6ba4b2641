package queens_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// loadSymmetric returns the published P(n) and R(n) (queens.Known: OEIS A032522, A033148)
// for n = 2…27.
func loadSymmetric(t testing.TB) map[int][2]uint64 {
	t.Helper()
	m := make(map[int][2]uint64)
	for n := 2; n <= queens.MaxKnownN; n++ {
		c, _ := queens.Known(n)
		m[n] = [2]uint64{c.HalfTurn.Uint64(), c.QuarterTurn.Uint64()}
	}
	return m
}

// TestCountJoinKnown checks Q(n) and U(n) by the join against the published values.
func TestCountJoinKnown(t *testing.T) {
	k := loadKnown(t)
	top := 17
	if testing.Short() {
		top = 15
	}
	for n := queens.MinJoinN; n <= top; n++ {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			c, err := queens.CountJoin(context.Background(), n)
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
		p, r, err := queens.SymmetricCounts(context.Background(), n)
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
	for n := queens.MinJoinN; n <= 13; n++ {
		j, err := queens.CountJoin(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		f, err := queens.Count(context.Background(), n)
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
		p, err := queens.NewJoinPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		if p.Method != queens.MethodJoin || p.Version != queens.JoinPlanVersion || len(p.Tasks) < 2 {
			t.Fatalf("NewJoinPlan(%d): method %q version %d, %d tasks", n, p.Method, p.Version, len(p.Tasks))
		}
		var results []queens.TaskResult
		for i, task := range p.Tasks {
			if task.ID != i || task.Weight != 1 || task.Cost == 0 {
				t.Fatalf("task %d: %+v", i, task)
			}
			r1, r2 := task.Count(), task.Count()
			if r1 != r2 {
				t.Errorf("N=%d task %d: %+v then %+v", n, i, r1, r2)
			}
			if i < len(p.Tasks)-1 && (r1.RowSets == 0 || r1.RowSets != uint64(task.Join.RowSets)) {
				t.Errorf("N=%d task %d counted %d row sets, want %d", n, i, r1.RowSets, task.Join.RowSets)
			}
			results = append(results, r1)
		}
		c, err := p.Sum(results)
		if err != nil || c.Total.Cmp(k[n].total) != 0 || c.Unique.Cmp(k[n].unique) != 0 {
			t.Errorf("N=%d: sum %v, %v fundamental (%v); want %v, %v", n, c.Total, c.Unique, err, k[n].total, k[n].unique)
		}
	}
	for _, n := range []int{3, 28} {
		if _, err := queens.NewJoinPlan(n); err == nil {
			t.Errorf("NewJoinPlan(%d) accepted", n)
		}
	}
}

// TestJoinRowSets checks that a task's row sets, counted one by one through Task.RowSet,
// add up to the task's own counts, and that RowSet refuses what is not a row set of the task.
func TestJoinRowSets(t *testing.T) {
	for _, n := range []int{12, 13} {
		p, err := queens.NewJoinPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range p.Tasks[:len(p.Tasks)-1] {
			whole := task.Count()
			var sum, rowSets, stored, pairs uint64
			for i := range task.Join.RowSets {
				s, err := task.RowSet(i)
				if err != nil {
					t.Fatalf("N=%d task %d row set %d: %v", n, task.ID, i, err)
				}
				if i > 0 && s.Join.First == task.Join.First {
					t.Fatalf("N=%d task %d: row set %d is the first one again", n, task.ID, i)
				}
				r := s.Count()
				sum += r.Solutions
				rowSets += r.RowSets
				stored += r.Stored
				pairs += r.PairTests
			}
			if sum != whole.Solutions || rowSets != whole.RowSets || stored != whole.Stored || pairs != whole.PairTests {
				t.Errorf("N=%d task %d: row sets add up to %d solutions, %d row sets, %d stored, %d pair tests; the task: %+v",
					n, task.ID, sum, rowSets, stored, pairs, whole)
			}
			if _, err := task.RowSet(task.Join.RowSets); err == nil {
				t.Errorf("N=%d task %d: RowSet(%d) accepted", n, task.ID, task.Join.RowSets)
			}
		}
		if _, err := p.Tasks[len(p.Tasks)-1].RowSet(0); err == nil {
			t.Errorf("N=%d: RowSet of the symmetric task accepted", n)
		}
	}
}

// TestJoinCancel checks a join task stops soon after its context is done.
func TestJoinCancel(t *testing.T) {
	p, err := queens.NewJoinPlan(17)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Tasks[0].CountContext(ctx); err == nil {
		t.Error("CountContext with a done context returned no error")
	}
}
