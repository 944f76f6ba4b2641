package cluster

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// declineCount counts tj's plan, published counts off, at --replicas 2 (every task
// computed by two identities: at the default, among five, a third is drawn after the
// second, and cb may be the third of a task ca declined as its second), with three
// honest workers and two issued hostile ones: ca, which hands
// back the second computations decline says to, and cb, which computes every task it is
// given and records its second computations.
func declineCount(t *testing.T, tj testJob, decline func(r *rogue, id int) bool) (runOutcome, *rogue, *rogue, *logger, string) {
	t.Helper()
	noPublished(t)
	hookPlan(t, tj.plan) // made before noPublished
	dir, s, a, ctx := attackServer(t)
	ca := newRogue(issuedHostile(t, s.URL(), a, "ca"), tj.plan)
	cb := newRogue(issuedHostile(t, s.URL(), a, "cb"), tj.plan)
	ca.declineSecond = func(id int) bool { return decline(ca, id) }
	// ca asks more slowly than the others, so that most first computations are theirs
	// and ca is drawn to verify some (a fourth of them): when ca and cb took every first
	// computation between them before the honest ones asked, ca was at times drawn for
	// none, and the test had nothing to check.
	ca.pause, cb.pause = 10*time.Millisecond, 2*time.Millisecond
	log := &logger{t: t}
	c := &Coordinator{Conn: coordConn(t, ctx, s.URL(), a), StateDir: dir, VerifyWait: time.Minute, Logf: log.Logf, Replicas: 2}
	var honest []*Worker
	for i := range 3 {
		w := issuedWorker(t, ctx, s.URL(), a, fmt.Sprintf("h%d", i+1))
		w.Stall = 5 * time.Millisecond
		honest = append(honest, w)
	}
	out := make(chan runOutcome, 1)
	go func() {
		counts, st, err := c.Run(ctx, tj.plan)
		out <- runOutcome{counts.Total.String(), st, err}
	}()
	t.Cleanup(runWorkers(ctx, honest...))
	runRogues(t, ctx, ca, cb)
	o := <-out
	if o.err != nil || o.total != tj.total {
		t.Fatalf("count = %s, %v; want %s; log:\n%s", o.total, o.err, tj.total, strings.Join(log.lines, "\n"))
	}
	return o, ca, cb, log, dir
}

// times returns how many times each task occurs in ids.
func times(ids []int) map[int]int {
	n := map[int]int{}
	for _, id := range ids {
		n[id]++
	}
	return n
}

// TestVerifierDeclines: the verifier drawn for a task is never drawn again. An identity
// that hands back each second computation the first time it is given it gets every one of
// them again, and no other identity gets any (before, each went to a new draw: another
// colluder's chance); one that hands back every second computation has each verified by
// the coordinator after verifyDeclines, and is quarantined once past declineLimit. Both
// counts exact.
func TestVerifierDeclines(t *testing.T) {
	t.Run("once", func(t *testing.T) {
		tj := queensJob(t, 8)
		o, ca, cb, log, _ := declineCount(t, tj, func(r *rogue, id int) bool {
			r.mu.Lock()
			defer r.mu.Unlock()
			return !slices.Contains(r.declined, id)
		})
		ca.mu.Lock()
		given, declined := times(ca.verified), slices.Clone(ca.declined)
		ca.mu.Unlock()
		cb.mu.Lock()
		byB := times(cb.verified)
		cb.mu.Unlock()
		if len(declined) == 0 {
			t.Fatalf("ca was drawn to verify no task: the count tests nothing; stats %+v", o.st)
		}
		for _, id := range declined {
			if given[id] != 2 {
				t.Errorf("task %d, declined once by ca, was given to ca %d times, want 2 (declined, then again)", id, given[id])
			}
			if byB[id] > 0 {
				t.Errorf("task %d, declined by ca, was given to cb to verify: drawn again", id)
			}
		}
		if o.st.Declined < len(declined) {
			t.Errorf("stats: %d declined, want at least ca's %d", o.st.Declined, len(declined))
		}
		if log.contains("quarantin") {
			t.Errorf("a quarantine, with no lie and each task declined once:\n%s", strings.Join(log.lines, "\n"))
		}
		t.Logf("ca declined %d tasks once each; stats %+v", len(declined), o.st)
	})
	t.Run("always", func(t *testing.T) {
		serial(t)
		old := declineFree.Load()
		declineFree.Store(3)
		t.Cleanup(func() { declineFree.Store(old) })
		tj := queensJob(t, 8)
		o, ca, cb, log, dir := declineCount(t, tj, func(*rogue, int) bool { return true })
		ca.mu.Lock()
		given := times(ca.declined)
		ca.mu.Unlock()
		cb.mu.Lock()
		byB := times(cb.verified)
		cb.mu.Unlock()
		h, _ := ReadHistory(dir)
		rec := h[tj.job]["ca"]
		if rec == nil || !rec.Quarantined || rec.Declined <= declineLimit(rec.Tasks) {
			t.Fatalf("history of ca: %+v, want quarantined past %d declined; log:\n%s", rec, declineLimit(0), strings.Join(log.lines, "\n"))
		}
		if !log.contains("allowed for its") {
			t.Errorf("the log does not say why ca was quarantined:\n%s", strings.Join(log.lines, "\n"))
		}
		twice := 0
		for id, n := range given {
			if n > verifyDeclines {
				t.Errorf("task %d was given to ca %d times, want at most %d", id, n, verifyDeclines)
			}
			if n == verifyDeclines {
				twice++
				if byB[id] > 0 {
					t.Errorf("task %d, declined twice by ca, was given to cb: drawn again, not verified here", id)
				}
			}
		}
		if twice < rec.Declined || o.st.VerifiedHere < rec.Declined {
			t.Errorf("%d tasks declined twice by ca, %d verified here; want each of the %d the history counts", twice, o.st.VerifiedHere, rec.Declined)
		}
		t.Logf("ca: %+v; stats %+v", *rec, o.st)
	})
}

// TestDrawsKept: the drawn verifiers of tasks that still want a second computation, with
// their declines, go into the snapshot and come back into a restarted coordinator's
// dispatch, each task waiting in its drawn identity's queue, none drawn again.
func TestDrawsKept(t *testing.T) {
	parallel(t)
	plan := mustPlan(t, 8)
	tally, ver := newTally(plan), newVerifier(plan, plan.Len())
	for id := range 6 {
		r := runTask(plan, id)
		if _, err := tally.add(r); err != nil {
			t.Fatal(err)
		}
		if _, err := ver.addFirst(id, Result{Job: ver.job, Result: r, Worker: "a"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := ver.addSecond(0, Result{Job: ver.job, Result: runTask(plan, 0), Worker: "b"}); err != nil {
		t.Fatal(err)
	}
	d := &dispatch{ver: ver, picked: map[int]string{0: "b", 1: "b", 2: "c", 3: "d"}, declines: map[int]int{2: 1}}
	want := []drawnTask{{1, "b", 0}, {2, "c", 1}, {3, "d", 0}} // 0 is verified: not kept
	if got := d.draws(); !slices.Equal(got, want) {
		t.Fatalf("draws() = %v, want %v", got, want)
	}
	dir := t.TempDir()
	digest := planDigest(plan)
	shot, err := takeSnapshot(plan, digest, 1, 1, tally, ver)
	if err != nil {
		t.Fatal(err)
	}
	shot.Drawn = d.draws()
	if err := shot.save(dir); err != nil {
		t.Fatal(err)
	}
	_, v2, _, err := loadSnapshot(dir, plan, digest, 1, 1, plan.Len())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v2.drawn, want) {
		t.Fatalf("the snapshot's draws: %v, want %v", v2.drawn, want)
	}
	d2 := &dispatch{ver: v2, picked: map[int]string{}, pickedAt: map[int]time.Time{}, queue: map[string][]int{}}
	d2.keepDraws(v2.drawn)
	if d2.picked[1] != "b" || d2.picked[2] != "c" || d2.picked[3] != "d" || len(d2.picked) != 3 || d2.declines[2] != 1 {
		t.Errorf("after a restart: picked %v, declines %v; want %v", d2.picked, d2.declines, want)
	}
	if !slices.Equal(d2.queue["b"], []int{1}) || !slices.Equal(d2.queue["c"], []int{2}) {
		t.Errorf("after a restart: queues %v, want each task in its drawn identity's", d2.queue)
	}
	for _, bad := range [][]drawnTask{{{2, "c", 0}, {1, "b", 0}}, {{1, "b c", 0}}, {{1, "b", verifyDeclines}}, {{plan.Len(), "b", 0}}} {
		if err := checkDraws(bad, plan.Len()); err == nil {
			t.Errorf("checkDraws(%v) = nil, want an error", bad)
		}
	}
}
