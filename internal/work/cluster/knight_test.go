package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// publishedOpenTours are the directed open tours of boards, which a knight job's total must
// equal: n×n from OEIS A165134; 5×6 twice the undirected 18,784 of OEIS A083386 (a(6);
// A389755 a(30), Knuth).
var publishedOpenTours = map[string]string{
	"5x5": "1728",
	"5x6": "37568",
	"6x6": "6637920",
}

// mustKnight returns the knight plan of name as a count.Plan.
func mustKnight(t *testing.T, name string) count.Plan {
	t.Helper()
	tp, err := work.NewKnightPlan(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := KnightPlan(tp)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// noPublishedKnight switches the knight plans' published counts off for the test, as
// noPublished does for queens.
func noPublishedKnight(t *testing.T) {
	old := publishedKnight
	publishedKnight = func(*work.KnightPlan) (*big.Int, bool) { return nil, false }
	t.Cleanup(func() { publishedKnight = old })
}

func TestKnightJobIDs(t *testing.T) {
	for name, job := range map[string]string{"8x8 open-ends v1": "k8x8-open-ends-v1", "5x10 open-ends v1": "k5x10-open-ends-v1", "6x6 split9 v2": "k6x6-split9-v2",
		"5x6 open-split-c10k4f3-c20k2f0 v1": "k5x6-open-split-c10k4f3-c20k2f0-v1", "8x8 open-split-v2 v3": "k8x8-open-split-v2-v3"} {
		got, err := KnightJobID(name)
		if err != nil || got != job {
			t.Errorf("KnightJobID(%q) = %q, %v; want %q", name, got, err, job)
		}
		back, err := ParseKnightJobID(job)
		if err != nil || back != name {
			t.Errorf("ParseKnightJobID(%q) = %q, %v; want %q", job, back, err, name)
		}
	}
	for _, job := range []string{"", "k", "k8x8", "k8x8-open-ends", "k8x8-open-ends-v", "k8x8--v1", "q8v1", "k08x8-open-ends-v1", "k8x8-open.ends-v1", "k8x8-open ends-v1", "k8x8-Open-v1"} {
		if name, err := ParseKnightJobID(job); err == nil {
			t.Errorf("ParseKnightJobID(%q) = %q, want an error", job, name)
		}
	}
	if _, _, err := ParseJobID("k8x8-open-ends-v1"); err == nil {
		t.Errorf("a knight job id parsed as a queens one")
	}
}

// TestKnightInProcess counts a board's directed open tours by the end-pair plan (and by a
// split of the whole sweep in two levels) with an in-process coordinator and two workers of issued identities, every task computed by
// both: the total is the published count and the local runner's, every task verified,
// and the job's record names the knight job with its total. 5×6 by end pairs (no count in
// the program's table: every task by two identities by default), the split on 5×5 (each of
// its 8 tasks is a whole forward sweep, run here three times: on 5×6 that outlasted the
// two minutes under -race at load 25, 29 Nov), and with CHESSPUZZLES_LONG=1 6×6 by end
// pairs and 5×6 split too (published in the table: replicas asked for).
func TestKnightInProcess(t *testing.T) {
	plans := []string{"5x6 open-ends v1", "5x5 open-split-c10k4f3-c20k2f0 v1"}
	if os.Getenv("CHESSPUZZLES_LONG") == "1" {
		plans = append(plans, "6x6 open-ends v1", "5x6 open-split-c10k4f3-c20k2f0 v1") // 3 CPU-s a computation; 30 CPU-s in all under -race
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
			job, _ := KnightJobID(name)
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
// make, or describe a task otherwise than the plan.
func TestKnightWorkerChecks(t *testing.T) {
	w := &Worker{}
	plan := mustKnight(t, "5x5 open-ends v1")
	good := taskMsg(plan, 3)
	if _, task, err := w.task(good); err != nil || task.ID != 3 {
		t.Fatalf("good message: %v, %+v", err, task)
	}
	edited := *good.Task
	edited.Weight++
	for name, m := range map[string]TaskMsg{
		"other kind":     {Job: "k5x5-closed-v1", PlanVersion: 1, ID: 3},
		"other version":  {Job: "k5x5-open-ends-v9", PlanVersion: 9, ID: 3},
		"bad board":      {Job: "k9x9-open-ends-v1", PlanVersion: 1, ID: 3},
		"no such task":   {Job: good.Job, PlanVersion: 1, ID: 999},
		"queens N":       {Job: good.Job, N: 5, PlanVersion: 1, ID: 3},
		"version":        {Job: good.Job, PlanVersion: 2, ID: 3},
		"described else": {Job: good.Job, PlanVersion: 1, ID: 3, Task: &edited},
	} {
		if _, _, err := (&Worker{}).task(m); err == nil {
			t.Errorf("%s: the worker took %+v", name, m)
		}
	}
	// and a knight result with counters no knight task has is refused by the coordinator's check
	r := Result{Job: good.Job, PlanVersion: 1, Result: runTask(plan, 3)}
	if err := checkResult(plan, 3, &r); err != nil {
		t.Fatalf("an honest result refused: %v", err)
	}
	for name, edit := range map[string]func(*Result){
		"half turns": func(r *Result) { r.HalfTurn = 1 },
		"queens job": func(r *Result) { r.Job = "q5v1" },
		"N":          func(r *Result) { r.N = 5 },
		"peak":       func(r *Result) { r.Stored = r.Nodes + 1 },
		"task":       func(r *Result) { r.ID = 4 },
	} {
		bad := r
		edit(&bad)
		if err := checkResult(plan, 3, &bad); err == nil {
			t.Errorf("%s: result %+v accepted", name, bad)
		}
	}
	// a worker's memory bound holds for every knight task it runs
	small, task, err := (&Worker{MaxMemory: 1}).task(good)
	if err != nil {
		t.Fatal(err)
	}
	var me *kcount.MemoryError
	if _, err := small.CountTask(context.Background(), task); !errors.As(err, &me) {
		t.Errorf("a task run by a worker of 1 byte: %v, want a *MemoryError", err)
	}
	if !errors.Is(func() error { _, err := plan.Estimate(context.Background(), count.EstimateOptions{}); return err }(), errNoEstimate) {
		t.Errorf("a knight plan estimated by the queens sampler")
	}
}

// A testJob is a count the attack tests run, of queens or of a knight plan.
type testJob struct {
	kind    string     // the subtest's name
	plan    count.Plan // the plan
	total   string     // the count it must give: published
	job     string     // its job id
	what    string     // how the coordinator's log names its board
	n       int        // its Result.N: N, or 0 for a knight job
	version int        // its plan version
	other   string     // the id of another job
}

func queensJob(t *testing.T, n int) testJob {
	return testJob{fmt.Sprintf("queens-N=%d", n), mustPlan(t, n), known(t)[n][0], JobID(n, frames.PlanVersion), fmt.Sprintf("N=%d", n),
		n, frames.PlanVersion, JobID(n+1, frames.PlanVersion)}
}

func knightJob(t *testing.T, board string) testJob {
	name := board + " open-ends v1"
	job, _ := KnightJobID(name)
	return testJob{"knight-" + board, mustKnight(t, name), publishedOpenTours[board], job, name, 0, 1, "k7x7-open-ends-v1"}
}

// TestKnightResume: a knight job's coordinator started again on the same state takes
// every result from its snapshot (checked against the plan) and computes nothing again;
// a worker of a build before knight jobs (its request lists no knight plans) is given no
// knight task.
func TestKnightResume(t *testing.T) {
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
	want, _ := json.Marshal(WantMsg{Name: "old", Messages: MessageVersion, PlanVersions: PlanVersions})
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

// TestRunsKnight: a worker is given the knight jobs of the kinds and versions it lists, a
// split plan of any levels by its family.
func TestRunsKnight(t *testing.T) {
	w := WantMsg{Knight: KnightKinds()}
	for name, want := range map[string]bool{
		"5x5 open-ends v1": true, "5x6 open-split-c10k4f3 v1": true, "5x6 open-split-c10k4f3-c20k2f0 v1": true,
	} {
		k, _ := knightOf(mustKnight(t, name))
		if got := w.runsKnight(k); got != want {
			t.Errorf("a worker of this build runs %s: %v, want %v", name, got, want)
		}
		if (WantMsg{}).runsKnight(k) {
			t.Errorf("a worker that lists no kinds runs %s", name)
		}
		old := *k
		old.version++
		if w.runsKnight(&old) {
			t.Errorf("a worker of this build runs %s of version %d", name, old.version)
		}
	}
}
