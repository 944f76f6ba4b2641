package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// TestNATSCluster runs a distributed count the way an operator with a NATS cluster of their
// own does (docs/distributed.md, "A NATS cluster of your own"), with separate processes only:
// three nats-server processes built from the module this build depends on, on 127.0.0.1,
// forming one JetStream cluster that trusts the identities of "worker server-config"; a
// coordinator with --nats (all three URLs) and --stream-replicas 3; three workers with the
// credentials of "worker add". The server leading the results stream is killed (SIGKILL) a
// fifth through the count, the coordinator half-way; a coordinator started again on the same state reads back what was
// stored, and the count ends with the published Q(16), no stored result lost. Half-way the
// coordinator's --metrics-listen is scraped and parsed as Prometheus does.
//
// It takes minutes (it builds nats-server and the command), so it runs only when
// CHESSPUZZLES_NATSCLUSTER=1 or CHESSPUZZLES_LONG asks; bench/log/2026-11-29-ops.md has a run.
func TestNATSCluster(t *testing.T) {
	if os.Getenv("CHESSPUZZLES_NATSCLUSTER") == "" && os.Getenv("CHESSPUZZLES_LONG") == "" {
		t.Skip("a count on three nats-server processes: set CHESSPUZZLES_NATSCLUSTER=1 (or CHESSPUZZLES_LONG)")
	}
	const n, total, unique = "16", "14772512", "1846955" // Q(16) and U(16), OEIS A000170 and A002562
	ctx, cancel := context.WithTimeout(context.Background(), 9*time.Minute)
	defer cancel()
	dir := t.TempDir()
	bin := releaseBinary(t)
	natsServer := buildFor(t, dir, "nats-server", "github.com/nats-io/nats-server/v2")
	state := filepath.Join(dir, "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}

	// The operator's side: three identities, and the server configuration that trusts them.
	for _, w := range []string{"w1", "w2", "w3"} {
		runOK(t, bin, "worker", "add", w, "--state", state, "-o", filepath.Join(dir, w+".creds"))
	}
	if err := os.WriteFile(filepath.Join(dir, "auth.conf"), []byte(runOK(t, bin, "worker", "server-config", "--state", state)), 0o600); err != nil {
		t.Fatal(err)
	}
	ports := freePorts(t, 7)
	var urls, routes []string
	for i := range 3 {
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", ports[i]))
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", ports[3+i]))
	}
	servers := make([]*exec.Cmd, 3)
	for i := range 3 {
		name := fmt.Sprintf("n%d", i+1)
		conf := fmt.Sprintf("server_name: %s\nlisten: 127.0.0.1:%d\njetstream { store_dir: %q }\ncluster {\n  name: chesspuzzles\n  listen: 127.0.0.1:%d\n  routes: [%s]\n}\ninclude auth.conf\n",
			name, ports[i], filepath.Join(dir, name), ports[3+i], strings.Join(routes, ", "))
		path := filepath.Join(dir, name+".conf")
		if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
			t.Fatal(err)
		}
		servers[i] = startLogged(t, filepath.Join(dir, name+".log"), natsServer, "-c", path)
	}
	url := strings.Join(urls, ",")
	waitJetStream(t, ctx, url, state)

	metricsAddr := fmt.Sprintf("127.0.0.1:%d", ports[6])
	coordArgs := []string{"queens", "count", n, "--nats", url, "--state", state, "--stream-replicas", "3", "--workers", "0", "--metrics-listen", metricsAddr}
	coordLog := filepath.Join(dir, "coordinator.log")
	coord := startLogged(t, coordLog, bin, coordArgs...)
	var workerLogs []string
	for _, w := range []string{"w1", "w2", "w3"} {
		log := filepath.Join(dir, w+".log")
		workerLogs = append(workerLogs, log)
		startLogged(t, log, bin, "worker", "--nats", url, "--creds", filepath.Join(dir, w+".creds"), "--cores", "1", "-v")
	}
	tasks := planTasks(t, ctx, coordLog)
	t.Logf("Q(%s): %d tasks", n, tasks)

	doneAtKill := waitTasks(t, ctx, workerLogs, tasks/5)
	// The server that leads the results stream: the hardest one to lose.
	info := streamInfo(t, ctx, url, state)
	leader := info.Cluster.Leader
	i := slices.Index([]string{"n1", "n2", "n3"}, leader)
	if i < 0 {
		t.Fatalf("the results stream's leader is %q, want one of n1, n2, n3", leader)
	}
	if err := servers[i].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	t.Logf("killed server %s, the results stream's leader (SIGKILL), after %d tasks", leader, doneAtKill)
	waitTasks(t, ctx, workerLogs, tasks/2)
	// An operator watching: the coordinator's metrics, parsed as Prometheus parses them.
	if done := scrapeDone(t, metricsAddr); done < float64(doneAtKill-3) || done > float64(tasks) {
		t.Errorf("the metrics say %v tasks done, want from %d to %d", done, doneAtKill-3, tasks)
	}
	if err := coord.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	coord.Wait()
	t.Logf("killed the coordinator (SIGKILL) after %d tasks", countDone(workerLogs))

	again := exec.CommandContext(ctx, bin, coordArgs...)
	dieWithTest(again)
	var stderr lockedBuffer
	again.Stderr = &stderr
	out, err := again.Output()
	if err != nil {
		t.Fatalf("the coordinator started again: %v\n%s", err, stderr.String())
	}
	want := fmt.Sprintf("16 queens: %s solutions, %s fundamental", total, unique)
	if !strings.Contains(string(out), want) {
		t.Errorf("the coordinator started again printed %q, want %q\n%s", out, want, stderr.String())
	}
	m := regexp.MustCompile(`(\d+) of (\d+) tasks have results`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("the coordinator started again did not say how many tasks have results:\n%s", stderr.String())
	}
	// A task a worker logged done before the server died was stored on the two servers left;
	// only the task each worker had in flight at the kill may have been handed in again.
	if stored, _ := strconv.Atoi(m[1]); stored < doneAtKill-3 {
		t.Errorf("the coordinator started again found %d tasks with results, want at least the %d done before the server was killed (less the 3 in flight)", stored, doneAtKill)
	}
	t.Logf("the coordinator started again: %s of %s tasks had results; printed %s", m[1], m[2], strings.TrimSpace(string(out)))
	if r := streamInfo(t, ctx, url, state).Config.Replicas; r != 3 {
		t.Errorf("stream %s has %d replicas, want 3", cluster.ResultsStream, r)
	}
}

// buildFor builds package pkg (of this module or one it requires) into dir/name, as releases
// are built (static, CGO_ENABLED=0), and returns the path.
func buildFor(t *testing.T, dir, name, pkg string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	build := exec.Command("go", "build", "-trimpath", "-o", out, pkg)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// runOK runs bin with args and returns its standard output; any failure fails the test.
func runOK(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

// startLogged starts bin with args, its standard output and error to the file log, and kills it
// when the test ends (or, on Linux, when the test process dies: dieWithTest); on failure
// the test's log shows the end of every such file.
func startLogged(t *testing.T, log, bin string, args ...string) *exec.Cmd {
	t.Helper()
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
		if t.Failed() {
			b, _ := os.ReadFile(log)
			t.Logf("--- %s (last 3000 bytes)\n%s", filepath.Base(log), b[max(0, len(b)-3000):])
		}
	})
	return cmd
}

// freePorts returns k TCP ports on 127.0.0.1 free a moment ago.
func freePorts(t *testing.T, k int) []int {
	t.Helper()
	var ports []int
	for range k {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// jsConn connects to url as the coordinator of state (with every right in its account).
func jsConn(t *testing.T, url, state string) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	a, err := cluster.LoadAuthority(state)
	if err != nil {
		t.Fatal(err)
	}
	creds, err := a.CoordinatorCreds()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "coordinator.creds")
	if err := os.WriteFile(path, creds, 0o600); err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(url, nats.UserCredentials(path), nats.MaxReconnects(-1), nats.RetryOnFailedConnect(true), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return nc, js
}

// waitJetStream waits until the cluster at url has elected its JetStream leader and
// answers the account of state.
func waitJetStream(t *testing.T, ctx context.Context, url, state string) {
	t.Helper()
	nc, js := jsConn(t, url, state)
	defer nc.Close()
	var err error
	for ctx.Err() == nil {
		// Each try has its own short limit: a request made before the connection is up
		// waits for an answer that never comes.
		try, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err = js.AccountInfo(try)
		cancel()
		if err == nil {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("the cluster's JetStream never answered: %v", err)
}

// streamInfo returns what the cluster at url says of its results stream.
func streamInfo(t *testing.T, ctx context.Context, url, state string) *jetstream.StreamInfo {
	t.Helper()
	nc, js := jsConn(t, url, state)
	defer nc.Close()
	st, err := js.Stream(ctx, cluster.ResultsStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// planTasks waits for the coordinator's line "job …: K of T tasks have results" in log and
// returns T.
func planTasks(t *testing.T, ctx context.Context, log string) int {
	t.Helper()
	re := regexp.MustCompile(`\d+ of (\d+) tasks have results`)
	for ctx.Err() == nil {
		b, _ := os.ReadFile(log)
		if m := re.FindSubmatch(b); m != nil {
			k, _ := strconv.Atoi(string(m[1]))
			return k
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the coordinator never said how many tasks its plan has")
	return 0
}

// countDone is the number of "task … done in" lines in the workers' logs.
func countDone(logs []string) int {
	done := 0
	for _, log := range logs {
		b, _ := os.ReadFile(log)
		done += strings.Count(string(b), " done in ")
	}
	return done
}

// waitTasks waits until the workers' logs hold at least k tasks done and returns how many.
func waitTasks(t *testing.T, ctx context.Context, logs []string, k int) int {
	t.Helper()
	for ctx.Err() == nil {
		if d := countDone(logs); d >= k {
			return d
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the workers did not reach %d tasks done (%d)", k, countDone(logs))
	return 0
}

// scrapeDone reads the coordinator's metrics at addr with Prometheus's text parser and
// returns its count of tasks done.
func scrapeDone(t *testing.T, addr string) float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatalf("scraping the coordinator's metrics: %v", err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parsing the coordinator's metrics: %v", err)
	}
	for _, m := range fams["chesspuzzles_tasks"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "state" && l.GetValue() == "done" {
				return m.GetGauge().GetValue()
			}
		}
	}
	t.Fatal("the coordinator's metrics have no chesspuzzles_tasks{state=\"done\"}")
	return 0
}
