package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// known returns the published Q(n) and U(n) (queens.Known): n → [Q(n), U(n)].
func known(t *testing.T) map[int][2]string {
	t.Helper()
	out := map[int][2]string{}
	for n := 1; n <= queens.MaxKnownN; n++ {
		c, _ := queens.Known(n)
		out[n] = [2]string{c.Total.String(), c.Unique.String()}
	}
	return out
}

// logger collects log lines for assertions.
type logger struct {
	mu    sync.Mutex
	lines []string
	t     *testing.T
}

func (l *logger) Logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logger) contains(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

func startServer(t *testing.T, dir, token string) *Server {
	t.Helper()
	s, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: dir, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s
}

// connectTest connects to s as name under a context that ends after d; the connection is
// closed and the context cancelled when the test ends (after its deferred calls).
func connectTest(t *testing.T, s *Server, d time.Duration, name string) (context.Context, *nats.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	nc, err := Connect(ctx, ConnectOptions{URL: s.URL(), Name: name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return ctx, nc
}

// TestInProcess counts small boards with an in-process coordinator and two in-process
// workers, each task computed twice.
func TestInProcess(t *testing.T) {
	kv := known(t)
	s := startServer(t, t.TempDir(), "")
	ctx, nc := connectTest(t, s, 2*time.Minute, "test")

	wctx, wcancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wc, err := Connect(ctx, ConnectOptions{URL: s.URL()})
			if err != nil {
				t.Error(err)
				return
			}
			defer wc.Close()
			w := &Worker{Conn: wc, Cores: 2, Name: fmt.Sprint("w", i)}
			_ = w.Run(wctx)
		}()
	}
	defer func() { wcancel(); wg.Wait() }()

	for _, n := range []int{1, 4, 8, 10} {
		t.Run(fmt.Sprint("N=", n), func(t *testing.T) {
			// Every task computed twice, by both workers.
			c := &Coordinator{Conn: nc, Verify: 1}
			plan := mustPlan(t, n)
			counts, st, err := c.Run(ctx, plan)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := counts.Total.String(), kv[n][0]; got != want {
				t.Errorf("Q(%d) = %s, want %s", n, got, want)
			}
			if got, want := counts.Unique.String(), kv[n][1]; got != want {
				t.Errorf("U(%d) = %s, want %s", n, got, want)
			}
			if st.Rejected != 0 {
				t.Errorf("rejected %d results, want 0", st.Rejected)
			}
			if st.Verified != len(plan.Tasks) {
				t.Errorf("verified %d tasks, want all %d", st.Verified, len(plan.Tasks))
			}
		})
	}
}

func mustPlan(t *testing.T, n int) *queens.Plan {
	t.Helper()
	p, err := queens.NewPlan(n)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDuplicateAndForeignResults stores, before any worker runs, a correct result twice and
// a foreign one (another plan version, another N) under a job's keys: the total counts the
// duplicate once and rejects the foreign ones with a logged reason, and their tasks are
// computed.
func TestDuplicateAndForeignResults(t *testing.T) {
	const n = 9
	kv := known(t)
	s := startServer(t, t.TempDir(), "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nc, err := Connect(ctx, ConnectOptions{URL: s.URL()})
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
	good := Result{Job: job, N: n, PlanVersion: queens.PlanVersion, TaskResult: plan.Tasks[0].Count()}
	put := func(id int, r Result) {
		data, _ := json.Marshal(r)
		if _, err := results.Put(ctx, resultKey(job, id), data); err != nil {
			t.Fatal(err)
		}
	}
	put(0, good)
	put(0, good) // the same task delivered and stored twice
	bogus := good
	bogus.ID, bogus.PlanVersion, bogus.Solutions = 1, queens.PlanVersion+1, 1000
	put(1, bogus)
	other := good
	other.ID, other.N, other.Solutions = 2, n+1, 1000
	other.TaskResult.ID = 2
	put(2, other)

	log := &logger{t: t}
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	wlog := &logger{t: t}
	go func() {
		w := &Worker{Conn: nc, Cores: 2, Name: "w", Logf: wlog.Logf, Verbose: true}
		_ = w.Run(wctx)
	}()
	c := &Coordinator{Conn: nc, Logf: log.Logf}
	counts, st, err := c.Run(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := counts.Total.String(), kv[n][0]; got != want {
		t.Errorf("Q(%d) = %s, want %s", n, got, want)
	}
	if st.Rejected != 2 {
		t.Errorf("rejected %d results, want 2", st.Rejected)
	}
	if st.Resumed != 1 {
		t.Errorf("resumed with %d results, want 1", st.Resumed)
	}
	for _, want := range []string{"plan version 2, but job q9v1 has plan version 1", "N=10, but job q9v1 has N=9"} {
		if !log.contains(want) {
			t.Errorf("coordinator log has no %q; log:\n%s", want, strings.Join(log.lines, "\n"))
		}
	}
	// The coordinator deleted the foreign results and queued their tasks again.
	if st.Requeued != 2 {
		t.Errorf("queued %d tasks again, want 2", st.Requeued)
	}
	// Task 0 had a result: no worker computed it.
	if wlog.contains(fmt.Sprintf("task %s started", resultKey(job, 0))) {
		t.Errorf("a worker computed task 0, which had a result")
	}
}

// TestRedelivery: a "worker" that takes three tasks, stores their results (twice) and dies
// before acknowledging them: the tasks come again after the ack deadline, the next worker
// acknowledges them without computing, and each counts once.
func TestRedelivery(t *testing.T) {
	const n = 8
	kv := known(t)
	s := startServer(t, t.TempDir(), "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nc, err := Connect(ctx, ConnectOptions{URL: s.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	plan := mustPlan(t, n)
	type outcome struct {
		counts queens.Counts
		err    error
	}
	done := make(chan outcome, 1)
	go func() {
		c := &Coordinator{Conn: nc, AckWait: 500 * time.Millisecond}
		counts, _, err := c.Run(ctx, plan)
		done <- outcome{counts, err}
	}()

	js, _ := jetstream.New(nc)
	var cons jetstream.Consumer
	for {
		cons, err = js.Consumer(ctx, TaskStream, consumerName(queens.PlanVersion))
		if err == nil {
			if info, err := cons.Info(ctx); err == nil && info.NumPending >= 3 {
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	results, err := js.KeyValue(ctx, ResultsBucket)
	if err != nil {
		t.Fatal(err)
	}
	batch, err := cons.Fetch(3, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for msg := range batch.Messages() {
		var m TaskMsg
		if err := json.Unmarshal(msg.Data(), &m); err != nil {
			t.Fatal(err)
		}
		r := Result{Job: m.Job, N: m.N, PlanVersion: m.PlanVersion, TaskResult: plan.Tasks[m.ID].Count(), Worker: "dies before ack"}
		data, _ := json.Marshal(r)
		key := resultKey(m.Job, m.ID)
		for range 2 {
			if _, err := results.Put(ctx, key, data); err != nil {
				t.Fatal(err)
			}
		}
		keys = append(keys, key)
	}
	if len(keys) != 3 {
		t.Fatalf("fetched %d tasks, want 3", len(keys))
	}

	wlog := &logger{t: t}
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	wc, err := Connect(ctx, ConnectOptions{URL: s.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer wc.Close()
	go func() {
		w := &Worker{Conn: wc, Cores: 2, Name: "w", Logf: wlog.Logf, Verbose: true}
		_ = w.Run(wctx)
	}()
	o := <-done
	if o.err != nil {
		t.Fatal(o.err)
	}
	if got, want := o.counts.Total.String(), kv[n][0]; got != want {
		t.Errorf("Q(%d) = %s, want %s", n, got, want)
	}
	// The coordinator may finish before the deadline brings the tasks back: wait for them.
	deadline := time.Now().Add(10 * time.Second)
	for _, key := range keys {
		want := fmt.Sprintf("task %s has a result already (delivery 2)", key)
		for !wlog.contains(want) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if !wlog.contains(want) {
			t.Errorf("worker log has no %q", want)
		}
		if wlog.contains(fmt.Sprintf("task %s started", key)) {
			t.Errorf("worker computed %s, which had a result", key)
		}
	}
}

// TestStartServerErrors: a taken port or a bad address is reported at once.
func TestStartServerErrors(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, tc := range []struct{ name, listen, want string }{
		{"taken", l.Addr().String(), "address already in use"},
		{"no port", "127.0.0.1", "host:port"},
		{"bad port", "127.0.0.1:http", "port must be"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := StartServer(ServerOptions{Listen: tc.listen, StoreDir: t.TempDir()})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("StartServer(%q) = %v, want an error saying %q", tc.listen, err, tc.want)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("StartServer(%q) took %v to fail", tc.listen, d)
			}
		})
	}
}

// TestToken: a server with a token refuses a client without it or with another.
func TestToken(t *testing.T) {
	s := startServer(t, t.TempDir(), "sesame")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, tc := range []struct {
		name, token string
		ok          bool
	}{
		{"right", "sesame", true},
		{"none", "", false},
		{"wrong", "open", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nc, err := Connect(ctx, ConnectOptions{URL: s.URL(), Token: tc.token})
			if (err == nil) != tc.ok {
				t.Errorf("Connect with token %q: %v, want ok=%v", tc.token, err, tc.ok)
			}
			if err == nil {
				nc.Close()
			}
		})
	}
}

// TestConnectNoServer checks that Connect to a port where nothing listens gives up within
// about its 2 s with an error wrapping ErrCannotConnect, which the command reports as bad
// input.
func TestConnectNoServer(t *testing.T) {
	_, err := Connect(context.Background(), ConnectOptions{URL: "nats://127.0.0.1:1"})
	if !errors.Is(err, ErrCannotConnect) || !strings.HasSuffix(err.Error(), "no answer within 2s") {
		t.Fatalf("Connect to nothing: %v, want it to wrap ErrCannotConnect and say \"no answer within 2s\"", err)
	}
}
