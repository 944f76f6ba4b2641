package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestForgedResults is the probe: a client puts fake results into the results
// bucket of a Q(12) count. Without the token it cannot connect at all; with it, every
// result impossible for its task is rejected with a logged reason and its task computed,
// and the total stays Q(12) = 14200.
func TestForgedResults(t *testing.T) {
	const n = 12
	kv := known(t)
	token := NewToken()
	s := startServer(t, t.TempDir(), token)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// No token, or a wrong one: no connection, so nothing can be published.
	for _, tok := range []string{"", "0123456789abcdef0123456789abcdef"} {
		if nc, err := Connect(ctx, ConnectOptions{URL: s.URL(), Token: tok}); !errors.Is(err, ErrRefused) {
			if nc != nil {
				nc.Close()
			}
			t.Errorf("Connect with token %q: %v, want ErrRefused", tok, err)
		}
		opts := []nats.Option{}
		if tok != "" {
			opts = append(opts, nats.Token(tok))
		}
		if nc, err := nats.Connect(s.URL(), opts...); err == nil {
			err = nc.Publish("$KV."+ResultsBucket+"."+JobID(n, 1)+".0", []byte(`{}`))
			nc.Close()
			t.Errorf("plain nats.Connect with token %q connected (publish: %v)", tok, err)
		}
	}

	nc, err := Connect(ctx, ConnectOptions{URL: s.URL(), Token: token})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	_, results, _, err := setup(ctx, js, 0)
	if err != nil {
		t.Fatal(err)
	}
	plan := mustPlan(t, n)
	job := JobID(n, queens.PlanVersion)
	forge := func(id int, r queens.TaskResult) {
		r.ID = id
		data, _ := json.Marshal(Result{Job: job, N: n, PlanVersion: queens.PlanVersion, TaskResult: r, Worker: "forger"})
		if _, err := results.Put(ctx, resultKey(job, id), data); err != nil {
			t.Error(err)
		}
	}
	// The forgery (one fake result made Q(12) = 8,014,144), and others: before the
	// count, and while it runs.
	forge(0, queens.TaskResult{Solutions: 1_000_000})
	forge(1, queens.TaskResult{Solutions: 3, HalfTurn: 5, Nodes: 9})
	forge(2, queens.TaskResult{Solutions: 1 << 40, Nodes: 1 << 62})
	forge(len(plan.Tasks)+5, queens.TaskResult{Solutions: 7, Nodes: 7})

	log := &logger{t: t}
	wctx, wcancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { wcancel(); wg.Wait() }()
	for i := range 2 {
		wg.Go(func() {
			wc, err := Connect(ctx, ConnectOptions{URL: s.URL(), Token: token})
			if err != nil {
				t.Error(err)
				return
			}
			defer wc.Close()
			_ = (&Worker{Conn: wc, Cores: 1, Name: fmt.Sprint("w", i), Stall: time.Millisecond}).Run(wctx)
		})
	}
	wg.Go(func() {
		for id := 3; wctx.Err() == nil; id = (id + 97) % len(plan.Tasks) {
			forge(id, queens.TaskResult{Solutions: 2*uint64(id) + 1_000_001, HalfTurn: 1})
			_ = sleep(wctx, 5*time.Millisecond)
		}
	})
	c := &Coordinator{Conn: nc, Logf: log.Logf}
	counts, st, err := c.Run(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := counts.Total.String(), kv[n][0]; got != want {
		t.Errorf("Q(%d) with forged results = %s, want %s", n, got, want)
	}
	if st.Rejected < 4 {
		t.Errorf("rejected %d results, want at least 4", st.Rejected)
	}
	for _, want := range []string{
		`rejected result q12v1.0 (revision 1) from worker "forger": task 0: 0 nodes`,
		`rejected result q12v1.1 (revision 2) from worker "forger": task 1: 5 solutions fixed by a half turn, more than its 3 solutions`,
		`rejected result q12v1.2 (revision 3) from worker "forger": task 2: 1099511627776 solutions, more than the`,
		fmt.Sprintf(`rejected result q12v1.%d (revision 4) from worker "forger": task id %d is not in the plan`, len(plan.Tasks)+5, len(plan.Tasks)+5),
	} {
		if !log.contains(want) {
			t.Errorf("coordinator log has no %q; log:\n%s", want, strings.Join(log.lines, "\n"))
		}
	}
}

// liar is a worker that computes every task but stores a consistent lie (two solutions
// more: still whole classes, still possible for the task) for the first task it takes. It
// does second computations honestly, except of its own tasks, which it hands back.
func liar(ctx context.Context, t *testing.T, nc *nats.Conn, plan *queens.Plan, lied chan<- int) {
	js, _ := jetstream.New(nc)
	var cons jetstream.Consumer
	var results jetstream.KeyValue
	for ctx.Err() == nil {
		var err error
		cons, err = js.Consumer(ctx, TaskStream, consumerName(queens.PlanVersion))
		if err == nil {
			results, err = js.KeyValue(ctx, ResultsBucket)
		}
		if err == nil {
			break
		}
		_ = sleep(ctx, 20*time.Millisecond)
	}
	first := true
	for ctx.Err() == nil {
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			continue
		}
		for msg := range batch.Messages() {
			var m TaskMsg
			if err := json.Unmarshal(msg.Data(), &m); err != nil {
				t.Error(err)
				return
			}
			if m.Verify && m.Not == "liar" {
				_ = msg.NakWithDelay(100 * time.Millisecond)
				continue
			}
			r := plan.Tasks[m.ID].Count()
			key := resultKey(m.Job, m.ID)
			if m.Verify {
				key = verifyKey(m.Job, m.ID)
			} else if first && plan.Tasks[m.ID].Weight == 8 && r.Solutions > 0 {
				first = false
				r.Solutions += 2
				lied <- m.ID
			}
			data, _ := json.Marshal(Result{Job: m.Job, N: m.N, PlanVersion: m.PlanVersion, TaskResult: r, Worker: "liar"})
			if _, err := results.Put(ctx, key, data); err != nil && ctx.Err() == nil {
				t.Error(err)
			}
			_ = msg.Ack()
		}
	}
}

// TestVerifyCatchesLiar: a worker that lies about one task, consistently enough to pass
// every check of a result, is caught when that task is computed again (every task is, at
// --verify 1), by an honest worker or, with no other worker, by the coordinator itself.
// The count is refused with an error naming the task, and both results are deleted.
func TestVerifyCatchesLiar(t *testing.T) {
	const n = 12
	for _, honest := range []bool{true, false} {
		t.Run(fmt.Sprint("honest worker ", honest), func(t *testing.T) {
			token := NewToken()
			s := startServer(t, t.TempDir(), token)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			connect := func() *nats.Conn {
				nc, err := Connect(ctx, ConnectOptions{URL: s.URL(), Token: token})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(nc.Close)
				return nc
			}
			nc := connect()
			plan := mustPlan(t, n)
			wctx, wcancel := context.WithCancel(ctx)
			var wg sync.WaitGroup
			defer func() { wcancel(); wg.Wait() }()
			lied := make(chan int, 1)
			lc := connect()
			wg.Go(func() { liar(wctx, t, lc, plan, lied) })
			log := &logger{t: t}
			type outcome struct {
				st  Stats
				err error
			}
			done := make(chan outcome, 1)
			go func() {
				c := &Coordinator{Conn: nc, Verify: 1, VerifyWait: 5 * time.Second, Logf: log.Logf}
				_, st, err := c.Run(ctx, plan)
				done <- outcome{st, err}
			}()
			id := <-lied
			if honest {
				hc := connect()
				wg.Go(func() { _ = (&Worker{Conn: hc, Cores: 2, Name: "honest"}).Run(wctx) })
			}
			o := <-done
			var dis *DisagreeError
			if !errors.As(o.err, &dis) || dis.ID != id {
				t.Fatalf("count with a liar on task %d: %v, want a DisagreeError naming task %d; log:\n%s", id, o.err, id, strings.Join(log.lines, "\n"))
			}
			want := fmt.Sprintf("task %d of job q12v1 was computed twice with different results", id)
			if !strings.Contains(o.err.Error(), want) || !strings.Contains(o.err.Error(), "the total is refused") {
				t.Errorf("error %q does not say %q and that the total is refused", o.err, want)
			}
			if !honest && !log.contains(`verifying 1 tasks here in the coordinator`) && !log.contains(`here in the coordinator: every result of this job came from one worker, "liar"`) {
				t.Errorf("coordinator did not say it verified here; log:\n%s", strings.Join(log.lines, "\n"))
			}
			js, _ := jetstream.New(nc)
			results, _ := js.KeyValue(ctx, ResultsBucket)
			if _, err := results.Get(ctx, resultKey(JobID(n, queens.PlanVersion), id)); !errors.Is(err, jetstream.ErrKeyNotFound) {
				t.Errorf("the lie about task %d is still stored (%v)", id, err)
			}
		})
	}
}
