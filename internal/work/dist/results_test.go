package dist

import (
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
	"github.com/nats-io/nats.go/jetstream"
)

// TestResultsSubject: results share a subject by job and group of 4,096 task ids, and a
// key that names no task is refused.
func TestResultsSubject(t *testing.T) {
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
		r := Result{Job: job, N: n, PlanVersion: frames.PlanVersion, Result: runTask(plan, id), Worker: "an earlier worker", Task: taskDigest(mustTask(plan, id))}
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
