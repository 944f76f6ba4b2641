package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// publishedOpenTours are the directed open tours of boards, which a knight job's total must
// equal: n×n from OEIS A165134; 4×7 twice the undirected 6,378 of OEIS A079137 (a(7));
// 5×6 twice the undirected 18,784 of OEIS A083386 (a(6); A389755 a(30), Knuth).
var publishedOpenTours = map[string]string{
	"4x7": "12756",
	"5x5": "1728",
	"5x6": "37568",
	"6x6": "6637920",
}

// mustKnight returns the knight plan of name, with the published count the test gives
// its plans (noPublished).
func mustKnight(t *testing.T, name string) work.Plan {
	t.Helper()
	p, err := work.NewKnightPlan(name)
	if err != nil {
		t.Fatal(err)
	}
	hookPlan(t, p)
	return p
}

// TestKnightInProcess counts a board's directed open tours by the end-pair plan (and by a
// split of the whole sweep in two levels) with an in-process coordinator and two workers of issued identities, every task computed by
// both: the total is the published count and the local runner's, every task verified,
// and the job's record names the knight job with its total. 4×7 by end pairs (a board
// that is not square, with no count in the program's table: every task by two identities
// by default), the split on 5×5 (each of its 8 tasks is a whole forward sweep, run here
// three times: on 5×6 that outlasted the two minutes under -race at load 25, 29 Nov), and
// with CHESSPUZZLES_LONG=1 5×6 and 6×6 by end pairs and 5×6 split too (6×6 published in
// the table: replicas asked for). 5×6 by end pairs took 63 s of the test's 81 under -race
// at load 5 (30 Nov); 4×7 is the same code on a fifth of the tours.
func TestKnightInProcess(t *testing.T) {
	parallel(t)
	plans := []string{"4x7 open-ends v1", "5x5 open-split-c10k4f3-c20k2f0 v1"}
	if os.Getenv("CHESSPUZZLES_LONG") == "1" {
		plans = append(plans, "5x6 open-ends v1", "6x6 open-ends v1", "5x6 open-split-c10k4f3-c20k2f0 v1") // 3 CPU-s a computation; 30 CPU-s in all under -race
	}
	for _, name := range plans {
		b, _, _ := strings.Cut(name, " ")
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			s, a := authServer(t, dir)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			stop := runWorkers(ctx, issuedWorker(t, ctx, s.URL(), a, "w0"), issuedWorker(t, ctx, s.URL(), a, "w1"))
			defer stop()
			plan := mustKnight(t, name)
			log := &logger{t: t}
			c := &Coordinator{Conn: coordConn(t, ctx, s.URL(), a), StateDir: dir, Replicas: 2, Logf: log.Logf}
			counts, st, err := c.Run(ctx, plan)
			if err != nil {
				t.Fatalf("%v; log:\n%s", err, strings.Join(log.lines, "\n"))
			}
			if got := counts.Total.String(); got != publishedOpenTours[b] {
				t.Errorf("%s open by NATS workers: %s, want %s", b, got, publishedOpenTours[b])
			}
			if st.Verified != plan.Len() || st.Rejected != 0 || st.Refused != 0 || st.Identities != 2 {
				t.Errorf("stats %+v: want all %d tasks verified by the 2 identities, nothing rejected or refused", st, plan.Len())
			}
			tp, _ := work.NewKnightPlan(name)
			local, err := work.RunPlan(ctx, tp, work.Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if local.Total.Cmp(counts.Total) != 0 {
				t.Errorf("local runner: %v; the coordinator: %v", local.Total, counts.Total)
			}
			jobs, err := Status(ctx, c.Conn, nil, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			job := plan.Job()
			found := false
			for _, j := range jobs {
				if j.Job == job {
					found = j.Total == publishedOpenTours[b] && !j.Finished.IsZero() && j.Tasks == plan.Len()
				}
			}
			if !found {
				t.Errorf("no finished record of job %s with the total in %+v", job, jobs)
			}
		})
	}
}

// TestKnightWorkerChecks: a worker refuses knight task messages that name no plan it can
// make, or describe a task otherwise than the plan; the coordinator refuses a knight result
// whose counters are not the plan's or impossible.
func TestKnightWorkerChecks(t *testing.T) {
	parallel(t)
	ctx := context.Background()
	w := &Worker{}
	plan := mustKnight(t, "5x5 open-ends v1")
	good := taskMsg(plan, 3)
	if _, task, err := w.task(ctx, good); err != nil || task.ID != 3 {
		t.Fatalf("good message: %v, %+v", err, task)
	}
	edited := *good.Task
	edited.Weight++
	for name, m := range map[string]TaskMsg{
		"other kind":     {Job: "k5x5-closed-v1", ID: 3},
		"other version":  {Job: "k5x5-open-ends-v9", ID: 3},
		"no kind":        {Job: "z5x5-open-ends-v1", ID: 3},
		"no such task":   {Job: good.Job, ID: 999},
		"described else": {Job: good.Job, ID: 3, Task: &edited},
		"other id":       {Job: good.Job, ID: 4, Task: good.Task},
	} {
		if _, _, err := (&Worker{}).task(ctx, m); err == nil {
			t.Errorf("%s: the worker took %+v", name, m)
		}
	}
	r := Result{Job: good.Job, Result: runTask(plan, 3)}
	if err := checkResult(plan, 3, &r); err != nil {
		t.Fatalf("an honest result refused: %v", err)
	}
	for name, edit := range map[string]func(*Result){
		"undeclared counter": func(r *Result) {
			r.Counters = append(slices.Clone(r.Counters), work.Counter{Name: "half_turn", Value: 1})
		},
		"renamed counter": func(r *Result) { r.Counters = []work.Counter{{Name: "nodes", Value: 1}, r.Counters[1]} },
		"no counters":     func(r *Result) { r.Counters = nil },
		"no count":        func(r *Result) { r.Count = nil },
		"queens job":      func(r *Result) { r.Job = "q5v1" },
		"peak": func(r *Result) {
			r.Counters = []work.Counter{r.Counters[0], {Name: "peak", Value: r.Counters[0].Value + 1}}
		},
		"task": func(r *Result) { r.ID = 4 },
	} {
		bad := r
		edit(&bad)
		if err := checkResult(plan, 3, &bad); err == nil {
			t.Errorf("%s: result %+v accepted", name, bad)
		}
	}
	// a worker's memory bound holds for every knight task it runs
	small, task, err := (&Worker{MaxMemory: 1}).task(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	var me *kcount.MemoryError
	if _, err := small.RunTask(ctx, task); !errors.As(err, &me) {
		t.Errorf("a task run by a worker of 1 byte: %v, want a *MemoryError", err)
	}
}

// A testJob is a count the attack tests run, of queens or of a knight plan.
type testJob struct {
	kind  string    // the subtest's name
	plan  work.Plan // the plan
	total string    // the count it must give: published
	job   string    // its job id
	what  string    // how the coordinator's log names its board
	other string    // the id of another job
}

func queensJob(t *testing.T, n int) testJob {
	return testJob{fmt.Sprintf("queens-N=%d", n), mustPlan(t, n), known(t)[n][0], JobID(n, frames.PlanVersion), fmt.Sprintf("N=%d", n),
		JobID(n+1, frames.PlanVersion)}
}

func knightJob(t *testing.T, board string) testJob {
	name := board + " open-ends v1"
	p := mustKnight(t, name)
	return testJob{"knight-" + board, p, publishedOpenTours[board], p.Job(), name, "k7x7-open-ends-v1"}
}

// TestKnightResume: a knight job's coordinator started again on the same state takes
// every result from its snapshot (checked against the plan) and computes nothing again;
// a worker whose build makes no knight plans (its request lists no kind "k") is given no
// knight task.
func TestKnightResume(t *testing.T) {
	parallel(t)
	dir := t.TempDir()
	s, a := authServer(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	plan := mustKnight(t, "5x5 open-ends v1")
	nc := coordConn(t, ctx, s.URL(), a)
	done := make(chan runOutcome, 1)
	go func() {
		counts, st, err := (&Coordinator{Conn: nc, StateDir: dir, Sealer: NewSealer("resume"), Replicas: 1}).Run(ctx, plan)
		total := ""
		if err == nil {
			total = counts.Total.String()
		}
		done <- runOutcome{total, st, err}
	}()
	// an old worker asks while no other does: it gets no task of the knight job
	old := issuedHostile(t, s.URL(), a, "old")
	want, _ := json.Marshal(WantMsg{Name: "old", Messages: MessageVersion, Kinds: []string{"q"}})
	for range 10 {
		m, err := old.request(ctx, wantSubject(old.user), want)
		if err != nil {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		var as Assignment
		if err := json.Unmarshal(m.Data, &as); err != nil || as.Nonce != "" {
			t.Fatalf("a worker that runs no knight plan was answered %+v, %v", as, err)
		}
	}
	stop := runWorkers(ctx, issuedWorker(t, ctx, s.URL(), a, "w0"))
	o := <-done
	stop()
	if o.err != nil || o.total != publishedOpenTours["5x5"] {
		t.Fatalf("first run: %s, %v; want %s", o.total, o.err, publishedOpenTours["5x5"])
	}
	counts, st, err := (&Coordinator{Conn: nc, StateDir: dir, Sealer: NewSealer("resume"), Replicas: 1}).Run(ctx, plan)
	if err != nil || counts.Total.String() != publishedOpenTours["5x5"] {
		t.Fatalf("second run: %v, %v", counts.Total, err)
	}
	if st.Snapshot != plan.Len() || st.Resumed != plan.Len() || st.Queued != 0 {
		t.Errorf("second run's stats %+v: want all %d tasks from the snapshot, nothing assigned", st, plan.Len())
	}
}

// TestRunsKinds: a worker is given the jobs of the kinds it lists, and of no other.
func TestRunsKinds(t *testing.T) {
	parallel(t)
	w := WantMsg{Kinds: work.Kinds()}
	for _, job := range []string{"k5x5-open-ends-v1", "k5x6-open-split-c10k4f3-c20k2f0-v1", "q8v1", "q20v102"} {
		if !w.runs(job) {
			t.Errorf("a worker of this build does not run %s", job)
		}
		if (WantMsg{}).runs(job) {
			t.Errorf("a worker that lists no kinds runs %s", job)
		}
	}
	if w.runs("toy12-5-v1") || !(WantMsg{Kinds: []string{"toy"}}).runs("toy12-5-v1") {
		t.Errorf("kinds: %q runs toy12-5-v1: %v", w.Kinds, w.runs("toy12-5-v1"))
	}
}
