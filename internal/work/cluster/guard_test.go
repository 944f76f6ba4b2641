package cluster

// The holes of issue 44, each tried by a client holding ONE identity the operator issued,
// on the real embedded server on 127.0.0.1, at an N whose published counts are switched
// off (noPublished).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestReplyRedirection: a worker puts on its own requests and results the reply subject
// of what it may not write itself: the results stream, the jobs bucket, another identity's
// result subject (a refusal charged to it), an unissued name's request subject (a ghost),
// and another identity's inbox (its assignment stolen). The coordinator answers none of
// them: the stream holds only its sealed results, the bucket only its sealed records, the
// honest identity is charged with nothing, no ghost appears, and nothing lands in the
// honest inbox; the total is exact.
func TestReplyRedirection(t *testing.T) {
	parallel(t)
	noPublished(t)
	sealer := NewSealer("redirect")
	r := startGuarded(t, "rogue", &Coordinator{Sealer: sealer})
	tj, dir, ctx, h, log, out := r.tj, r.dir, r.ctx, r.h, r.log, r.out
	admin := coordConn(t, ctx, r.url, r.a)

	// What lands in the honest worker's inbox but for its own requests: a spy with every
	// right listens on a subject there that h1 never asks on.
	var stolen atomic.Int64
	spy, err := admin.Subscribe(InboxPrefix("h1")+".stolen", func(*nats.Msg) { stolen.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	defer spy.Unsubscribe()
	// Every value written into the jobs bucket must be a sealed job record.
	js, _ := jetstream.New(admin)
	var forged atomic.Int64
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go func() {
		for ctx.Err() == nil {
			jobs, err := js.KeyValue(watchCtx, JobsBucket)
			if err != nil {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			w, err := jobs.WatchAll(watchCtx)
			if err != nil {
				return
			}
			for e := range w.Updates() {
				var rec JobRecord
				if e != nil && e.Operation() == jetstream.KeyValuePut {
					if checked, err := openValue(sealer, e.Key(), e.Value(), &rec); err != nil || !checked {
						forged.Add(1)
					}
				}
			}
			return
		}
	}()

	want, _ := json.Marshal(WantMsg{Name: "rogue", Messages: MessageVersion, Kinds: work.Kinds()})
	junk, _ := json.Marshal(Result{Job: tj.job, Name: "rogue", Nonce: "junk"})
	targets := []string{
		resultsPrefix + tj.job + ".0",
		"$KV." + JobsBucket + "." + tj.job,
		resultSubject("h1", tj.job),
		wantSubject("ghost"),
		InboxPrefix("h1") + ".stolen",
	}
	rctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		for rctx.Err() == nil {
			for _, to := range targets {
				_ = h.nc.PublishRequest(wantSubject("rogue"), to, want)
				_ = h.nc.PublishRequest(resultSubject("rogue", tj.job), to, junk)
			}
			time.Sleep(2 * time.Millisecond)
		}
	})
	o := <-out
	stop()
	wg.Wait()
	if o.err != nil || o.total != tj.total {
		t.Fatalf("count with a redirecting worker: %s, %v; want %s", o.total, o.err, tj.total)
	}
	_ = admin.Flush()
	time.Sleep(100 * time.Millisecond) // the watcher's last updates

	// The results stream: every message a sealed result under its key.
	st, err := js.Stream(ctx, ResultsStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		key := m.Header.Get(KeyHeader)
		if _, _, _, err := decodeResult(sealer, key, m.Data); err != nil {
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("the results stream holds %d messages the coordinator did not write, of %d", bad, info.State.Msgs)
	}
	if n := forged.Load(); n > 0 {
		t.Errorf("the jobs bucket was written %d times with values the coordinator did not seal", n)
	}
	if n := stolen.Load(); n > 0 {
		t.Errorf("%d answers landed in h1's inbox on a subject it never asked on", n)
	}
	hist, err := ReadHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rec := hist[tj.job]["h1"]; rec != nil && rec.Refused > 0 {
		t.Errorf("h1 is charged with %d refused results it never sent", rec.Refused)
	}
	if rec := hist[tj.job]["ghost"]; rec != nil {
		t.Errorf("an identity nobody issued, ghost, has a history: %+v", rec)
	}
	if log.contains("ghost (") || log.contains("worker ghost") {
		t.Errorf("the coordinator speaks of a ghost:\n%s", strings.Join(log.lines, "\n"))
	}
	if o.st.Identities > 3 {
		t.Errorf("%d identities in the count, want at most h1, h2 and rogue", o.st.Identities)
	}
	if !log.contains("not in its own inbox") {
		t.Errorf("no refusal of a redirected reply in the log:\n%s", strings.Join(log.lines, "\n"))
	}
}

// A guardRun is a count of N = 10 under way with one hostile client and two honest
// workers, h1 and h2, on a server of issued identities.
type guardRun struct {
	tj  testJob
	dir string
	url string
	a   *Authority
	ctx context.Context
	h   *hostile
	log *logger
	out <-chan runOutcome
}

// startGuarded starts c (its connection, state, log and VerifyWait set here) on N = 10
// with the honest workers, and connects the hostile client of identity name.
func startGuarded(t *testing.T, name string, c *Coordinator) *guardRun {
	t.Helper()
	r := &guardRun{tj: queensJob(t, 10), log: &logger{t: t}}
	var s *Server
	r.dir, s, r.a, r.ctx = attackServer(t)
	r.url = s.URL()
	r.h = issuedHostile(t, r.url, r.a, name)
	c.Conn, c.StateDir, c.VerifyWait, c.Logf = coordConn(t, r.ctx, r.url, r.a), r.dir, time.Second, r.log.Logf
	r.out = honestFirst(t, r.ctx, c, r.tj.plan, issuedWorker(t, r.ctx, r.url, r.a, "h1"), issuedWorker(t, r.ctx, r.url, r.a, "h2"))
	return r
}

// TestAdmit: a coordinator whose Admit refuses an identity (revoked since it connected)
// gives it nothing: no task, no place among the identities, no verification.
func TestAdmit(t *testing.T) {
	parallel(t)
	noPublished(t)
	r := startGuarded(t, "revoked", &Coordinator{Admit: func(user string) bool { return user != "revoked" }})
	tj, dir, ctx, h, log, out := r.tj, r.dir, r.ctx, r.h, r.log, r.out
	got := 0
	rctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		want, _ := json.Marshal(WantMsg{Name: "revoked", Messages: MessageVersion, Kinds: work.Kinds()})
		for rctx.Err() == nil {
			qctx, cancel := context.WithTimeout(rctx, 200*time.Millisecond)
			if _, err := h.nc.RequestWithContext(qctx, wantSubject("revoked"), want); err == nil {
				got++
			}
			cancel()
		}
	})
	o := <-out
	stop()
	wg.Wait()
	if o.err != nil || o.total != tj.total {
		t.Fatalf("count: %s, %v; want %s", o.total, o.err, tj.total)
	}
	if got > 0 {
		t.Errorf("the identity not admitted got %d answers", got)
	}
	hist, _ := ReadHistory(dir)
	if rec := hist[tj.job]["revoked"]; rec != nil {
		t.Errorf("the identity not admitted has a history: %+v", rec)
	}
	if !log.contains("worker revoked refused: the identity is not issued, or revoked") {
		t.Errorf("no refusal in the log:\n%s", strings.Join(log.lines, "\n"))
	}
}

// TestLargeMessages: the server takes no message larger than MaxMessageBytes from a
// worker (it took 1 MiB: 1 MiB results killed the coordinator, heartbeats took it to
// 5.4 GiB), and a flood of the largest it takes, on every subject of one identity, while
// a count runs, leaves the heap small and the total exact.
func TestLargeMessages(t *testing.T) {
	// Serial, not parallel: it bounds the process's peak heap.
	noPublished(t)
	r := startGuarded(t, "flood", &Coordinator{})
	tj, ctx, h, out := r.tj, r.ctx, r.h, r.out
	if got := h.nc.MaxPayload(); got != MaxMessageBytes {
		t.Errorf("the server takes messages of %d bytes, want %d", got, MaxMessageBytes)
	}
	if err := h.nc.Publish(beatSubject("flood"), make([]byte, 1<<20)); !errors.Is(err, nats.ErrMaxPayload) {
		t.Errorf("a heartbeat of 1 MiB: %v, want %v", err, nats.ErrMaxPayload)
	}
	big := make([]byte, MaxMessageBytes-1024)
	for i := range big {
		big[i] = ' '
	}
	rctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var peak uint64
	wg.Go(func() {
		for rctx.Err() == nil {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			time.Sleep(50 * time.Millisecond)
		}
	})
	for _, subj := range []string{wantSubject("flood"), beatSubject("flood"), resultSubject("flood", tj.job)} {
		wg.Go(func() {
			inbox := InboxPrefix("flood") + ".x"
			if subj == beatSubject("flood") {
				inbox = "" // a heartbeat asks for no answer
			}
			// At most 4,000 messages a second of each kind, 60 MB/s, 10,000 of them (the
			// coordinator, the server and the flood share this machine's cores, and the
			// test runs with -race too).
			for i := 0; rctx.Err() == nil && i < 10000; i++ {
				_ = h.nc.PublishRequest(subj, inbox, big)
				if i%4 == 0 {
					time.Sleep(time.Millisecond)
				}
			}
		})
	}
	o := <-out
	stop()
	wg.Wait()
	if o.err != nil || o.total != tj.total {
		t.Fatalf("count under a flood: %s, %v; want %s", o.total, o.err, tj.total)
	}
	// The test's process holds the server, the coordinator, two workers and the flood.
	t.Logf("peak heap in use under the flood: %d MiB", peak>>20)
	if peak > 512<<20 {
		t.Errorf("peak heap in use under the flood: %d MiB, want at most 512", peak>>20)
	}
}

// TestRefusalLog: one identity's refusals of one kind are logged once per refuseEvery,
// the next line saying how many were not, and a worker-chosen string is cut short.
func TestRefusalLog(t *testing.T) {
	parallel(t)
	var lines []string
	g := newGuard(nil, func(format string, args ...any) {
		lines = append(lines, strings.TrimSpace(fmt.Sprintf(format, args...)))
	})
	now := time.Unix(1e9, 0)
	g.now = func() time.Time { return now }
	long := strings.Repeat("x", 1<<16)
	for range 1000 {
		g.refuse("w1", "result", "refused %s", clipName(long))
	}
	g.refuse("w2", "result", "refused w2")
	now = now.Add(refuseEvery)
	g.refuse("w1", "result", "refused again")
	if len(lines) != 3 || !strings.Contains(lines[2], "and 999 more result refusals") || len(lines[0]) > 2*clipLen+16 {
		t.Errorf("1000 refusals of w1, one of w2, one of w1 after %v: %d lines:\n%s", refuseEvery, len(lines), strings.Join(lines, "\n"))
	}
	if k := refusalKind(`result of job "` + long + `" on the subject of job q10v1`); len(k) > 24 {
		t.Errorf("refusalKind of a worker's long job name = %q, want at most 24 bytes", k)
	}
}

// TestGuardRates: each kind of message of one identity passes at its rate, with its burst,
// a large message counting as one each 256 bytes; a reply outside the sender's inbox never passes.
func TestGuardRates(t *testing.T) {
	parallel(t)
	g := newGuard(nil, nil)
	now := time.Unix(1e9, 0)
	g.now = func() time.Time { return now }
	m := &nats.Msg{Reply: InboxPrefix("w1") + ".1", Data: []byte("{}")}
	passed := 0
	for range 2 * int(rates[kindWant].burst) {
		if g.pass("w1", kindWant, m) {
			passed++
		}
	}
	if passed != int(rates[kindWant].burst) {
		t.Errorf("%d requests at once passed, want the burst, %v", passed, rates[kindWant].burst)
	}
	now = now.Add(time.Second)
	m.Data = make([]byte, 64<<10)
	passed = 0
	for range 1000 {
		if g.pass("w1", kindWant, m) {
			passed++
		}
	}
	if want := int(rates[kindWant].rate / 256); passed != want {
		t.Errorf("%d requests of 64 KiB passed a second later, want %d", passed, want)
	}
	for _, reply := range []string{"", InboxPrefix("w2") + ".1", InboxPrefix("w1"), "_INBOX_w1x.1", "$KV.chesspuzzles_jobs.q10v1"} {
		if g.pass("w3", kindResult, &nats.Msg{Reply: reply}) {
			t.Errorf("a result of w3 asking for an answer on %q passed", reply)
		}
	}
	if g.pass("w3", kindBeat, &nats.Msg{Reply: InboxPrefix("w3") + ".1"}) {
		t.Errorf("a heartbeat asking for an answer passed")
	}
}

// TestLeaseHogging: one identity asks for every task it can and keeps each alive with
// heartbeats, never handing one in (it took all 1,632 leases of a job in 3 s and held them
// until it stopped). It holds at most two leases a core it says it has, and once the
// honest workers have nothing else to do they get its tasks as backups: the count ends.
func TestLeaseHogging(t *testing.T) {
	// Serial, not parallel, and its two counts one after the other: the hog's leases
	// last 500 ms between its beats, and under -race beside other counts (29 Nov, load
	// 16) the beats came late, its leases lapsed and it was given more than its cap.
	noPublished(t)
	for _, cores := range []int{1, 0} {
		t.Run(fmt.Sprintf("cores=%d", cores), func(t *testing.T) { leaseHogging(t, cores) })
	}
}

// leaseHogging is TestLeaseHogging by a hog that says it has cores cores (0: says nothing).
func leaseHogging(t *testing.T, cores int) {
	// Backups come after four ack deadlines: 2 s.
	r := startGuarded(t, "hog", &Coordinator{AckWait: 500 * time.Millisecond})
	tj, ctx, h, log, out := r.tj, r.ctx, r.h, r.log, r.out
	var mu sync.Mutex
	got := map[string]bool{} // the nonces it got
	rctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		want, _ := json.Marshal(WantMsg{Name: "hog", Messages: MessageVersion, Kinds: work.Kinds(), Cores: cores})
		var held []string
		for rctx.Err() == nil {
			m, err := h.request(rctx, wantSubject("hog"), want)
			var as Assignment
			if err == nil && json.Unmarshal(m.Data, &as) == nil && as.Nonce != "" {
				held = append(held, as.Nonce)
				mu.Lock()
				got[as.Nonce] = true
				mu.Unlock()
			}
			beat, _ := json.Marshal(BeatMsg{Nonces: held})
			_ = h.nc.Publish(beatSubject("hog"), beat)
			time.Sleep(5 * time.Millisecond)
		}
	})
	o := <-out
	stop()
	wg.Wait()
	if o.err != nil || o.total != tj.total {
		t.Fatalf("count with a hog: %s, %v; want %s; log:\n%s", o.total, o.err, tj.total, strings.Join(log.lines, "\n"))
	}
	mu.Lock()
	defer mu.Unlock()
	// A lease that lapsed (its beat came more than 500 ms after the last, as at load
	// beside other tests under -race) frees its place under the cap: the coordinator
	// says so in the log, and the hog may be given another in its place.
	lapsed := lapses(log, "hog")
	if want := leaseCap(cores, DefaultMaxLeases); len(got) > want+lapsed {
		t.Errorf("the hog, of %d cores, got %d leases, want at most %d and the %d that lapsed", cores, len(got), want, lapsed)
	}
	if lapsed > 0 {
		t.Logf("%d of the hog's leases lapsed between its beats", lapsed)
	}
}

// lapses returns how many leases of identity user the log says lapsed without a word from
// it (dispatch.expire).
func lapses(log *logger, user string) int {
	one := regexp.MustCompile(`no word from worker ` + regexp.QuoteMeta(user) + ` on task \d+ for`)
	many := regexp.MustCompile(`no word from worker ` + regexp.QuoteMeta(user) + ` on (\d+) tasks for`)
	log.mu.Lock()
	defer log.mu.Unlock()
	n := 0
	for _, line := range log.lines {
		if one.MatchString(line) {
			n++
		} else if m := many.FindStringSubmatch(line); m != nil {
			k, _ := strconv.Atoi(m[1])
			n += k
		}
	}
	return n
}

// TestAdmitIssued: the embedded server's Admit takes an identity issued after it was made
// at once, refuses one never issued, and a revoked one within admitReload.
func TestAdmitIssued(t *testing.T) {
	parallel(t)
	dir := t.TempDir()
	a, err := LoadOrCreateAuthority(dir)
	if err != nil {
		t.Fatal(err)
	}
	admit := admitIssued(a, t.Logf)
	if !admit("local") || admit("w1") {
		t.Fatalf("before any issue: local %v, w1 %v; want local only", admit("local"), admit("w1"))
	}
	other, err := LoadAuthority(dir) // "worker add" and "worker revoke", another process
	if err != nil {
		t.Fatal(err)
	}
	issue(t, other, "w1")
	if !admit("w1") {
		t.Errorf("w1, issued a moment ago, is not admitted")
	}
	if err := other.Revoke("w1"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(admitReload + time.Second)
	for admit("w1") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if admit("w1") {
		t.Errorf("w1, revoked, is still admitted after %v", admitReload+time.Second)
	}
}
