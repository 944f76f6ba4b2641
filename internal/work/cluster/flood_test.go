package cluster

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// The floods of TestFlood: what one identity sends, as fast as the loopback takes it,
// from three connections (the publishers of one credential).
var floods = []struct {
	name  string
	subj  func(job string) []string
	bytes int
}{
	{"wants", func(string) []string { return []string{wantSubject("flood")} }, 150},
	{"beats", func(string) []string { return []string{beatSubject("flood")} }, 100},
	{"results", func(job string) []string { return []string{resultSubject("flood", job)} }, 400},
	{"large", func(job string) []string {
		return []string{wantSubject("flood"), beatSubject("flood"), resultSubject("flood", job)}
	}, MaxMessageBytes - 1024},
}

// floodRun counts Q(10), published counts off, with two honest workers, while identity
// "flood" sends the flood of kind (none if ""): three connections of its credential
// publish as fast as they can until the count ends, each reconnecting when closed. It
// returns the count's time, from the honest workers' first tasks, and the log. Each
// honest task takes at least stall.
func floodRun(t *testing.T, kind string, stall time.Duration) (time.Duration, *logger) {
	t.Helper()
	dir := t.TempDir()
	a, err := LoadOrCreateAuthority(dir)
	if err != nil {
		t.Fatal(err)
	}
	log := &logger{t: t}
	began := time.Now()
	s, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: dir, Authority: a, Logf: func(format string, args ...any) {
		log.Logf("%v: "+format, append([]any{time.Since(began).Round(time.Millisecond)}, args...)...)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	tj := queensJob(t, 10)
	c := &Coordinator{Conn: coordConn(t, ctx, s.URL(), a), StateDir: dir, VerifyWait: time.Second, Logf: log.Logf}
	var hs []*hostile
	if kind != "" {
		token, seed := mustSplit(t, issue(t, a, "flood"))
		for range 3 {
			hs = append(hs, connectHostile(t, s.URL(), "flood", nats.UserJWTAndSeed(token, seed)))
		}
	}
	w1, w2 := issuedWorker(t, ctx, s.URL(), a, "h1"), issuedWorker(t, ctx, s.URL(), a, "h2")
	w1.Stall, w2.Stall = stall, stall
	out := honestFirst(t, ctx, c, tj.plan, w1, w2)
	t0 := time.Now()
	fctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, f := range floods {
		if f.name != kind {
			continue
		}
		data := []byte(`{"name":"` + strings.Repeat("x", f.bytes-12) + `"}`)
		for i, h := range hs {
			subjs := f.subj(tj.job)
			subj := subjs[i%len(subjs)]
			reply := InboxPrefix("flood") + ".x"
			if subj == beatSubject("flood") {
				reply = ""
			}
			wg.Go(func() {
				for fctx.Err() == nil {
					if h.nc.PublishRequest(subj, reply, data) != nil {
						time.Sleep(time.Millisecond)
					}
				}
			})
		}
	}
	log.Logf("%v: the flood begins", t0.Sub(began).Round(time.Millisecond))
	o := <-out
	took := time.Since(t0)
	log.Logf("%v: the count ends", time.Since(began).Round(time.Millisecond))
	if os.Getenv("CHESSPUZZLES_TEST_LOGS") != "" {
		t.Log(strings.Join(log.lines, "\n"))
	}
	stop()
	wg.Wait()
	if o.err != nil || o.total != tj.total {
		t.Fatalf("count under a flood of %s: %s, %v; want %s; log:\n%s", kind, o.total, o.err, tj.total, strings.Join(log.lines, "\n"))
	}
	return took, log
}

// TestFlood: one identity floods the coordinator with requests, heartbeats, results or
// the largest messages the server takes, from three connections as fast as they go (a
// flood of large messages made a count of 2 s take 43 s: the coordinator's queue dropped
// honest messages with the flood). Past floodAfter refusals a second the server closes its
// connections and refuses them for shunFirst, and the count ends exact. By default the
// flood of large messages alone; CHESSPUZZLES_LONG=1 runs each flood, alternated with
// counts without one (3 pairs a flood, the honest tasks stalled to 40 ms so that a count
// lasts some 6 s), and wants each flood's count within twice the time without it;
// CHESSPUZZLES_FLOOD60=1 the same with counts of some 60 s, one pair a flood (9 min).
func TestFlood(t *testing.T) {
	// Serial, not parallel: it compares the wall time of counts with and without a flood.
	noPublished(t)
	long, minute := os.Getenv("CHESSPUZZLES_LONG") == "1", os.Getenv("CHESSPUZZLES_FLOOD60") == "1"
	if !long && !minute {
		took, log := floodRun(t, "large", 0)
		if !log.contains("its connections are closed, and it cannot connect again") {
			t.Errorf("the flood was not shut out; log:\n%s", strings.Join(log.lines, "\n"))
		}
		t.Logf("under a flood of large messages: %v", took)
		return
	}
	stall, pairs := 40*time.Millisecond, 3 // 272 tasks on two workers: some 6 s a count
	if minute {
		stall, pairs = 400*time.Millisecond, 1 // some 60 s a count
	}
	for _, f := range floods {
		t.Run(f.name, func(t *testing.T) {
			var with, without time.Duration
			shut := 0
			for range pairs {
				d, _ := floodRun(t, "", stall)
				without += d
				d, log := floodRun(t, f.name, stall)
				with += d
				if log.contains("its connections are closed, and it cannot connect again") {
					shut++
				}
			}
			t.Logf("flood of %s: %v with it, %v without (%d counts each), ratio %.2f; shut out in %d of %d", f.name, with, without, pairs, float64(with)/float64(without), shut, pairs)
			if with > 2*without {
				t.Errorf("flood of %s: %v with it, %v without, want at most twice", f.name, with, without)
			}
		})
	}
	if status, err := os.ReadFile("/proc/self/status"); err == nil { // Linux
		for line := range strings.Lines(string(status)) {
			if strings.HasPrefix(line, "VmHWM:") {
				t.Logf("peak RSS of the test process (server, coordinator, workers and floods): %s", strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:")))
			}
		}
	}
}

// TestRefusedResultsCost: a result the coordinator refused costs its identity refusedCost
// of its rate: after a burst of refusals its next results are dropped by the guard, before
// the coordinator's loop reads them, and pass again once the rate has refilled.
func TestRefusedResultsCost(t *testing.T) {
	parallel(t)
	g := newGuard(nil, nil)
	now := time.Unix(1e9, 0)
	g.now = func() time.Time { return now }
	m := &nats.Msg{Reply: InboxPrefix("w1") + ".1", Data: []byte("{}")}
	if !g.pass("w1", kindResult, m) {
		t.Fatal("a first result did not pass")
	}
	for range int(rates[kindResult].burst/refusedCost) + 1 {
		g.charge("w1", kindResult, refusedCost)
	}
	if g.pass("w1", kindResult, m) {
		t.Errorf("a result passed after %v refusals, want none until the rate refills", rates[kindResult].burst/refusedCost+1)
	}
	now = now.Add(time.Duration(2*rates[kindResult].burst/rates[kindResult].rate+1) * time.Second)
	if !g.pass("w1", kindResult, m) {
		t.Errorf("no result passed once the rate refilled")
	}
}
