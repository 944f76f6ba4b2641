package cluster

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
	"github.com/nats-io/nats.go/jetstream"
)

// TestResultsSubject: results share a subject by job and group of 4,096 task ids, and a
// key that names no task is refused.
func TestResultsSubject(t *testing.T) {
	parallel(t)
	for _, tc := range []struct{ key, subj string }{
		{"q28v102.0", "chesspuzzles.results.q28v102.0"},
		{"q28v102.4095.v", "chesspuzzles.results.q28v102.0"},
		{"q28v102.4096", "chesspuzzles.results.q28v102.1"},
		{"k6x8-open-ends-v1.17042023", "chesspuzzles.results.k6x8-open-ends-v1.4160"},
	} {
		if got, err := resultsSubject(tc.key); err != nil || got != tc.subj {
			t.Errorf("resultsSubject(%q) = %q, %v; want %q", tc.key, got, err, tc.subj)
		}
	}
	for _, key := range []string{"", "q28v102", "q28v102.x", "q28v102.-1", ".5"} {
		if got, err := resultsSubject(key); err == nil {
			t.Errorf("resultsSubject(%q) = %q, want an error", key, got)
		}
	}
}

// TestResultsFromBucket: the results an earlier build kept in its key-value bucket are
// moved into the stream when a coordinator starts, and counted: the run computes only the
// tasks that had none, and the total is exact.
func TestResultsFromBucket(t *testing.T) {
	parallel(t)
	const n = 10
	kv := known(t)
	s := startServer(t, t.TempDir(), "")
	ctx, nc := connectTest(t, s, 2*time.Minute, "coordinator")
	plan := mustPlan(t, n)
	job := JobID(n, frames.PlanVersion)
	sealer := NewSealer("the coordinator's secret")
	js, _ := jetstream.New(nc)
	old, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: oldResultsBucket, History: 8, Storage: jetstream.FileStorage})
	if err != nil {
		t.Fatal(err)
	}
	had := plan.Len() / 2
	for id := range had {
		r := Result{Job: job, Result: runTask(plan, id), Worker: "an earlier worker", Task: taskDigest(mustTask(plan, id))}
		data, err := sealValue(sealer, resultKey(job, id), r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := old.Put(ctx, resultKey(job, id), data); err != nil {
			t.Fatal(err)
		}
	}
	stop := runWorkers(ctx, newWorker(t, ctx, s.URL(), "w", 2))
	defer stop()
	lg := &logger{}
	c := &Coordinator{Conn: nc, Sealer: sealer, Replicas: 1, Verify: 0, Logf: lg.Logf}
	counts, st, err := c.Run(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := counts.Total.String(), kv[n][0]; got != want {
		t.Errorf("Q(%d) = %s, want %s", n, got, want)
	}
	if st.Resumed != had || st.Rejected != 0 || !lg.contains("moved ") {
		t.Errorf("stats %+v: want the %d results of the bucket resumed, none rejected; log %q", st, had, lg.lines)
	}
	if _, err := js.KeyValue(ctx, oldResultsBucket); err == nil {
		t.Errorf("the bucket %s is still there", oldResultsBucket)
	}
}

// newResultStore starts a server and sets up its results store as a coordinator does; the
// context ends after a minute.
func newResultStore(t *testing.T) (context.Context, *resultStore) {
	t.Helper()
	s := startServer(t, t.TempDir(), "")
	ctx, nc := connectTest(t, s, time.Minute, "coordinator")
	js, _ := jetstream.New(nc)
	res, _, err := setup(ctx, js, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, res
}

// TestResultsStore: results put under keys come back in order from a sequence, by job and
// by key; a removed one is gone, and removing it again (or a sequence never used) is not
// an error.
func TestResultsStore(t *testing.T) {
	parallel(t)
	ctx, res := newResultStore(t)
	keys := []string{"qa.0", "qa.5000", "qb.0", "qa.0.v", "qa.0"}
	var seqs []uint64
	for i, k := range keys {
		seq, err := res.put(ctx, k, []byte{byte(i)})
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, seq)
	}
	read := func(from uint64) (got []string) {
		t.Helper()
		if err := readJob(ctx, res, "qa", from, func(e entry) error {
			got = append(got, fmt.Sprintf("%s=%d@%d", e.Key(), e.Value()[0], e.Revision()))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := []string{
		fmt.Sprintf("qa.0=0@%d", seqs[0]), fmt.Sprintf("qa.5000=1@%d", seqs[1]),
		fmt.Sprintf("qa.0.v=3@%d", seqs[3]), fmt.Sprintf("qa.0=4@%d", seqs[4]),
	}
	if got := read(0); !slices.Equal(got, want) {
		t.Errorf("job qa from 0: %v, want %v", got, want)
	}
	if got := read(seqs[1]); !slices.Equal(got, want[2:]) {
		t.Errorf("job qa after %d: %v, want %v", seqs[1], got, want[2:])
	}
	if last, err := lastJobRevision(ctx, res, "qb"); err != nil || last != seqs[2] {
		t.Errorf("lastJobRevision(qb) = %d, %v; want %d", last, err, seqs[2])
	}
	h, err := res.history(ctx, "qa.0")
	if err != nil || len(h) != 2 || h[0].seq != seqs[0] || h[1].seq != seqs[4] {
		t.Fatalf("history(qa.0) = %v, %v; want the results at %d and %d", h, err, seqs[0], seqs[4])
	}
	for range 2 {
		if err := res.remove(ctx, seqs[0]); err != nil {
			t.Fatalf("remove(%d): %v", seqs[0], err)
		}
	}
	if err := res.remove(ctx, seqs[4]+1000); err != nil {
		t.Errorf("remove of a sequence never used: %v", err)
	}
	if got := read(0); !slices.Equal(got, want[1:]) {
		t.Errorf("job qa after a remove: %v, want %v", got, want[1:])
	}
}

// TestResultsReadDeleted holds read to its end where the results it set out to read are
// deleted under it: the last of them (it ends at the one before), or all (it ends with
// none), each within moments rather than waiting for results that will never come.
func TestResultsReadDeleted(t *testing.T) {
	ctx, res := newResultStore(t)
	serial(t)
	defer func(h func(), d time.Duration) { readHook, readIdle = h, d }(readHook, readIdle)
	readIdle = 100 * time.Millisecond
	for _, c := range []struct {
		job  string
		gone int // results deleted before the read reads: the last gone of three
		want int
	}{{"qc", 1, 2}, {"qd", 3, 0}} {
		var seqs []uint64
		for i := range 3 {
			seq, err := res.put(ctx, fmt.Sprintf("%s.%d", c.job, i), []byte{byte(i)})
			if err != nil {
				t.Fatal(err)
			}
			seqs = append(seqs, seq)
		}
		readHook = func() {
			for _, seq := range seqs[3-c.gone:] {
				if err := res.remove(ctx, seq); err != nil {
					t.Errorf("remove(%d): %v", seq, err)
				}
			}
		}
		var got int
		start := time.Now()
		err := readJob(ctx, res, c.job, 0, func(entry) error { got++; return nil })
		if err != nil || got != c.want {
			t.Errorf("job %s, last %d of 3 deleted during the read: %d results, %v; want %d", c.job, c.gone, got, err, c.want)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("job %s: the read took %v", c.job, d)
		}
	}
}
