package cluster

import (
	"cmp"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// simulateHabit plays adaptive replication against an identity that lies on each of its
// tasks with probability lie, independently, for trials identities of n tasks each, and
// returns the share of them caught (a lie of theirs computed a second time) within their
// n tasks. Each verified honest result is confirmed at once: the policy's worst case,
// since in a run confirmations come later and every result before the After-th is
// verified.
func simulateHabit(a *Adaptive, lie float64, n, trials int, draw func() float64) float64 {
	caught := 0
	for range trials {
		confirmed := 0
		for range n {
			lies := draw() < lie
			if !a.verifies(confirmed, false) {
				continue
			}
			if lies {
				caught++
				break
			}
			confirmed++
		}
	}
	return float64(caught) / float64(trials)
}

// TestAdaptiveHabit: with the default policy, an identity that lies on 5 % of its tasks
// is caught within 500 of them in at least 99 % of trials: measured over 20,000 trials
// (200,000 with CHESSPUZZLES_LONG), within five standard deviations of the bound
// MissChance gives, and never below 99 % (the expected share, 99.49 %, is 9.8 standard
// deviations above it at 20,000 trials). Before its first After tasks are confirmed, an
// identity is always verified; a distrusted one always.
func TestAdaptiveHabit(t *testing.T) {
	parallel(t)
	a := &Adaptive{}
	for k := range a.after() {
		if !a.verifies(k, false) {
			t.Fatalf("a first result with %d confirmed before was spared, want every one of the first %d verified", k, a.after())
		}
	}
	spared := 0
	for range 10000 {
		if !a.verifies(1000, true) {
			t.Fatal("a distrusted identity's result was spared")
		}
		if !a.verifies(1000, false) {
			spared++
		}
	}
	if got, want := float64(spared)/10000, 1-a.share(); math.Abs(got-want) > 0.02 {
		t.Errorf("a trusted identity's results spared: %.3f, want %.3f", got, want)
	}
	trials := 20000
	if os.Getenv("CHESSPUZZLES_LONG") != "" {
		trials = 200000
	}
	got := simulateHabit(a, 0.05, 500, trials, rand.Float64)
	want := 1 - a.MissChance(0.05, 500)
	sd := math.Sqrt(want * (1 - want) / float64(trials))
	t.Logf("lying on 5%% of its tasks: caught within 500 in %.4f of %d trials (bound %.4f, sd %.4f)", got, trials, want, sd)
	if math.Abs(got-want) > 5*sd || got < 0.99 {
		t.Errorf("caught within 500 tasks in %.4f of %d trials, want %.4f ± %.4f and at least 0.99", got, trials, want, 5*sd)
	}
}

// TestAdaptiveReplication: a count of Q(10) (272 tasks; published counts switched off)
// with adaptive replication (a share of a half, trust after 3 confirmed first results),
// two honest identities and a liar that computes its first 10 tasks honestly, to earn
// trust, and then lies on every first computation it can (two more solutions on a task
// of weight 8). The total is exact; the liar is quarantined, no result of it is left in
// the stream, and no task it verified stays verified by it alone; some first results of
// the trusted identities were spared their second computation; and the first 3 first
// results of each honest identity, in the order the coordinator took them, were all
// computed a second time.
func TestAdaptiveReplication(t *testing.T) {
	parallel(t)
	noPublished(t)
	tj := queensJob(t, 10)
	dir, s, a, ctx := attackServer(t)
	plan := tj.plan
	r := newRogue(issuedHostile(t, s.URL(), a, "rogue"), plan)
	firsts := 0
	r.lieFirst = func(int) bool { firsts++; return firsts > 10 }
	log := &logger{t: t}
	sealer := NewSealer(NewToken())
	policy := &Adaptive{Share: 0.5, After: 3}
	conn := coordConn(t, ctx, s.URL(), a)
	c := &Coordinator{Conn: conn, StateDir: dir, VerifyWait: time.Second, Logf: log.Logf, Adaptive: policy, Sealer: sealer, MinIdentities: 2}
	h1, h2 := issuedWorker(t, ctx, s.URL(), a, "h1"), issuedWorker(t, ctx, s.URL(), a, "h2")
	out := honestFirst(t, ctx, c, plan, h1, h2)
	runRogues(t, ctx, r)
	o := <-out
	if o.err != nil {
		t.Fatalf("count: %v; log:\n%s", o.err, strings.Join(log.lines, "\n"))
	}
	if o.total != tj.total {
		t.Fatalf("Q(12) with a liar under adaptive replication = %s, want %s; log:\n%s", o.total, tj.total, strings.Join(log.lines, "\n"))
	}
	lied := r.lies()
	t.Logf("stats %+v; %d first computations asked of the liar, %d lies accepted", o.st, firsts, len(lied))
	if len(lied) == 0 {
		t.Fatalf("the liar got no lie in (%d first computations): the test proves nothing", firsts)
	}
	if o.st.ByIdentities[1] == 0 || o.st.VerifiedHere > 0 {
		t.Errorf("stats %+v: want some first results spared a second computation, and none verified in the coordinator", o.st)
	}
	if !log.contains("adaptive replication") {
		t.Errorf("the log does not say adaptive replication is on:\n%s", strings.Join(log.lines, "\n"))
	}
	h, _ := ReadHistory(dir)
	if rec := h[tj.job]["rogue"]; rec == nil || !rec.Quarantined {
		t.Errorf("history of the liar: %+v, want quarantined", rec)
	}
	// The stream, in the order stored.
	js, err := jetstream.New(conn)
	if err != nil {
		t.Fatal(err)
	}
	res, err := openResults(ctx, js, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	type stored struct {
		id  int
		seq uint64
		who string
	}
	var first []stored
	second := map[int]string{}
	err = readJob(ctx, res, tj.job, 0, func(e entry) error {
		_, id, rr, err := decodeResult(sealer, e.Key(), e.Value())
		if err != nil {
			t.Errorf("stored %s: %v", e.Key(), err)
			return nil
		}
		if rr.Worker == "rogue" {
			t.Errorf("a result of the quarantined liar is still stored: %s", e.Key())
		}
		if os.Getenv("CHESSPUZZLES_TEST_LOGS") != "" {
			t.Logf("stored %s (revision %d) by %s", e.Key(), e.Revision(), rr.Worker)
		}
		if strings.HasSuffix(e.Key(), ".v") {
			second[id] = rr.Worker
		} else {
			first = append(first, stored{id, e.Revision(), rr.Worker})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(first, func(x, y stored) int { return cmp.Compare(x.seq, y.seq) })
	for _, name := range []string{"h1", "h2"} {
		k := 0
		for _, f := range first {
			if f.who != name || k >= policy.after() {
				continue
			}
			k++
			if w, ok := second[f.id]; !ok || w == name {
				t.Errorf("task %d, one of %s's first %d first results, has no second computation by another identity (%q)", f.id, name, policy.after(), w)
			}
		}
	}
}

// TestAdaptiveSnapshot: a snapshot of a run with adaptive replication (its sample every
// task but those spared) is taken back by a run with it, and keeps what was spared; a run
// without it refuses it, and a run with it refuses one of a run that verifies only a
// share, or one that spares a task with no first result.
func TestAdaptiveSnapshot(t *testing.T) {
	parallel(t)
	plan := mustPlan(t, 8)
	dir := t.TempDir()
	tally, v := newTally(plan), newVerifier(plan, plan.Len())
	v.adaptive = true
	for id := range plan.Len() - 1 { // the last task has no result yet
		r := runTask(plan, id)
		if _, err := tally.add(r); err != nil {
			t.Fatal(err)
		}
		if _, err := v.addFirst(id, Result{Job: v.job, Result: r, Worker: "w1"}); err != nil {
			t.Fatal(err)
		}
		if id%2 == 0 {
			v.sample.del(id) // spared
		}
	}
	const digest, stream, rev = 42, 7, 100
	save := func(v *verifier) {
		shot, err := takeSnapshot(plan, digest, stream, rev, tally, v)
		if err != nil {
			t.Fatal(err)
		}
		if err := shot.save(dir); err != nil {
			t.Fatal(err)
		}
	}
	save(v)
	_, v2, _, err := loadSnapshot(dir, plan, digest, stream, rev, adaptiveSample)
	if err != nil {
		t.Fatal(err)
	}
	if !v2.adaptive || v2.sample.len() != v.sample.len() || v2.sample.has(0) || !v2.sample.has(1) {
		t.Errorf("loaded: adaptive %v, %d sampled (task 0 %v, task 1 %v); want adaptive, %d, task 0 spared", v2.adaptive, v2.sample.len(), v2.sample.has(0), v2.sample.has(1), v.sample.len())
	}
	if _, _, _, err := loadSnapshot(dir, plan, digest, stream, rev, plan.Len()); err == nil {
		t.Error("a run verifying every task took a snapshot of a run with adaptive replication")
	}
	v.sample.del(plan.Len() - 1)
	save(v)
	if _, _, _, err := loadSnapshot(dir, plan, digest, stream, rev, adaptiveSample); err == nil {
		t.Error("a snapshot that spares a task with no first result was taken")
	}
	share := newVerifier(plan, 3)
	share.key, share.fp, share.who, share.names = v.key, v.fp, v.who, v.names
	save(share)
	if _, _, _, err := loadSnapshot(dir, plan, digest, stream, rev, adaptiveSample); err == nil {
		t.Error("a run with adaptive replication took the snapshot of a run that verifies 3 tasks")
	}
}
