package main

// Tests of the distributed count: a real NATS server (embedded in this test process, or in a
// coordinator process), with the coordinator and the workers as separate processes of this
// test binary, which TestMain installs on $PATH as "chesspuzzles".

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
	"github.com/nats-io/nats.go/jetstream"
)

// knownQ returns the published Q(n) (queens.Known).
func knownQ(t *testing.T, n int) string {
	t.Helper()
	c, ok := queens.Known(n)
	if !ok {
		t.Fatalf("no known value for N=%d", n)
	}
	return c.Total.String()
}

// syncBuf is a bytes.Buffer safe for a process's output and the test reading it.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// proc is a chesspuzzles process.
type proc struct {
	t      *testing.T
	name   string
	cmd    *exec.Cmd
	stdout syncBuf
	stderr syncBuf
	done   chan struct{}
	err    error
}

// start runs chesspuzzles with args; it is killed at the end of the test.
func start(t *testing.T, name string, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, name: name, done: make(chan struct{})}
	p.cmd = exec.Command("chesspuzzles", args...)
	p.cmd.Env = append(os.Environ(), "CHESSPUZZLES_NATS_TOKEN=")
	p.cmd.Stdout = &p.stdout
	p.cmd.Stderr = &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
		if t.Failed() || os.Getenv("CHESSPUZZLES_TEST_LOGS") != "" {
			t.Logf("%s %q stderr:\n%s", p.name, args, p.stderr.String())
		}
	})
	return p
}

// wait waits for the process to exit and returns its exit code.
func (p *proc) wait(d time.Duration) int {
	p.t.Helper()
	select {
	case <-p.done:
	case <-time.After(d):
		p.t.Fatalf("%s still running after %v; stderr:\n%s", p.name, d, p.stderr.String())
	}
	if p.err == nil {
		return 0
	}
	if ee, ok := p.err.(*exec.ExitError); ok {
		if ee.ExitCode() < 0 {
			return -1 // killed
		}
		return ee.ExitCode()
	}
	p.t.Fatalf("%s: %v", p.name, p.err)
	return -1
}

// waitFor waits until the process's stderr matches re and returns the submatches.
func (p *proc) waitFor(re string, d time.Duration) []string {
	p.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if m := rx.FindStringSubmatch(p.stderr.String()); m != nil {
			return m
		}
		select {
		case <-p.done:
			if m := rx.FindStringSubmatch(p.stderr.String()); m != nil {
				return m
			}
			p.t.Fatalf("%s exited (%v) before printing %q; stderr:\n%s", p.name, p.err, re, p.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	p.t.Fatalf("%s did not print %q within %v; stderr:\n%s", p.name, re, d, p.stderr.String())
	return nil
}

func (p *proc) signal(s syscall.Signal) {
	if err := p.cmd.Process.Signal(s); err != nil {
		p.t.Fatal(err)
	}
}

// total reads the JSON count a coordinator printed.
func (p *proc) total() string {
	p.t.Helper()
	var out struct {
		Total json.Number `json:"total"`
	}
	if err := json.Unmarshal([]byte(p.stdout.String()), &out); err != nil {
		p.t.Fatalf("%s printed %q, not a JSON count: %v", p.name, p.stdout.String(), err)
	}
	return out.Total.String()
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// workerURL waits for the coordinator's line telling workers how to join and returns the
// URL of its NATS server on the loopback address. A coordinator listening on port 0 gets
// its port from the system: a port freePort found free can be taken by another process
// (any outgoing connection's local port) before the coordinator listens on it.
func workerURL(coord *proc) string {
	m := coord.waitFor(`chesspuzzles worker --nats nats://\S+:(\d+) --creds FILE`, 30*time.Second)
	return "nats://127.0.0.1:" + m[1]
}

func embedded(t *testing.T, listen, dir string) *cluster.Server {
	t.Helper()
	s, err := cluster.StartServer(cluster.ServerOptions{Listen: listen, StoreDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// startedTwice returns the task keys that workers' -v logs show being computed more than
// once.
func startedTwice(logs ...string) []string {
	seen := map[string]int{}
	var twice []string
	rx := regexp.MustCompile(`task (q\d+v\d+\.\d+) started`)
	for _, l := range logs {
		for _, m := range rx.FindAllStringSubmatch(l, -1) {
			seen[m[1]]++
			if seen[m[1]] == 2 {
				twice = append(twice, m[1])
			}
		}
	}
	return twice
}

// TestDistributedKilledWorker: a worker SIGKILLed mid-task loses nothing (its task is
// delivered again after the ack deadline), and a live worker on a task longer than the ack
// deadline keeps it (its heartbeats hold the deadline off).
func TestDistributedKilledWorker(t *testing.T) {
	const n = 13
	srv := embedded(t, "127.0.0.1:0", t.TempDir())
	defer srv.Shutdown()
	url := srv.URL()
	coord := start(t, "coordinator", "queens", "count", strconv.Itoa(n), "--nats", url, "--state", t.TempDir(), "--workers", "0", "--ack-wait", "1s", "--json")
	coord.waitFor(`assigning the rest`, 30*time.Second)

	doomed := start(t, "doomed worker", "worker", "--nats", url, "--cores", "1", "-v", "--test-stall", "10m")
	killed := doomed.waitFor(`task (q\d+v\d+\.\d+) started`, 30*time.Second)[1]
	doomed.signal(syscall.SIGKILL)
	doomed.wait(10 * time.Second)

	slow := start(t, "slow worker", "worker", "--nats", url, "--cores", "1", "-v", "--test-stall", "3s")
	held := slow.waitFor(`task (q\d+v\d+\.\d+) started`, 30*time.Second)[1]
	fast := start(t, "fast worker", "worker", "--nats", url, "--cores", "2", "-v")

	if code := coord.wait(3 * time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d, want 0", code)
	}
	if got, want := coord.total(), knownQ(t, n); got != want {
		t.Errorf("distributed Q(%d) = %s, want %s", n, got, want)
	}
	logs := slow.stderr.String() + fast.stderr.String()
	if !strings.Contains(logs, "task "+killed+" started") {
		t.Errorf("task %s of the killed worker was not assigned again; logs:\n%s", killed, logs)
	}
	if id := killed[strings.LastIndexByte(killed, '.')+1:]; !strings.Contains(coord.stderr.String(), " on task "+id+" for 1s; assigning it again") {
		t.Errorf("the coordinator did not say it assigned task %s again; log:\n%s", killed, coord.stderr.String())
	}
	if strings.Contains(fast.stderr.String(), "task "+held+" started") {
		t.Errorf("task %s was taken from the live slow worker by the fast one", held)
	}
	if !strings.Contains(slow.stderr.String(), "task "+held+" done") {
		t.Errorf("the slow worker did not finish its task %s", held)
	}
	if twice := startedTwice(slow.stderr.String(), fast.stderr.String()); len(twice) > 0 {
		t.Errorf("tasks computed twice by live workers: %v", twice)
	}
}

// TestDistributedCoordinatorRestart kills the coordinator (and with it the embedded server)
// mid-count and starts it again on the same --state: the worker reconnects, the count is
// exact, and no task with a result is computed again.
func TestDistributedCoordinatorRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("-short leaves out restarting a coordinator (seconds); TestDistributedKilledWorker resumes a plan")
	}
	const n = 14
	state := t.TempDir()
	// Listening on every interface, as in the probe (a restart there made a new
	// token and locked the workers out); the workers connect through loopback.
	port := freePort(t)
	listen := fmt.Sprintf("127.0.0.1:%d", port)
	args := []string{"queens", "count", strconv.Itoa(n), "--distributed", "--state", state, "--nats-listen", fmt.Sprintf("0.0.0.0:%d", port), "--workers", "0", "--json"}
	coord := start(t, "coordinator", args...)
	coord.waitFor(`assigning the rest`, 30*time.Second)
	coord.waitFor(`workers join with: chesspuzzles worker --nats nats://\S+ --creds FILE \(0 identities issued; issue one with: chesspuzzles worker add NAME --state `+regexp.QuoteMeta(state)+`\)"`, 10*time.Second)
	creds := addWorker(t, state, "w1")

	// Loopback too: a client without issued credentials is refused.
	bad := start(t, "worker without credentials", "worker", "--nats", "nats://"+listen, "--name", "intruder")
	if code := bad.wait(30 * time.Second); code != 1 || !strings.Contains(bad.stderr.String(), "refused this client's credentials") {
		t.Errorf("worker without credentials on loopback: exit %d, stderr %q; want exit 1, refused", code, bad.stderr.String())
	}

	w := start(t, "worker", "worker", "--nats", "nats://"+listen, "--creds", creds, "--cores", "2", "-v", "--test-stall", "5ms")
	w.waitFor(`, 100 done by this worker`, time.Minute)
	coord.signal(syscall.SIGKILL)
	coord.wait(10 * time.Second)
	w.waitFor(`lost the connection`, 10*time.Second)

	coord2 := start(t, "restarted coordinator", args...)
	m := coord2.waitFor(`job q\d+v\d+: (\d+) of (\d+) tasks have results`, 30*time.Second)
	if had, _ := strconv.Atoi(m[1]); had < 100 {
		t.Errorf("restarted coordinator found %d results, want at least 100", had)
	}
	if code := coord2.wait(3 * time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d, want 0", code)
	}
	if got, want := coord2.total(), knownQ(t, n); got != want {
		t.Errorf("distributed Q(%d) after a restart = %s, want %s", n, got, want)
	}
	if !strings.Contains(w.stderr.String(), "reconnected") {
		t.Errorf("worker did not log a reconnection")
	}
	// The restarted coordinator kept its authority: the running worker went on with its
	// credentials.
	if strings.Contains(w.stderr.String(), "uthorization") {
		t.Errorf("the worker was refused after the restart")
	}
	// A task in flight when the server died may be computed again (the server's record of
	// its delivery may be lost with the server), but no task that had a result then.
	log := w.stderr.String()
	cut := strings.Index(log, "lost the connection")
	before, after := log[:cut], log[cut:]
	rx := regexp.MustCompile(`task (q\d+v\d+\.\d+) done`)
	var had []string
	for _, m := range rx.FindAllStringSubmatch(before, -1) {
		had = append(had, m[1])
		if strings.Contains(after, "task "+m[1]+" started") {
			t.Errorf("task %s had a result before the restart, and was computed again", m[1])
		}
	}
	if len(had) < 100 {
		t.Errorf("worker logged %d results before the restart, want at least 100", len(had))
	}
}

// addWorker issues identity name in the coordinator state dir ("worker add") and returns
// the path of its credentials file, which only its owner may read.
func addWorker(t *testing.T, state, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".creds")
	p := start(t, "worker add", "worker", "add", name, "--state", state, "-o", path)
	if code := p.wait(30 * time.Second); code != 0 {
		t.Fatalf("worker add %s: exit %d, stderr %q", name, code, p.stderr.String())
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("credentials file mode %04o, want 0600", perm)
	}
	return path
}

// TestDistributedReconnect restarts the NATS server (same port, same store) under a running
// coordinator and worker: both clients reconnect, and the count is exact. (Foreign and
// forged stored results are internal/work/cluster's TestOverwriteAfterFinish.)
func TestDistributedReconnect(t *testing.T) {
	if testing.Short() {
		t.Skip("-short leaves out a worker reconnecting to a restarted server (seconds)")
	}
	const n = 13
	dir := t.TempDir()
	listen := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	srv := embedded(t, listen, dir)
	defer func() { srv.Shutdown() }()
	url := srv.URL()

	coord := start(t, "coordinator", "queens", "count", strconv.Itoa(n), "--nats", url, "--state", t.TempDir(), "--workers", "0", "--json")
	coord.waitFor(`assigning the rest`, 30*time.Second)

	w := start(t, "worker", "worker", "--nats", url, "--cores", "2", "-v", "--test-stall", "5ms")
	w.waitFor(`, 50 done by this worker`, time.Minute)
	srv.Shutdown()
	w.waitFor(`lost the connection`, 10*time.Second)
	time.Sleep(500 * time.Millisecond)
	srv = embedded(t, listen, dir)
	w.waitFor(`reconnected`, 30*time.Second)
	coord.waitFor(`reconnected`, 30*time.Second)

	if code := coord.wait(3 * time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d, want 0", code)
	}
	if got, want := coord.total(), knownQ(t, n); got != want {
		t.Errorf("distributed Q(%d) across a server restart = %s, want %s", n, got, want)
	}
}

// waitStatus asks "queens status --state state" until it lists a job matching the
// regular expression job, for up to a minute while it says there is no job yet (the
// coordinator prints the worker's command line before it publishes the job) or while it
// fails for lack of time (its 2 s connect timeout, a JetStream request's deadline: a
// race-built binary and server on a loaded machine can be slower; TestDistributedKnight
// failed so at load 8–10). Any other failure, or either one still there after the minute,
// fails the test.
func waitStatus(t *testing.T, state, job string) {
	t.Helper()
	jobLine := regexp.MustCompile(job)
	for deadline := time.Now().Add(time.Minute); ; {
		st := start(t, "status", "queens", "status", "--state", state)
		code := st.wait(time.Minute)
		if code == 0 && jobLine.MatchString(st.stdout.String()) {
			return
		}
		noJobYet := code == 0 && strings.HasPrefix(st.stdout.String(), "no jobs")
		slow := code != 0 && slowError.MatchString(st.stderr.String())
		if !(noJobYet || slow) || time.Now().After(deadline) {
			t.Errorf("queens status --state DIR: exit %d, stdout %q, stderr %q; want a job matching %s", code, st.stdout.String(), st.stderr.String(), job)
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// slowError matches the errors of a command that ran out of time, not of a wrong state.
var slowError = regexp.MustCompile(`no answer within|deadline exceeded|i/o timeout`)

// TestDistributedIdentities: listening beyond loopback, the coordinator's server admits
// only identities "worker add" issued: a worker without credentials, or with a token, is
// refused (exit 1); a revoked identity is refused; an issued one counts, and "worker list"
// shows what it did.
func TestDistributedIdentities(t *testing.T) {
	const n = 10
	state := t.TempDir()
	coord := start(t, "coordinator", "queens", "count", strconv.Itoa(n), "--distributed", "--state", state,
		"--nats-listen", "0.0.0.0:0", "--workers", "0", "--json")
	url := workerURL(coord)

	// status finds the coordinator from its state directory alone. The coordinator prints
	// the worker's command line before it publishes the job, so status may at first see
	// no job: it is asked again for up to 30 s.
	waitStatus(t, state, `^q10v1  N=10  0/272 tasks`)

	bad := start(t, "worker without credentials", "worker", "--nats", url)
	if code := bad.wait(30 * time.Second); code != 1 {
		t.Errorf("worker without credentials: exit code %d, want 1", code)
	}
	if !strings.Contains(strings.ToLower(bad.stderr.String()), "authorization") {
		t.Errorf("worker without credentials: stderr %q does not say why", bad.stderr.String())
	}
	token := start(t, "worker with a token", "worker", "--nats", url, "--token", "0123")
	if code := token.wait(30 * time.Second); code != 1 {
		t.Errorf("worker with a token: exit code %d, want 1", code)
	}
	gone := addWorker(t, state, "gone")
	rv := start(t, "worker revoke", "worker", "revoke", "gone", "--state", state)
	if code := rv.wait(30 * time.Second); code != 0 || !strings.Contains(rv.stderr.String(), "closed its connections") {
		t.Errorf("worker revoke: exit %d, stderr %q", code, rv.stderr.String())
	}
	revoked := start(t, "revoked worker", "worker", "--nats", url, "--creds", gone)
	if code := revoked.wait(30 * time.Second); code != 1 {
		t.Errorf("revoked worker: exit code %d, want 1", code)
	}
	start(t, "worker", "worker", "--nats", url, "--creds", addWorker(t, state, "w1"))
	if code := coord.wait(2 * time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d, want 0", code)
	}
	if got, want := coord.total(), knownQ(t, n); got != want {
		t.Errorf("distributed Q(%d) = %s, want %s", n, got, want)
	}
	list := start(t, "worker list", "worker", "list", "--state", state)
	if code := list.wait(30 * time.Second); code != 0 {
		t.Fatalf("worker list: exit %d, stderr %q", code, list.stderr.String())
	}
	for _, re := range []string{`(?m)^gone +\d{4}-\d\d-\d\d \d{4}-\d\d-\d\d +0 `, `(?m)^w1 +\d{4}-\d\d-\d\d - +[1-9]\d* `} {
		if !regexp.MustCompile(re).MatchString(list.stdout.String()) {
			t.Errorf("worker list printed %q, want a line matching %s", list.stdout.String(), re)
		}
	}
}

// TestDistributedStatus shows a running job's progress, and the finished job's total.
func TestDistributedStatus(t *testing.T) {
	const n = 12
	srv := embedded(t, "127.0.0.1:0", t.TempDir())
	defer srv.Shutdown()
	url := srv.URL()
	// The worker left at the end verifies nothing of its own: the coordinator does, soon.
	state := t.TempDir()
	coord := start(t, "coordinator", "queens", "count", strconv.Itoa(n), "--nats", url, "--state", state, "--workers", "0", "--json", "--verify-wait", "2s")
	coord.waitFor(`assigning the rest`, 30*time.Second)
	w := start(t, "slow worker", "worker", "--nats", url, "--cores", "2", "-v", "--test-stall", "100ms")
	w.waitFor(`, 10 done by this worker`, time.Minute)

	// Status shows what the coordinator recorded last (every second): ask until it has
	// the worker's first ten results and a rate.
	rx := regexp.MustCompile(`^q12v1  N=12  (\d+)/(\d+) tasks \([\d.]+%\)  ([\d.e+]+) tasks/s over the last \S+  about \S+ left\n$`)
	var m []string
	for deadline := time.Now().Add(30 * time.Second); ; {
		st := start(t, "status", "queens", "count", "--status", "--nats", url, "--state", state)
		if code := st.wait(time.Minute); code != 0 {
			t.Fatalf("status exit code %d, want 0", code)
		}
		m = rx.FindStringSubmatch(st.stdout.String())
		if done := 0; m != nil {
			if done, _ = strconv.Atoi(m[1]); done >= 10 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("status printed %q, want a line matching %s with at least 10 tasks done", st.stdout.String(), rx)
		}
		time.Sleep(200 * time.Millisecond)
	}
	plan, _ := queens.NewPlan(n, count.MethodFrames, frames.PlanVersion)
	if done, _ := strconv.Atoi(m[1]); done < 10 || done >= plan.Len() {
		t.Errorf("status says %s tasks done, want from 10 to %d", m[1], plan.Len()-1)
	}
	if m[2] != strconv.Itoa(plan.Len()) {
		t.Errorf("status says %s tasks, want %d", m[2], plan.Len())
	}
	w.signal(syscall.SIGINT)
	if code := w.wait(30 * time.Second); code != 130 {
		t.Errorf("interrupted worker: exit code %d, want 130", code)
	}
	// Every task the interrupted worker started and did not finish, it handed back.
	wlog := w.stderr.String()
	for _, m := range regexp.MustCompile(`task (q\d+v\d+\.\d+) started`).FindAllStringSubmatch(wlog, -1) {
		if !strings.Contains(wlog, "task "+m[1]+" done") && !strings.Contains(wlog, "task "+m[1]+" handed back") {
			t.Errorf("interrupted worker neither finished nor handed back task %s", m[1])
		}
	}
	start(t, "worker", "worker", "--nats", url, "--cores", "2")
	if code := coord.wait(2 * time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d, want 0", code)
	}
	st := start(t, "status", "queens", "status", "12", "--nats", url, "--state", state) // the command of its own, one N
	st.wait(time.Minute)
	want := "q12v1  N=12  " + strconv.Itoa(plan.Len()) + "/" + strconv.Itoa(plan.Len()) + " tasks  finished "
	if !strings.HasPrefix(st.stdout.String(), want) || !strings.HasSuffix(st.stdout.String(), "Q(12) = "+knownQ(t, n)+"\n") {
		t.Errorf("status of a finished job = %q, want %q… Q(12) = %s", st.stdout.String(), want, knownQ(t, n))
	}

	// Without the coordinator's secret, status cannot check the record: no total.
	st = start(t, "status", "queens", "status", "12", "--nats", url, "--state", t.TempDir())
	st.wait(time.Minute)
	if out := st.stdout.String(); !strings.HasPrefix(out, want) || !strings.Contains(out, "total unverified") || strings.Contains(out, knownQ(t, n)) {
		t.Errorf("status without the secret = %q, want %q… total unverified, and no total", out, want)
	}
	// A record forged by a client with JetStream rights on this open server: status says
	// so, and prints none of its total.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nc, err := cluster.Connect(ctx, cluster.ConnectOptions{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	jobs, err := js.KeyValue(ctx, cluster.JobsBucket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jobs.Put(ctx, "q12v1", []byte(`{"seal":"00","doc":{"job":"q12v1","n":12,"finished":"2026-01-01T00:00:00Z","total":"99"}}`)); err != nil {
		t.Fatal(err)
	}
	st = start(t, "status", "queens", "status", "--nats", url, "--state", state)
	st.wait(time.Minute)
	if out := st.stdout.String(); !strings.HasPrefix(out, "q12v1  forged: ") || strings.Contains(out, "99") {
		t.Errorf("status of a forged record = %q, want it said forged, without its total", out)
	}
}
