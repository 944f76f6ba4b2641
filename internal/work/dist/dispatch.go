package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

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
