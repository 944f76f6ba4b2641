package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// authServer starts an embedded server on 127.0.0.1 that trusts the authority of dir, and
// returns both.
func authServer(t *testing.T, dir string) (*Server, *Authority) {
	t.Helper()
	a, err := LoadOrCreateAuthority(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: dir, Authority: a})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s, a
}

// issue issues identity name of a and returns its credentials.
func issue(t *testing.T, a *Authority, name string) []byte {
	t.Helper()
	creds, err := a.Issue(name)
	if err != nil {
		t.Fatal(err)
	}
	return creds
}

// issuedWorker connects a worker under the identity name that a issues.
func issuedWorker(t *testing.T, ctx context.Context, url string, a *Authority, name string) *Worker {
	t.Helper()
	nc, user, err := ConnectWorker(ctx, ConnectOptions{URL: url, UserCreds: issue(t, a, name), Name: name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	if user != name {
		t.Fatalf("ConnectWorker with the credentials of %q: identity %q", name, user)
	}
	return &Worker{Conn: nc, Identity: user, Cores: 1, Name: name, Every: time.Hour}
}

// coordConn connects to url as a's coordinator.
func coordConn(t *testing.T, ctx context.Context, url string, a *Authority) *nats.Conn {
	t.Helper()
	creds, err := a.CoordinatorCreds()
	if err != nil {
		t.Fatal(err)
	}
	nc, err := Connect(ctx, ConnectOptions{URL: url, UserCreds: creds, Name: "coordinator"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// TestIssuedIdentities: on a server that trusts the authority, a client with a token (or a
// self-made identity, or nothing) is refused; an issued identity counts, may not use
// another's subjects, and once revoked (pushed to the running server) is disconnected and
// refused; names are issued once, the key file is the owner's only.
func TestIssuedIdentities(t *testing.T) {
	parallel(t)
	const n = 9
	dir := t.TempDir()
	s, a := authServer(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	self := NewIdentity(testToken)
	for _, o := range []ConnectOptions{
		{URL: s.URL(), Token: testToken},
		{URL: s.URL(), User: self.User, Password: self.Password},
		{URL: s.URL()},
		{URL: s.URL(), User: AdminUser, Password: testAdmin},
	} {
		if _, _, err := ConnectWorker(ctx, o); !errors.Is(err, ErrRefused) {
			t.Errorf("ConnectWorker(%+v) = %v, want ErrRefused", o, err)
		}
	}
	// Credentials signed by another authority's account are refused too.
	other, err := LoadOrCreateAuthority(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ConnectWorker(ctx, ConnectOptions{URL: s.URL(), UserCreds: issue(t, other, "w1")}); !errors.Is(err, ErrRefused) {
		t.Errorf("credentials of another authority: %v, want ErrRefused", err)
	}

	w1 := issuedWorker(t, ctx, s.URL(), a, "w1")
	w2 := issuedWorker(t, ctx, s.URL(), a, "w2")
	if _, err := a.Issue("w1"); err == nil || !strings.Contains(err.Error(), "issued") {
		t.Errorf("issuing w1 twice: %v, want a refusal", err)
	}
	if _, err := a.Issue("coordinator"); err == nil {
		t.Errorf("issuing the reserved name coordinator: no error")
	}
	if info, err := os.Stat(filepath.Join(dir, AuthorityFile)); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("authority file: %v, %v; want mode 0600", info, err)
	}

	// w2 cannot publish on w1's subjects.
	violations := make(chan error, 8)
	spy, err := nats.Connect(s.URL(), nats.UserJWTAndSeed(mustSplit(t, issue(t, a, "w2spy"))), nats.CustomInboxPrefix(InboxPrefix("w2spy")),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { violations <- err }))
	if err != nil {
		t.Fatal(err)
	}
	defer spy.Close()
	_ = spy.Publish(resultSubject("w1", JobID(n, 1)), []byte(`{}`))
	_ = spy.Flush()
	select {
	case err := <-violations:
		if !strings.Contains(err.Error(), "Permissions Violation for Publish") {
			t.Errorf("w2spy on w1's subject: %v, want a permissions violation", err)
		}
	case <-time.After(5 * time.Second):
		t.Errorf("w2spy published on w1's subject with no refusal")
	}

	nc := coordConn(t, ctx, s.URL(), a)
	stop := runWorkers(ctx, w1, w2)
	counts, st, err := (&Coordinator{Conn: nc, Replicas: 2, Sealer: NewSealer("issued test")}).Run(ctx, mustPlan(t, n))
	stop()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := counts.Total.String(), known(t)[n][0]; got != want {
		t.Errorf("Q(%d) = %s, want %s", n, got, want)
	}
	if st.Identities == 0 || st.Verified != plan9Len(t) {
		t.Errorf("stats %+v: want the issued identities' results, every task verified", st)
	}

	// Revoked and pushed: w1's connection is closed and it cannot connect again.
	if err := a.Revoke("w1"); err != nil {
		t.Fatal(err)
	}
	if err := a.Push(ctx, s.URL()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for w1.Conn.IsConnected() && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if w1.Conn.IsConnected() {
		t.Errorf("w1 still connected after its revocation was pushed")
	}
	for _, id := range a.Identities() {
		if id.Name == "w1" && id.Revoked.IsZero() {
			t.Errorf("w1 listed as not revoked: %+v", id)
		}
	}
}

func mustSplit(t *testing.T, creds []byte) (string, string) {
	t.Helper()
	token, seed, err := splitCreds(creds)
	if err != nil {
		t.Fatal(err)
	}
	return token, seed
}

func plan9Len(t *testing.T) int { return mustPlan(t, 9).Len() }

// TestExternalOperator: a NATS server the operator runs (here in-process, configured as an
// external one with the authority's operator and accounts, as ServerConfig writes for
// nats-server) and Count given its URL and the coordinator's credentials file: an issued
// worker counts, the total is exact, a worker without credentials is refused.
func TestExternalOperator(t *testing.T) {
	parallel(t)
	const n = 9
	dir := t.TempDir()
	a, err := LoadOrCreateAuthority(dir)
	if err != nil {
		t.Fatal(err)
	}
	if cfg := a.ServerConfig(); !strings.Contains(cfg, "operator: ") || !strings.Contains(cfg, "resolver: MEMORY") {
		t.Errorf("ServerConfig = %q, want an operator and a memory resolver", cfg)
	}
	opts := &server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true, StoreDir: t.TempDir(), NoSigs: true, NoLog: true}
	if err := a.configure(opts); err != nil {
		t.Fatal(err)
	}
	url := startNATS(t, opts)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, _, err := ConnectWorker(ctx, ConnectOptions{URL: url}); !errors.Is(err, ErrRefused) {
		t.Errorf("a worker without credentials: %v, want ErrRefused", err)
	}
	creds, err := a.CoordinatorCreds()
	if err != nil {
		t.Fatal(err)
	}
	credsFile := filepath.Join(t.TempDir(), "coordinator.creds")
	if err := os.WriteFile(credsFile, creds, 0o600); err != nil {
		t.Fatal(err)
	}
	stop := runWorkers(ctx, issuedWorker(t, ctx, url, a, "w1"))
	defer stop()
	log := &logger{t: t}
	counts, _, err := Count(ctx, mustPlan(t, n), CountOptions{URL: url, Creds: credsFile, StoreDir: dir, VerifyWait: time.Second, Logf: log.Logf})
	if err != nil {
		t.Fatal(err)
	}
	if !log.contains("lets this state directory's system account in: each identity is held to 8 connections there") {
		t.Errorf("a count through an external server that trusts the state directory does not say that it holds the identities' connections there:\n%s", strings.Join(log.lines, "\n"))
	}
	if got, want := counts.Total.String(), known(t)[n][0]; got != want {
		t.Errorf("Q(%d) through an external server = %s, want %s", n, got, want)
	}
}

// startNATS starts an in-process NATS server with opts, as an operator's own server would
// run, and returns its client URL; the test's cleanup shuts it down.
func startNATS(t *testing.T, opts *server.Options) string {
	t.Helper()
	srv, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		t.Fatal("server not ready")
	}
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	return srv.ClientURL()
}
