package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// TestCount runs Count as the command does: an embedded server trusting the authority it
// makes and keeps, an in-process worker, verification, progress. A second Count on the same store
// finds every result there, computes nothing and says all were resumed.
func TestCount(t *testing.T) {
	parallel(t)
	const n = 11
	want := known(t)[n]
	dir := t.TempDir()
	plan, err := newQueensPlan(n, count.MethodFrames, frames.PlanVersion)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var statuses []work.Status
	log := &logger{t: t}
	opts := CountOptions{Listen: "127.0.0.1:0", StoreDir: dir, Workers: 2, Verify: 0.05, Logf: log.Logf,
		Progress: func(s work.Status) {
			mu.Lock()
			defer mu.Unlock()
			statuses = append(statuses, s)
		}}
	c, st, err := Count(context.Background(), plan, opts)
	if err != nil {
		t.Fatal(err)
	}
	// One identity, the local worker's, computed every task; the sampled ones were
	// computed again here.
	if st.Identities != 1 || st.ByIdentities[2] != st.Verified || st.ByIdentities[1]+st.ByIdentities[2] != plan.Len() || st.VerifiedHere != st.Verified {
		t.Errorf("stats %+v: want 1 identity, every task by 1 identity but the %d verified here", st, st.Verified)
	}
	if c.Total.String() != want[0] || unique(plan, c).String() != want[1] {
		t.Errorf("Count(%d) = %v, %v; want %s, %s", n, c.Total, unique(plan, c), want[0], want[1])
	}
	if _, err := os.Stat(filepath.Join(dir, AuthorityFile)); err != nil {
		t.Errorf("no authority kept in the store: %v", err)
	}
	for _, line := range []string{"NATS server on 127.0.0.1:", "workers join with: chesspuzzles worker --nats nats://127.0.0.1:", "tasks were computed twice by distinct identities"} {
		if !log.contains(line) {
			t.Errorf("no log line with %q in %q", line, log.lines)
		}
	}
	first, last := statuses[0], statuses[len(statuses)-1]
	if first.Done != 0 || first.Resumed != 0 || first.Tasks != plan.Len() {
		t.Errorf("first status %d/%d tasks, %d resumed; want 0/%d, 0", first.Done, first.Tasks, first.Resumed, plan.Len())
	}
	if last.Done != plan.Len() || last.Solutions.String() != want[0] || last.Fraction() != 1 || last.CostRun == 0 || last.NodesRun == 0 {
		t.Errorf("last status %d/%d tasks, %v solutions, fraction %v, cost run %d, nodes run %d; want all, %s, 1, > 0", last.Done, last.Tasks, last.Solutions, last.Fraction(), last.CostRun, last.NodesRun, want[0])
	}

	statuses = nil
	c, _, err = Count(context.Background(), plan, opts)
	if err != nil || c.Total.String() != want[0] {
		t.Fatalf("second Count = %v, %v; want %s", c.Total, err, want[0])
	}
	last = statuses[len(statuses)-1]
	if last.Resumed != plan.Len() || last.CostRun != 0 || last.NodesRun != 0 {
		t.Errorf("second Count: last status resumed %d of %d, cost run %d, nodes run %d; want all resumed, nothing run", last.Resumed, plan.Len(), last.CostRun, last.NodesRun)
	}
}

// TestCountRefused: a server that wants another token refuses Count with ErrRefused.
func TestCountRefused(t *testing.T) {
	parallel(t)
	srv := startServer(t, t.TempDir(), "right")
	plan, _ := newQueensPlan(6, count.MethodFrames, frames.PlanVersion)
	_, _, err := Count(context.Background(), plan, CountOptions{URL: srv.URL(), Token: "wrong", StoreDir: t.TempDir()})
	if !errors.Is(err, ErrRefused) {
		t.Errorf("Count with a wrong token: %v, want ErrRefused", err)
	}
}

// TestLocalWorkerSaysWhy: a coordinator's own worker whose --max-memory is too small for
// the tasks says so in the coordinator's log, once a task, instead of handing every task
// back in silence while the count waits.
func TestLocalWorkerSaysWhy(t *testing.T) {
	parallel(t)
	plan := mustKnight(t, "5x6 open-ends v1")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var mu sync.Mutex
	var lines []string
	logf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		line := fmt.Sprintf(format, args...)
		lines = append(lines, line)
		if strings.Contains(line, "this machine's worker: task") {
			cancel()
		}
	}
	_, _, err := Count(ctx, plan, CountOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Workers: 1, MaxMemory: 1, Logf: logf})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Count = %v, want it cancelled once the worker said why (the test's minute is up otherwise)", err)
	}
	mu.Lock()
	defer mu.Unlock()
	seen := map[string]int{}
	said := false
	for _, l := range lines {
		seen[l]++
		if strings.Contains(l, "this machine's worker: task") && strings.Contains(l, "handed back: needs more than") {
			said = true
		}
	}
	if !said {
		t.Errorf("no line says why the local worker handed a task back; log %q", lines)
	}
	for l, k := range seen {
		if k > 1 && strings.Contains(l, "this machine's worker") {
			t.Errorf("said %d times: %q", k, l)
		}
	}
}
