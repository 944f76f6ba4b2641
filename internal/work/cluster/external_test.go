package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// TestExternalLimits: on a server the coordinator did not start but that trusts its state
// directory (configured as "worker server-config" does; here a server in the test
// process, reached only over the network), one identity is held to its connections,
// those it opened before the coordinator came too, and an identity that floods is shut
// out and then refused at authentication; another identity connects all the while. On a
// server that does not let the system account in, watchExternal says so.
func TestExternalLimits(t *testing.T) {
	// Serial, not parallel: its flood must outrun the rate limit, and under -race beside
	// other tests (29 Nov, load 17) the starved flooder was not shut out within 10 s.
	dir := t.TempDir()
	a, err := LoadOrCreateAuthority(dir)
	if err != nil {
		t.Fatal(err)
	}
	opts := &server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true}
	if err := a.configure(opts); err != nil {
		t.Fatal(err)
	}
	url := startNATS(t, opts)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	connect := func(creds []byte) (*nats.Conn, error) {
		token, seed := mustSplit(t, creds)
		nc, err := nats.Connect(url, nats.UserJWTAndSeed(token, seed), nats.NoReconnect(), nats.Timeout(2*time.Second))
		if err == nil {
			t.Cleanup(nc.Close)
		}
		return nc, err
	}
	const max = 3
	open := func(conns []*nats.Conn) int {
		n := 0
		for _, nc := range conns {
			if !nc.IsClosed() {
				n++
			}
		}
		return n
	}
	waitOpen := func(what string, conns []*nats.Conn) {
		t.Helper()
		for end := time.Now().Add(3 * time.Second); open(conns) > max; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("%s: %d connections of one identity open 3 s on, want at most %d", what, open(conns), max)
			}
		}
	}
	early, many, flooder, honest := issue(t, a, "early"), issue(t, a, "many"), issue(t, a, "flooder"), issue(t, a, "honest")
	var before []*nats.Conn
	for range max + 3 {
		nc, err := connect(early)
		if err != nil {
			t.Fatalf("connecting before the coordinator: %v", err)
		}
		before = append(before, nc)
	}
	log := &logger{t: t}
	_, stop, err := watchExternal(ctx, url, a, max, log.Logf)
	if err != nil {
		t.Fatalf("watchExternal on a server that trusts the state directory: %v", err)
	}
	defer stop()
	waitOpen("opened before the coordinator", before)
	var after []*nats.Conn
	for range max + 5 {
		if nc, err := connect(many); err == nil {
			after = append(after, nc)
		}
	}
	waitOpen("opened after", after)
	if _, err := connect(honest); err != nil {
		t.Errorf("another identity beside the capped ones: %v", err)
	}

	fc, err := connect(flooder)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	go func() {
		// 8 KiB messages: the flood passes floodBytes (8 MB/s) at about 1,000 messages a
		// second, where messages of 64 bytes had to pass floodMsgs (25,000 a second): at
		// load 8 under -race (30 Nov) the starved flooder did not within 10 s.
		data := make([]byte, 8<<10)
		for !fc.IsClosed() && ctx.Err() == nil {
			_ = fc.Publish(wantSubject("flooder"), data)
		}
	}()
	for !fc.IsClosed() {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("a flood of 10 s was not shut out; log:\n%s", strings.Join(log.lines, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	var refused error
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if _, refused = connect(flooder); refused != nil {
			break
		}
	}
	if refused == nil || !errors.Is(refused, nats.ErrAuthorization) && !strings.Contains(strings.ToLower(refused.Error()), "authorization") {
		t.Errorf("the shut-out identity connecting again: %v, want an authorization violation", refused)
	}
	if _, err := connect(honest); err != nil {
		t.Errorf("another identity during the shut-out: %v", err)
	}
	if !log.contains("worker flooder sent") {
		t.Errorf("the log does not name the flood:\n%s", strings.Join(log.lines, "\n"))
	}
	t.Logf("flood shut out after %v", time.Since(start).Round(time.Millisecond))

	plain := startNATS(t, &server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true})
	if _, _, err := watchExternal(ctx, plain, a, max, log.Logf); err == nil {
		t.Error("watchExternal on a server that knows nothing of the state directory's accounts: no error")
	}
}
