package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestShutOutAtAuth: an identity shut out (as a flood gets it) is refused at
// authentication while the shut-out lasts, so that a reconnection flushes nothing: a new
// connection with its credentials fails with an authorization violation, its open one is
// closed, another identity connects all the while, a revoked identity stays revoked, and
// once the shut-out ends the identity connects again.
func TestShutOutAtAuth(t *testing.T) {
	// Serial, not parallel: it times its steps against the shut-out's wall clock.
	_, a, s, dial := shutOutServer(t)
	connect := func(_ string, creds []byte) (*nats.Conn, error) { return dial(creds) }
	flooder, honest, gone := issue(t, a, "flooder"), issue(t, a, "honest"), issue(t, a, "gone")
	if err := a.Revoke("gone"); err != nil {
		t.Fatal(err)
	}
	before, err := connect("flooder", flooder)
	if err != nil {
		t.Fatalf("flooder before its shut-out: %v", err)
	}
	const shut = 2 * time.Second
	start := time.Now()
	s.conns.shun("flooder", shut)
	// The push takes a round trip, longer at load: wait for the server to refuse, until
	// half a second before the shut-out ends. A connection the push meets in its
	// handshake ends "User Authentication Revoked" (29 Nov, -race at load): the next is
	// refused at authentication.
	authz := func(err error) bool {
		return err != nil && (errors.Is(err, nats.ErrAuthorization) || strings.Contains(strings.ToLower(err.Error()), "authorization"))
	}
	var refused error
	for time.Since(start) < shut-500*time.Millisecond {
		if _, refused = connect("flooder", flooder); authz(refused) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !authz(refused) {
		t.Fatalf("a shut-out identity connecting: %v, want an authorization violation", refused)
	}
	if _, err := connect("honest", honest); err != nil {
		t.Errorf("another identity during the shut-out: %v", err)
	}
	if time.Since(start) < shut && !before.IsClosed() {
		time.Sleep(100 * time.Millisecond)
		if !before.IsClosed() {
			t.Errorf("the shut-out identity's open connection is still open")
		}
	}
	time.Sleep(time.Until(start.Add(shut + 500*time.Millisecond)))
	// Its end is pushed too: a round trip, longer at load.
	var again error
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, again = connect("flooder", flooder); again == nil || time.Now().After(deadline) {
			break
		}
	}
	if again != nil {
		t.Errorf("the identity after its shut-out: %v, want it let in", again)
	}
	if _, err := connect("gone", gone); err == nil {
		t.Errorf("a revoked identity connected after a shut-out of another ended")
	}
}

// TestRevokeDuringShutOut: a "worker revoke" pushed while an identity is shut out (the
// account JWT without the shut-out) lets the shut-out identity in for a round trip at
// most: the coordinator sees the push and pushes its bans again, with the new
// revocation (the identity revoked stays out; TestShutOutAtAuth checks that the shut-out
// ends). Before, the revoke's push lifted the shut-out at authentication until it
// ended.
func TestRevokeDuringShutOut(t *testing.T) {
	// Serial, not parallel: it times its steps against the shut-out's wall clock.
	dir, a, s, dial := shutOutServer(t)
	connect := func(creds []byte) error {
		nc, err := dial(creds)
		if err == nil {
			nc.Close()
		}
		return err
	}
	flooder, honest, later := issue(t, a, "flooder"), issue(t, a, "honest"), issue(t, a, "later")
	const shut = 20 * time.Second // longer than the test: what it checks happens within it
	start := time.Now()
	s.conns.shun("flooder", shut)
	for connect(flooder) == nil {
		if time.Since(start) > 5*time.Second {
			t.Fatal("the shut-out identity still connects 5 s after its shut-out began")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// What "worker revoke later" does, from its own copy of the authority.
	other, err := LoadOrCreateAuthority(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Revoke("later"); err != nil {
		t.Fatal(err)
	}
	if err := other.Push(context.Background(), s.URL()); err != nil {
		t.Fatal(err)
	}
	// The coordinator pushes its bans again once it has seen the other push: a round
	// trip, in which a connection let in is closed at its connect event.
	time.Sleep(200 * time.Millisecond)
	pushed := time.Now()
	for time.Since(pushed) < time.Second {
		if connect(flooder) == nil {
			t.Fatalf("the shut-out identity connected %v after another pushed the account (%v into its %v shut-out)", time.Since(pushed).Round(time.Millisecond)+200*time.Millisecond, time.Since(start).Round(time.Millisecond), shut)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := connect(later); err == nil {
		t.Error("the identity revoked during the shut-out connected")
	}
	if err := connect(honest); err != nil {
		t.Errorf("another identity during the shut-out: %v", err)
	}
}

// shutOutServer starts an embedded server of a new authority's identities, and returns
// its state directory, the authority, the server, and a function that connects with
// credentials once, without reconnecting (the connection closed with the test).
func shutOutServer(t *testing.T) (string, *Authority, *Server, func(creds []byte) (*nats.Conn, error)) {
	t.Helper()
	dir := t.TempDir()
	a, err := LoadOrCreateAuthority(dir)
	if err != nil {
		t.Fatal(err)
	}
	log := &logger{t: t}
	s, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: dir, Authority: a, Logf: log.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return dir, a, s, func(creds []byte) (*nats.Conn, error) {
		token, seed := mustSplit(t, creds)
		nc, err := nats.Connect(s.URL(), nats.UserJWTAndSeed(token, seed), nats.NoReconnect(), nats.Timeout(2*time.Second))
		if err == nil {
			t.Cleanup(nc.Close)
		}
		return nc, err
	}
}
