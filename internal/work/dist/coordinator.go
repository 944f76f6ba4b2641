package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A Coordinator runs one count plan through a NATS server: it queues the tasks that have
// neither a result nor a message in the stream, and sums the results once per task id.
type Coordinator struct {
	Conn *nats.Conn
	// AckWait is the ack deadline of the workers' consumer (DefaultAckWait if zero).
	AckWait time.Duration
	// Logf, if not nil, gets one line per event worth knowing: a resumed job, a rejected
	// result.
	Logf func(format string, args ...any)
	// Progress, if not nil, is called after each new result with the tally so far.
	Progress func(t *queens.Tally)
	// CaughtUp, if not nil, is called once, when the run has read the results stored
	// before it started (from its snapshot and the bucket), with the tally then.
	CaughtUp func(t *queens.Tally)
	// Verify is the share of tasks, chosen at random, that are computed a second time, by a
	// worker other than the first, once every task has a result; the count is refused
	// with a [DisagreeError] if the two differ. Zero verifies none; the command line's
	// default is [DefaultVerify]. When every result came from one worker, or no other
	// worker has done them within VerifyWait (a minute if zero), the coordinator computes
	// them itself and says so.
	Verify     float64
	VerifyWait time.Duration
	// Window is the most tasks the coordinator keeps queued on the stream without a result
	// (DefaultWindow if zero): it queues them costliest first and tops the queue up as
	// results come, so that a plan of millions of tasks never sits on the server whole.
	// Keep it well above the number of workers' cores.
	Window int
	// Resync is how long the coordinator waits without a new result before it watches the
	// results again from the last revision it read and queues any task that has neither a
	// result nor a message (for example after the stream was purged). It does the same at
	// once after a reconnection. Zero means 5 minutes.
	Resync time.Duration
	// StateDir, if not empty, is the directory where the coordinator keeps a snapshot of
	// the job (<job>.snapshot: the tally, the verifier's state and the results bucket's
	// revision they were read up to), written every SnapshotEvery (30 seconds if zero)
	// while results come and when the run ends or is interrupted. A run that finds a
	// snapshot of its plan and server reads only the results stored after it; one that
	// does not match, or is damaged, is ignored with a logged line, and every result read.
	StateDir      string
	SnapshotEvery time.Duration
}

// DefaultWindow is the Coordinator's Window unless set: enough to keep some thousands of
// cores busy between two top-ups, small enough that the stream holds a few megabytes.
const DefaultWindow = 16384

// Stats says what a run found and did.
type Stats struct {
	Job string
	// Resumed is the number of tasks that had a result when the run started.
	Resumed int
	// Queued is the number of tasks the run put on the stream.
	Queued int
	// Rejected is the number of stored results rejected as not belonging to the job or
	// impossible for their task; Requeued the tasks queued again for that reason.
	Rejected int
	Requeued int
	// Verified is the number of tasks, chosen at random, computed twice and found to
	// agree; VerifiedHere those of them the coordinator computed itself.
	Verified     int
	VerifiedHere int
	// Snapshot is the number of tasks whose results the run took from its snapshot, Read
	// the number of entries it read from the results bucket, Snapshots the snapshots it
	// wrote.
	Snapshot  int
	Read      int
	Snapshots int
}

func (c *Coordinator) logf(format string, args ...any) {
	if c.Logf != nil {
		c.Logf(format, args...)
	}
}

// Run counts plan through the server and returns the exact counts once every task has a
// result, or ctx.Err() if ctx is done first (the job stays on the server: running again
// resumes it). It takes as long as the workers need, plus a moment per thousand tasks to
// queue them, and, on a start without a snapshot (see StateDir), a moment per thousand
// results already stored to read them.
func (c *Coordinator) Run(ctx context.Context, plan *queens.Plan) (queens.Counts, Stats, error) {
	job := JobID(plan.N, plan.Version)
	stats := Stats{Job: job}
	js, err := jetstream.New(c.Conn)
	if err != nil {
		return queens.Counts{}, stats, err
	}
	st, results, jobs, err := setup(ctx, js, c.AckWait)
	if err != nil {
		return queens.Counts{}, stats, err
	}
	rec := JobRecord{Job: job, N: plan.N, PlanVersion: plan.Version, Tasks: plan.Len(), Started: time.Now().UTC()}
	if e, err := jobs.Get(ctx, job); err == nil {
		var old JobRecord
		if json.Unmarshal(e.Value(), &old) == nil && !old.Started.IsZero() {
			rec.Started = old.Started
		}
	}
	if err := putJSON(ctx, jobs, job, rec); err != nil {
		return queens.Counts{}, stats, err
	}

	sample := VerifySample(c.Verify, plan.Len())
	var (
		tally   *queens.Tally
		ver     *verifier
		lastRev uint64 // every entry of the job up to this revision is in tally and ver
		snap    = c.snapshotter(ctx, js, plan)
	)
	if snap != nil {
		t, v, rev, err := loadSnapshot(c.StateDir, plan, snap.digest, snap.stream, snap.lastSeq, sample)
		switch {
		case err == nil:
			tally, ver, lastRev = t, v, rev
			snap.rev = rev
			stats.Snapshot = t.Done()
			c.logf("job %s: the snapshot %s holds %d of %d tasks, read up to revision %d; reading only the results stored after it",
				job, snapshotPath(c.StateDir, job), t.Done(), plan.Len(), rev)
		case !errors.Is(err, errNoSnapshot):
			c.logf("job %s: ignoring the snapshot %s: %v; reading every stored result", job, snapshotPath(c.StateDir, job), err)
		}
	}
	if tally == nil {
		tally, ver = plan.NewTally(), newVerifier(plan, sample)
	}
	// save writes a snapshot if there is news since the last and the run has read the
	// results once (force: whatever the time since the last).
	caughtUp := false
	save := func(force bool) {
		if snap == nil || !caughtUp || lastRev <= snap.rev || (!force && time.Since(snap.at) < snap.every) {
			return
		}
		if err := takeSnapshot(plan, snap.digest, snap.stream, lastRev, tally, ver).save(c.StateDir); err != nil {
			c.logf("%v", err)
			snap.at = time.Now() // try again later, not at every tick
			return
		}
		snap.rev, snap.at = lastRev, time.Now()
		stats.Snapshots++
	}
	recorded := time.Time{}
	record := func(force bool) {
		if !force && time.Since(recorded) < recordEvery {
			return
		}
		recorded = time.Now()
		rec.progress(tally, recorded)
		// Also when ctx is done: the record of an interrupted run tells where it stopped.
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := putJSON(pctx, jobs, job, rec); err != nil {
			c.logf("recording the job's progress: %v", err)
		}
	}
	window := c.Window
	if window <= 0 {
		window = DefaultWindow
	}
	q := &queue{plan: plan, js: js, st: st, tally: tally, window: window, job: job, outstanding: map[int]bool{}}
	defer q.stop()
	verifyWait := c.VerifyWait
	if verifyWait <= 0 {
		verifyWait = time.Minute
	}
	var (
		asked      bool      // second computations were asked of the workers
		lastSecond time.Time // when the last second result came, or they were asked for
	)
	rejected := map[string]uint64{} // key → revision already reported
	reject := func(e jetstream.KeyValueEntry, id int, r Result, err error) {
		if rejected[e.Key()] == e.Revision() {
			return
		}
		rejected[e.Key()] = e.Revision()
		stats.Rejected++
		c.logf("rejected result %s (revision %d) from worker %q: %v", e.Key(), e.Revision(), r.Worker, err)
		// Delete it, unless something newer is there already, and have the task
		// computed again if it has no accepted result.
		if err := results.Delete(ctx, e.Key(), jetstream.LastRevision(e.Revision())); err != nil && !errors.Is(err, jetstream.ErrKeyExists) {
			c.logf("deleting rejected result %s: %v", e.Key(), err)
		}
		if id >= 0 && id < plan.Len() && !tally.Has(id) && !strings.HasSuffix(e.Key(), ".v") {
			if err := c.publish(ctx, js, taskSubject(plan.N, plan.Version, id), taskMsg(plan, id)); err != nil {
				c.logf("queueing task %d again: %v", id, err)
			} else {
				stats.Requeued++
				q.outstanding[id] = true
			}
		}
	}
	add := func(e jetstream.KeyValueEntry) error {
		stats.Read++
		if e.Operation() != jetstream.KeyValuePut {
			return nil
		}
		key, second := strings.CutSuffix(e.Key(), ".v")
		j, id, r, err := decodeResult(key, e.Value())
		if j == "" {
			id = -1 // the key names no task
		}
		if err == nil {
			err = checkResult(plan, id, &r)
		}
		if err != nil {
			reject(e, id, r, err)
			return nil
		}
		if second {
			lastSecond = time.Now()
			return ver.addSecond(id, r)
		}
		added, err := tally.Add(r.TaskResult)
		if err != nil {
			return err
		}
		if !added {
			// The same task stored again: harmless if it says the same, a forgery or a
			// broken machine if not.
			if !ver.sameAsFirst(id, r) {
				f, ok := ver.first[id]
				if !ok {
					f = c.firstFromHistory(ctx, results, e.Key(), id, ver)
				}
				return &DisagreeError{Job: job, ID: id, First: f, Second: r}
			}
			return nil
		}
		// The verifier learns of the result before anything can fail: a run that goes on
		// after an error of topUp does not see this entry again as a first result.
		if _, err := ver.addFirst(id, r); err != nil {
			return err
		}
		delete(q.outstanding, id)
		if c.Progress != nil {
			c.Progress(tally)
		}
		if q.ready && len(q.outstanding) <= q.window/2 {
			n, err := q.topUp(ctx)
			stats.Queued += n
			if err != nil {
				return err
			}
		}
		return nil
	}
	// step runs once every task has a first result: it has the sampled tasks computed a
	// second time by another worker, or here when there is no other worker or none has
	// done them within verifyWait, and reports whether every sampled task agrees.
	step := func() (bool, error) {
		if !tally.Complete() {
			return false, nil
		}
		pending := ver.pending()
		if len(pending) == 0 {
			return true, nil
		}
		local := ""
		switch {
		case len(ver.workers) <= 1:
			names := slices.Collect(maps.Keys(ver.workers))
			local = fmt.Sprintf("every result of this job came from one worker, %q", strings.Join(names, ""))
		case !asked:
			asked, lastSecond = true, time.Now()
			for _, id := range pending {
				m := taskMsg(plan, id)
				m.Verify, m.Not = true, ver.first[id].Worker
				if err := c.publish(ctx, js, verifySubject(plan.N, plan.Version, id), m); err != nil {
					return false, fmt.Errorf("asking for the verification of task %d: %w", id, err)
				}
			}
			c.logf("job %s: every task has a result; verifying %d chosen at random on other workers", job, len(pending))
			return false, nil
		case time.Since(lastSecond) > verifyWait:
			local = fmt.Sprintf("no other worker verified them within %v", verifyWait)
		default:
			return false, nil
		}
		c.logf("job %s: verifying %d tasks here in the coordinator: %s", job, len(pending), local)
		again, err := countLocally(ctx, plan, pending)
		if err != nil {
			return false, err
		}
		for j, id := range pending {
			r := Result{Job: job, N: plan.N, PlanVersion: plan.Version, TaskResult: again[j], Worker: "the coordinator"}
			if err := ver.addSecond(id, r); err != nil {
				return false, err
			}
		}
		stats.VerifiedHere += len(pending)
		return len(ver.pending()) == 0, nil
	}

	resync := c.Resync
	if resync <= 0 {
		resync = 5 * time.Minute
	}
	first := true
	for {
		// Read every result of the job stored after lastRev, then queue what is missing,
		// then follow new results.
		var opts []jetstream.WatchOpt
		if lastRev > 0 {
			opts = append(opts, jetstream.ResumeFromRevision(lastRev+1))
		}
		// The revision of the job's last entry before the watch: once it is read, so is
		// everything the watch had to read first, whether or not the watcher says so
		// (it says so by a marker, which an empty watch or a consumer reset can leave out).
		until, uerr := lastJobRevision(ctx, js, job)
		if uerr != nil {
			until = math.MaxUint64 // wait for the marker
		}
		w, err := results.WatchFiltered(ctx, []string{job + ".>"}, opts...)
		if err != nil {
			if ctx.Err() != nil {
				return queens.Counts{}, stats, ctx.Err()
			}
			c.logf("watching results: %v; trying again", err)
			if err := sleep(ctx, time.Second); err != nil {
				return queens.Counts{}, stats, err
			}
			continue
		}
		read := func(e jetstream.KeyValueEntry) error {
			if err := add(e); err != nil {
				return err
			}
			lastRev = max(lastRev, e.Revision())
			return nil
		}
		idle := func() {
			save(false)
			record(false)
		}
		readAll := func() bool { return lastRev >= until }
		complete, err := c.follow(ctx, w, read, readAll, step, idle, resync, func() error {
			caughtUp = true
			n, waiting, err := q.restart(ctx)
			stats.Queued += n
			if first && err == nil {
				first = false
				if c.CaughtUp != nil {
					c.CaughtUp(tally)
				}
				stats.Resumed = tally.Done()
				c.logf("job %s: %d of %d tasks have results, %d are queued, %d queued now (at most %d at a time)",
					job, tally.Done(), plan.Len(), waiting, n, window)
			}
			return err
		})
		_ = w.Stop()
		if complete {
			break
		}
		var dis *DisagreeError
		if errors.As(err, &dis) {
			c.forget(ctx, results, job, dis.ID)
			// A snapshot may hold the first of the two results, and would count it again
			// on the next start, whose deletion it does not read back.
			if snap != nil {
				if err := os.Remove(snapshotPath(c.StateDir, job)); err != nil && !errors.Is(err, os.ErrNotExist) {
					c.logf("removing the snapshot of job %s, which may hold a result now refused: %v; remove it before counting again", job, err)
				}
			}
			return queens.Counts{}, stats, err
		}
		if err != nil {
			if ctx.Err() != nil {
				save(true)
				record(true)
				return queens.Counts{}, stats, ctx.Err()
			}
			c.logf("%v; trying again", err)
			if err := sleep(ctx, time.Second); err != nil {
				return queens.Counts{}, stats, err
			}
		}
	}
	if first {
		caughtUp = true
		if c.CaughtUp != nil {
			c.CaughtUp(tally)
		}
		stats.Resumed = tally.Done()
		c.logf("job %s: all %d tasks have results already", job, plan.Len())
	}
	stats.Verified = len(ver.sample)
	if stats.Verified > 0 {
		c.logf("job %s: %d tasks chosen at random were computed twice (%d here), and agree", job, stats.Verified, stats.VerifiedHere)
	}
	// Requests for second computations that are no longer needed would only cost workers time.
	if err := st.Purge(ctx, jetstream.WithPurgeSubject(verifySubjects(plan.N, plan.Version))); err != nil {
		c.logf("removing verification requests: %v", err)
	}
	save(true)
	counts := tally.Counts()
	rec.progress(tally, time.Now())
	rec.Finished = time.Now().UTC()
	rec.Total = counts.Total.String()
	if err := putJSON(ctx, jobs, job, rec); err != nil {
		c.logf("recording the finished job: %v", err)
	}
	return counts, stats, nil
}

// recordEvery is how often a running coordinator writes the job's progress into its
// JobRecord, for "queens status".
const recordEvery = time.Second

// A snapshotter is what a coordinator with a StateDir knows to write and check snapshots.
type snapshotter struct {
	digest  uint64        // planDigest of the plan
	stream  int64         // creation time of the results bucket's stream
	lastSeq uint64        // the stream's last sequence when the run started
	every   time.Duration // between two snapshots
	rev     uint64        // revision of the last snapshot written or loaded
	at      time.Time     // when the last snapshot was written
}

// snapshotter returns the snapshotter of a run, or nil if the coordinator has no StateDir
// or cannot read the results bucket's stream (said in the log).
func (c *Coordinator) snapshotter(ctx context.Context, js jetstream.JetStream, plan *queens.Plan) *snapshotter {
	if c.StateDir == "" {
		return nil
	}
	st, err := js.Stream(ctx, "KV_"+ResultsBucket)
	if err != nil {
		c.logf("reading the results bucket's stream: %v; no snapshot", err)
		return nil
	}
	info := st.CachedInfo()
	every := c.SnapshotEvery
	if every <= 0 {
		every = 30 * time.Second
	}
	return &snapshotter{digest: planDigest(plan), stream: info.Created.UnixNano(), lastSeq: info.State.LastSeq, every: every, at: time.Now()}
}

// forget deletes both results of a task whose two computations disagree, so that the next
// run computes it again instead of trusting either.
func (c *Coordinator) forget(ctx context.Context, results jetstream.KeyValue, job string, id int) {
	for _, key := range []string{resultKey(job, id), verifyKey(job, id)} {
		if err := results.Delete(ctx, key); err != nil {
			c.logf("deleting %s: %v", key, err)
		}
	}
	c.logf("deleted both results of task %d of job %s: a new run computes it again", id, job)
}

// taskMsg returns the message of task id of plan, with the task's description.
func taskMsg(plan *queens.Plan, id int) TaskMsg {
	m := TaskMsg{Job: JobID(plan.N, plan.Version), N: plan.N, PlanVersion: plan.Version, ID: id}
	if t, err := plan.Task(id); err == nil {
		m.Task = &t
	}
	return m
}

// publish puts one task message on the stream and waits for the server's acknowledgement.
func (c *Coordinator) publish(ctx context.Context, js jetstream.JetStream, subject string, m TaskMsg) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = js.Publish(ctx, subject, data)
	return err
}

// follow feeds w's entries to add. After the watcher's initial values (its marker, or
// readAll reporting true) it calls queue once. It calls step after each entry and four
// times a second, then idle, and returns true once step does; it returns false with a nil
// error when no result came for the resync period, and the error of add or step if they
// return one.
func (c *Coordinator) follow(ctx context.Context, w jetstream.KeyWatcher, add func(jetstream.KeyValueEntry) error, readAll func() bool, step func() (bool, error), idle func(), resync time.Duration, queue func() error) (bool, error) {
	initial := true
	endInitial := func() (bool, error) {
		initial = false
		if done, err := step(); done || err != nil {
			return done, err
		}
		return false, queue()
	}
	timer := time.NewTimer(resync)
	defer timer.Stop()
	// A watcher does not always survive the server's restart: after a reconnection, read
	// everything again.
	reconnects := c.Conn.Stats().Reconnects
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-tick.C:
			if r := c.Conn.Stats().Reconnects; r != reconnects && c.Conn.IsConnected() {
				return false, nil
			}
			if initial && readAll() {
				if done, err := endInitial(); done || err != nil {
					return done, err
				}
			}
			if !initial {
				if done, err := step(); done || err != nil {
					return done, err
				}
				idle()
			}
		case <-timer.C:
			if initial {
				return false, fmt.Errorf("reading the results took more than %v", resync)
			}
			return false, nil
		case e, ok := <-w.Updates():
			if !ok {
				return false, errors.New("the results watcher stopped")
			}
			if e != nil {
				if err := add(e); err != nil {
					return false, err
				}
				timer.Reset(resync)
			}
			if initial && (e == nil || readAll()) {
				if done, err := endInitial(); done || err != nil {
					return done, err
				}
			}
			if !initial {
				if done, err := step(); done || err != nil {
					return done, err
				}
			}
		}
	}
}

// lastJobRevision returns the revision of the job's last entry in the results bucket, 0 if
// it has none: one request to the server.
func lastJobRevision(ctx context.Context, js jetstream.JetStream, job string) (uint64, error) {
	st, err := js.Stream(ctx, "KV_"+ResultsBucket)
	if err != nil {
		return 0, err
	}
	m, err := st.GetLastMsgForSubject(ctx, "$KV."+ResultsBucket+"."+job+".>")
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return m.Sequence, nil
}

// A queue keeps at most window tasks of a job on the stream without a result: it walks the
// plan's hand-out order (Plan.Order, costliest first) once, publishing each task that has
// no result and no message, and stops when window are outstanding; results make room.
// It is not safe for concurrent use.
type queue struct {
	plan        *queens.Plan
	js          jetstream.JetStream
	st          jetstream.Stream
	tally       *queens.Tally
	window      int
	job         string
	outstanding map[int]bool // tasks with a message on the stream and no result
	ready       bool         // restart has read the stream: topUp may run
	next        func() (int, bool)
	stopNext    func()
}

// stop ends the walk of the hand-out order.
func (q *queue) stop() {
	if q.stopNext != nil {
		q.stopNext()
		q.next, q.stopNext = nil, nil
	}
}

// restart reads which of the job's tasks have a message on the stream, starts the walk of
// the hand-out order again from its beginning (a task whose message was lost, say by a
// purge, is queued again), and tops the queue up. It returns how many tasks it published
// and how many it found queued.
func (q *queue) restart(ctx context.Context) (published, waiting int, err error) {
	info, err := q.st.Info(ctx, jetstream.WithSubjectFilter(jobSubjects(q.plan.N, q.plan.Version)))
	if err != nil {
		return 0, 0, fmt.Errorf("reading the queue: %w", err)
	}
	clear(q.outstanding)
	prefix := jobSubjects(q.plan.N, q.plan.Version)
	prefix = prefix[:len(prefix)-1] // "….q<N>."
	for subj, k := range info.State.Subjects {
		rest, ok := strings.CutPrefix(subj, prefix)
		id, err := strconv.Atoi(rest)
		if ok && err == nil && k > 0 && id >= 0 && id < q.plan.Len() && !q.tally.Has(id) {
			q.outstanding[id] = true
		}
	}
	waiting = len(q.outstanding)
	q.stop()
	q.next, q.stopNext = iter.Pull(q.plan.Order())
	q.ready = true
	published, err = q.topUp(ctx)
	return published, waiting, err
}

// topUp publishes tasks in hand-out order until window are outstanding or the order is
// done, waits for the server to acknowledge them, and returns how many it published.
func (q *queue) topUp(ctx context.Context) (int, error) {
	if q.next == nil {
		return 0, nil
	}
	published := 0
	for len(q.outstanding) < q.window && q.next != nil {
		// At most publishChunk messages wait for the server's acknowledgement at a time:
		// the client refuses more than a few thousand outstanding asynchronous publishes.
		n, err := q.publishSome(ctx, min(publishChunk, q.window-len(q.outstanding)))
		published += n
		if err != nil {
			return published, err
		}
	}
	return published, nil
}

// publishChunk is how many task messages topUp publishes before it waits for the server.
const publishChunk = 1024

// publishSome publishes up to k tasks in hand-out order and waits for the server to
// acknowledge them.
func (q *queue) publishSome(ctx context.Context, k int) (int, error) {
	var futures []jetstream.PubAckFuture
	for len(futures) < k {
		id, ok := q.next()
		if !ok {
			q.stop()
			break
		}
		if q.tally.Has(id) || q.outstanding[id] {
			continue
		}
		data, _ := json.Marshal(taskMsg(q.plan, id))
		f, err := q.js.PublishAsync(taskSubject(q.plan.N, q.plan.Version, id), data)
		if err != nil {
			return len(futures), fmt.Errorf("queueing task %d: %w", id, err)
		}
		q.outstanding[id] = true
		futures = append(futures, f)
	}
	if len(futures) == 0 {
		return 0, nil
	}
	select {
	case <-q.js.PublishAsyncComplete():
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-time.After(time.Minute):
		return 0, errors.New("queueing tasks: no acknowledgement from the server within a minute")
	}
	for _, f := range futures {
		select {
		case err := <-f.Err():
			return 0, fmt.Errorf("queueing task %s: %w", strings.TrimPrefix(f.Msg().Subject, TaskPrefix+"."), err)
		default:
		}
	}
	return len(futures), nil
}

// firstFromHistory returns the first result of task id that the bucket still holds under
// key with the fingerprint the verifier recorded, for the report of a disagreement on a
// task whose first result was not kept whole; a Result naming no worker if none is left.
func (c *Coordinator) firstFromHistory(ctx context.Context, results jetstream.KeyValue, key string, id int, ver *verifier) Result {
	hist, err := results.History(ctx, key)
	if err == nil {
		for _, e := range hist {
			if _, _, r, err := decodeResult(key, e.Value()); err == nil && id < len(ver.fp) && fingerprint(r.TaskResult) == ver.fp[id] {
				return r
			}
		}
	}
	return Result{TaskResult: queens.TaskResult{ID: id}, Worker: "(a first result no longer stored)"}
}

func putJSON(ctx context.Context, kv jetstream.KeyValue, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := kv.Put(ctx, key, data); err != nil {
		return fmt.Errorf("storing %s: %w", key, err)
	}
	return nil
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
