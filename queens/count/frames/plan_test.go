package frames

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"math/big"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// knownCounts returns the published Q(n) and U(n) (queens.Known) for n = 1…27.
func knownCounts(t *testing.T) map[int][2]*big.Int {
	t.Helper()
	known := map[int][2]*big.Int{}
	for n := 1; n <= count.MaxKnownN; n++ {
		c, ok := count.Known(n)
		if !ok {
			t.Fatalf("count.Known(%d) is missing", n)
		}
		known[n] = [2]*big.Int{c.Total, c.Unique}
	}
	return known
}

func TestCountKnownValues(t *testing.T) {
	known := knownCounts(t)
	maxN := 15
	if testing.Short() {
		maxN = 13
	}
	for n := 1; n <= maxN; n++ {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			c, err := count.Here(context.Background(), mustPlan(t, n))
			if err != nil {
				t.Fatalf("Count(%d): %v", n, err)
			}
			if c.Total.Cmp(known[n][0]) != 0 {
				t.Errorf("Count(%d).Total = %v, want %v", n, c.Total, known[n][0])
			}
			if c.Unique.Cmp(known[n][1]) != 0 {
				t.Errorf("Count(%d).Unique = %v, want %v", n, c.Unique, known[n][1])
			}
		})
	}
}

// TestCountKnownLarge checks n = 16 against the literature, and 17 too with
// CHESSPUZZLES_LONG=1 (n = 16 takes seconds of CPU without the race detector, 17 most of a
// minute, and ten times that with it), so under -race the test runs itself again in a child
// "go test" without -race (see checkPlansKnown).
func TestCountKnownLarge(t *testing.T) {
	ns := []int{16}
	if longTests() {
		ns = append(ns, 17)
	} else {
		t.Log("n = 17 runs with CHESSPUZZLES_LONG=1 (most of a minute of CPU)")
	}
	checkPlansKnown(t, "TestCountKnownLarge", ns, newPlan)
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
		goBin, err := exec.LookPath("go")
		if err != nil {
			t.Fatalf("running the n = %v check without -race needs the go command: %v", ns, err)
		}
		cmd := exec.Command(goBin, "test", "-count=1", "-timeout=30m", "-v", "-run", "^"+test+"$", ".")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go test -run %s (without -race): %v\n%s", test, err, out)
		}
		if !strings.Contains(string(out), "--- PASS: "+test) {
			t.Fatalf("go test -run %s (without -race) did not pass:\n%s", test, out)
		}
		return
	}
	known := knownCounts(t)
	for _, n := range ns {
		p, err := newPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		results := make([]count.Result, len(p.tasks))
		var wg sync.WaitGroup
		for g := range 2 {
			wg.Go(func() {
				for i := g; i < len(p.tasks); i += 2 {
					results[i] = p.tasks[i].Count()
				}
			})
		}
		wg.Wait()
		c, err := count.Sum(p, results)
		if err != nil {
			t.Fatal(err)
		}
		if c.Total.Cmp(known[n][0]) != 0 || c.Unique.Cmp(known[n][1]) != 0 {
			t.Errorf("%s plan for n=%d: total %v, unique %v; want %v, %v", p.Method(), n, c.Total, c.Unique, known[n][0], known[n][1])
		}
	}
}

// sym applies one of the eight symmetries of the n×n square to (r, c), written here
// independently of the board package: k quarter turns clockwise, then a mirror if m.
func sym(n, k int, m bool, r, c int) (int, int) {
	for range k {
		r, c = c, n-1-r
	}
	if m {
		c = n - 1 - c
	}
	return r, c
}

// permutationSolutions lists the solutions of the n×n board by trying every permutation.
func permutationSolutions(n int) [][]int {
	var out [][]int
	p := make([]int, n)
	used := make([]bool, n)
	var rec func(row int)
	rec = func(row int) {
		if row == n {
			for i := range n {
				for j := i + 1; j < n; j++ {
					if j-i == p[j]-p[i] || j-i == p[i]-p[j] {
						return
					}
				}
			}
			out = append(out, append([]int(nil), p...))
			return
		}
		for c := range n {
			if !used[c] {
				used[c], p[row] = true, c
				rec(row + 1)
				used[c] = false
			}
		}
	}
	rec(0)
	return out
}

// frameOf returns a solution's frame as (top, bottom, left, right).
func frameOf(p []int) [4]int {
	n := len(p)
	f := [4]int{p[0], p[n-1], -1, -1}
	for r, c := range p {
		if c == 0 {
			f[2] = r
		}
		if c == n-1 {
			f[3] = r
		}
	}
	return f
}

// imageOf returns the solution p under symmetry (k, m).
func imageOf(p []int, k int, m bool) []int {
	q := make([]int, len(p))
	for r, c := range p {
		r2, c2 := sym(len(p), k, m, r, c)
		q[r2] = c2
	}
	return q
}

// TestPlanAgainstBruteForce checks every task of small plans against solutions found by
// trying all permutations: each solution's class of frames holds exactly one tk, whose
// weight is the size of that class, and each task's counts are those of the solutions with
// its frame.
func TestPlanAgainstBruteForce(t *testing.T) {
	for n := 1; n <= 9; n++ {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			p, err := newPlan(n)
			if err != nil {
				t.Fatal(err)
			}
			type want struct{ sols, half, quarter uint64 }
			byFrame := map[[4]int]*want{}
			taskOf := map[[4]int]task{}
			for _, tk := range p.tasks {
				taskOf[[4]int{tk.Top, tk.Bottom, tk.Left, tk.Right}] = tk
			}
			for _, s := range permutationSolutions(n) {
				f := frameOf(s)
				w := byFrame[f]
				if w == nil {
					w = &want{}
					byFrame[f] = w
				}
				w.sols++
				if fmt.Sprint(imageOf(s, 2, false)) == fmt.Sprint(s) {
					w.half++
				}
				if fmt.Sprint(imageOf(s, 1, false)) == fmt.Sprint(s) {
					w.quarter++
				}
				// Exactly one frame of the class of s's frame is a tk, and its weight is
				// the number of distinct frames in the class.
				class := map[[4]int]bool{}
				for k := range 4 {
					for _, m := range []bool{false, true} {
						class[frameOf(imageOf(s, k, m))] = true
					}
				}
				tasks := 0
				for g := range class {
					if tk, ok := taskOf[g]; ok {
						tasks++
						if tk.Weight != len(class) {
							t.Errorf("task %d (frame %v) has weight %d, want %d", tk.ID, g, tk.Weight, len(class))
						}
					}
				}
				if tasks != 1 {
					t.Errorf("solution %v: %d tasks in its frame class, want 1", s, tasks)
				}
			}
			for _, tk := range p.tasks {
				f := [4]int{tk.Top, tk.Bottom, tk.Left, tk.Right}
				w := byFrame[f]
				if w == nil {
					w = &want{}
				}
				r := tk.Count()
				if r.ID != tk.ID || r.Solutions != w.sols || r.HalfTurn != w.half || r.QuarterTurn != w.quarter {
					t.Errorf("task %d (frame %v).Count() = %d solutions, %d half, %d quarter; want %d, %d, %d",
						tk.ID, f, r.Solutions, r.HalfTurn, r.QuarterTurn, w.sols, w.half, w.quarter)
				}
			}
		})
	}
}

func TestPlanDeterministic(t *testing.T) {
	a, err := newPlan(13)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newPlan(13)
	if len(a.tasks) != len(b.tasks) || a.version != PlanVersion {
		t.Fatalf("newPlan(13) gave %d then %d tasks, version %d", len(a.tasks), len(b.tasks), a.version)
	}
	for i := range a.tasks {
		if a.tasks[i] != b.tasks[i] || a.tasks[i].ID != i {
			t.Fatalf("newPlan(13).Tasks[%d] = %+v then %+v", i, a.tasks[i], b.tasks[i])
		}
		got, err := a.Task(i)
		if err != nil || got != a.tasks[i].public() {
			t.Fatalf("task(%d) = %+v, %v", i, got, err)
		}
	}
}

func TestNewPlanBadN(t *testing.T) {
	for _, n := range []int{-1, 0, count.MaxN + 1, 65} {
		if _, err := newPlan(n); err == nil {
			t.Errorf("newPlan(%d) succeeded, want an error", n)
		}
	}
	p, _ := newPlan(8)
	for _, id := range []int{-1, len(p.tasks)} {
		if _, err := p.Task(id); err == nil {
			t.Errorf("task(%d) succeeded on a plan of %d tasks", id, len(p.tasks))
		}
	}
}

func TestSumAndTally(t *testing.T) {
	p, _ := newPlan(8)
	var rs []count.Result
	for _, tk := range p.tasks {
		rs = append(rs, tk.Count())
	}
	tests := []struct {
		name    string
		results []count.Result
		wantErr bool
	}{
		{"complete", rs, false},
		{"missing", rs[1:], true},
		{"twice", append(append([]count.Result(nil), rs...), rs[3]), true},
		{"foreign id", append(append([]count.Result(nil), rs...), count.Result{ID: len(rs)}), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := count.Sum(p, tt.results)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Sum: error %v, want error: %v", err, tt.wantErr)
			}
			if err == nil && c.Total.Int64() != 92 {
				t.Errorf("Sum: total %v, want 92", c.Total)
			}
		})
	}
	tally := count.NewTally(p)
	for _, r := range rs {
		tally.Add(r)
	}
	r := rs[0]
	r.Solutions += 100
	if added, err := tally.Add(r); added || err != nil {
		t.Errorf("second Add for task %d = %v, %v; want false, nil", r.ID, added, err)
	}
	if c := tally.Counts(); !tally.Complete() || c.Total.Int64() != 92 || c.Unique.Int64() != 12 {
		t.Errorf("tally: complete %v, total %v, unique %v; want true, 92, 12", tally.Complete(), c.Total, c.Unique)
	}
}

func TestShard(t *testing.T) {
	p, _ := newPlan(12)
	seen := make([]int, len(p.tasks))
	for i := range 5 {
		tasks, err := shardTasks(p, i, 5)
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range tasks {
			seen[tk.ID]++
		}
	}
	for id, k := range seen {
		if k != 1 {
			t.Fatalf("task %d is in %d of 5 shards, want 1", id, k)
		}
	}
	for _, bad := range [][2]int{{5, 5}, {-1, 3}, {0, 0}} {
		if _, err := shardTasks(p, bad[0], bad[1]); err == nil {
			t.Errorf("Shard(%d, %d) succeeded, want an error", bad[0], bad[1])
		}
	}
}

func TestCountCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := count.Here(ctx, mustPlan(t, 14)); !errors.Is(err, context.Canceled) {
		t.Errorf("Count(canceled, 14) error = %v, want context.Canceled", err)
	}
}

func Example() {
	p, _ := newPlan(8)
	var results []count.Result
	for _, tk := range p.tasks {
		results = append(results, tk.Count()) // each on any machine, in any order
	}
	c, _ := count.Sum(p, results)
	fmt.Println(len(p.tasks), "tasks:", c.Total, "solutions,", c.Unique, "fundamental")
	// Output: 78 tasks: 92 solutions, 12 fundamental
}

// TestRestoreTally stores a half-filled tally's state (MarshalBinary) and goes on from it
// (UnmarshalBinary): the counts are Q(n)'s, the tasks held are those of the state, and
// broken states are refused.
func TestRestoreTally(t *testing.T) {
	const n = 11
	p, err := newFinePlan(n, 3) // tasks not a multiple of 8, so the last byte has spare bits
	if err != nil {
		t.Fatal(err)
	}
	if p.Len()%8 == 0 {
		t.Fatalf("plan of %d tasks: want a number not a multiple of 8", p.Len())
	}
	results := make([]count.Result, p.Len())
	for id := range p.Len() {
		results[id] = p.tasks[id].Count()
	}
	a := count.NewTally(p)
	for id := 0; id < p.Len(); id += 2 {
		a.Add(results[id])
	}
	data, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b := count.NewTally(p)
	if err := b.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if b.Done() != a.Done() || b.Nodes() != a.Nodes() || b.Solutions().Cmp(a.Solutions()) != 0 {
		t.Fatalf("restored tally: %d done, %d nodes, %v solutions; want %d, %d, %v", b.Done(), b.Nodes(), b.Solutions(), a.Done(), a.Nodes(), a.Solutions())
	}
	if d1, r1 := a.CostDone(); true {
		if d2, r2 := b.CostDone(); d1 != d2 || r1 != r2 {
			t.Fatalf("restored tally: cost %d done, %d left; want %d, %d", d2, r2, d1, r1)
		}
	}
	for id, r := range results {
		added, err := b.Add(r)
		if err != nil || added != (id%2 == 1) {
			t.Fatalf("Add(task %d) to the restored tally = %v, %v; want %v", id, added, err, id%2 == 1)
		}
	}
	want, _ := count.Known(n)
	if c := b.Counts(); !b.Complete() || c.Total.Cmp(want.Total) != 0 || c.Unique.Cmp(want.Unique) != 0 {
		t.Fatalf("restored and completed tally: Q(%d) = %v, U = %v; want %v, %v", n, c.Total, c.Unique, want.Total, want.Unique)
	}
	// state mirrors the fields MarshalBinary stores (gob matches them by name).
	type state struct {
		Seen                         []byte
		Done                         int
		Total, HalfTurn, QuarterTurn string
		Nodes                        uint64
	}
	var s state
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&s); err != nil || s.Done != a.Done() {
		t.Fatalf("decoding the stored state: %+v, %v", s, err)
	}
	for _, tc := range []struct {
		name string
		edit func(*state)
	}{
		{"short", func(s *state) { s.Seen = s.Seen[1:] }},
		{"done miscounted", func(s *state) { s.Done++ }},
		{"bit beyond the plan", func(s *state) { s.Seen[len(s.Seen)-1] |= 0x80 }},
		{"negative sum", func(s *state) { s.Total = "-1" }},
		{"sum not a number", func(s *state) { s.HalfTurn = "12x" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := s
			x.Seen = append([]byte(nil), s.Seen...)
			tc.edit(&x)
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(x); err != nil {
				t.Fatal(err)
			}
			c := count.NewTally(p)
			if err := c.UnmarshalBinary(buf.Bytes()); err == nil {
				t.Errorf("UnmarshalBinary accepted a state %s", tc.name)
			}
			if c.Done() != 0 {
				t.Errorf("UnmarshalBinary of a state %s changed the tally: %d done", tc.name, c.Done())
			}
		})
	}
	if err := count.NewTally(p).UnmarshalBinary([]byte("not a tally")); err == nil {
		t.Error("UnmarshalBinary accepted bytes that are no tally")
	}
}

// TestBuildCancel checks that Build of the fine plan of N = 27 (minutes of splitting)
// returns ctx.Err() within a second of ctx's end, and that a plan whose build was
// cancelled builds in full on the next call.
func TestBuildCancel(t *testing.T) {
	p, err := New(27, FinePlanVersion)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	const after = 200 * time.Millisecond
	time.AfterFunc(after, cancel)
	start := time.Now()
	if err := p.Build(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Build(N=27) with a context cancelled after %v = %v, want %v", after, err, context.Canceled)
	}
	if late := time.Since(start) - after; late > time.Second {
		t.Errorf("Build(N=27) returned %v after its context ended, want within a second", late)
	}

	small, err := New(16, FinePlanVersion)
	if err != nil {
		t.Fatal(err)
	}
	done, stop := context.WithCancel(context.Background())
	stop()
	if err := small.Build(done); !errors.Is(err, context.Canceled) {
		t.Fatalf("Build(N=16) with a cancelled context = %v, want %v", err, context.Canceled)
	}
	if err := small.Build(context.Background()); err != nil {
		t.Fatalf("Build(N=16) after a cancelled build: %v", err)
	}
	want, err := newFinePlan(16, 0)
	if err != nil {
		t.Fatal(err)
	}
	if small.Len() != len(want.tasks) {
		t.Errorf("N=16 after a cancelled build: %d tasks, want %d", small.Len(), len(want.tasks))
	}
}
