package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A Coordinator runs one count plan through a NATS server: it assigns each task to a
// worker identity that asks for one, with a nonce that binds the assignment to that
// identity, accepts a result only for an outstanding assignment to the identity it comes
// from, stores what it accepts (sealed, see [Sealer]) in the results bucket, and sums
// the results once per task id.
type Coordinator struct {
	Conn *nats.Conn
	// AckWait is how long the coordinator waits for a word from the worker of an
	// assignment (a heartbeat or the result) before it assigns the task again
	// (DefaultAckWait if zero).
	AckWait time.Duration
	// Logf, if not nil, gets one line per event worth knowing: a resumed job, a refused
	// result.
	Logf func(format string, args ...any)
	// Progress, if not nil, is called after each new result with the tally so far.
	Progress func(t *count.Tally)
	// CaughtUp, if not nil, is called once, when the run has read the results stored
	// before it started (from its snapshot and the bucket), with the tally then.
	CaughtUp func(t *count.Tally)
	// Verify is the share of tasks, chosen at random, that are computed a second time, by
	// an identity other than the first's, as soon as the first result is in; the count is
	// refused with a [DisagreeError] if the two differ. Zero verifies none; the command
	// line's default is [DefaultVerify]. When every result came from one identity, or no
	// other identity has done them within VerifyWait (a minute if zero) of the last
	// first result, the coordinator computes them itself and says so.
	Verify     float64
	VerifyWait time.Duration
	// Replicas, if 2, has every task computed by two distinct identities (Verify 1, said
	// as such): the mode for a fleet of workers none of which is trusted.
	Replicas int
	// Window is the most tasks assigned at once whose results have not come
	// (DefaultWindow if zero).
	Window int
	// StateDir, if not empty, is the directory where the coordinator keeps a snapshot of
	// the job (<job>.snapshot: the tally, the verifier's state and the results bucket's
	// revision they were read up to), written every SnapshotEvery (30 seconds if zero)
	// while results come and when the run ends or is interrupted, and its secret
	// (AdminFile) unless Sealer is set. A run that finds a snapshot of its plan and server
	// reads only the results stored after it; one that does not match, or is damaged, is
	// ignored with a logged line, and every result read.
	StateDir      string
	SnapshotEvery time.Duration
	// Sealer seals what the coordinator stores and the nonces of its assignments. Nil:
	// the one of the secret in StateDir, or without StateDir a new one, with which a
	// coordinator started again trusts nothing stored before.
	Sealer *Sealer
}

// DefaultWindow is the Coordinator's Window unless set: enough to keep some thousands of
// cores busy.
const DefaultWindow = 16384

// Stats says what a run found and did.
type Stats struct {
	Job string
	// Resumed is the number of tasks that had a result when the run started.
	Resumed int
	// Queued is the number of assignments the run made (first and second computations).
	Queued int
	// Rejected is the number of stored results rejected (not sealed by this coordinator,
	// not of the job, impossible for their task); Refused the results handed in and
	// refused (no outstanding assignment of the task to that identity, or impossible);
	// Requeued the tasks assigned again for these reasons or because their worker fell
	// silent.
	Rejected int
	Refused  int
	Requeued int
	// Verified is the number of tasks computed twice, by two distinct identities, and
	// found to agree; VerifiedHere those of them the coordinator computed itself.
	Verified     int
	VerifiedHere int
	// Identities is the number of distinct worker identities whose results the count
	// holds; ByIdentities[k] the number of tasks computed by k distinct identities (the
	// coordinator counting as one).
	Identities   int
	ByIdentities map[int]int
	// Snapshot is the number of tasks whose results the run took from its snapshot, Read
	// the number of entries it read from the results bucket, Snapshots the snapshots it
	// wrote.
	Snapshot  int
	Read      int
	Snapshots int
}

// Here is the name of the coordinator in results it computed itself.
const Here = "the coordinator"

func (c *Coordinator) logf(format string, args ...any) {
	if c.Logf != nil {
		c.Logf(format, args...)
	}
}

// A lease is one outstanding assignment.
type lease struct {
	id     int
	user   string
	verify bool
	nonce  string
	until  time.Time
}

// nonce returns the nonce of the serial-th assignment of a run: who it went to, which
// task, first or second computation, sealed, so that a coordinator started again with the
// same secret accepts the results of its earlier run's assignments.
func nonce(s *Sealer, user, job string, id int, verify bool, serial string) string {
	kind := "f"
	if verify {
		kind = "v"
	}
	return kind + serial + "." + s.Seal("nonce", user, job, strconv.Itoa(id), kind, serial)[:32]
}

// checkNonce reports whether n is a nonce the coordinator issued to user for task id of
// job, and whether for a second computation.
func checkNonce(s *Sealer, n, user, job string, id int) (verify, ok bool) {
	head, _, found := strings.Cut(n, ".")
	if !found || len(head) < 2 || (head[0] != 'f' && head[0] != 'v') {
		return false, false
	}
	verify = head[0] == 'v'
	return verify, n == nonce(s, user, job, id, verify, head[1:])
}

// identitiesLine says how many tasks were computed by how many distinct identities.
func identitiesLine(st Stats) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(st.ByIdentities)) {
		word := "identities"
		if k == 1 {
			word = "identity"
		}
		parts = append(parts, fmt.Sprintf("%d tasks by %d distinct %s", st.ByIdentities[k], k, word))
	}
	return fmt.Sprintf("%s; %d worker identities in all", strings.Join(parts, ", "), st.Identities)
}

// dropSnapshot removes the job's snapshot, which may hold a result now refused and would
// count it again on the next start.
func (c *Coordinator) dropSnapshot(snap *snapshotter, job string) {
	if snap == nil {
		return
	}
	if err := os.Remove(snapshotPath(c.StateDir, job)); err != nil && !errors.Is(err, os.ErrNotExist) {
		c.logf("removing the snapshot of job %s, which may hold a result now refused: %v; remove it before counting again", job, err)
	}
}

// readJob feeds fn every entry of job in the results bucket stored after revision from,
// up to the job's last entry when it starts.
func readJob(ctx context.Context, js jetstream.JetStream, results jetstream.KeyValue, job string, from uint64, fn func(jetstream.KeyValueEntry) error) error {
	until, err := lastJobRevision(ctx, js, job)
	if err != nil {
		return fmt.Errorf("reading the results: %w", err)
	}
	if until <= from {
		return nil
	}
	var opts []jetstream.WatchOpt
	if from > 0 {
		opts = append(opts, jetstream.ResumeFromRevision(from+1))
	}
	w, err := results.WatchFiltered(ctx, []string{job + ".>"}, opts...)
	if err != nil {
		return fmt.Errorf("reading the results: %w", err)
	}
	defer func() { _ = w.Stop() }()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-w.Updates():
			if !ok {
				return errors.New("reading the results: the watcher stopped")
			}
			if e == nil {
				return nil
			}
			if err := fn(e); err != nil {
				return err
			}
			if e.Revision() >= until {
				return nil
			}
		}
	}
}

// verifyScan is the most entries of the verification queue one request for a task looks at.
const verifyScan = 64

// A dispatch is the coordinator's state of assignments. It is not safe for concurrent
// use: Run's loop alone calls it.
type dispatch struct {
	c           *Coordinator
	otherBuild  sync.Map // identities of workers of another MessageVersion, named once
	plan        count.Plan
	job         string
	sealer      *Sealer
	results     jetstream.KeyValue
	tally       *count.Tally
	ver         *verifier
	stats       *Stats
	js          jetstream.JetStream
	ack         jetstream.PubAckFuture // of the last store, for result to wait on
	rev         *revision              // the highest revision this run wrote
	ackWait     time.Duration
	window      int
	serial      int
	leases      map[string]*lease // by nonce
	firstLease  map[int]*lease    // the live first-computation lease of a task
	verifyLease map[int]*lease    // the live second-computation lease of a task
	again       []int             // tasks to assign again before the hand-out order
	toVerify    []int             // sampled tasks with a first result and no agreeing second
	next        func() (int, bool)
	stopNext    func()
}

// want answers a worker's request for a task.
func (d *dispatch) want(m *nats.Msg) {
	user := subjectUser(m.Subject)
	if !ValidIdentity(user) || m.Reply == "" {
		return
	}
	var w WantMsg
	_ = json.Unmarshal(m.Data, &w)
	a := Assignment{Wait: 0.1, Messages: MessageVersion}
	if w.Messages != MessageVersion {
		// Another build: it would read no task of ours (nor we its results). It gets
		// none, and is named once; a worker of version 2 or later stops on our answer.
		if _, named := d.otherBuild.LoadOrStore(user, true); !named {
			d.c.logf("worker %s (%q) speaks task messages of version %d, this coordinator %d: it gets no tasks; run the same build on both", user, w.Name, w.Messages, MessageVersion)
		}
		a.Wait = 10
	} else if slices.Contains(w.PlanVersions, d.plan.Version()) {
		if l := d.assign(user); l != nil {
			a = Assignment{TaskMsg: taskMsg(d.plan, l.id), Messages: MessageVersion, Nonce: l.nonce, Lease: d.ackWait.Seconds()}
			a.Verify = l.verify
		}
	}
	data, _ := json.Marshal(a)
	_ = m.Respond(data)
}

// assign returns a new lease of a task for user: a second computation of a task whose
// first result is another identity's, else a task without a result, else nil.
func (d *dispatch) assign(user string) *lease {
	// toVerify is a queue: a task verified or out on a lease leaves it (the lease's end
	// puts it back), one of user's own goes to the back for another identity. At most
	// verifyScan entries are looked at per request, so that a long queue of user's own
	// tasks costs no more.
	for range verifyScan {
		if len(d.toVerify) == 0 {
			break
		}
		id := d.toVerify[0]
		d.toVerify = d.toVerify[1:]
		switch {
		case d.ver.agreed[id] || d.verifyLease[id] != nil:
		case d.ver.first[id].Worker == user:
			d.toVerify = append(d.toVerify, id)
		default:
			return d.lease(user, id, true)
		}
	}
	if len(d.firstLease) >= d.window {
		return nil
	}
	for len(d.again) > 0 {
		id := d.again[0]
		d.again = d.again[1:]
		if !d.tally.Has(id) && d.firstLease[id] == nil {
			return d.lease(user, id, false)
		}
	}
	for d.next != nil {
		id, ok := d.next()
		if !ok {
			d.next = nil
			break
		}
		if !d.tally.Has(id) && d.firstLease[id] == nil {
			return d.lease(user, id, false)
		}
	}
	return nil
}

func (d *dispatch) lease(user string, id int, verify bool) *lease {
	d.serial++
	l := &lease{id: id, user: user, verify: verify, until: time.Now().Add(d.ackWait),
		nonce: nonce(d.sealer, user, d.job, id, verify, strconv.FormatInt(time.Now().UnixNano(), 36)+"-"+strconv.Itoa(d.serial))}
	d.leases[l.nonce] = l
	if verify {
		d.verifyLease[id] = l
	} else {
		d.firstLease[id] = l
	}
	d.stats.Queued++
	return l
}

// release ends a lease; a first computation's task without a result is assigned again
// first.
func (d *dispatch) release(l *lease) {
	delete(d.leases, l.nonce)
	if l.verify {
		if d.verifyLease[l.id] == l {
			delete(d.verifyLease, l.id)
			if !d.ver.agreed[l.id] {
				d.toVerify = append(d.toVerify, l.id)
			}
		}
		return
	}
	if d.firstLease[l.id] == l {
		delete(d.firstLease, l.id)
	}
	if !d.tally.Has(l.id) {
		d.again = append(d.again, l.id)
		d.stats.Requeued++
	}
}

// beat extends the leases a worker says it still works on, and ends those it hands back.
func (d *dispatch) beat(m *nats.Msg) {
	user := subjectUser(m.Subject)
	var b BeatMsg
	if json.Unmarshal(m.Data, &b) != nil {
		return
	}
	for _, n := range b.Nonces {
		if l := d.leases[n]; l != nil && l.user == user {
			l.until = time.Now().Add(d.ackWait)
		}
	}
	for _, n := range b.Back {
		if l := d.leases[n]; l != nil && l.user == user {
			d.release(l)
		}
	}
}

// expire ends the leases whose workers have been silent for the ack deadline.
// One line per silent worker: a dead worker that held thousands of tasks says so once.
func (d *dispatch) expire() {
	now := time.Now()
	silent := map[string][]int{}
	for _, l := range d.leases {
		if now.After(l.until) {
			silent[l.user] = append(silent[l.user], l.id)
			d.release(l)
		}
	}
	for _, user := range slices.Sorted(maps.Keys(silent)) {
		if ids := silent[user]; len(ids) == 1 {
			d.c.logf("job %s: no word from worker %s on task %d for %v; assigning it again", d.job, user, ids[0], d.ackWait)
		} else {
			d.c.logf("job %s: no word from worker %s on %d tasks for %v; assigning them again", d.job, user, len(ids), d.ackWait)
		}
	}
}

// result takes a result a worker hands in: it accepts it only for an assignment of that
// task to the identity it comes from, checks it, stores it sealed, and answers with a
// Receipt. It reports whether the result was new, and returns a DisagreeError if it
// differs from another identity's result of the task.
func (d *dispatch) result(ctx context.Context, m *nats.Msg) (bool, error) {
	user := subjectUser(m.Subject)
	var r Result
	err := json.Unmarshal(m.Data, &r)
	news := false
	if err == nil {
		r.Worker = user
		news, err = d.accept(ctx, user, &r)
	}
	var dis *DisagreeError
	if err != nil && !errors.As(err, &dis) {
		d.stats.Refused++
		d.c.logf("refused a result of task %d of job %s from worker %s (%q): %v", r.ID, d.job, user, r.Name, err)
		if l := d.leases[r.Nonce]; l != nil && l.user == user {
			d.release(l)
		}
		if m.Reply != "" {
			data, _ := json.Marshal(Receipt{Refused: err.Error()})
			_ = m.Respond(data)
		}
		return false, nil
	}
	ack := d.ack
	d.ack = nil
	if m.Reply != "" {
		data, _ := json.Marshal(Receipt{OK: err == nil})
		if err != nil {
			data, _ = json.Marshal(Receipt{Refused: "it differs from another identity's result of the task; the count is refused"})
		}
		if ack == nil {
			_ = m.Respond(data)
		} else {
			// The worker lets its result go once told it is stored: answer when the
			// server has it. A result the server failed to store stays counted in this
			// run; a later run computes its task again.
			go func() {
				select {
				case pa := <-ack.Ok():
					d.rev.store(pa.Sequence)
				case err := <-ack.Err():
					d.c.logf("storing a result of job %s from worker %s: %v; it counts in this run only", d.job, user, err)
				case <-ctx.Done():
					return
				}
				_ = m.Respond(data)
			}()
		}
	}
	return news, err
}

// errNotAssigned is the reason of a refused result that answers no assignment.
var errNotAssigned = errors.New("no assignment of this task to this identity carries its nonce")

func (d *dispatch) accept(ctx context.Context, user string, r *Result) (news bool, err error) {
	if r.Job != d.job {
		return false, fmt.Errorf("result of job %q on the subject of job %s", r.Job, d.job)
	}
	verify, ok := checkNonce(d.sealer, r.Nonce, user, d.job, r.ID)
	if !ok {
		return false, errNotAssigned
	}
	if err := checkResult(d.plan, r.ID, r); err != nil {
		return false, err
	}
	id := r.ID
	l := d.leases[r.Nonce]
	if verify {
		f, ok := d.ver.first[id]
		switch {
		case !d.ver.sample[id] || !ok:
			return false, errors.New("a second computation of a task that needs none")
		case f.Worker == user:
			return false, errors.New("a second computation by the identity of the first")
		case d.ver.agreed[id]:
			if l != nil {
				d.release(l)
			}
			return false, nil
		}
		if err := d.store(verifyKey(d.job, id), r); err != nil {
			return false, err
		}
		if l != nil {
			d.release(l)
		}
		return true, d.ver.addSecond(id, *r)
	}
	if d.tally.Has(id) {
		if l != nil {
			d.release(l)
		}
		if !d.ver.sameAsFirst(id, *r) {
			f, ok := d.ver.first[id]
			if !ok {
				f = Result{Result: count.Result{ID: id}, Worker: "(an earlier result)"}
			}
			return false, &DisagreeError{Job: d.job, ID: id, First: f, Second: *r}
		}
		return false, nil
	}
	if err := d.store(resultKey(d.job, id), r); err != nil {
		return false, err
	}
	if _, err := d.tally.Add(r.Result); err != nil {
		return false, err
	}
	if l != nil {
		d.release(l)
	}
	ask, err := d.ver.addFirst(id, *r)
	if ask {
		d.toVerify = append(d.toVerify, id)
	}
	return true, err
}

// store starts writing an accepted result, sealed, under key (a put into the bucket is a
// publish on its subject), and leaves the server's acknowledgement in d.ack: results are
// stored as fast as the server takes them, not one round trip at a time.
func (d *dispatch) store(key string, r *Result) error {
	data, err := sealValue(d.sealer, key, r)
	if err != nil {
		return err
	}
	f, err := d.js.PublishAsync("$KV."+ResultsBucket+"."+key, data)
	if err != nil {
		return fmt.Errorf("storing %s: %w", key, err)
	}
	d.ack = f
	return nil
}

// A revision is the highest revision of the results bucket known to be written, shared
// by the goroutines that wait for the server's acknowledgements.
type revision struct {
	mu  sync.Mutex
	rev uint64
}

func (r *revision) store(rev uint64) {
	r.mu.Lock()
	r.rev = max(r.rev, rev)
	r.mu.Unlock()
}

func (r *revision) load() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rev
}

// count sets the identity counts of st from the verifier.
func (d *dispatch) count(st *Stats) {
	ids := maps.Clone(d.ver.workers)
	for _, r := range d.ver.second {
		ids[r.Worker] = true
	}
	delete(ids, Here)
	st.Identities = len(ids)
	clear(st.ByIdentities)
	two := 0
	for id := range d.ver.sample {
		if d.ver.agreed[id] {
			two++
		}
	}
	if one := d.plan.Len() - two; one > 0 {
		st.ByIdentities[1] = one
	}
	if two > 0 {
		st.ByIdentities[2] = two
	}
}

// putSealed stores v sealed under key.
func putSealed(ctx context.Context, kv jetstream.KeyValue, s *Sealer, key string, v any) error {
	data, err := sealValue(s, key, v)
	if err != nil {
		return err
	}
	if _, err := kv.Put(ctx, key, data); err != nil {
		return fmt.Errorf("storing %s: %w", key, err)
	}
	return nil
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
func (c *Coordinator) snapshotter(ctx context.Context, js jetstream.JetStream, plan count.Plan) *snapshotter {
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
func taskMsg(plan count.Plan, id int) TaskMsg {
	m := TaskMsg{Job: JobID(plan.N(), plan.Version()), N: plan.N(), PlanVersion: plan.Version(), ID: id}
	if t, err := plan.Task(id); err == nil {
		m.Task = &t
	}
	return m
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

// firstFromHistory returns the first result of task id that the bucket still holds under
// key with the fingerprint the verifier recorded, for the report of a disagreement on a
// task whose first result was not kept whole; a Result naming no worker if none is left.
func (c *Coordinator) firstFromHistory(ctx context.Context, sealer *Sealer, results jetstream.KeyValue, key string, id int, ver *verifier) Result {
	hist, err := results.History(ctx, key)
	if err == nil {
		for _, e := range hist {
			if _, _, r, err := decodeResult(sealer, key, e.Value()); err == nil && id < len(ver.fp) && fingerprint(r.Result) == ver.fp[id] {
				return r
			}
		}
	}
	return Result{Result: count.Result{ID: id}, Worker: "(a first result no longer stored)"}
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
