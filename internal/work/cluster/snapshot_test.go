package cluster

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
	"github.com/nats-io/nats.go/jetstream"
)

// TestSnapshotCrash resumes from a snapshot older than the results: a coordinator stops
// three quarters through, its snapshot is put back to the one it wrote a quarter through
// (as if it had crashed after writing it), and a result counted in that snapshot is
// stored again. The next run takes the snapshot's tasks, reads the results stored after
// it, counts the duplicate once and ends exact: no task counted twice or missed.
func TestSnapshotCrash(t *testing.T) {
	parallel(t)
	const n = 11
	plan := finePlan(t, n, 1, 1000)
	dir := t.TempDir()
	s := startServer(t, dir, "")
	ctx, nc := connectTest(t, s, 5*time.Minute, "coordinator")
	pool := startWorkers(t, ctx, s.URL(), plan, 2, 4, "w")
	defer pool.stop()

	path, old := snapshotPath(dir, plan.Job()), filepath.Join(dir, "old")
	rctx, rcancel := context.WithCancel(ctx)
	var lg logger
	c := &Coordinator{Conn: nc, AckWait: 2 * time.Second, Window: 200, Verify: 0.02, VerifyWait: 200 * time.Millisecond,
		StateDir: dir, SnapshotEvery: time.Millisecond, Logf: lg.Logf}
	c.Progress = func(tl *tally) {
		if _, err := os.Stat(old); err != nil && tl.Done() >= plan.Len()/4 {
			if data, err := os.ReadFile(path); err == nil {
				_ = os.WriteFile(old, data, 0o600)
			}
		}
		if tl.Done() >= 3*plan.Len()/4 {
			rcancel()
		}
	}
	if _, _, err := c.Run(rctx, plan); err != context.Canceled {
		t.Fatalf("first run: %v, want it cancelled", err)
	}
	if err := os.Rename(old, path); err != nil {
		t.Fatalf("no snapshot taken a quarter through: %v", err)
	}
	js, _ := jetstream.New(nc)
	snap := c.snapshotter(ctx, js, plan)
	tally, _, rev, err := loadSnapshot(dir, plan, snap.digest, snap.stream, snap.lastSeq, work.VerifySample(c.Verify, plan.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if tally.Done() == 0 || tally.Done() >= 3*plan.Len()/4 {
		t.Fatalf("the old snapshot holds %d of %d tasks, want some and fewer than three quarters", tally.Done(), plan.Len())
	}
	results, _, err := setup(ctx, js, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	dup := -1
	for id := range plan.Len() {
		if tally.Has(id) {
			dup = id
			break
		}
	}
	hist, err := results.history(ctx, resultKey(plan.Job(), dup))
	if err != nil || len(hist) == 0 {
		t.Fatalf("task %d's result: %v, %v", dup, hist, err)
	}
	e := hist[len(hist)-1]
	r, err := results.put(ctx, e.Key(), e.Value())
	if err != nil || r <= rev {
		t.Fatalf("storing task %d again: revision %d, %v; want one after the snapshot's %d", dup, r, err, rev)
	}
	if last, err := lastJobRevision(ctx, results, plan.Job()); err != nil || last < r {
		t.Fatalf("lastJobRevision = %d, %v; want at least %d", last, err, r)
	}

	c.Progress = nil
	counts, st, err := c.Run(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	checkKnown(t, n, counts)
	if st.Snapshot != tally.Done() || st.Read > plan.Len()-tally.Done()+3*work.VerifySample(c.Verify, plan.Len())+c.Window {
		t.Errorf("second run: %d tasks from the snapshot, %d results read; want %d, and only the results stored after it", st.Snapshot, st.Read, tally.Done())
	}
	if st.Rejected != 0 {
		t.Errorf("second run rejected %d results, want none", st.Rejected)
	}
}

// TestSnapshotIgnored: a snapshot that is damaged, of another plan, of another results
// bucket or of another verified share is ignored with one log line, every result is read,
// and the count is exact.
func TestSnapshotIgnored(t *testing.T) {
	parallel(t)
	const n = 10
	plan := finePlan(t, n, 1, 100)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	path := snapshotPath(dir, plan.Job())

	// count runs plan through a server on store with two workers, or none.
	runCount := func(t *testing.T, plan work.Plan, store string, workers int, verify float64) (Stats, *logger) {
		t.Helper()
		s := startServer(t, store, "")
		defer s.Shutdown()
		nc := adminConn(t, ctx, s.URL())
		defer nc.Close()
		if workers > 0 {
			pool := startWorkers(t, ctx, s.URL(), plan, workers, 2, "w")
			defer pool.stop()
		}
		lg := &logger{}
		c := &Coordinator{Conn: nc, AckWait: 2 * time.Second, Verify: verify, VerifyWait: 100 * time.Millisecond, StateDir: dir, Logf: lg.Logf}
		counts, st, err := c.Run(ctx, plan)
		if err != nil {
			t.Fatal(err)
		}
		checkKnown(t, n, counts)
		return st, lg
	}
	store := filepath.Join(dir, "store")
	if st, _ := runCount(t, plan, store, 2, 0.05); st.Snapshots == 0 {
		t.Fatal("the first count wrote no snapshot")
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if st, lg := runCount(t, plan, store, 0, 0.05); st.Snapshot != plan.Len() || st.Read > 2*work.VerifySample(0.05, plan.Len()) {
		t.Fatalf("a count of a finished job with its snapshot took %d tasks from it and read %d results, want %d and hardly any; log %q", st.Snapshot, st.Read, plan.Len(), lg.lines)
	}
	other := finePlan(t, n, 2, 100)
	for _, tc := range []struct {
		name    string
		data    []byte
		plan    work.Plan
		store   string
		workers int
		verify  float64
		why     string
	}{
		{"damaged", append(append(append([]byte(nil), good[:len(good)/2]...), good[len(good)/2]^1), good[len(good)/2+1:]...), plan, store, 0, 0.05, "checksum does not match"},
		{"cut short", good[:len(good)/3], plan, store, 0, 0.05, "the file is damaged"},
		{"not a snapshot", []byte("{}\n"), plan, store, 0, 0.05, "not a snapshot of this build"},
		{"another verified share", good, plan, store, 0, 0.5, "another --verify"},
		{"another plan of the same job", good, other, filepath.Join(dir, "store2"), 2, 0.05, "not of this plan"},
		{"another results bucket", good, plan, filepath.Join(dir, "store3"), 2, 0.05, "created at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(path, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			st, lg := runCount(t, tc.plan, tc.store, tc.workers, tc.verify)
			if st.Snapshot != 0 || (tc.workers == 0 && st.Read < tc.plan.Len()) || !lg.contains("ignoring the snapshot") || !lg.contains(tc.why) {
				t.Errorf("stats %+v, log %q: want the snapshot ignored (%q) and every result read", st, lg.lines, tc.why)
			}
		})
	}
}

// TestWorkerWithoutPlan runs a count of the fine plan (version 2) with a worker that never
// builds it: it rebuilds each task from its description. A description that is no task of
// the plan is refused; the count is exact.
func TestWorkerWithoutPlan(t *testing.T) {
	parallel(t)
	const n = 11
	plan, err := newQueensPlan(n, count.MethodFrames, frames.FinePlanVersion)
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, t.TempDir(), "")
	ctx, nc := connectTest(t, s, 2*time.Minute, "coordinator")
	var wlog logger
	w := newWorker(t, ctx, s.URL(), "planless", 2)
	w.Logf = wlog.Logf

	// A forged description: task 3's with another cost.
	m := taskMsg(plan, 3)
	forged := *m.Task
	forged.Cost++
	m.Task = &forged
	if _, _, err := w.task(ctx, m); err == nil {
		t.Errorf("the worker took a forged description of task 3")
	}

	stop := runWorkers(ctx, w)
	defer stop()
	var lg logger
	counts, _, err := (&Coordinator{Conn: nc, Logf: lg.Logf}).Run(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	checkKnown(t, n, counts)
	w.mu.Lock()
	built := len(w.plans)
	w.mu.Unlock()
	if built != 0 {
		t.Errorf("the worker built %d plans, want none", built)
	}
}
