package join

import (
	"context"
	"math/big"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// Count runs the task to its end.
func (t task) Count() count.Result {
	r, _ := t.countJoin(context.Background())
	return r
}

// CountJoin counts n by the join's plan on the calling goroutine.
func CountJoin(ctx context.Context, n int) (count.Counts, error) {
	p, err := New(n)
	if err != nil {
		return count.Counts{}, err
	}
	return count.Here(ctx, p)
}

// known holds Q(n) and U(n) as published (count.Known).
type known struct{ total, unique *big.Int }

// loadKnown returns the published Q(n) and U(n) for n = 1…27.
func loadKnown(t testing.TB) map[int]known {
	t.Helper()
	m := map[int]known{}
	for n := 1; n <= count.MaxKnownN; n++ {
		c, _ := count.Known(n)
		m[n] = known{c.Total, c.Unique}
	}
	return m
}

// checkPlansKnown checks Q(n) and U(n) of the plans newPlan makes for each n against the
// published values, counting each plan's tasks on two goroutines (CI machines have two cores).
// It is for the long checks of the default run: skipped with -short; under -race it runs
// test (its own name) again in a child "go test" without -race and requires the child to
// report that it passed (not skipped).
func checkPlansKnown(t *testing.T, test string, ns []int, newPlan func(int) (*plan, error)) {
	t.Helper()
	if testing.Short() {
		t.Skipf("n = %v take tens of seconds; runs without -short (as in CI)", ns)
	}
	if raceEnabled {
		runWithoutRace(t, test)
		return
	}
	known := loadKnown(t)
	for _, n := range ns {
		p, err := newPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		results := make([]count.Result, len(p.allTasks()))
		var wg sync.WaitGroup
		for g := range 2 {
			wg.Go(func() {
				for i := g; i < len(p.allTasks()); i += 2 {
					results[i] = p.allTasks()[i].Count()
				}
			})
		}
		wg.Wait()
		c, err := count.Sum(p, results)
		if err != nil {
			t.Fatal(err)
		}
		if c.Total.Cmp(known[n].total) != 0 || c.Unique.Cmp(known[n].unique) != 0 {
			t.Errorf("%s plan for n=%d: total %v, unique %v; want %v, %v", p.Method(), n, c.Total, c.Unique, known[n].total, known[n].unique)
		}
	}
}

// newJoinPlan is buildJoinPlan without a context.
func newJoinPlan(n int) (*plan, error) { return buildJoinPlan(context.Background(), n) }

// runWithoutRace runs test in a child "go test" without the race detector and fails
// unless the child reports that it passed: how a test under -race keeps a check of
// arithmetic that the detector would make ten times slower (a built test binary is
// cached, so the child costs its run and, once per change, a build).
func runWithoutRace(t *testing.T, test string) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("running %s without -race needs the go command: %v", test, err)
	}
	// The child may take what is left of the parent's -timeout (0, none, if the parent has
	// none): the long checks of the join run for hours.
	timeout := time.Duration(0)
	if d, ok := t.Deadline(); ok {
		timeout = max(time.Until(d)-time.Minute, time.Minute)
	}
	cmd := exec.Command(goBin, "test", "-count=1", "-timeout="+timeout.String(), "-v", "-run", "^"+test+"$", ".")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -run %s (without -race): %v\n%s", test, err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+test) {
		t.Fatalf("go test -run %s (without -race) did not pass:\n%s", test, out)
	}
}

// allTasks returns the plan's tasks in id order.
func (p *plan) allTasks() []task {
	out := make([]task, p.Len())
	for id := range out {
		out[id] = p.taskAt(id)
	}
	return out
}
