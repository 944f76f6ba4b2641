package cluster

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"
)

// A task's verifier, once drawn, is fixed: a second computation whose lease lapses, is
// handed back, or ends in a refused result goes back to the same identity, never to a new
// draw. A new draw would give a coalition a fresh chance at each lapse of an honest
// verifier's lease (a crash, a blip, a slow network it can provoke), and it would let a
// drawn identity move every task it does not want onto others. After verifyDeclines such
// ends of one task the coordinator verifies it itself; an identity whose declines have so
// pushed more than declineLimit tasks onto the coordinator in a job is quarantined, as a
// liar is (its results dropped and computed again, its verifications done again by
// others). The draws are kept in the coordinator's snapshot: a restarted coordinator
// keeps those made before its last snapshot.

// verifyDeclines is how many times the lease of one task's second computation may end
// without a result taken before the coordinator verifies the task itself.
const verifyDeclines = 2

// declineLimit is how many tasks an identity that computed tasks tasks in a job (first
// and second computations) may push onto the coordinator by declining them before it is
// quarantined: declineFree (8), and one in 64 of its tasks, so that an honest machine
// that crashes twice holding the same tasks is not taken for a liar, while a hostile one
// moves at most that share of its work onto the coordinator.
func declineLimit(tasks int) int { return int(declineFree.Load()) + tasks/64 }

// declineFree is declineLimit's base, 8, lowered by a test that wants a quarantine from a
// small count; read atomically, as settleNanos is.
var declineFree atomic.Int64

func init() { declineFree.Store(8) }

// A drawnTask is a task's drawn verifier, as the snapshot keeps it: the task, the
// identity drawn and how many of its leases of the task ended without a result.
type drawnTask struct {
	ID       int
	Identity string
	Declines int
}

// declined follows the end of verify lease l without a result taken. If l's identity is
// still the task's drawn verifier (it is not quarantined, the task still wants a second
// computation), the task goes back to its queue, or, once declined verifyDeclines times,
// to the coordinator, and it reports true; otherwise it reports false and the caller
// draws the task again.
func (d *dispatch) declined(l *lease) bool {
	id, user := l.id, l.user
	if d.quarantined[user] || d.picked[id] != user || d.ver.agreed.has(id) || !d.ver.hasFirst(id) || d.ver.second(id) == user {
		return false // (the second of Replicas 3 ended its lease with its result taken)
	}
	if d.declines == nil {
		d.declines = map[int]int{}
	}
	d.declines[id]++
	d.stats.Declined++
	if d.declines[id] < verifyDeclines {
		d.queue[user] = append(d.queue[user], id)
		return true
	}
	delete(d.declines, id)
	delete(d.picked, id)
	delete(d.pickedAt, id)
	d.here = append(d.here, id)
	h := d.his(user)
	h.Declined++
	if h.Declined > declineLimit(h.Tasks) && !slices.Contains(d.decliners, user) {
		d.decliners = append(d.decliners, user)
	}
	return true
}

// verifyDeclined runs at each tick of the loop: it quarantines the identities past
// declineLimit, then verifies here the tasks whose drawn verifier declined them
// verifyDeclines times.
func (r *run) verifyDeclined(ctx context.Context) error {
	d := r.d
	for _, user := range d.decliners {
		h := d.his(user)
		r.c.logf("job %s: worker %s declined %d verifications %d times each (its leases lapsed or were handed back, or its results refused), more than the %d allowed for its %d tasks; quarantining it",
			r.job, user, h.Declined, verifyDeclines, declineLimit(h.Tasks), h.Tasks)
		if err := d.quarantine(ctx, user); err != nil {
			return err
		}
	}
	d.decliners = nil
	var ids []int
	for _, id := range d.here {
		if d.ver.hasFirst(id) && !d.ver.agreed.has(id) && d.verifyLease[id] == nil && d.picked[id] == "" {
			ids = append(ids, id)
		}
	}
	d.here = nil
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	return r.verifyHere(ctx, ids, fmt.Sprintf("their drawn verifiers declined them %d times (a verifier is never drawn again)", verifyDeclines))
}

// draws returns the tasks with a drawn verifier whose second computation is still
// wanted, for the snapshot, in id order.
func (d *dispatch) draws() []drawnTask {
	var out []drawnTask
	for id, user := range d.picked {
		if d.ver.hasFirst(id) && !d.ver.agreed.has(id) {
			out = append(out, drawnTask{ID: id, Identity: user, Declines: d.declines[id]})
		}
	}
	slices.SortFunc(out, func(a, b drawnTask) int { return a.ID - b.ID })
	return out
}

// keepDraws restores the draws a snapshot kept: each task that still wants its second
// computation waits for the identity drawn before (see away), with its declines.
func (d *dispatch) keepDraws(drawn []drawnTask) {
	now := time.Now()
	for _, t := range drawn {
		first, ok := d.ver.firstWorker(t.ID)
		if !ok || first == t.Identity || d.ver.second(t.ID) == t.Identity || d.ver.agreed.has(t.ID) || !d.ver.sample.has(t.ID) || d.picked[t.ID] != "" {
			continue
		}
		d.picked[t.ID], d.pickedAt[t.ID] = t.Identity, now
		d.queue[t.Identity] = append(d.queue[t.Identity], t.ID)
		if t.Declines > 0 {
			if d.declines == nil {
				d.declines = map[int]int{}
			}
			d.declines[t.ID] = t.Declines
		}
	}
}

// checkDraws returns why the draws of a snapshot of a plan of tasks tasks cannot be
// read, or nil.
func checkDraws(drawn []drawnTask, tasks int) error {
	for i, t := range drawn {
		switch {
		case t.ID < 0 || t.ID >= tasks || i > 0 && t.ID <= drawn[i-1].ID:
			return fmt.Errorf("its drawn verifiers name task %d out of order or out of the plan's %d", t.ID, tasks)
		case !ValidIdentity(t.Identity) || t.Declines < 0 || t.Declines >= verifyDeclines:
			return fmt.Errorf("its drawn verifier of task %d is %q with %d declines", t.ID, clipName(t.Identity), t.Declines)
		}
	}
	return nil
}
