package cluster

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestConnectionCap: one issued identity opens 120 connections (without reconnecting when
// one is closed) to a server that takes 60 in all, the stand-in for the file limit that
// once kept an honest worker out (issue 44: 2,000 connections from one credential, the
// coordinator's limit at 1,100). It keeps at most DefaultMaxConnections, the log names it
// once, and an honest worker joins and counts a job with the coordinator.
func TestConnectionCap(t *testing.T) {
	parallel(t)
	dir := t.TempDir()
	a, err := LoadOrCreateAuthority(dir)
	if err != nil {
		t.Fatal(err)
	}
	log := &logger{t: t}
	s, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: dir, Authority: a, Logf: log.Logf, maxConn: 60})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	token, seed := mustSplit(t, issue(t, a, "greedy"))
	var open []*nats.Conn
	t.Cleanup(func() {
		for _, nc := range open {
			nc.Close()
		}
	})
	start := time.Now()
	for range 120 {
		nc, err := nats.Connect(s.URL(), nats.UserJWTAndSeed(token, seed), nats.NoReconnect())
		if err != nil {
			continue // the server is full for a moment: the attacker tries again
		}
		open = append(open, nc)
	}
	deadline := time.Now().Add(30 * time.Second) // the pass path ends as soon as they are closed
	live := 0
	for {
		live = 0
		for _, nc := range open {
			if !nc.IsClosed() {
				live++
			}
		}
		if live <= DefaultMaxConnections && s.conns.held("greedy") <= DefaultMaxConnections || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if live > DefaultMaxConnections {
		t.Errorf("one identity holds %d of the %d connections it opened, want at most %d", live, len(open), DefaultMaxConnections)
	}
	if !log.contains("worker greedy holds 8 connections") {
		t.Errorf("the log does not name the identity:\n%s", strings.Join(log.lines, "\n"))
	}
	// One line per refuseEvery: two while the 120 connections take under 10 s, more when
	// they take longer (five lines under -race at load 19, 30 Nov, the test 69 s).
	if n, most := log.count(""), 1+int(time.Since(start)/refuseEvery); n > max(2, most) {
		t.Errorf("%d lines logged for one identity's connections in %v, want at most one per %v:\n%s",
			n, time.Since(start).Round(time.Millisecond), refuseEvery, strings.Join(log.lines, "\n"))
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	w := issuedWorker(t, ctx, s.URL(), a, "honest")
	plan := mustPlan(t, 8)
	c := &Coordinator{Conn: coordConn(t, ctx, s.URL(), a), StateDir: dir}
	t.Cleanup(runWorkers(ctx, w))
	counts, _, err := c.Run(ctx, plan)
	if err != nil || counts.Total.String() != "92" {
		t.Fatalf("Q(8) beside an identity holding its connections = %v, %v; want 92", counts.Total, err)
	}
}
