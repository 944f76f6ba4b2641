package cluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
	"github.com/nats-io/nats.go"
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

// count returns how many lines hold s.
func (l *logger) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			n++
		}
	}
	return n
}

// dumpOnFailure logs the coordinator's lines at the end of a test that failed, so that
// a failure seen once (in CI) says what the coordinator did.
func (l *logger) dumpOnFailure(t *testing.T) {
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, line := range l.lines {
			t.Log("coordinator: " + line)
		}
	})
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

// The shared token and the coordinator's secret of the tests' servers.
const (
	testToken = "test-token"
	testAdmin = "test-admin"
)

// startServer starts an embedded server on 127.0.0.1 that wants token from workers
// (testToken if empty) and testAdmin from the coordinator.
func startServer(t *testing.T, dir, token string) *Server {
	t.Helper()
	if token == "" {
		token = testToken
	}
	s, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: dir, auth: tokenAuth(token, testAdmin)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s
}

// connectTest connects to s as the coordinator under a context that ends after d; the
// connection is closed and the context cancelled when the test ends (after its deferred
// calls).
func connectTest(t *testing.T, s *Server, d time.Duration, name string) (context.Context, *nats.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx, adminConn(t, ctx, s.URL())
}

// adminConn connects to url as the coordinator; the connection is closed when the test
// ends.
func adminConn(t *testing.T, ctx context.Context, url string) *nats.Conn {
	t.Helper()
	nc, err := Connect(ctx, ConnectOptions{URL: url, User: AdminUser, Password: testAdmin, Name: "coordinator"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// newWorker connects a worker of a new identity made with testToken to url; its
// connection is closed when the test ends.
func newWorker(t *testing.T, ctx context.Context, url, name string, cores int) *Worker {
	t.Helper()
	nc, user, err := connectTokenWorker(ctx, url, testToken, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return &Worker{Conn: nc, Identity: user, Cores: cores, Name: name, Every: time.Hour}
}

// runWorkers runs ws until the returned function is called, which waits for them.
func runWorkers(ctx context.Context, ws ...*Worker) (stop func()) {
	wctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Go(func() { _ = w.Run(wctx) })
	}
	return func() { cancel(); wg.Wait() }
}

// TestInProcess counts small boards with an in-process coordinator and two in-process
// workers, each task computed twice.
func TestInProcess(t *testing.T) {
	parallel(t)
	kv := known(t)
	s := startServer(t, t.TempDir(), "")
	ctx, nc := connectTest(t, s, 2*time.Minute, "test")
	stop := runWorkers(ctx, newWorker(t, ctx, s.URL(), "w0", 2), newWorker(t, ctx, s.URL(), "w1", 2))
	defer stop()

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
			if got, want := unique(plan, counts).String(), kv[n][1]; got != want {
				t.Errorf("U(%d) = %s, want %s", n, got, want)
			}
			if st.Rejected != 0 {
				t.Errorf("rejected %d results, want 0", st.Rejected)
			}
			if st.Verified != plan.Len() {
				t.Errorf("verified %d tasks, want all %d", st.Verified, plan.Len())
			}
		})
	}
}

// mustPlan returns the frames plan of Q(n), with the published count the test gives its
// plans (noPublished).
func mustPlan(t *testing.T, n int) work.Plan {
	t.Helper()
	p, err := newQueensPlan(n, count.MethodFrames, frames.PlanVersion)
	if err != nil {
		t.Fatal(err)
	}
	hookPlan(t, p)
	return p
}

// TestStartServerErrors: a taken port or a bad address is reported at once.
func TestStartServerErrors(t *testing.T) {
	parallel(t)
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

// TestToken: a server admits a worker identity made with its token, and the coordinator
// with its secret; it refuses a worker without the token or with another, an identity
// whose name is not its secret's, and a coordinator with another secret.
func TestToken(t *testing.T) {
	parallel(t)
	s := startServer(t, t.TempDir(), "sesame")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	good := NewIdentity("sesame")
	other := NewIdentity("sesame")
	_, secret, _ := strings.Cut(other.Password, ":")
	for _, tc := range []struct {
		name       string
		user, pass string
		token      string
		ok         bool
	}{
		{"worker", good.User, good.Password, "", true},
		{"worker without token", good.User, ":" + secret, "", false},
		{"worker with wrong token", good.User, "open:" + secret, "", false},
		{"another's name", good.User, "sesame:" + secret, "", false},
		{"token alone", "", "", "sesame", false},
		{"nothing", "", "", "", false},
		{"coordinator", AdminUser, testAdmin, "", true},
		{"coordinator with the token", AdminUser, "sesame", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nc, err := Connect(ctx, ConnectOptions{URL: s.URL(), User: tc.user, Password: tc.pass, Token: tc.token})
			if (err == nil) != tc.ok {
				t.Errorf("Connect as %q: %v, want ok=%v", tc.user, err, tc.ok)
			}
			if !tc.ok && err != nil && !errors.Is(err, ErrRefused) {
				t.Errorf("Connect as %q: %v, want ErrRefused", tc.user, err)
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
	parallel(t)
	_, err := Connect(context.Background(), ConnectOptions{URL: "nats://127.0.0.1:1"})
	if !errors.Is(err, ErrCannotConnect) || !strings.HasSuffix(err.Error(), "no answer within 2s") {
		t.Fatalf("Connect to nothing: %v, want it to wrap ErrCannotConnect and say \"no answer within 2s\"", err)
	}
}
