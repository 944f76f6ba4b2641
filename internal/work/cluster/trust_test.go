package cluster

// The forgeries of issue 25, each tried by a hostile client that connects to the real
// embedded server on 127.0.0.1 with a worker's credentials (an identity of its own, made
// with the cluster's token, as any worker's is): every one ends in a refusal or the exact
// total.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A hostile client holds the cluster's token and an identity of its own, and tries what
// its rights let it and more. The server's refusals (permission violations) come
// asynchronously: violations collects them.
type hostile struct {
	t    *testing.T
	nc   *nats.Conn
	user string

	mu         sync.Mutex
	violations []string
}

func newHostile(t *testing.T, url string) *hostile {
	t.Helper()
	id := NewIdentity(testToken)
	return connectHostile(t, url, id.User, nats.UserInfo(id.User, id.Password))
}

// connectHostile connects a hostile client as user with auth, its inbox in the user's own
// prefix; the server's asynchronous refusals go to violations.
func connectHostile(t *testing.T, url, user string, auth nats.Option) *hostile {
	t.Helper()
	h := &hostile{t: t, user: user}
	nc, err := nats.Connect(url, auth, nats.CustomInboxPrefix(InboxPrefix(user)),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.violations = append(h.violations, err.Error())
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	h.nc = nc
	return h
}

// refused waits until the server has refused something containing want.
func (h *hostile) refused(want string) {
	h.t.Helper()
	_ = h.nc.Flush()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		h.mu.Lock()
		for _, v := range h.violations {
			if strings.Contains(v, want) {
				h.mu.Unlock()
				return
			}
		}
		h.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	h.t.Errorf("the server did not refuse %q; it refused %q", want, h.violations)
}

// ask asks the coordinator for a task as a worker does, until it gets one.
func (h *hostile) ask(ctx context.Context) Assignment {
	h.t.Helper()
	want, _ := json.Marshal(WantMsg{Name: "hostile", Messages: MessageVersion, Kinds: work.Kinds()})
	for ctx.Err() == nil {
		m, err := h.request(ctx, wantSubject(h.user), want)
		if err != nil {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		var a Assignment
		if err := json.Unmarshal(m.Data, &a); err != nil {
			h.t.Fatal(err)
		}
		if a.Nonce != "" {
			return a
		}
		time.Sleep(20 * time.Millisecond)
	}
	h.t.Fatal(ctx.Err())
	return Assignment{}
}

// request is one request with a reply within 5 s, as a worker's are: a request the server
// routed to a subscription just closed (a coordinator of an earlier run on the same
// connection, in TestNonceBound) gets no answer, and is asked again rather than waited on
// for the whole test.
func (h *hostile) request(ctx context.Context, subject string, data []byte) (*nats.Msg, error) {
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return h.nc.RequestWithContext(rctx, subject, data)
}

// hand hands a result in on the hostile's own subject and returns the receipt.
func (h *hostile) hand(ctx context.Context, r Result) Receipt {
	h.t.Helper()
	data, _ := json.Marshal(r)
	for ctx.Err() == nil {
		m, err := h.request(ctx, resultSubject(h.user, r.Job), data)
		if err != nil {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		var rc Receipt
		if err := json.Unmarshal(m.Data, &rc); err != nil {
			h.t.Fatal(err)
		}
		return rc
	}
	h.t.Fatal(ctx.Err())
	return Receipt{}
}

// tryJetStream tries to reach the results stream and the jobs bucket through the
// JetStream API and to write into them by plain publishes on their subjects; the server
// must refuse all.
func (h *hostile) tryJetStream(ctx context.Context, job string, data []byte) {
	h.t.Helper()
	js, _ := jetstream.New(h.nc)
	try := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, 300*time.Millisecond) }
	jctx, cancel := try()
	if kv, err := js.KeyValue(jctx, JobsBucket); err == nil {
		if _, err := kv.Put(jctx, job, data); err == nil {
			h.t.Errorf("a worker wrote into bucket %s", JobsBucket)
		}
	}
	cancel()
	jctx, cancel = try()
	if _, err := js.Stream(jctx, ResultsStream); err == nil {
		h.t.Errorf("a worker read stream %s", ResultsStream)
	}
	cancel()
	jctx, cancel = try()
	if _, err := js.Publish(jctx, resultsPrefix+job+".0", data); err == nil {
		h.t.Errorf("a worker stored into stream %s", ResultsStream)
	}
	cancel()
	for _, subj := range []string{resultsPrefix + job + ".0", "$KV." + JobsBucket + "." + job} {
		_ = h.nc.Publish(subj, data)
		h.refused(`Permissions Violation for Publish to "` + subj + `"`)
	}
	h.refused(`Permissions Violation for Publish to "$JS.API.STREAM.INFO.` + ResultsStream + `"`)
}

// TestForgeries: while a count of Q(12) (the Q(14) with CHESSPUZZLES_LONG=1), or of
// 5×5's open tours, runs at the default --verify, a hostile client with a worker's
// credentials tries every forgery of issue 25 and more; each is refused, by the server or
// the coordinator, and the total is exact.
func TestForgeries(t *testing.T) {
	parallel(t)
	n := 12
	if os.Getenv("CHESSPUZZLES_LONG") == "1" {
		n = 14
	}
	for _, tj := range []testJob{queensJob(t, n), knightJob(t, "5x5")} {
		t.Run(tj.kind, func(t *testing.T) { forgeries(t, tj) })
	}
}

func forgeries(t *testing.T, tj testJob) {
	s := startServer(t, t.TempDir(), "")
	ctx, nc := connectTest(t, s, 2*time.Minute, "coordinator")
	plan := tj.plan
	job := tj.job
	h := newHostile(t, s.URL())
	honest := newWorker(t, ctx, s.URL(), "honest", 2)

	lie := func(id int) Result {
		r := runTask(plan, id)
		r = plus(r, 8) // the forgery: Q(14) printed 365604, true 365596
		return Result{Job: job, Result: r, Worker: honest.Identity, Name: "honest"}
	}
	// Before the coordinator starts: a result written for a task before anyone takes it,
	// straight into the results bucket, and a job record with a total.
	data, _ := json.Marshal(lie(0))
	h.tryJetStream(ctx, job, data)

	log := &logger{t: t}
	type outcome struct {
		counts Outcome
		st     Stats
		err    error
	}
	done := make(chan outcome, 1)
	go func() {
		c := &Coordinator{Conn: nc, Verify: DefaultVerify, Logf: log.Logf}
		counts, st, err := c.Run(ctx, plan)
		done <- outcome{counts, st, err}
	}()

	// A result handed in for a task assigned to no one: no nonce, a made-up one, a nonce
	// sealed with another secret.
	for i, nonce := range []string{"", "f1.0123456789abcdef0123456789abcdef", nonce(NewSealer("guess"), h.user, job, 1, false, "1")} {
		r := lie(1)
		r.Nonce = nonce
		if rc := h.hand(ctx, r); rc.OK || !strings.Contains(rc.Refused, "holds no live lease of the task") {
			t.Errorf("forgery %d: a result for a task not assigned: receipt %+v, want refused", i, rc)
		}
	}
	// A result on another worker's subject: the server drops it.
	r := lie(2)
	data, _ = json.Marshal(r)
	_ = h.nc.Publish(resultSubject(honest.Identity, job), data)
	h.refused(`Permissions Violation for Publish to "` + resultSubject(honest.Identity, job) + `"`)
	// Listening to others: their assignments and results.
	for _, subj := range []string{InboxPrefix(honest.Identity) + ".>", SubjectPrefix + ".>", ">"} {
		if _, err := h.nc.Subscribe(subj, func(*nats.Msg) { t.Errorf("the hostile client received a message on %s", subj) }); err != nil {
			t.Fatal(err)
		}
		h.refused(`Permissions Violation for Subscription to "` + subj + `"`)
	}
	// A task assigned to it: a result of another task with its nonce, of its task with a
	// forged kind (a "second computation"), of another job, of another task's digest.
	a := h.ask(ctx)
	other := (a.ID + 1) % plan.Len()
	forged := []Result{lie(other), lie(a.ID), lie(a.ID), lie(a.ID)}
	forged[0].Nonce = a.Nonce
	forged[1].Nonce = "v" + a.Nonce[1:]
	forged[2].Nonce, forged[2].Job = a.Nonce, tj.other
	forged[3].Nonce, forged[3].Result = a.Nonce, runTask(plan, a.ID)
	forged[3].Task = taskDigest(mustTask(plan, other))
	for i, f := range forged {
		data, _ := json.Marshal(f)
		m, err := h.nc.RequestWithContext(ctx, resultSubject(h.user, job), data)
		var rc Receipt
		if err == nil {
			_ = json.Unmarshal(m.Data, &rc)
		}
		if rc.OK {
			t.Errorf("forgery %d on an assigned task (%d): accepted", i, a.ID)
		}
	}
	// It hands its task back, and the honest worker does the work.
	data, _ = json.Marshal(BeatMsg{Back: []string{a.Nonce}})
	_ = h.nc.Publish(beatSubject(h.user), data)
	stop := runWorkers(ctx, honest)
	defer stop()
	o := <-done
	if o.err != nil {
		t.Fatal(o.err)
	}
	if got, want := o.counts.Total.String(), tj.total; got != want {
		t.Errorf("%s with forgeries = %s, want %s", tj.kind, got, want)
	}
	t.Logf("%s = %s with forgeries; %d results refused", tj.kind, o.counts.Total, o.st.Refused)
	if o.st.Refused < 6 || o.st.Identities != 1 {
		t.Errorf("stats %+v: want at least 6 results refused and one identity's results counted", o.st)
	}
	for _, want := range []string{
		fmt.Sprintf("refused a result of task 1 of job %s from worker %s", job, h.user),
		"holds no live lease of the task with this nonce in this run",
		"the worker counted a task with digest",
	} {
		if !log.contains(want) {
			t.Errorf("coordinator log has no %q; log:\n%s", want, strings.Join(log.lines, "\n"))
		}
	}
	// After the job: the hostile client still cannot touch the results or the record.
	h.tryJetStream(ctx, job, data)
}

// liar runs a worker of the hostile's identity that computes every task it is given,
// and hands in a consistent lie (two more solutions: still whole classes of a task of
// weight 8, so possible for the task) whenever lie says so. It also tries to hand in a
// second computation of each of its lies by turning its nonce into one of a second
// computation, before its first result and after it, which must be refused. It reports
// the tasks it lied about.
func liar(ctx context.Context, t *testing.T, h *hostile, plan work.Plan, lie func(id int, verify bool) bool, lied chan<- int) {
	for ctx.Err() == nil {
		want, _ := json.Marshal(WantMsg{Name: "liar", Messages: MessageVersion, Kinds: work.Kinds()})
		m, err := h.request(ctx, wantSubject(h.user), want)
		if err != nil {
			_ = sleep(ctx, 20*time.Millisecond)
			continue
		}
		var a Assignment
		if json.Unmarshal(m.Data, &a) != nil || a.Nonce == "" {
			_ = sleep(ctx, 20*time.Millisecond)
			continue
		}
		task := mustTask(plan, a.ID)
		r := runTask(plan, a.ID)
		lies := task.Weight == 8 && r.Count.Sign() > 0 && lie(a.ID, a.Verify)
		if lies {
			r = plus(r, 2)
		}
		res := Result{Job: a.Job, Result: r, Worker: "honest", Name: "liar", Nonce: a.Nonce, Task: taskDigest(task)}
		if lies && !a.Verify {
			// Its "second computation" first, while the task has no result and the run
			// cannot have ended: the coordinator must refuse it (no lease of it) in the run,
			// whatever the load.
			early := res
			early.Nonce = "v" + a.Nonce[1:]
			data, _ := json.Marshal(early)
			if rm, err := h.nc.RequestWithContext(ctx, resultSubject(h.user, a.Job), data); err == nil {
				var rc Receipt
				_ = json.Unmarshal(rm.Data, &rc)
				if rc.OK {
					t.Errorf("the liar's own second computation of task %d, before its first, was accepted", a.ID)
				}
			}
		}
		data, _ := json.Marshal(res)
		rm, err := h.nc.RequestWithContext(ctx, resultSubject(h.user, a.Job), data)
		if err != nil {
			continue
		}
		var rc Receipt
		_ = json.Unmarshal(rm.Data, &rc)
		if lies && rc.OK && !a.Verify {
			select {
			case lied <- a.ID:
			default:
			}
			res.Nonce = "v" + a.Nonce[1:]
			data, _ := json.Marshal(res)
			if rm, err := h.nc.RequestWithContext(ctx, resultSubject(h.user, a.Job), data); err == nil {
				var rc Receipt
				_ = json.Unmarshal(rm.Data, &rc)
				if rc.OK {
					t.Errorf("the liar's own second computation of task %d was accepted", a.ID)
				}
			}
		}
	}
}

// TestVerifyCatchesLiar is the forgery that defeated --verify 1: a worker that lies about
// its tasks, consistently enough to pass every check of a result, and hands in a second
// computation of its own lie. The coordinator refuses that second computation (no lease
// of it), gives the second computation to another identity it picks (an honest worker,
// or itself when there is none), settles the disagreement by computing the task itself,
// quarantines the liar and has every result of it computed again: the total is exact.
// --replicas 2 does the same.
func TestVerifyCatchesLiar(t *testing.T) {
	parallel(t)
	const n = 10
	for _, tc := range []struct {
		name     string
		honest   bool
		verify   float64
		replicas int
	}{
		{"verify 1 with an honest worker", true, 1, 1},
		{"verify 1 alone", false, 1, 1},
		{"replicas 2 with an honest worker", true, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, t.TempDir(), "")
			ctx, nc := connectTest(t, s, 2*time.Minute, "coordinator")
			plan := mustPlan(t, n)
			h := newHostile(t, s.URL())
			wctx, wcancel := context.WithCancel(ctx)
			var wg sync.WaitGroup
			defer func() { wcancel(); wg.Wait() }()
			lied := make(chan int, 1)
			wg.Go(func() { liar(wctx, t, h, plan, func(int, bool) bool { return true }, lied) })
			if tc.honest {
				stop := runWorkers(ctx, newWorker(t, ctx, s.URL(), "honest", 2))
				defer stop()
			}
			log := &logger{t: t}
			c := &Coordinator{Conn: nc, Verify: tc.verify, Replicas: tc.replicas, VerifyWait: time.Second, Logf: log.Logf}
			counts, st, err := c.Run(ctx, plan)
			if err != nil {
				t.Fatalf("count with a liar: %v; log:\n%s", err, strings.Join(log.lines, "\n"))
			}
			if got, want := counts.Total.String(), known(t)[n][0]; got != want {
				t.Errorf("Q(%d) with a liar = %s, want %s", n, got, want)
			}
			for _, want := range []string{
				"refused a result of task",
				"quarantining " + h.user,
				"worker " + h.user + " is quarantined: its ",
			} {
				if !log.contains(want) {
					t.Errorf("log has no %q; log:\n%s", want, strings.Join(log.lines, "\n"))
				}
			}
			if st.Refused == 0 {
				t.Errorf("stats %+v: want the liar's own second computations refused", st)
			}
		})
	}
}

// TestOverwriteAfterFinish: after a finished count, the stored results and the job record
// are overwritten, by a worker (the server refuses) and by a client that has JetStream
// rights (an external cluster whose operator gave workers too many): with forged values,
// with a sealed value moved under another task's key, with a record holding any total.
// A rerun rejects every value the coordinator did not seal for its key, computes those
// tasks again and prints the exact total; Status shows the forged record as forged with
// the coordinator's secret, and as unchecked without it.
func TestOverwriteAfterFinish(t *testing.T) {
	parallel(t)
	const n = 11
	kv := known(t)
	s := startServer(t, t.TempDir(), "")
	ctx, nc := connectTest(t, s, 2*time.Minute, "coordinator")
	plan := mustPlan(t, n)
	job := JobID(n, frames.PlanVersion)
	sealer := NewSealer("the coordinator's secret")
	stop := runWorkers(ctx, newWorker(t, ctx, s.URL(), "honest", 2))
	defer stop()
	count := func() (Outcome, Stats, *logger) {
		t.Helper()
		log := &logger{t: t}
		counts, st, err := (&Coordinator{Conn: nc, Sealer: sealer, Logf: log.Logf}).Run(ctx, plan)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := counts.Total.String(), kv[n][0]; got != want {
			t.Errorf("Q(%d) = %s, want %s; log:\n%s", n, got, want, strings.Join(log.lines, "\n"))
		}
		return counts, st, log
	}
	count()

	h := newHostile(t, s.URL())
	h.tryJetStream(ctx, job, []byte(`{"total":"1"}`))

	js, _ := jetstream.New(nc)
	results, _, err := setup(ctx, js, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	jobs, _ := js.KeyValue(ctx, JobsBucket)
	forged := plus(runTask(plan, 0), 8)
	plain, _ := json.Marshal(Result{Job: job, Result: forged, Worker: "forger"})
	otherSeal, _ := sealValue(NewSealer("another secret"), resultKey(job, 1), Result{Job: job, Result: runTask(plan, 1), Worker: "forger"})
	h2, err := results.history(ctx, resultKey(job, 2))
	if err != nil || len(h2) == 0 {
		t.Fatalf("task 2's result: %v, %v", h2, err)
	}
	e2 := h2[len(h2)-1]
	for key, value := range map[string][]byte{
		resultKey(job, 0): plain,      // a forged result, not sealed
		resultKey(job, 1): otherSeal,  // sealed with another secret
		resultKey(job, 3): e2.Value(), // task 2's sealed result moved under task 3's key
	} {
		// Overwritten: the stored result deleted, the forgery stored in its place.
		old, err := results.history(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range old {
			if err := results.remove(ctx, e.seq); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := results.put(ctx, key, value); err != nil {
			t.Fatal(err)
		}
	}
	rec, _ := json.Marshal(sealed{Seal: "00", Doc: json.RawMessage(`{"job":"` + job + `","n":11,"finished":"2026-01-01T00:00:00Z","total":"1000000000002680"}`)})
	if _, err := jobs.Put(ctx, job, rec); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sealer  *Sealer
		checked bool
		bad     bool
	}{{sealer, false, true}, {nil, false, false}} {
		st, err := Status(ctx, nc, tc.sealer, time.Now())
		if err != nil || len(st) != 1 {
			t.Fatalf("Status = %v, %v; want one job", st, err)
		}
		if st[0].Checked != tc.checked || (st[0].Bad != "") != tc.bad {
			t.Errorf("Status with sealer %v: checked %v, bad %q; want %v, bad %v", tc.sealer != nil, st[0].Checked, st[0].Bad, tc.checked, tc.bad)
		}
	}

	_, st, log := count()
	if st.Rejected != 3 || !log.contains("not sealed by this job's coordinator") {
		t.Errorf("rerun: stats %+v, want the 3 overwritten results rejected; log:\n%s", st, strings.Join(log.lines, "\n"))
	}
	if st.Resumed != plan.Len()-3 {
		t.Errorf("rerun resumed %d tasks, want all but the 3 overwritten, %d", st.Resumed, plan.Len()-3)
	}
	// The rerun wrote the record again, sealed: Status checks it.
	jst, err := Status(ctx, nc, sealer, time.Now())
	if err != nil || len(jst) != 1 || !jst[0].Checked || jst[0].Total != kv[n][0] {
		t.Errorf("Status after the rerun = %+v, %v; want one checked job of total %s", jst, err, kv[n][0])
	}
}

// TestDetectionRates measures how often each verification mode keeps a single lying
// worker among honest ones from changing the total, with the published counts switched
// off (so that N = 10 counts as N = 28 would): the liar lies once (about the first task of
// weight 8 it gets), or about every task it gets. A lie that meets a second computation
// is settled and the liar quarantined, so the count ends exact; only a lie on a task that
// nobody verifies can stand. CHESSPUZZLES_LONG=1 runs it (10 counts of Q(10) a mode and a
// liar); it logs the rates, and fails on a wrong total where every task is verified.
func TestDetectionRates(t *testing.T) {
	parallel(t)
	if os.Getenv("CHESSPUZZLES_LONG") != "1" {
		t.Skip("CHESSPUZZLES_LONG=1 measures the detection rate of each verification mode (about 20 s)")
	}
	noPublished(t)
	const n, runs = 10, 10
	kv := known(t)
	plan := mustPlan(t, n)
	for _, mode := range []struct {
		name     string
		verify   float64
		replicas int
	}{{"--verify 0.02", 0.02, 1}, {"--verify 1", 1, 1}, {"--replicas 2", 0, 2}} {
		for _, once := range []bool{true, false} {
			wrong, exact := 0, 0
			for range runs {
				s := startServer(t, t.TempDir(), "")
				ctx, nc := connectTest(t, s, 2*time.Minute, "coordinator")
				h := newHostile(t, s.URL())
				wctx, wcancel := context.WithCancel(ctx)
				var wg sync.WaitGroup
				var mu sync.Mutex
				lies := 0
				wg.Go(func() {
					liar(wctx, t, h, plan, func(int, bool) bool {
						mu.Lock()
						defer mu.Unlock()
						if once && lies > 0 {
							return false
						}
						lies++
						return true
					}, make(chan int, 1))
				})
				stop := runWorkers(ctx, newWorker(t, ctx, s.URL(), "honest", 1))
				c := &Coordinator{Conn: nc, Verify: mode.verify, Replicas: mode.replicas, VerifyWait: 5 * time.Second}
				counts, _, err := c.Run(ctx, plan)
				wcancel()
				wg.Wait()
				stop()
				switch {
				case err != nil:
					t.Fatal(err)
				case counts.Total.String() == kv[n][0]:
					exact++
				default:
					wrong++
				}
				s.Shutdown()
			}
			t.Logf("%s, liar lies %s: %d of %d counts exact, %d wrong totals printed",
				mode.name, map[bool]string{true: "once", false: "always"}[once], exact, runs, wrong)
			if wrong > 0 && mode.verify != 0.02 {
				t.Errorf("%s: %d wrong totals with every task verified", mode.name, wrong)
			}
		}
	}
}

// TestOperatorIdentities runs a count on a NATS server configured as docs/distributed.md
// tells an operator of a cluster of their own: no token, one user per worker with
// WorkerPermissions, and a coordinator user with every right. Workers connect as their
// users (ConnectWorker with User); the count is exact, and one worker cannot hand in a
// result on another's subject.
func TestOperatorIdentities(t *testing.T) {
	parallel(t)
	const n = 10
	kv := known(t)
	opts := &server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true, StoreDir: t.TempDir(), NoSigs: true, NoLog: true,
		Users: []*server.User{
			{Username: "coordinator", Password: "c-pass"},
			{Username: "w1", Password: "w1-pass", Permissions: WorkerPermissions("w1")},
			{Username: "w2", Password: "w2-pass", Permissions: WorkerPermissions("w2")},
		}}
	url := startNATS(t, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	nc, err := Connect(ctx, ConnectOptions{URL: url, User: "coordinator", Password: "c-pass"})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var ws []*Worker
	for _, u := range []string{"w1", "w2"} {
		wc, user, err := ConnectWorker(ctx, ConnectOptions{URL: url, User: u, Password: u + "-pass"})
		if err != nil {
			t.Fatal(err)
		}
		defer wc.Close()
		if user != u {
			t.Errorf("ConnectWorker as %q: identity %q", u, user)
		}
		ws = append(ws, &Worker{Conn: wc, Identity: user, Cores: 1, Name: u})
	}
	// w2 tries w1's subject; the server refuses it.
	violations := make(chan error, 8)
	spy, err := nats.Connect(url, nats.UserInfo("w2", "w2-pass"), nats.CustomInboxPrefix(InboxPrefix("w2")),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { violations <- err }))
	if err != nil {
		t.Fatal(err)
	}
	defer spy.Close()
	_ = spy.Publish(resultSubject("w1", JobID(n, frames.PlanVersion)), []byte(`{}`))
	_ = spy.Flush()
	select {
	case err := <-violations:
		if !strings.Contains(err.Error(), "Permissions Violation for Publish") {
			t.Errorf("w2 on w1's subject: %v, want a permissions violation", err)
		}
	case <-time.After(5 * time.Second):
		t.Errorf("w2 published on w1's subject with no refusal")
	}
	stop := runWorkers(ctx, ws...)
	defer stop()
	counts, st, err := (&Coordinator{Conn: nc, Verify: 1, Sealer: NewSealer("operator test")}).Run(ctx, mustPlan(t, n))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := counts.Total.String(), kv[n][0]; got != want {
		t.Errorf("Q(%d) = %s, want %s", n, got, want)
	}
	if st.Identities != 2 || st.ByIdentities[2] != st.Verified || st.Verified == 0 {
		t.Errorf("stats %+v: want 2 identities and every verified task by 2 of them", st)
	}
}
