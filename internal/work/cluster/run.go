package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A run is one Coordinator.Run: its steps are the methods below, in the order Run calls
// them (open, resume, subscribe, loop, finish).
type run struct {
	c       *Coordinator
	plan    work.Plan
	job     string
	stats   Stats
	sealer  *Sealer
	js      jetstream.JetStream
	results *resultStore
	jobs    jetstream.KeyValue
	rec     JobRecord
	share   float64 // the share of tasks verified
	// replicas is the number of distinct identities that compute each task: 1 (with
	// share verified), 2 or 3 (adaptive replication: 2); few, with replicas 2: the
	// default where nothing is published, a third while the pool is small (FewThird).
	replicas int
	few      bool

	tally    *tally
	ver      *verifier
	lastRev  uint64 // every entry of the job up to this revision is in tally and ver
	snap     *snapshotter
	wrote    *revision // what this run stored: in tally and ver before it was written
	recorded time.Time // when the job record was last written
	histAt   time.Time // when the identities' history was last written

	d                    *dispatch
	wants, beats, handed chan *nats.Msg
	stop                 chan struct{} // closed when the subscriptions end
	subs                 []*nats.Subscription
	finished             bool
	disputes             []*DisagreeError // found in the stored results, settled once the dispatch is made
	verifyWait           time.Duration
	lastSecond           time.Time // when the last first or second result came
	// waitSince is since when tasks wait for a verifier with none live (zero: none
	// waits), waitSaid when the log last said so.
	waitSince, waitSaid time.Time
	// drawAgain: the run has adaptive replication and no snapshot, so the draws of the
	// first results read from the stream with no second are made again (spare).
	drawAgain bool
}

// Run counts plan through the server and returns the exact counts once every task has a
// result and the verified tasks agree, or ctx.Err() if ctx is done first (what was
// accepted stays on the server: running again resumes it). It takes as long as the
// workers need, plus a moment per thousand tasks to hand them out, and, on a start
// without a snapshot (see StateDir), a moment per thousand results already stored to read
// them. It builds the plan first (work.Build).
func (c *Coordinator) Run(ctx context.Context, plan work.Plan) (Outcome, Stats, error) {
	r := &run{c: c, plan: plan, job: plan.Job()}
	r.stats = Stats{Job: r.job, ByIdentities: map[int]int{}}
	if err := r.open(ctx); err != nil {
		return Outcome{}, r.stats, err
	}
	if err := r.resume(ctx); err != nil {
		return Outcome{}, r.stats, err
	}
	r.dispatch()
	defer r.d.stopNext()
	for _, dis := range r.disputes {
		if err := r.d.resolve(ctx, dis); err != nil {
			return r.fail(ctx, err)
		}
	}
	defer r.unsubscribe()
	if err := r.subscribe(); err != nil {
		return Outcome{}, r.stats, err
	}
	for {
		if err := r.loop(ctx); err != nil {
			return r.fail(ctx, err)
		}
		counts, st, err := r.finish(ctx)
		if err == nil {
			r.linger(ctx) // each worker hears that the job is done
		}
		if !errors.Is(err, errRecheck) {
			return counts, st, err
		}
	}
}

// An Outcome is what a count through the cluster found: the plan's total, Σ weight ×
// count over its tasks, and the weighted sum of each of its counters, by name (a queens
// plan's U(N) is made of those: work.QueensPlan.Counts).
type Outcome struct {
	Job   string
	Total *big.Int
	Sums  map[string]*big.Int
}

// published returns the published total of plan, if any (work.Plan.Published): a test
// hook switches it off, so that a small board is counted as N = 28 would be. Without it,
// a plan's other published values (work.SumChecker) are not checked either.
var published = func(plan work.Plan) (*big.Int, bool) { return plan.Published() }

// errRecheck is what finish returns when the total was refused against the published
// value and the run has sent the tasks computed once to be computed again.
var errRecheck = errors.New("recheck")

// A RefusedError says that a count's total cannot be trusted and the run could not find
// which task is wrong: every task was computed by two identities that agree (or by the
// coordinator), and the total still differs from the published value. It names the
// identities whose results the count holds.
type RefusedError struct {
	Job        string
	Reason     string
	Identities []string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("job %s: %s; every task was computed by two identities that agree, so no task can be named: the identities are %s; the total is refused",
		e.Job, e.Reason, strings.Join(e.Identities, ", "))
}

// open builds the plan, finds the sealer, creates the buckets and records the job.
func (r *run) open(ctx context.Context) error {
	c := r.c
	if c.Replicas < 0 || c.Replicas > MaxReplicas {
		return fmt.Errorf("replicas %d: want 1 to %d distinct identities a task (0: the default)", c.Replicas, MaxReplicas)
	}
	if err := work.Build(ctx, r.plan); err != nil {
		return err
	}
	r.sealer = c.Sealer
	if r.sealer == nil {
		admin := NewToken()
		if c.StateDir != "" {
			var err error
			if admin, err = LoadOrCreateAdmin(c.StateDir); err != nil {
				return err
			}
		}
		r.sealer = NewSealer(admin)
	}
	var err error
	if r.js, err = jetstream.New(c.Conn); err != nil {
		return err
	}
	if r.results, r.jobs, err = setupReplicated(ctx, r.js, c.StreamReplicas, c.logf); err != nil {
		return err
	}
	r.share = c.Verify
	replicas := c.Replicas
	if a := c.Adaptive; a != nil {
		if err := a.check(); err != nil {
			return err
		}
		replicas = 2
		c.logf("job %s: adaptive replication: %s; a lie of a trusted identity slips through with probability %.3g", r.job, a, 1-a.share())
	} else if _, ok := published(r.plan); !ok && replicas == 0 {
		replicas, r.few = 2, true
		c.logf("job %s: no published count of %s to hold the total against: %s, the second and the third picked by the coordinator (--replicas 2 for two always, 3 for three, 1 to compute each task once)", r.job, planName(r.plan), FewThird)
	}
	if replicas >= 2 {
		r.share = 1
	}
	if replicas == 3 {
		c.logf("job %s: every task is computed by three distinct identities, the second and the third drawn by the coordinator (replicas 3): three times the CPU of one computation, and two colluding identities never confirm a lie", r.job)
	}
	r.replicas = max(replicas, 1)
	plan := r.plan
	n, v := jobBoard(r.job)
	r.rec = JobRecord{Job: r.job, N: n, PlanVersion: v, Tasks: plan.Len(), Started: time.Now().UTC(), Replicas: max(replicas, 1), Verify: r.share}
	if r.few {
		r.rec.ThirdBelow = FewIdentities
	}
	if e, err := r.jobs.Get(ctx, r.job); err == nil {
		var old JobRecord
		if _, err := openValue(r.sealer, r.job, e.Value(), &old); err == nil && !old.Started.IsZero() {
			r.rec.Started = old.Started
		}
	}
	return putSealed(ctx, r.jobs, r.sealer, r.job, r.rec)
}

// resume takes what earlier runs counted: the snapshot, then the results stored after it.
func (r *run) resume(ctx context.Context) error {
	c, plan, job := r.c, r.plan, r.job
	sample := work.VerifySample(r.share, plan.Len())
	want := sample
	if c.Adaptive != nil {
		want = adaptiveSample
	}
	r.snap = c.snapshotter(ctx, r.js, plan)
	if snap := r.snap; snap != nil {
		t, v, rev, err := loadSnapshot(c.StateDir, plan, snap.digest, snap.stream, snap.lastSeq, want)
		switch {
		case err == nil && (v.third != (r.replicas == 3) || v.few && !r.few):
			c.logf("job %s: ignoring the snapshot %s: it is of a run with %s, this run has %s; reading every stored result",
				job, snapshotPath(c.StateDir, job), replicasName(v.third, v.few), replicasName(r.replicas == 3, r.few))
		case err == nil:
			if r.few && !v.few {
				// Of replicas 2 (the default of earlier builds): its tasks agreed by two
				// stand; those verified from now on follow the default.
				v.setFew()
			}
			r.tally, r.ver, r.lastRev = t, v, rev
			snap.rev = rev
			r.stats.Snapshot = t.Done()
			c.logf("job %s: the snapshot %s holds %d of %d tasks, read up to revision %d; reading only the results stored after it",
				job, snapshotPath(c.StateDir, job), t.Done(), plan.Len(), rev)
		case !errors.Is(err, errNoSnapshot):
			c.logf("job %s: ignoring the snapshot %s: %v; reading every stored result", job, snapshotPath(c.StateDir, job), err)
		}
	}
	fresh := r.tally == nil
	if fresh {
		r.tally, r.ver = newTally(plan), newVerifier(plan, sample)
		r.ver.adaptive = c.Adaptive != nil
		switch {
		case r.replicas == 3:
			r.ver.setThird()
		case r.few:
			r.ver.setFew()
		}
	}
	r.drawAgain = fresh && c.Adaptive != nil
	r.wrote = &revision{}
	if err := readJob(ctx, r.results, job, r.lastRev, r.readStored(ctx)); err != nil {
		return err
	}
	if fresh {
		r.ver.resample(sample) // keep the tasks an earlier run verified
	}
	r.stats.Resumed = r.tally.Done()
	if c.CaughtUp != nil {
		c.CaughtUp(r.tally)
	}
	if r.tally.Done() == plan.Len() {
		c.logf("job %s: all %d tasks have results already", job, plan.Len())
	} else {
		c.logf("job %s: %d of %d tasks have results; assigning the rest to the workers that ask", job, r.tally.Done(), plan.Len())
	}
	return nil
}

// readStored returns the reader of the results earlier runs accepted: it takes only
// entries this coordinator's secret sealed, and deletes the others.
func (r *run) readStored(ctx context.Context) func(entry) error {
	c, job := r.c, r.job
	reject := func(e entry, res Result, err error) {
		r.stats.Rejected++
		c.logf("rejected stored result %s (revision %d) of worker %q: %v", e.Key(), e.Revision(), res.Worker, err)
		if err := r.results.remove(ctx, e.seq); err != nil {
			c.logf("deleting rejected result %s: %v", e.Key(), err)
		}
	}
	return func(e entry) error {
		r.stats.Read++
		r.lastRev = max(r.lastRev, e.Revision())
		j, id, res, err := decodeResult(r.sealer, e.Key(), e.Value())
		if err == nil && j != job {
			err = fmt.Errorf("key of job %q, not %s", j, job)
		}
		if err == nil {
			err = checkResult(r.plan, id, &res)
		}
		if err != nil {
			reject(e, res, err)
			return nil
		}
		if strings.HasSuffix(e.Key(), ".v") {
			return r.dispute(r.ver.addSecond(id, res))
		}
		added, err := r.tally.add(res.Result)
		if err != nil {
			return err
		}
		if !added {
			if !r.ver.sameAsFirst(id, res) {
				r.disputes = append(r.disputes, r.ver.against(id, res))
			}
			return nil
		}
		_, err = r.ver.addFirst(id, res)
		return r.dispute(err)
	}
}

// dispute keeps a disagreement found in the stored results, to settle once the dispatch
// is made, and returns any other error.
func (r *run) dispute(err error) error {
	var dis *DisagreeError
	if errors.As(err, &dis) {
		r.disputes = append(r.disputes, dis)
		return nil
	}
	return err
}

// dispatch makes the run's state of assignments, with the sampled tasks that still want
// a second computation.
func (r *run) dispatch() {
	c := r.c
	d := &dispatch{
		c: c, plan: r.plan, job: r.job, sealer: r.sealer, results: r.results, tally: r.tally, ver: r.ver, stats: &r.stats,
		leases: map[string]*lease{}, firstLease: map[int]*lease{}, verifyLease: map[int]*lease{},
		ackWait: c.AckWait, window: c.Window, js: r.js, rev: r.wrote,
		picked: map[int]string{}, pickedAt: map[int]time.Time{}, queue: map[string][]int{}, seen: map[string]time.Time{},
		quarantined: map[string]bool{}, history: map[string]*IdentityHistory{}, snap: r.snap,
	}
	if d.ackWait <= 0 {
		d.ackWait = DefaultAckWait
	}
	d.g = newGuard(c.Admit, c.logf)
	d.minIdentities = c.MinIdentities
	if d.minIdentities <= 0 {
		d.minIdentities = DefaultMinIdentities
	}
	if d.minIdentities < r.replicas {
		// A task wants that many distinct identities: the coordinator verifies what a
		// smaller population cannot.
		c.logf("job %s: verifiers are drawn once %d distinct identities have been seen, not %d: replicas %d", r.job, r.replicas, d.minIdentities, r.replicas)
		d.minIdentities = r.replicas
	}
	d.smallPool = r.replicas == 2 && !r.few && c.Adaptive == nil
	d.backedUp = map[int]bool{}
	d.maxLeases, d.maxLease = c.MaxLeases, c.MaxLease
	if d.maxLeases <= 0 {
		d.maxLeases = DefaultMaxLeases
	}
	if d.maxLease <= 0 {
		d.maxLease = DefaultMaxLease
	}
	// An identity is live while it asks for tasks (an idle worker asks every 2 s at
	// most) or sends heartbeats (every third of the lease while it computes).
	d.liveFor = max(d.ackWait, 5*time.Second)
	if c.StateDir != "" {
		h, err := ReadHistory(c.StateDir)
		if err != nil {
			c.logf("%v; the identities' history starts anew", err)
		}
		for name, rec := range h[r.job] {
			d.history[name] = rec
			if rec.Quarantined {
				d.quarantined[name] = true
			}
		}
		d.priorRecords(h)
	}
	d.adapt = c.Adaptive
	if d.window <= 0 {
		d.window = DefaultWindow
	}
	d.next, d.stopNext = iter.Pull(r.plan.Order())
	d.keepDraws(r.ver.drawn)
	// (spare takes the task out of the sample: unagreed has read its word already.)
	for id := range r.ver.unagreed() {
		if !r.tally.Has(id) {
			continue
		}
		if first, ok := r.ver.firstWorker(id); ok && r.drawAgain && d.spare(id, first) {
			continue
		}
		d.toVerify = append(d.toVerify, id)
	}
	r.ver.agree = d.agreed
	r.d = d
}

// subscribe listens to the workers' requests, heartbeats and results. Each passes the
// dispatch's guard as it comes (a flood is dropped there, not queued before honest
// messages), then waits for the loop in a queue of at most queueBytes (the client
// library's pending limit; past it, messages are dropped), through a short channel.
func (r *run) subscribe() error {
	r.wants = make(chan *nats.Msg, 64)
	r.beats = make(chan *nats.Msg, 64)
	r.handed = make(chan *nats.Msg, 64)
	r.stop = make(chan struct{})
	for _, s := range []struct {
		subj, queue string
		kind        msgKind
		ch          chan *nats.Msg
	}{
		{wantSubject("*"), coordinatorQueue, kindWant, r.wants},
		{beatSubject("*"), "", kindBeat, r.beats},
		{resultSubject("*", r.job), "", kindResult, r.handed},
	} {
		ch, stop, kind, g := s.ch, r.stop, s.kind, r.d.g
		sub, err := r.c.Conn.QueueSubscribe(s.subj, s.queue, func(m *nats.Msg) {
			if !g.pass(subjectUser(m.Subject), kind, m) {
				return
			}
			select {
			case ch <- m:
			case <-stop:
			}
		})
		if err != nil {
			return fmt.Errorf("subscribing to %s: %w", s.subj, err)
		}
		r.subs = append(r.subs, sub)
		if err := sub.SetPendingLimits(-1, queueBytes); err != nil {
			return fmt.Errorf("subscribing to %s: %w", s.subj, err)
		}
	}
	return nil
}

// unsubscribe ends the subscriptions and answers what came too late, so that no worker
// waits out its request: ask again later; and a result of a finished job is not wanted.
// A result of a job interrupted gets no answer: the worker holds it for the next
// coordinator. Answers go to the sender's own inboxes only, as the loop's.
func (r *run) unsubscribe() {
	for _, s := range r.subs {
		_ = s.Unsubscribe()
	}
	if r.stop != nil {
		close(r.stop)
	}
	a := Assignment{Wait: 0.1, Messages: MessageVersion}
	if r.finished {
		a.Wait, a.Finished = 1, r.job
	}
	wait, _ := json.Marshal(a)
	done, _ := json.Marshal(Receipt{Refused: "the job is finished"})
	for {
		select {
		case m := <-r.wants:
			if ownReply(subjectUser(m.Subject), m.Reply) {
				_ = m.Respond(wait)
			}
		case m := <-r.handed:
			if r.finished && ownReply(subjectUser(m.Subject), m.Reply) {
				_ = m.Respond(done)
			}
		default:
			return
		}
	}
}

// loop answers the workers until every task has a result and every sampled task two
// agreeing ones, or an error ends the run.
func (r *run) loop(ctx context.Context) error {
	r.verifyWait = r.c.VerifyWait
	if r.verifyWait <= 0 {
		r.verifyWait = time.Minute
	}
	r.d.verifyWait = r.verifyWait
	r.lastSecond = time.Now()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for done := false; !done; {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m := <-r.wants:
			r.d.want(m)
		case m := <-r.beats:
			r.d.beat(m)
		case m := <-r.handed:
			news, err := r.d.result(ctx, m)
			if err != nil {
				return err
			}
			if news {
				r.lastSecond = time.Now()
				if r.c.Progress != nil {
					r.c.Progress(r.tally)
				}
			}
		case <-tick.C:
			r.d.expire()
			r.d.refresh()
			r.d.pick(pickScan * 64)
			r.flight()
			if err := r.verifyDeclined(ctx); err != nil {
				return err
			}
			if err := r.verifyAway(ctx); err != nil {
				return err
			}
			r.save(false)
			r.record(ctx, false)
		}
		var err error
		if done, err = r.step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// step reports whether every task has a result and every sampled task two agreeing
// ones; it computes here those no other identity did in time.
func (r *run) step(ctx context.Context) (bool, error) {
	tally, ver := r.tally, r.ver
	if !tally.Complete() {
		return false, r.orphans(ctx)
	}
	pending := ver.pending()
	if len(pending) == 0 {
		return true, nil
	}
	local := ""
	switch {
	case len(ver.workers) <= 1:
		names := slices.Collect(maps.Keys(ver.workers))
		local = fmt.Sprintf("every result of this job came from one identity, %q", strings.Join(names, ""))
	case time.Since(r.d.settled(r.lastSecond)) > r.verifyWait:
		local = fmt.Sprintf("no other identity verified them within %v", r.verifyWait)
	default:
		return false, nil
	}
	if err := r.verifyHere(ctx, pending, local); err != nil {
		return false, err
	}
	return ver.done(), nil
}

// verifyHere computes tasks ids in the coordinator as their second computations, saying
// why.
func (r *run) verifyHere(ctx context.Context, ids []int, why string) error {
	r.c.logf("job %s: verifying %d tasks here in the coordinator: %s", r.job, len(ids), why)
	again, err := countLocally(ctx, r.plan, ids, &r.stats)
	if err != nil {
		return err
	}
	for j, id := range ids {
		res := Result{Job: r.job, Result: again[j], Worker: Here}
		// Stored as a worker's second computation is, so that a later run (with or
		// without the snapshot) finds the task verified and computes nothing again.
		if err := r.d.store(verifyKey(r.job, id), &res); err != nil {
			return err
		}
		if err := r.d.settle(ctx, id, r.ver.addSecond(id, res)); err != nil {
			return err
		}
	}
	r.stats.VerifiedHere += len(ids)
	return nil
}

// orphans computes here the tasks without a result when every identity that could
// compute them is quarantined: none other has been live for VerifyWait, and none holds a
// lease. The coordinator's own results need no second computation.
func (r *run) orphans(ctx context.Context) error {
	d := r.d
	if len(d.quarantined) == 0 || len(d.live) > 0 || len(d.firstLease) > 0 || time.Since(r.lastSecond) <= r.verifyWait {
		return nil
	}
	var ids []int
	for id := range r.plan.Len() {
		if !r.tally.Has(id) {
			ids = append(ids, id)
		}
	}
	r.c.logf("job %s: computing here the %d tasks left: every identity that could compute them is quarantined, and no other asked within %v", r.job, len(ids), r.verifyWait)
	res, err := countLocally(ctx, r.plan, ids, &r.stats)
	if err != nil {
		return err
	}
	for j, id := range ids {
		here := Result{Job: r.job, Result: res[j], Worker: Here}
		if err := d.store(resultKey(r.job, id), &here); err != nil {
			return err
		}
		if _, err := r.tally.add(here.Result); err != nil {
			return err
		}
		r.ver.addHere(id, here)
	}
	r.lastSecond = time.Now()
	return nil
}

// fail ends a run that met err: a disagreement forgets the task's results and the
// snapshot; an interruption saves the snapshot and the job record.
func (r *run) fail(ctx context.Context, err error) (Outcome, Stats, error) {
	var dis *DisagreeError
	if errors.As(err, &dis) {
		r.c.forget(ctx, r.results, r.job, dis.ID)
		r.c.dropSnapshot(r.snap, r.job)
	} else if ctx.Err() != nil {
		r.save(true)
		r.record(ctx, true)
	}
	return Outcome{}, r.stats, err
}

// save writes a snapshot if results came since the last one and it is time (or force),
// and the identities' history with it.
func (r *run) save(force bool) {
	if r.c.StateDir != "" && r.d != nil && (force || time.Since(r.histAt) >= 5*time.Second) {
		r.histAt = time.Now()
		if err := saveJob(r.c.StateDir, r.job, r.d.history); err != nil {
			r.c.logf("writing the identities' history: %v", err)
		}
	}
	snap := r.snap
	rev := max(r.lastRev, r.wrote.load())
	if snap == nil || rev <= snap.rev || (!force && !snap.due()) {
		return
	}
	t0 := time.Now()
	s, err := takeSnapshot(r.plan, snap.digest, snap.stream, rev, r.tally, r.ver)
	if err == nil {
		if r.d != nil {
			s.Drawn = r.d.draws()
		}
		err = s.save(r.c.StateDir)
	}
	if err != nil {
		r.c.logf("%v", err)
		snap.at = time.Now() // try again later, not at every tick
		return
	}
	snap.rev, snap.at, snap.took = rev, time.Now(), time.Since(t0)
	r.stats.Snapshots++
}

// record writes the job's progress into its record, every recordEvery (or force).
func (r *run) record(ctx context.Context, force bool) {
	if !force && time.Since(r.recorded) < recordEvery {
		return
	}
	r.recorded = time.Now()
	r.rec.progress(r.tally, r.recorded)
	// Also when ctx is done: the record of an interrupted run tells where it stopped.
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := putSealed(pctx, r.jobs, r.sealer, r.job, r.rec); err != nil {
		r.c.logf("recording the job's progress: %v", err)
	}
}

// final returns the outcome of the complete tally, checked against the plan's published
// values where there are any (work.Plan.Published, or work.SumChecker if the plan is one).
func (r *run) final() (Outcome, error) {
	if !r.tally.Complete() {
		return Outcome{}, fmt.Errorf("%d of %d tasks have no result", r.plan.Len()-r.tally.Done(), r.plan.Len())
	}
	o := Outcome{Job: r.job, Total: r.tally.Total(), Sums: r.tally.Sums()}
	want, ok := published(r.plan)
	if !ok {
		return o, nil
	}
	if want.Cmp(o.Total) != 0 {
		return Outcome{}, fmt.Errorf("the plan %s summed to %s, but the published count is %s: some task's result is wrong", planName(r.plan), o.Total, want)
	}
	if sc, ok := r.plan.(work.SumChecker); ok {
		if err := sc.CheckSums(o.Total, o.Sums); err != nil {
			return Outcome{}, err
		}
	}
	return o, nil
}

// planName names plan in logs: its own Name ("8x8 open-ends v1") if it has one, "N=17"
// for a queens plan, else its job id.
func planName(plan work.Plan) string {
	if n, ok := plan.(interface{ Name() string }); ok {
		return n.Name()
	}
	if n, _ := jobBoard(plan.Job()); n > 0 {
		return fmt.Sprintf("N=%d", n)
	}
	return plan.Job()
}

// jobBoard returns the board N a queens job id names (0 for other jobs) and the plan
// version a job id ends with ("v1"; 0 if none): what a JobRecord shows.
func jobBoard(job string) (n, v int) {
	if n, v, err := work.ParseQueensJob(job); err == nil {
		return n, v
	}
	if i := strings.LastIndex(job, "v"); i >= 0 {
		v, _ = strconv.Atoi(job[i+1:])
	}
	return 0, v
}

// verifyAll samples every task for a second computation: the tasks not sampled yet wait
// for a verifier (the verifier knows each first result's identity and fingerprint).
func (r *run) verifyAll() {
	for id := range r.plan.Len() {
		if !r.ver.sample.has(id) {
			r.ver.sample.add(id)
			if r.tally.Has(id) {
				r.d.toVerify = append(r.d.toVerify, id)
			}
		}
	}
}

// finish waits until the server has every accepted result, then sums the tally and
// records the finished job.
func (r *run) finish(ctx context.Context) (Outcome, Stats, error) {
	c, job := r.c, r.job
	select {
	case <-r.js.PublishAsyncComplete():
	case <-time.After(time.Minute):
		c.logf("job %s: the server has not confirmed every stored result within a minute", job)
	case <-ctx.Done():
		return r.fail(ctx, ctx.Err())
	}
	r.finished = true
	stats := &r.stats
	stats.Verified = r.ver.sample.len()
	r.d.count(stats)
	if stats.Verified > 0 {
		times := "twice"
		switch {
		case r.replicas == 3:
			times = "three times"
		case r.few:
			times = "twice or three times"
		}
		c.logf("job %s: %d tasks were computed %s by distinct identities (%d here), and agree", job, stats.Verified, times, stats.VerifiedHere)
	}
	c.logf("job %s: %s", job, identitiesLine(*stats))
	r.save(true)
	counts, err := r.final()
	if err != nil {
		c.logf("job %s: %v", job, err)
		if r.ver.done() && r.ver.sample.len() < r.plan.Len() {
			// Recover: every task computed once is computed again by an identity the
			// coordinator picks, and each disagreement settled, until the total holds.
			c.logf("job %s: computing again, by other identities, the %d tasks that only one identity computed", job, r.plan.Len()-r.ver.sample.len())
			r.verifyAll()
			r.finished = false
			return Outcome{}, *stats, errRecheck
		}
		names := slices.Sorted(maps.Keys(r.ver.workers))
		return Outcome{}, *stats, &RefusedError{Job: job, Reason: err.Error(), Identities: names}
	}
	rec := &r.rec
	rec.progress(r.tally, time.Now())
	rec.Finished = time.Now().UTC()
	rec.Total = counts.Total.String()
	if q, ok := r.plan.(*work.QueensPlan); ok {
		rec.Unique = q.Counts(counts.Total, counts.Sums).Unique.String() // what "queens status" shows
	}
	rec.Verified, rec.Identities, rec.ByIdentities = stats.Verified, stats.Identities, stats.ByIdentities
	if err := putSealed(ctx, r.jobs, r.sealer, job, *rec); err != nil {
		c.logf("recording the finished job: %v", err)
	}
	return counts, *stats, nil
}
