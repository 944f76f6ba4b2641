package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// pickScan is the most tasks waiting for a verifier that one request for a task looks
// at; a tick of the loop looks at pickScan·64.
const pickScan = 64

// A dispatch is the coordinator's state of assignments. It is not safe for concurrent
// use: Run's loop alone calls it.
type dispatch struct {
	c           *Coordinator
	otherBuild  sync.Map // identities of workers of another MessageVersion, named once
	plan        work.Plan
	job         string
	sealer      *Sealer
	results     *resultStore
	tally       *tally
	ver         *verifier
	stats       *Stats
	js          jetstream.JetStream
	ack         jetstream.PubAckFuture // of the last store, for result to wait on
	rev         *revision              // the highest revision this run wrote
	ackWait     time.Duration
	window      int
	serial      int
	leases      map[string]*lease            // by nonce
	byUser      map[string]map[string]*lease // the same, by identity (holdings.go)
	worked      map[string]bool              // identities of this build's workers that held a lease in this run
	firstLease  map[int]*lease               // the live first-computation lease of a task
	verifyLease map[int]*lease               // the live second-computation lease of a task
	again       []int                        // tasks to assign again before the hand-out order
	next        func() (int, bool)
	stopNext    func()

	// Second computations. The coordinator draws the identity of each at random among
	// those seen in the run other than the first's (never whoever asks first; see
	// verifiers.go): toVerify holds the sampled tasks with a first result, no agreeing
	// second and no identity drawn yet; picked the identity drawn for a task and pickedAt
	// when, and queue the tasks drawn for an identity, which it gets before any first
	// computation when it asks. pool is the identities seen in the run and not
	// quarantined, sorted; a verifier is drawn once it holds minIdentities.
	toVerify      []int
	picked        map[int]string
	pickedAt      map[int]time.Time
	queue         map[string][]int
	pool          []string
	minIdentities int
	verifyWait    time.Duration
	// seen is when each identity last asked for a task or sent a heartbeat; live the
	// identities seen within liveFor that are not quarantined, sorted.
	seen        map[string]time.Time
	live        []string
	liveFor     time.Duration
	quarantined map[string]bool
	history     map[string]*IdentityHistory // this job's, by identity
	wants       map[string]wantSeen         // by identity: its last request for a task, read (readWant)
	snap        *snapshotter
	// g checks every message of a worker (guard.go); maxLeases and maxLease bound the
	// leases of one identity.
	g         *guard
	maxLeases int
	maxLease  time.Duration
	// took holds the times of the last first computations (from lease to result, a ring
	// at tookAt), backedUp the tasks leased a second time by backup.
	took     []time.Duration
	tookAt   int
	backedUp map[int]bool
	// adapt is the coordinator's adaptive replication, nil if off (adaptive.go);
	// priorConfirmed the confirmed first results of each identity in other jobs, and
	// distrusted the identities quarantined in any job.
	adapt          *Adaptive
	priorConfirmed map[string]int
	distrusted     map[string]bool
	// grewAt is when the pool last grew, growingSince when its growth began (verifiers.go).
	grewAt, growingSince time.Time
	// declines counts the leases of each drawn task's second computation that ended
	// without a result; here holds the tasks the coordinator is to verify because their
	// verifier declined them, decliners the identities to quarantine for it (declines.go).
	declines  map[int]int
	here      []int
	decliners []string
	// smallPool: the run has Replicas 2, and has not yet said what the population the
	// first verifiers are drawn among lets a coalition of two do (poolLine).
	smallPool bool
	// fewSaid: the run has the default's third while the pool is small (verifier.few),
	// and has said that the pool reached FewIdentities (fewDecide).
	fewSaid bool
}

// his returns the history record of identity user in this job.
func (d *dispatch) his(user string) *IdentityHistory {
	h := d.history[user]
	if h == nil {
		h = &IdentityHistory{}
		d.history[user] = h
	}
	return h
}

// want answers a worker's request for a task.
func (d *dispatch) want(m *nats.Msg) {
	user := subjectUser(m.Subject) // passed d.g (run.subscribe)
	w := d.readWant(user, m.Data)
	a := Assignment{Wait: 0.1, Messages: MessageVersion}
	d.saw(user)
	if d.quarantined[user] || slices.Contains(d.decliners, user) {
		d.g.refuse(user, "quarantined", "job %s: worker %s (%q) is quarantined: it gets no tasks", d.job, user, clipName(w.Name))
		a.Wait = 10
	} else if w.Messages != MessageVersion {
		// Another build: it would read no task of ours (nor we its results). It gets
		// none, and is named once; a worker of version 2 or later stops on our answer.
		if _, named := d.otherBuild.LoadOrStore(user, true); !named {
			d.c.logf("worker %s (%q) speaks task messages of version %d, this coordinator %d: it gets no tasks; run the same build on both", user, clipName(w.Name), w.Messages, MessageVersion)
		}
		a.Wait = 10
	} else if d.g.held[user] >= leaseCap(w.Cores, d.maxLeases) {
		// It holds as many tasks as its cores can run: it asks again when one is done.
		a.Wait = 1
	} else if w.runs(d.job) {
		d.meet(user) // it can run the plan: one of the identities a verifier is drawn among
		if l := d.assign(user); l != nil {
			d.instance(l, w.Instance)
			a = Assignment{TaskMsg: taskMsg(d.plan, l.id), Messages: MessageVersion, Nonce: l.nonce, Lease: d.ackWait.Seconds(), Seq: l.seq}
			a.Verify = l.verify
		}
	}
	data, _ := a.appendJSON(make([]byte, 0, 256)) // json.Marshal(a), by hand
	_ = m.Respond(data)
}

// assign returns a new lease of a task for user: a second computation the coordinator
// picked user for, else a task without a result, else nil.
func (d *dispatch) assign(user string) *lease {
	d.pick(pickScan)
	for q := d.queue[user]; len(q) > 0; q = d.queue[user] {
		id := q[0]
		d.queue[user] = q[1:]
		if d.picked[id] == user && !d.ver.agreed.has(id) && d.verifyLease[id] == nil {
			return d.lease(user, id, true)
		}
	}
	delete(d.queue, user)
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
	return d.backup(user)
}

// backup returns, when no task is left to hand out, a second lease of the first
// computation of a task another identity has held longer than backupAfter: so that an
// identity that keeps tasks without handing them in (or a slow machine) delays the count
// by that much, not by its lease's length. The result that comes first counts; the other,
// if it comes, must agree with it (accept). Each task is backed up once.
func (d *dispatch) backup(user string) *lease {
	after := d.backupAfter()
	if after == 0 {
		return nil
	}
	var oldest *lease
	for _, l := range d.firstLease {
		if l.user != user && !d.backedUp[l.id] && time.Since(l.start) > after && !d.tally.Has(l.id) &&
			(oldest == nil || l.start.Before(oldest.start)) {
			oldest = l
		}
	}
	if oldest == nil {
		return nil
	}
	d.backedUp[oldest.id] = true
	return d.lease(user, oldest.id, false)
}

// tookKept is how many of the last first computations' times backupAfter looks at.
const tookKept = 255

// backupAfter is how long a first computation may be held before backup leases it again:
// sixteen times the median time of the last tookKept first results, and at least four
// ack deadlines (two minutes by default), so that a live worker on a long task keeps it;
// 0 before any result.
func (d *dispatch) backupAfter() time.Duration {
	if len(d.took) == 0 {
		return 0
	}
	t := slices.Clone(d.took)
	slices.Sort(t)
	return max(4*d.ackWait, 16*t[len(t)/2])
}

// tookFor records the time a first computation took, from its lease to its result.
func (d *dispatch) tookFor(t time.Duration) {
	if len(d.took) < tookKept {
		d.took = append(d.took, t)
	} else {
		d.took[d.tookAt] = t
		d.tookAt = (d.tookAt + 1) % tookKept
	}
}

// saw records that identity user spoke (asked, or sent a heartbeat) now.
func (d *dispatch) saw(user string) {
	d.seen[user] = time.Now()
	if _, found := slices.BinarySearch(d.live, user); !found && !d.quarantined[user] {
		d.live = append(d.live, user)
		slices.Sort(d.live)
	}
}

// refresh drops from the live identities those silent for liveFor, and gives the tasks
// drawn for a quarantined one, not yet leased, to be drawn again. Those drawn for an
// identity that is only away wait for it (see away).
func (d *dispatch) refresh() {
	now := time.Now()
	d.live = slices.DeleteFunc(d.live, func(u string) bool { return d.quarantined[u] || now.Sub(d.seen[u]) > d.liveFor })
	for user, q := range d.queue {
		if !d.quarantined[user] {
			continue
		}
		for _, id := range q {
			if d.picked[id] == user && d.verifyLease[id] == nil {
				delete(d.picked, id)
				delete(d.pickedAt, id)
				d.toVerify = append(d.toVerify, id)
			}
		}
		delete(d.queue, user)
	}
}

// pick draws, for at most k tasks waiting for a second computation, an identity at random
// among those seen in the run other than the first result's (draw); a task for which
// there is none waits, and every task while the population grows (growing).
func (d *dispatch) pick(k int) {
	if d.growing() {
		return // drawn once the identities that join together have all joined
	}
	if d.smallPool && len(d.toVerify) > 0 {
		d.poolLine()
	}
	var keep []int
	for len(d.toVerify) > 0 && k > 0 {
		k--
		id := d.toVerify[0]
		d.toVerify = d.toVerify[1:]
		first, ok := d.ver.firstWorker(id)
		if !ok || d.ver.agreed.has(id) || d.verifyLease[id] != nil || d.picked[id] != "" {
			continue
		}
		user := d.draw(first, d.ver.second(id))
		if user == "" {
			keep = append(keep, id)
			continue
		}
		if d.ver.few {
			d.fewDecide(id, first)
		}
		d.picked[id], d.pickedAt[id] = user, time.Now()
		d.queue[user] = append(d.queue[user], id)
	}
	d.toVerify = append(d.toVerify, keep...)
}

func (d *dispatch) lease(user string, id int, verify bool) *lease {
	d.serial++
	now := time.Now()
	l := &lease{id: id, user: user, verify: verify, start: now, until: now.Add(min(d.ackWait, d.maxLease)),
		nonce: nonce(d.sealer, user, d.job, id, verify, strconv.FormatInt(time.Now().UnixNano(), 36)+"-"+strconv.Itoa(d.serial))}
	l.seq = d.serial
	d.leases[l.nonce] = l
	d.hold(l)
	d.g.held[user]++
	if verify {
		d.verifyLease[id] = l
	} else {
		d.firstLease[id] = l
	}
	d.stats.Queued++
	return l
}

// release ends a lease; a first computation's task without a result is assigned again
// first, a second computation's goes back to its drawn verifier (declined).
func (d *dispatch) release(l *lease) {
	if _, ok := d.leases[l.nonce]; ok {
		if d.g.held[l.user]--; d.g.held[l.user] <= 0 {
			delete(d.g.held, l.user)
		}
	}
	delete(d.leases, l.nonce)
	d.unhold(l)
	if l.verify {
		if d.verifyLease[l.id] == l {
			delete(d.verifyLease, l.id)
			if d.declined(l) {
				return // its drawn verifier keeps it (declines.go)
			}
			delete(d.picked, l.id)
			delete(d.pickedAt, l.id)
			if !d.ver.agreed.has(l.id) {
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
	user := subjectUser(m.Subject) // passed d.g (run.subscribe)
	var b BeatMsg
	if json.Unmarshal(m.Data, &b) != nil {
		return
	}
	if !d.quarantined[user] {
		d.saw(user)
	}
	for _, n := range b.Nonces {
		if l := d.leases[n]; l != nil && l.user == user {
			// Never past the longest lease: a task kept alive without end goes to another.
			l.until = time.Now().Add(d.ackWait)
			if end := l.start.Add(d.maxLease); l.until.After(end) {
				l.until = end
			}
		}
	}
	for _, n := range b.Back {
		if l := d.leases[n]; l != nil && l.user == user {
			d.release(l)
		}
	}
	d.dropUnheld(user, b)
}

// expire ends the leases whose workers have been silent for the ack deadline.
// One line per silent worker: a dead worker that held thousands of tasks says so once.
func (d *dispatch) expire() {
	now := time.Now()
	silent, long := map[string][]int{}, map[string][]int{}
	for _, l := range d.leases {
		if now.After(l.until) {
			if now.Sub(l.start) >= d.maxLease {
				long[l.user] = append(long[l.user], l.id)
			} else {
				silent[l.user] = append(silent[l.user], l.id)
			}
			d.release(l)
		}
	}
	for _, user := range slices.Sorted(maps.Keys(long)) {
		d.c.logf("job %s: worker %s held %d tasks for the longest lease, %v, without a result; assigning them again", d.job, user, len(long[user]), d.maxLease)
	}
	for _, user := range slices.Sorted(maps.Keys(silent)) {
		if ids := silent[user]; len(ids) == 1 {
			d.c.logf("job %s: no word from worker %s on task %d for %v; assigning it again", d.job, user, ids[0], d.ackWait)
		} else {
			d.c.logf("job %s: no word from worker %s on %d tasks for %v; assigning them again", d.job, user, len(ids), d.ackWait)
		}
	}
}

// result takes a result a worker hands in: it accepts it only from the identity that
// holds the task's live lease in this run, checks it, stores it sealed, and answers with a
// Receipt. It reports whether the result was new. A result that differs from another
// identity's is settled here (resolve): the count goes on.
func (d *dispatch) result(ctx context.Context, m *nats.Msg) (bool, error) {
	user := subjectUser(m.Subject) // passed d.g (run.subscribe)
	var r Result
	err := r.UnmarshalJSON(m.Data) // not json.Unmarshal: it would scan the data once more
	news := false
	if err == nil {
		r.Worker = user
		news, err = d.accept(ctx, user, &r)
	}
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		d.stats.Refused++
		d.his(user).Refused++
		d.g.charge(user, kindResult, refusedCost)
		reason := clipText(err.Error(), 4*clipLen)
		d.g.refuse(user, "result "+refusalKind(reason), "refused a result of task %d of job %s from worker %s (%q): %s", r.ID, d.job, user, clipName(r.Name), reason)
		data, _ := json.Marshal(Receipt{Refused: err.Error()})
		_ = m.Respond(data)
		return false, nil
	}
	ack := d.ack
	d.ack = nil
	data := receiptOK
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
	return news, nil
}

// errNotLeased is the reason of a refused result that answers no live lease: a replay, a
// result of an earlier run, a late one, or one of a task never leased to its identity.
var errNotLeased = errors.New("this identity holds no live lease of the task with this nonce in this run (a replay, a late result, or a task not leased to it)")

// accept checks and takes a result of user's. It returns an error, the reason to refuse
// the result, only for a result it did not take.
func (d *dispatch) accept(ctx context.Context, user string, r *Result) (news bool, err error) {
	if r.Job != d.job {
		return false, fmt.Errorf("result of job %q on the subject of job %s", r.Job, d.job)
	}
	if d.quarantined[user] {
		return false, errors.New("the identity is quarantined: a result of it was shown wrong")
	}
	l := d.leases[r.Nonce]
	if l == nil || l.user != user || l.id != r.ID {
		return false, errNotLeased
	}
	// One result per lease, whatever comes of it: ended once the result is taken (or, if
	// refused, its task assigned again).
	defer d.release(l)
	if time.Now().After(l.until) {
		return false, fmt.Errorf("late: the lease ended %v ago", time.Since(l.until).Round(time.Millisecond))
	}
	if err := checkResult(d.plan, r.ID, r); err != nil {
		return false, err
	}
	id := r.ID
	if l.verify {
		first, ok := d.ver.firstWorker(id)
		switch {
		case !ok || d.ver.agreed.has(id):
			return false, nil // its first result was dropped, or another agreed meanwhile
		case first == user:
			return false, errors.New("a second computation by the identity of the first")
		case d.ver.second(id) == user:
			return false, errors.New("a third computation by the identity of the second")
		}
		if err := d.store(verifyKey(d.job, id), r); err != nil {
			return false, err
		}
		d.his(user).Tasks++
		return true, d.settle(ctx, id, d.ver.addSecond(id, *r))
	}
	if d.tally.Has(id) {
		if !d.ver.sameAsFirst(id, *r) {
			return false, d.resolve(ctx, d.ver.against(id, *r))
		}
		return false, nil
	}
	if err := d.store(resultKey(d.job, id), r); err != nil {
		return false, err
	}
	if _, err := d.tally.add(r.Result); err != nil {
		return false, err
	}
	d.tookFor(time.Since(l.start))
	d.his(user).Tasks++
	ask, err := d.ver.addFirst(id, *r)
	if ask && d.spare(id, user) {
		ask = false
	}
	if ask {
		d.toVerify = append(d.toVerify, id)
	}
	return true, d.settle(ctx, id, err)
}

// settle follows a first or second result of task id that the verifier took with err: a
// disagreement is resolved. (An agreement is recorded in the identities' history by the
// verifier's agree hook, agreed.)
func (d *dispatch) settle(ctx context.Context, id int, err error) error {
	var dis *DisagreeError
	if errors.As(err, &dis) {
		return d.resolve(ctx, dis)
	}
	return err
}

// agreed records in the identities' history that the results of identities first and
// second of a task agree.
func (d *dispatch) agreed(first, second string) {
	for _, w := range []string{first, second} {
		if ValidIdentity(w) {
			d.his(w).Verified++
		}
	}
	if ValidIdentity(first) {
		d.his(first).Confirmed++
	}
}

// storedFirst returns the first result of task id that the stream holds under its key
// with the fingerprint the verifier recorded, and its sequence: the whole first result of a
// disagreement, which the verifier keeps only as a fingerprint. It waits for the results
// this run is storing. A first result no longer stored is an error: the task's result
// cannot be settled, and the run stops rather than guess.
func (d *dispatch) storedFirst(ctx context.Context, id int) (Result, uint64, error) {
	key := resultKey(d.job, id)
	select {
	case <-d.js.PublishAsyncComplete():
	case <-time.After(time.Minute):
		return Result{}, 0, fmt.Errorf("settling task %d: the server has not confirmed the stored results within a minute", id)
	case <-ctx.Done():
		return Result{}, 0, ctx.Err()
	}
	hist, err := d.results.history(ctx, key)
	if err != nil {
		return Result{}, 0, fmt.Errorf("settling task %d: reading %s: %w", id, key, err)
	}
	for i := len(hist) - 1; i >= 0; i-- {
		if _, _, r, err := decodePlanResult(d.plan, d.sealer, key, hist[i].value); err == nil && r.ID == id && d.ver.hasFirst(id) && d.ver.sameAsFirst(id, r) {
			return r, hist[i].seq, nil
		}
	}
	return Result{}, 0, fmt.Errorf("job %s: task %d has two results that differ, and the first one counted is no longer in the results stream (%s): the total cannot be settled", d.job, id, key)
}

// resolve settles two computations of a task that differ: the coordinator computes the
// task itself, and every identity whose result differs from its own is quarantined (see
// quarantine); the task keeps the right result, verified by the coordinator, or is
// computed again. No identity can so stop the count or have a result deleted but its own.
func (d *dispatch) resolve(ctx context.Context, dis *DisagreeError) error {
	id := dis.ID
	second := d.ver.second(id) // with Replicas 3, the identity that confirmed the first
	firstSeq := uint64(0)      // not known yet
	if dis.partial {
		f, seq, err := d.storedFirst(ctx, id)
		if err != nil {
			return err
		}
		dis.First, dis.partial, firstSeq = f, false, seq
	}
	res, err := countLocally(ctx, d.plan, []int{id}, d.stats)
	if err != nil {
		return err
	}
	truth := res[0]
	var wrong []string
	firstWrong := !dis.First.Result.Equal(truth)
	for _, r := range []Result{dis.First, dis.Second} {
		if ValidIdentity(r.Worker) {
			d.his(r.Worker).Disagreements++
			if !r.Result.Equal(truth) {
				wrong = append(wrong, r.Worker)
			}
		}
	}
	if firstWrong && ValidIdentity(second) && !slices.Contains(wrong, second) {
		// It confirmed the first's wrong result: as wrong as the first.
		d.his(second).Disagreements++
		wrong = append(wrong, second)
	}
	d.c.logf("job %s: task %d was computed twice with different results: %s found %s, %s found %s; the coordinator computed it: %s; quarantining %s",
		d.job, id, dis.First.Worker, describe(dis.First.Result), dis.Second.Worker, describe(dis.Second.Result),
		describe(truth), strings.Join(wrong, " and "))
	for _, w := range wrong {
		if err := d.quarantine(ctx, w); err != nil {
			return err
		}
	}
	if firstWrong {
		// Its first result, of an identity no longer known, is dropped here; one of a
		// quarantined identity is dropped already.
		if d.ver.hasFirst(id) && d.ver.sameAsFirst(id, dis.First) {
			if firstSeq == 0 {
				_, seq, err := d.storedFirst(ctx, id)
				if err != nil {
					return err
				}
				firstSeq = seq
			}
			d.dropFirst(ctx, id, dis.First, firstSeq)
		}
		return nil
	}
	// The first is right: the coordinator's computation is its second.
	if d.ver.hasFirst(id) && !d.ver.agreed.has(id) {
		here := Result{Job: d.job, Result: truth, Worker: Here}
		if err := d.store(verifyKey(d.job, id), &here); err != nil {
			return err
		}
		d.stats.VerifiedHere++
		return d.settle(ctx, id, d.ver.addSecond(id, here))
	}
	return nil
}

// quarantine takes every result of identity user out of the count (first results out of
// the tally, to be computed again by others; second ones to be computed again by another
// picked identity), deletes them from the stream, and gives user no more tasks.
func (d *dispatch) quarantine(ctx context.Context, user string) error {
	if d.quarantined[user] {
		return nil
	}
	d.quarantined[user] = true
	d.his(user).Quarantined = true
	d.leave(user)
	d.refresh()
	for _, l := range d.leases {
		if l.user == user {
			d.release(l)
		}
	}
	// Every accepted result is in the stream (or on its way: wait for it), whichever run
	// accepted it.
	select {
	case <-d.js.PublishAsyncComplete():
	case <-time.After(time.Minute):
		return fmt.Errorf("quarantining %s: the server has not confirmed the stored results within a minute", user)
	case <-ctx.Done():
		return ctx.Err()
	}
	dropped := 0
	err := readJob(ctx, d.results, d.job, 0, func(e entry) error {
		_, id, r, err := decodePlanResult(d.plan, d.sealer, e.key, e.value)
		if err != nil || r.Worker != user {
			return nil
		}
		dropped++
		if strings.HasSuffix(e.key, ".v") {
			d.dropSecond(ctx, id, user, e.seq)
		} else {
			d.dropFirst(ctx, id, r, e.seq)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("quarantining %s: %w", user, err)
	}
	d.c.dropSnapshot(d.snap, d.job)
	d.c.logf("job %s: worker %s is quarantined: its %d stored results are dropped and computed again by other identities; it gets no more tasks", d.job, user, dropped)
	return nil
}

// dropFirst takes the first result r of task id, stored at sequence seq, out of the count
// and the stream, to be computed again.
func (d *dispatch) dropFirst(ctx context.Context, id int, r Result, seq uint64) {
	if d.tally.Has(id) && d.ver.sameAsFirst(id, r) {
		d.tally.remove(r.Result)
		d.ver.dropFirst(id)
		d.again = append(d.again, id)
		d.stats.Requeued++
	}
	if err := d.results.remove(ctx, seq); err != nil {
		d.c.logf("deleting %s: %v", resultKey(d.job, id), err)
	}
}

// dropSecond takes the second (or third) result of task id, by identity user, stored at
// sequence seq, out of the count and the stream; the task waits for another.
func (d *dispatch) dropSecond(ctx context.Context, id int, user string, seq uint64) {
	d.withdraw(id)
	d.ver.dropFurther(id, user)
	if d.ver.hasFirst(id) && d.ver.sample.has(id) {
		d.toVerify = append(d.toVerify, id)
	}
	if err := d.results.remove(ctx, seq); err != nil {
		d.c.logf("deleting %s: %v", verifyKey(d.job, id), err)
	}
}

// store starts writing an accepted result, sealed, under key (a publish on the results
// stream's subject), and leaves the server's acknowledgement in d.ack: results are
// stored as fast as the server takes them, not one round trip at a time.
func (d *dispatch) store(key string, r *Result) error {
	data, err := sealValue(d.sealer, key, r)
	if err != nil {
		return err
	}
	f, err := d.results.putAsync(key, data)
	if err != nil {
		return err
	}
	d.ack = f
	return nil
}

// A revision is the highest revision of the results stream known to be written, shared
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
	maps.Copy(ids, d.ver.verifiers)
	delete(ids, Here)
	st.Identities = len(ids)
	clear(st.ByIdentities)
	two, three := 0, 0
	for id := range d.ver.sample.ids() {
		switch {
		case !d.ver.agreed.has(id):
		case d.ver.who2 != nil && d.ver.who2[id] != 0:
			three++
		default:
			two++
		}
	}
	if one := d.plan.Len() - two - three; one > 0 {
		st.ByIdentities[1] = one
	}
	if two > 0 {
		st.ByIdentities[2] = two
	}
	if three > 0 {
		st.ByIdentities[3] = three
	}
}
