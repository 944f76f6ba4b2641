package cluster

import (
	"context"
	"encoding/json"
	"net"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// freeAddr returns a loopback address with a port free a moment ago, for a server that
// must come back on the same address.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestWorkerAcrossCoordinators: a worker outlives a coordinator's embedded server (its job
// done, which the coordinator tells it before going), waits for the next, reconnects and
// works for it. The requests it made while the server was away must not turn into leases
// it never hears of: the second coordinator blames no live worker ("no word from
// worker"), and the count is exact.
func TestWorkerAcrossCoordinators(t *testing.T) {
	parallel(t)
	dir := t.TempDir()
	a, err := LoadOrCreateAuthority(dir)
	if err != nil {
		t.Fatal(err)
	}
	creds := issue(t, a, "node1")
	addr := freeAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	log := &logger{t: t}
	// AckWait longer than heldGrace and a beat (a third of it) together: an answer lost at
	// load is handed back by the worker's next beat (said as such) before its lease could
	// lapse (said as "no word from worker"). With 2 s, equal to heldGrace, either came
	// first (29 Nov, -race at load 19: 1 count in 10).
	opts := CountOptions{Listen: addr, StoreDir: dir, AckWait: 5 * time.Second, Verify: 0.05, VerifyWait: 5 * time.Second, Logf: log.Logf}
	kv := known(t)

	type outcome struct {
		total string
		err   error
	}
	count := func(n int) <-chan outcome {
		out := make(chan outcome, 1)
		go func() {
			c, _, err := Count(ctx, mustPlan(t, n), opts)
			if err != nil {
				out <- outcome{err: err}
				return
			}
			out <- outcome{total: c.Total.String()}
		}()
		return out
	}
	first := count(8)
	var w *Worker
	wlog := &logger{t: t}
	for w == nil {
		nc, user, err := ConnectWorker(ctx, ConnectOptions{URL: "nats://" + addr, UserCreds: creds, Name: "node1"})
		if err == nil {
			t.Cleanup(nc.Close)
			// Requests given up after 1 s: at load an answer took over 300 ms, and the
			// finished job's lingerMax passed before one reached the worker (1 in 10).
			w = &Worker{Conn: nc, Identity: user, Cores: 2, Name: "node1", Every: time.Hour, askWait: time.Second, Logf: wlog.Logf}
			break
		}
		if ctx.Err() != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop := runWorkers(ctx, w)
	defer stop()
	if o := <-first; o.err != nil || o.total != kv[8][0] {
		t.Fatalf("first job: %v, %v; want %s", o.total, o.err, kv[8][0])
	}
	// The server is gone with its coordinator; the worker asks in vain (each request
	// given up after askWait) until the next one comes.
	time.Sleep(1200 * time.Millisecond)
	log.mu.Lock()
	log.lines = nil
	log.mu.Unlock()
	if o := <-count(9); o.err != nil || o.total != kv[9][0] {
		t.Fatalf("second job: %v, %v; want %s", o.total, o.err, kv[9][0])
	}
	if log.contains("no word from worker") {
		t.Errorf("the coordinator blamed the worker for leases it never got: %q", log.lines)
	}
	// Each coordinator told the worker its job was done before its server went.
	for _, job := range []string{"q8v1", "q9v1"} {
		if !wlog.contains("worker node1: job " + job + " is done") {
			t.Errorf("the worker did not hear that job %s is done: %q", job, wlog.lines)
		}
	}
}

// TestHeldBeat: a worker's heartbeat that lists every lease it holds (Held), up to the
// assignment it last received (Seen), hands back explicitly the leases it never got (an
// answer lost): they are assigned again at once, said as such, with no worker blamed for
// silence; a lease it holds is kept, and so is one assigned after Seen (the answer still
// on its way).
func TestHeldBeat(t *testing.T) {
	serial(t)
	old := heldGrace
	heldGrace = 0 // the assignments below are a moment old
	t.Cleanup(func() { heldGrace = old })
	dir := t.TempDir()
	s, a := authServer(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := issuedHostile(t, s.URL(), a, "h1")
	log := &logger{t: t}
	c := &Coordinator{Conn: coordConn(t, ctx, s.URL(), a), AckWait: time.Minute, Logf: log.Logf}
	plan := mustPlan(t, 8)
	done := make(chan error, 1)
	go func() {
		_, _, err := c.Run(ctx, plan)
		done <- err
	}()
	ask := func() Assignment {
		t.Helper()
		want, _ := json.Marshal(WantMsg{Name: "h1", Messages: MessageVersion, Kinds: work.Kinds(), Cores: 4, Instance: "i1"})
		for {
			m, err := h.nc.RequestWithContext(ctx, wantSubject("h1"), want)
			if err != nil {
				if ctx.Err() != nil {
					t.Fatal(err)
				}
				time.Sleep(20 * time.Millisecond)
				continue
			}
			var as Assignment
			if err := json.Unmarshal(m.Data, &as); err != nil {
				t.Fatal(err)
			}
			if as.Nonce != "" {
				return as
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	lost, kept, coming := ask(), ask(), ask()
	if lost.Seq != 1 || kept.Seq != 2 || coming.Seq != 3 {
		t.Fatalf("assignments numbered %d, %d, %d; want 1, 2, 3", lost.Seq, kept.Seq, coming.Seq)
	}
	beat, _ := json.Marshal(BeatMsg{Held: true, Instance: "i1", Seen: kept.Seq, Nonces: []string{kept.Nonce}})
	if err := h.nc.Publish(beatSubject("h1"), beat); err != nil {
		t.Fatal(err)
	}
	for !log.contains("worker h1 does not hold 1 task leased to it") {
		if ctx.Err() != nil {
			t.Fatalf("no line says the worker does not hold the lost lease: %q", log.lines)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The next task given is the one handed back: before any new one of the plan.
	if next := ask(); next.ID != lost.ID {
		t.Errorf("after the beat: task %d assigned, want %d, the one the worker never got, at once", next.ID, lost.ID)
	}
	r := newRogue(h, plan)
	for _, as := range []Assignment{kept, coming} {
		res, _ := r.result(as, false)
		if !r.hand(ctx, res) {
			t.Errorf("result of task %d (assignment %d) refused; its lease should be kept", as.ID, as.Seq)
		}
	}
	if log.contains("no word from worker") {
		t.Errorf("a worker blamed: %q", log.lines)
	}
	cancel()
	<-done
}
