package cluster

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestFewDecide: with the default's third (setFew) a task decided while fewer than
// FewIdentities identities were seen is agreed only by a third identity, one decided
// among FewIdentities by its second alone; a decision stands whatever the pool does
// after; a task agreed once with no decision kept wants a third; and the snapshot keeps
// the decisions and the seconds, and one of replicas 2 loads into the default with its
// agreements standing.
func TestFewDecide(t *testing.T) {
	plan := mustPlan(t, 8)
	tally, v := newTally(plan), newVerifier(plan, plan.Len())
	v.setFew()
	res := func(id int, who string) Result { return Result{Job: v.job, Result: runTask(plan, id), Worker: who} }
	for id := range 4 {
		if _, err := tally.add(runTask(plan, id)); err != nil {
			t.Fatal(err)
		}
		if _, err := v.addFirst(id, res(id, "a")); err != nil {
			t.Fatal(err)
		}
	}
	if !v.decide(0, FewIdentities-1) || v.decide(1, FewIdentities) {
		t.Fatalf("decided at %d identities: third %v; at %d: third %v; want a third below %d only",
			FewIdentities-1, v.wantsThird(0), FewIdentities, v.wantsThird(1), FewIdentities)
	}
	if !v.decide(0, 50) || v.decide(1, 3) {
		t.Errorf("decided again with another pool: task 0 third %v, task 1 third %v; want the first decisions kept", v.wantsThird(0), v.wantsThird(1))
	}
	if err := v.addSecond(0, res(0, "b")); err != nil || v.agreed.has(0) || v.second(0) != "b" {
		t.Fatalf("task 0 (at three) agreed by b: agreed %v, second %q (%v); want not agreed, second b", v.agreed.has(0), v.second(0), err)
	}
	if err := v.addSecond(1, res(1, "b")); err != nil || !v.agreed.has(1) || v.second(1) != "" {
		t.Fatalf("task 1 (at two) agreed by b: agreed %v, second %q (%v); want agreed", v.agreed.has(1), v.second(1), err)
	}
	if err := v.addSecond(2, res(2, "b")); err != nil || v.agreed.has(2) || !v.triple.has(2) {
		t.Fatalf("task 2 (no decision) agreed by b: agreed %v, at three %v (%v); want at three, not agreed", v.agreed.has(2), v.triple.has(2), err)
	}
	if err := v.addSecond(0, res(0, "c")); err != nil || !v.agreed.has(0) {
		t.Fatalf("task 0 agreed by c as well: agreed %v (%v), want agreed", v.agreed.has(0), err)
	}

	dir, digest := t.TempDir(), planDigest(plan)
	save := func(v *verifier) {
		t.Helper()
		shot, err := takeSnapshot(plan, digest, 1, 1, tally, v)
		if err != nil {
			t.Fatal(err)
		}
		if err := shot.save(dir); err != nil {
			t.Fatal(err)
		}
	}
	save(v)
	_, v2, _, err := loadSnapshot(dir, plan, digest, 1, 1, plan.Len())
	if err != nil {
		t.Fatal(err)
	}
	if !v2.few || v2.third || !v2.triple.has(0) || !v2.pair.has(1) || v2.second(2) != "b" || !v2.agreed.has(1) || v2.agreed.has(2) {
		t.Fatalf("loaded: few %v third %v, task 0 at three %v, task 1 at two %v, second of 2 %q; want the decisions and b kept",
			v2.few, v2.third, v2.triple.has(0), v2.pair.has(1), v2.second(2))
	}
	if v2.decide(3, FewIdentities) || !v2.wantsThird(2) {
		t.Errorf("loaded: task 3 decided among %d wants a third, or task 2 does not", FewIdentities)
	}
	if err := v2.addSecond(2, res(2, "c")); err != nil || !v2.agreed.has(2) {
		t.Errorf("loaded, task 2 agreed by c as well: agreed %v (%v), want agreed", v2.agreed.has(2), err)
	}

	// A snapshot of replicas 2 (the default of earlier builds) loads as one; made the
	// default's, its agreements stand and its other tasks follow the default.
	p := newVerifier(plan, plan.Len())
	p.key = v.key
	for id := range 4 {
		if _, err := p.addFirst(id, res(id, "a")); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.addSecond(1, res(1, "b")); err != nil || !p.agreed.has(1) {
		t.Fatal(err)
	}
	save(p)
	_, v3, _, err := loadSnapshot(dir, plan, digest, 1, 1, plan.Len())
	if err != nil || v3.few || v3.third {
		t.Fatalf("a snapshot of replicas 2: few %v, third %v (%v); want it loaded as replicas 2", v3 != nil && v3.few, v3 != nil && v3.third, err)
	}
	v3.setFew()
	if !v3.agreed.has(1) {
		t.Errorf("a snapshot of replicas 2 made the default's: task 1 no longer agreed")
	}
	if err := v3.addSecond(0, res(0, "b")); err != nil || v3.agreed.has(0) {
		t.Errorf("a snapshot of replicas 2 made the default's, task 0 agreed by b alone: agreed %v (%v), want a third wanted", v3.agreed.has(0), err)
	}

	bad := []uint64{1, 0}
	if err := emptyVerifier(plan).setDecisions(bad, bad); err == nil || !strings.Contains(err.Error(), "both") {
		t.Errorf("decisions at two and three of task 0: %v, want refused", err)
	}
}

// defaultCount counts Q(8) (78 tasks), published counts switched off, at the default
// (Replicas 0) with honest issued workers w1… (5 ms a task) all joining together, no
// verifier drawn before min identities are seen (0: the default), and returns the
// outcome, the log and the job's record.
func defaultCount(t *testing.T, honest, min int) (runOutcome, *logger, JobRecord) {
	noPublished(t)
	_, s, a, ctx := attackServer(t)
	tj := queensJob(t, 8)
	log := &logger{t: t}
	c := &Coordinator{Conn: coordConn(t, ctx, s.URL(), a), VerifyWait: time.Second, Logf: log.Logf, MinIdentities: min}
	var ws []*Worker
	for i := range honest {
		w := issuedWorker(t, ctx, s.URL(), a, "w"+strconv.Itoa(i+1))
		w.Stall = 5 * time.Millisecond
		ws = append(ws, w)
	}
	out := make(chan runOutcome, 1)
	go func() {
		counts, st, err := c.Run(ctx, tj.plan)
		out <- runOutcome{counts.Total.String(), st, err}
	}()
	t.Cleanup(runWorkers(ctx, ws...))
	o := <-out
	if o.err != nil || o.total != tj.total {
		t.Fatalf("Q(8) at the default = %s, %v; want %s; log:\n%s", o.total, o.err, tj.total, strings.Join(log.lines, "\n"))
	}
	jobs, err := Status(ctx, c.Conn, nil, time.Now())
	if err != nil || len(jobs) != 1 {
		t.Fatalf("status: %v, %d jobs; want one", err, len(jobs))
	}
	return o, log, jobs[0].JobRecord
}

// TestDefaultThreeHonest: at the default where nothing is published, three honest
// identities: every task computed by three distinct identities (or verified by the
// coordinator), exact; the start line and the job's record say what the default does.
func TestDefaultThreeHonest(t *testing.T) {
	parallel(t)
	o, log, rec := defaultCount(t, 3, 0)
	if o.st.ByIdentities[1] != 0 || o.st.ByIdentities[3]+o.st.VerifiedHere < 78 || o.st.ByIdentities[3] == 0 {
		t.Errorf("by identities %v (%d verified here), want every one of the 78 tasks by three", o.st.ByIdentities, o.st.VerifiedHere)
	}
	if !log.contains("no published count of") || !log.contains(FewThird) {
		t.Errorf("the start line does not say %q:\n%s", FewThird, strings.Join(log.lines, "\n"))
	}
	if rec.Replicas != 2 || rec.ThirdBelow != FewIdentities {
		t.Errorf("job record: replicas %d, third below %d; want 2 and %d", rec.Replicas, rec.ThirdBelow, FewIdentities)
	}
	if log.contains("colluding identities among them confirm a lone lie") {
		t.Errorf("the default warns of a lone lie:\n%s", strings.Join(log.lines, "\n"))
	}
}

// TestDefaultElevenIdentities: at the default, FewIdentities honest identities, no
// verifier drawn before all have asked (MinIdentities 11: when the pool's settling alone
// held the draws back, at load 11–21 it settled before the last had asked, and every task
// was drawn at three): every task is drawn among 11 and computed by two, exact, and the
// log says that tasks drawn from then on are computed by two.
func TestDefaultElevenIdentities(t *testing.T) {
	parallel(t)
	o, log, _ := defaultCount(t, FewIdentities, FewIdentities)
	if o.st.ByIdentities[3] != 0 || o.st.ByIdentities[2] != 78 || o.st.VerifiedHere == 78 {
		t.Errorf("by identities %v (%d verified here), want all 78 tasks by two, not all by the coordinator", o.st.ByIdentities, o.st.VerifiedHere)
	}
	if !log.contains(strconv.Itoa(FewIdentities) + " identities have been seen in this run: a task whose second computation is drawn from now on is computed by two identities") {
		t.Errorf("the log does not say the pool reached %d:\n%s", FewIdentities, strings.Join(log.lines, "\n"))
	}
}

// TestDefaultLoneLie: two colluders among three honest identities at the default, all
// joining together; one colluder lies once, the other confirms it when drawn. Among five
// identities every task is computed by three: the lie, accepted as a first result, never
// counts (at replicas 2 it stands with probability 1/4). One count (about 3 s), two
// without -short; CHESSPUZZLES_LONG=1 TestCollusionJoiningOrder measures 40.
func TestDefaultLoneLie(t *testing.T) {
	loneLieNeverCounts(t, 0)
}

// loneLieNeverCounts runs the counts of TestDefaultLoneLie and TestReplicasThreeCollusion
// with the coordinator's Replicas replicas (0: the default), Q(8).
func loneLieNeverCounts(t *testing.T, replicas int) {
	noPublished(t)
	counts := 2
	if testing.Short() {
		counts = 1
	}
	for i := range counts {
		o := collusionCountR(t, 8, "together", 1, 3, false, replicas)
		if !o.exact {
			t.Fatalf("count %d: a wrong total at replicas %d (%d lies accepted as first results)", i, replicas, o.lies)
		}
		if o.lies == 0 {
			t.Logf("count %d: the colluder had no lie accepted (quarantined %v)", i, o.quarantined)
			continue
		}
		if !slices.Contains(o.quarantined, "ca") || slices.ContainsFunc(o.quarantined, func(u string) bool { return u[0] == 'h' }) {
			t.Errorf("count %d: quarantined %v, want ca (and cb if it confirmed), no honest one", i, o.quarantined)
		}
	}
}
