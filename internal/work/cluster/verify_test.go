package cluster

import (
	"errors"
	"math/big"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// TestFingerprintKeyed: a fingerprint is the same for equal results under one key, and
// differs when any part of the result differs (its task, its count however large, a
// counter's name or value, the number of counters), or when the key does (a worker, who
// has no key, cannot tell what a result's fingerprint is).
func TestFingerprintKeyed(t *testing.T) {
	parallel(t)
	plan := mustPlan(t, 8)
	a, b := newVerifier(plan, 0), newVerifier(plan, 0)
	if a.key == b.key {
		t.Fatal("two verifiers drew the same key")
	}
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	r := work.Result{ID: 3, Count: huge, Counters: []work.Counter{{Name: "half_turn", Value: 1}, {Name: "nodes", Value: 99}}}
	if f := a.fingerprint(r); f != a.fingerprint(r) || f == 0 {
		t.Fatal("a fingerprint is not a nonzero function of the result")
	}
	if a.fingerprint(r) == b.fingerprint(r) {
		t.Error("two keys give one fingerprint")
	}
	for name, edit := range map[string]func(*work.Result){
		"task":           func(s *work.Result) { s.ID++ },
		"count":          func(s *work.Result) { s.Count = new(big.Int).Add(huge, new(big.Int).Lsh(big.NewInt(1), 80)) },
		"count's sign":   func(s *work.Result) { s.Count = new(big.Int).Neg(huge) },
		"no count":       func(s *work.Result) { s.Count = nil },
		"counter value":  func(s *work.Result) { s.Counters = []work.Counter{s.Counters[0], {Name: "nodes", Value: 100}} },
		"counter name":   func(s *work.Result) { s.Counters = []work.Counter{s.Counters[0], {Name: "states", Value: 99}} },
		"counters moved": func(s *work.Result) { s.Counters = []work.Counter{{Name: "half_turn1", Value: 1}, {Name: "nodes"}} },
		"one counter":    func(s *work.Result) { s.Counters = s.Counters[:1] },
	} {
		s := r
		edit(&s)
		if a.fingerprint(s) == a.fingerprint(r) {
			t.Errorf("%s changed, fingerprint the same", name)
		}
	}
}

// TestVerifierAgree walks a task through the verifier: a second result by the first's
// identity proves nothing; one by another identity with the same counters agrees (and
// tells the hook); one with other counters is a disagreement naming the first's identity;
// a second that comes before its first is compared when the first comes.
func TestVerifierAgree(t *testing.T) {
	parallel(t)
	plan := mustPlan(t, 8)
	v := newVerifier(plan, plan.Len())
	var agreed [][2]string
	v.agree = func(a, b string) { agreed = append(agreed, [2]string{a, b}) }
	res := func(id int, sol uint64, w string) Result {
		return Result{Job: v.job, Result: work.Result{ID: id, Count: new(big.Int).SetUint64(sol), Counters: []work.Counter{{Name: "nodes", Value: 10}}}, Worker: w}
	}
	if ask, err := v.addFirst(0, res(0, 5, "w1")); !ask || err != nil {
		t.Fatalf("addFirst = %v, %v; want a task to verify", ask, err)
	}
	if w, ok := v.firstWorker(0); !ok || w != "w1" {
		t.Fatalf("firstWorker = %q, %v", w, ok)
	}
	if err := v.addSecond(0, res(0, 6, "w1")); err != nil || v.agreed.has(0) {
		t.Fatalf("a second by the first's identity: %v, agreed %v; want ignored", err, v.agreed.has(0))
	}
	err := v.addSecond(0, res(0, 6, "w2"))
	var dis *DisagreeError
	if !errors.As(err, &dis) || dis.ID != 0 || dis.First.Worker != "w1" || !dis.partial || dis.Second.Worker != "w2" {
		t.Fatalf("a differing second: %v (%+v); want a disagreement naming w1 and w2", err, dis)
	}
	if err := v.addSecond(0, res(0, 5, "w2")); err != nil || !v.agreed.has(0) || len(agreed) != 1 || agreed[0] != [2]string{"w1", "w2"} {
		t.Fatalf("an agreeing second: %v, agreed %v, hook %v", err, v.agreed.has(0), agreed)
	}
	if !v.sameAsFirst(0, res(0, 5, "w3")) || v.sameAsFirst(0, res(0, 4, "w3")) {
		t.Error("sameAsFirst does not tell the first's counters from others")
	}

	// A second before its first.
	if err := v.addSecond(1, res(1, 9, "w2")); err != nil {
		t.Fatal(err)
	}
	if _, err := v.addFirst(1, res(1, 8, "w1")); !errors.As(err, &dis) || dis.partial || dis.First.Count.Int64() != 8 || dis.Second.Count.Int64() != 9 {
		t.Fatalf("a first against an earlier differing second: %v; want a whole disagreement", err)
	}
	v.dropFirst(1)
	if err := v.addSecond(1, res(1, 8, "w2")); err != nil {
		t.Fatal(err)
	}
	if ask, err := v.addFirst(1, res(1, 8, "w1")); ask || err != nil || !v.agreed.has(1) {
		t.Fatalf("a first matching an earlier second: ask %v, %v, agreed %v; want agreed", ask, err, v.agreed.has(1))
	}
	v.dropSecond(1)
	if v.agreed.has(1) || !v.hasFirst(1) {
		t.Error("dropSecond did not undo the agreement alone")
	}
	v.addHere(2, res(2, 1, Here))
	if !v.agreed.has(2) {
		t.Error("a result computed here is not verified")
	}
	want := map[int]bool{}
	for id := range plan.Len() {
		want[id] = id != 0 && id != 2
	}
	for _, id := range v.pending() {
		if !want[id] {
			t.Errorf("pending holds task %d", id)
		}
		delete(want, id)
	}
	for id, w := range want {
		if w {
			t.Errorf("pending lacks task %d", id)
		}
	}
}

// TestSnapshotRoundTrip: a snapshot keeps the verifier's key, fingerprints, identities,
// sampled and agreed tasks and early second results, and a snapshot whose identities do
// not match its results is refused.
func TestSnapshotRoundTrip(t *testing.T) {
	parallel(t)
	plan := mustPlan(t, 8)
	dir := t.TempDir()
	tally, v := newTally(plan), newVerifier(plan, plan.Len()/2)
	sampled := -1
	for id := range v.sample.ids() {
		sampled = id
		break
	}
	for id := range plan.Len() {
		if id == sampled {
			continue
		}
		r := runTask(plan, id)
		if _, err := tally.add(r); err != nil {
			t.Fatal(err)
		}
		w := []string{"w1", "w2", "w3"}[id%3]
		if _, err := v.addFirst(id, Result{Job: v.job, Result: r, Worker: w}); err != nil {
			t.Fatal(err)
		}
		if v.sample.has(id) && id%2 == 0 {
			if err := v.addSecond(id, Result{Job: v.job, Result: r, Worker: "w4"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := v.addSecond(sampled, Result{Job: v.job, Result: runTask(plan, sampled), Worker: "w4"}); err != nil {
		t.Fatal(err)
	}
	const digest, stream, rev = 42, 7, 100
	shot, err := takeSnapshot(plan, digest, stream, rev, tally, v)
	if err != nil {
		t.Fatal(err)
	}
	if err := shot.save(dir); err != nil {
		t.Fatal(err)
	}
	t2, v2, rev2, err := loadSnapshot(dir, plan, digest, stream, rev, v.sample.len())
	if err != nil {
		t.Fatal(err)
	}
	if rev2 != rev || t2.Done() != tally.Done() || v2.key != v.key || v2.agreed.len() != v.agreed.len() || v2.sample.len() != v.sample.len() {
		t.Fatalf("loaded: rev %d, %d done, agreed %d, sampled %d; want %d, %d, %d, %d", rev2, t2.Done(), v2.agreed.len(), v2.sample.len(), rev, tally.Done(), v.agreed.len(), v.sample.len())
	}
	for id := range plan.Len() {
		a, _ := v.firstWorker(id)
		b, _ := v2.firstWorker(id)
		if a != b || v.fp[id] != v2.fp[id] || v.agreed.has(id) != v2.agreed.has(id) {
			t.Fatalf("task %d: first by %q/%q, fingerprints %x/%x, agreed %v/%v", id, a, b, v.fp[id], v2.fp[id], v.agreed.has(id), v2.agreed.has(id))
		}
	}
	if _, ok := v2.early[sampled]; !ok || len(v2.early) != 1 {
		t.Errorf("early second results: %v, want task %d's", v2.early, sampled)
	}
	if !v2.workers["w1"] || !v2.verifiers["w4"] || v2.verifiers["w1"] {
		t.Errorf("identities: workers %v, verifiers %v", v2.workers, v2.verifiers)
	}

	// An identity for a task without a result.
	shot.who = append([]uint32(nil), shot.who...)
	shot.who[sampled] = 1
	if err := shot.save(dir); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := loadSnapshot(dir, plan, digest, stream, rev, v.sample.len()); err == nil {
		t.Error("a snapshot naming an identity for a task with no result was taken")
	}
}
