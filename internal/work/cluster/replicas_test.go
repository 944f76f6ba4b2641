package cluster

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestThirdVerifier: with Replicas 3 a task is agreed only once two identities other than
// its first's agree with it (the same one twice is not two); the coordinator's own
// computation settles it alone; a quarantine of the second takes its agreement back; a
// third that differs is a disagreement; and a snapshot keeps each task's second.
func TestThirdVerifier(t *testing.T) {
	plan := mustPlan(t, 8)
	tally, v := newTally(plan), newVerifier(plan, plan.Len())
	v.setThird()
	res := func(id int, who string) Result { return Result{Job: v.job, Result: runTask(plan, id), Worker: who} }
	for id := range 4 {
		if _, err := tally.add(runTask(plan, id)); err != nil {
			t.Fatal(err)
		}
		if _, err := v.addFirst(id, res(id, "a")); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []string{"b", "b"} {
		if err := v.addSecond(0, res(0, s)); err != nil {
			t.Fatal(err)
		}
	}
	if v.agreed.has(0) || v.second(0) != "b" {
		t.Fatalf("after b agreed twice: agreed %v, second %q; want not agreed, second b", v.agreed.has(0), v.second(0))
	}
	if err := v.addSecond(0, res(0, "c")); err != nil || !v.agreed.has(0) {
		t.Fatalf("after c agreed as well: agreed %v (%v), want agreed", v.agreed.has(0), err)
	}
	v.dropFurther(0, "b")
	if v.agreed.has(0) || v.second(0) != "" {
		t.Errorf("b quarantined: agreed %v, second %q; want neither", v.agreed.has(0), v.second(0))
	}
	if err := v.addSecond(1, res(1, Here)); err != nil || !v.agreed.has(1) {
		t.Errorf("verified by the coordinator: agreed %v (%v), want agreed at once", v.agreed.has(1), err)
	}
	if err := v.addSecond(2, res(2, "b")); err != nil {
		t.Fatal(err)
	}
	lie := res(2, "c")
	lie.Result = plus(lie.Result, 2)
	var dis *DisagreeError
	if err := v.addSecond(2, lie); !errors.As(err, &dis) || v.agreed.has(2) {
		t.Errorf("a third that differs: %v, agreed %v; want a DisagreeError", err, v.agreed.has(2))
	}

	dir, digest := t.TempDir(), planDigest(plan)
	shot, err := takeSnapshot(plan, digest, 1, 1, tally, v)
	if err != nil {
		t.Fatal(err)
	}
	if err := shot.save(dir); err != nil {
		t.Fatal(err)
	}
	_, v2, _, err := loadSnapshot(dir, plan, digest, 1, 1, plan.Len())
	if err != nil {
		t.Fatal(err)
	}
	if !v2.third || v2.second(2) != "b" || v2.second(0) != "" || !v2.agreed.has(1) {
		t.Fatalf("loaded: third %v, seconds of 0 and 2 %q %q; want replicas 3, b the second of task 2", v2.third, v2.second(0), v2.second(2))
	}
	if err := v2.addSecond(2, res(2, "d")); err != nil || !v2.agreed.has(2) {
		t.Errorf("loaded, task 2 agreed by d as well: agreed %v (%v), want agreed", v2.agreed.has(2), err)
	}
	// A snapshot of a run with replicas 2 loads as one: a run with replicas 3 ignores it.
	v.third, v.who2 = false, nil
	shot, _ = takeSnapshot(plan, digest, 1, 1, tally, v)
	if err := shot.save(dir); err != nil {
		t.Fatal(err)
	}
	if _, v3, _, err := loadSnapshot(dir, plan, digest, 1, 1, plan.Len()); err != nil || v3.third {
		t.Errorf("a snapshot of replicas 2: third %v (%v), want it loaded without", v3 != nil && v3.third, err)
	}
}

// TestDrawAmong: the identity drawn is uniform among the pool other than those excluded
// (over 40000 draws among four, each within 0.25 ± 0.02: over 9 standard deviations),
// never one excluded, and none when none is left.
func TestDrawAmong(t *testing.T) {
	pool := []string{"a", "b", "c", "d", "e", "f"}
	got := map[string]int{}
	const draws = 40000
	for range draws {
		got[drawAmong(pool, "e", "b", "zz")]++
	}
	if got["b"]+got["e"] != 0 {
		t.Fatalf("excluded identities drawn: %v", got)
	}
	for _, u := range []string{"a", "c", "d", "f"} {
		if share := float64(got[u]) / draws; share < 0.23 || share > 0.27 {
			t.Errorf("%s drawn %.3f of the time, want 0.25 ± 0.02 (%v)", u, share, got)
		}
	}
	if u := drawAmong([]string{"a", "b"}, "b", "a"); u != "" {
		t.Errorf("drawAmong of a pool all excluded = %q, want none", u)
	}
	if u := drawAmong([]string{"a", "b", "c"}, "a", "c"); u != "b" {
		t.Errorf("drawAmong(a b c, not a c) = %q, want b", u)
	}
}

// replicasCount counts Q(n), published counts switched off, with Replicas 3 and honest
// issued workers h1… (5 ms a task) beside the rogues, all joining together, and returns
// the outcome, the log, the rogues (each set up by set) and the identities quarantined.
func replicasCount(t *testing.T, n, honest, min int, set func(*rogue), rogues ...string) (runOutcome, *logger, []*rogue, []string) {
	noPublished(t)
	dir, s, a, ctx := attackServer(t)
	tj := queensJob(t, n)
	log := &logger{t: t}
	c := &Coordinator{Conn: coordConn(t, ctx, s.URL(), a), StateDir: dir, VerifyWait: time.Second, Logf: log.Logf, Replicas: 3, MinIdentities: min}
	var ws []*Worker
	for i := range honest {
		w := issuedWorker(t, ctx, s.URL(), a, "h"+string(rune('1'+i)))
		w.Stall = 5 * time.Millisecond
		ws = append(ws, w)
	}
	var rs []*rogue
	for _, name := range rogues {
		r := newRogue(issuedHostile(t, s.URL(), a, name), tj.plan)
		r.pause = 2 * time.Millisecond
		set(r)
		rs = append(rs, r)
	}
	out := make(chan runOutcome, 1)
	go func() {
		counts, st, err := c.Run(ctx, tj.plan)
		out <- runOutcome{counts.Total.String(), st, err}
	}()
	runRogues(t, ctx, rs...)
	t.Cleanup(runWorkers(ctx, ws...))
	o := <-out
	if o.err != nil || o.total != tj.total {
		t.Fatalf("Q(%d) with replicas 3 = %s, %v; want %s; log:\n%s", n, o.total, o.err, tj.total, strings.Join(log.lines, "\n"))
	}
	h, _ := ReadHistory(dir)
	var q []string
	for name, rec := range h[tj.job] {
		if rec.Quarantined {
			q = append(q, name)
		}
	}
	slices.Sort(q)
	return o, log, rs, q
}

// TestReplicasThree: three honest identities and Replicas 3: the count is exact, every
// task computed by three distinct identities (or verified by the coordinator), none
// quarantined, and the log says what it costs.
func TestReplicasThree(t *testing.T) {
	o, log, _, q := replicasCount(t, 8, 3, 0, nil)
	tasks := 78
	if o.st.ByIdentities[3]+o.st.VerifiedHere < tasks || o.st.ByIdentities[1] != 0 || o.st.ByIdentities[3] == 0 {
		t.Errorf("by identities %v (%d verified here), want every one of the %d tasks by three", o.st.ByIdentities, o.st.VerifiedHere, tasks)
	}
	if len(q) > 0 {
		t.Errorf("honest identities quarantined: %v", q)
	}
	if !log.contains("three times the CPU of one computation") {
		t.Errorf("the log does not say the count computes every task three times:\n%s", strings.Join(log.lines, "\n"))
	}
	if log.contains("colluding identities among them confirm a lone lie") {
		t.Errorf("replicas 3 and the log warns of a lone lie:\n%s", strings.Join(log.lines, "\n"))
	}
}

// TestReplicasThreeLiar: one identity that lies on every first computation it can, among
// three honest ones, with Replicas 3: caught at its first lie, quarantined, every result
// of it computed again; the count is exact.
func TestReplicasThreeLiar(t *testing.T) {
	o, log, rs, q := replicasCount(t, 8, 3, 0, func(r *rogue) { r.lieFirst = func(int) bool { return true } }, "liar")
	if len(rs[0].lies()) == 0 {
		t.Fatalf("the liar had no lie accepted as a first result: the test proves nothing (stats %+v)", o.st)
	}
	if !slices.Equal(q, []string{"liar"}) {
		t.Errorf("quarantined %v, want the liar alone; log:\n%s", q, strings.Join(log.lines, "\n"))
	}
}

// TestReplicasThreeCollusion: two colluders among three honest identities, all joining
// together, Replicas 3; one colluder lies once, the other confirms it when drawn. The lie
// is accepted as a first result and never counts: the total is exact and the liar
// quarantined (with its partner when the partner confirmed it). With Replicas 2 the same
// lie stands with probability 1/4 (TestCollusionJoiningOrder, CHESSPUZZLES_COLLUSION_SOLO).
// The pool settles as in the package's other counts (testPoolSettle): whoever is drawn,
// no two identities of the coalition make three. Two counts (about 3 s each), one with
// -short; CHESSPUZZLES_LONG=1 TestCollusionJoiningOrder measures 40.
func TestReplicasThreeCollusion(t *testing.T) {
	loneLieNeverCounts(t, 3)
}

// TestReplicasFewIdentities: Replicas 3 with two identities (and MinIdentities 2, raised
// to 3, said in the log): no second or third can be drawn, the coordinator verifies every
// task itself, and the count is exact.
func TestReplicasFewIdentities(t *testing.T) {
	o, log, _, _ := replicasCount(t, 8, 2, 2, nil)
	if o.st.VerifiedHere != 78 {
		t.Errorf("verified here %d of 78 tasks, want all: two identities cannot be three", o.st.VerifiedHere)
	}
	if !log.contains("drawn once 3 distinct identities have been seen, not 2") {
		t.Errorf("the log does not say MinIdentities was raised to 3:\n%s", strings.Join(log.lines, "\n"))
	}
}

// TestPoolLine: at replicas 2 the coordinator says once, when its first verifiers can be
// drawn among fewer than 11 identities, the chance 1/(K−1) that two colluders confirm a
// lone lie and that --replicas 3 closes it; nothing among 11 or more, nothing while too
// few are seen to draw (it says so once they are).
func TestPoolLine(t *testing.T) {
	for _, tc := range []struct {
		pool int
		want string
	}{
		{5, "drawn among the 5 identities seen in this run: two colluding identities among them confirm a lone lie of one with probability 1/4; --replicas 3"},
		{10, "probability 1/9"},
		{11, ""},
		{2, ""},
	} {
		log := &logger{t: t}
		d := &dispatch{c: &Coordinator{Logf: log.Logf}, job: "q8v1", minIdentities: DefaultMinIdentities, smallPool: true, toVerify: []int{0}}
		for i := range tc.pool {
			d.pool = append(d.pool, "w"+strings.Repeat("x", i))
		}
		d.pick(0)
		d.pick(0)
		switch {
		case tc.want == "" && len(log.lines) > 0:
			t.Errorf("%d identities: %q, want no line", tc.pool, log.lines)
		case tc.want != "" && (len(log.lines) != 1 || !strings.Contains(log.lines[0], tc.want)):
			t.Errorf("%d identities: %q, want one line saying %q", tc.pool, log.lines, tc.want)
		}
		if d.smallPool != (tc.pool < DefaultMinIdentities) {
			t.Errorf("%d identities: still to say %v", tc.pool, d.smallPool)
		}
	}
}
