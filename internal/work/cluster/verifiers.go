package cluster

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// Who verifies a task: the second computation of a task goes to an identity drawn at
// random from every identity seen in the run (asked for work of this plan), not
// only from those live at that moment, and never the task's first identity; and only once
// at least MinIdentities distinct identities (the first's included) have been seen, and
// the population has stopped growing (identities that join together are all in it). So
// c colluding identities confirm a lie of one of them with probability at most
// (c−1)/(K−1), K the identities seen when the verifier is drawn (K ≥ MinIdentities),
// however they time their joining: joined before the others, they only make their tasks
// wait. A task drawn for an identity that is away waits for it in its queue; after
// VerifyWait the coordinator computes it itself (so a drawn identity that left for good
// costs the coordinator its share of the verifications, said in the log). Nothing that
// waits does so in silence: a line says how many tasks wait for a verifier, and why,
// every waitEvery.

// DefaultMinIdentities is the Coordinator's MinIdentities unless set: the fewest distinct
// identities that make a population a verifier is drawn from. Three, so that two
// colluding identities alone in a run never verify each other.
const DefaultMinIdentities = 3

// waitEvery is how often, at most and at least, the coordinator says that tasks wait for
// an identity to verify them.
const waitEvery = 10 * time.Second

// While the population grows, no verifier is drawn: identities that join together (a
// fleet started at once, colluders among it) are all in the population before the first
// draw, not only the first few. The population has settled once it has not grown for
// poolSettle, or poolSettleMax after the growth began (a steady trickle of joins does not
// hold the draws back for longer); first computations go on meanwhile.
const (
	defaultPoolSettle = 2 * time.Second
	poolSettleMax     = 30 * time.Second
)

// settleNanos is poolSettle in nanoseconds: defaultPoolSettle, shortened by the package's
// tests (TestMain) whose counts do not test the settling, read atomically because a
// test's coordinator may still be stopping when the next one sets it.
var settleNanos atomic.Int64

func init() { settleNanos.Store(int64(defaultPoolSettle)) }

// poolSettle is how long the population must not grow before verifiers are drawn.
func poolSettle() time.Duration { return time.Duration(settleNanos.Load()) }

// meet records identity user in the run's population, once.
func (d *dispatch) meet(user string) {
	if i, found := slices.BinarySearch(d.pool, user); !found && !d.quarantined[user] {
		d.pool = slices.Insert(d.pool, i, user)
		now := time.Now()
		if now.Sub(d.grewAt) >= poolSettle() {
			d.growingSince = now
		}
		d.grewAt = now
	}
}

// idleAsk is the longest a worker that got no task waits before it asks again (see
// Worker.Run).
const idleAsk = 2 * time.Second

// settled returns the later of t and the moment the population stopped growing (or will),
// plus idleAsk: the wait for verifiers counts from then, since none was drawn before, and
// the workers that sat idle meanwhile ask again within idleAsk.
func (d *dispatch) settled(t time.Time) time.Time {
	if d.grewAt.IsZero() {
		return t
	}
	end := d.grewAt.Add(poolSettle())
	if cap := d.growingSince.Add(poolSettleMax); cap.Before(end) {
		end = cap
	}
	end = end.Add(idleAsk)
	if end.After(t) {
		return end
	}
	return t
}

// growing reports whether the population is still growing: it grew within poolSettle,
// and the growth began less than poolSettleMax ago.
func (d *dispatch) growing() bool {
	now := time.Now()
	return now.Sub(d.grewAt) < poolSettle() && now.Sub(d.growingSince) < poolSettleMax
}

// leave takes identity user out of the population: it is quarantined.
func (d *dispatch) leave(user string) {
	if i, found := slices.BinarySearch(d.pool, user); found {
		d.pool = slices.Delete(d.pool, i, i+1)
	}
}

// population returns the number of distinct identities a verifier of a task first
// computed by first would be drawn among, first's included.
func (d *dispatch) population(first string) int {
	if _, found := slices.BinarySearch(d.pool, first); found {
		return len(d.pool)
	}
	return len(d.pool) + 1
}

// draw returns the identity drawn, uniformly at random among those seen in the run and
// not quarantined other than first (and other than also: the second of Replicas 3), to
// verify a task whose first result is first's; "" if the population is smaller than the
// coordinator's minimum (or holds no other).
func (d *dispatch) draw(first string, also ...string) string {
	if d.population(first) < max(d.minIdentities, 2) {
		return ""
	}
	return drawAmong(d.pool, append(also, first)...)
}

// isLive reports whether identity user is live: it asked or beat within liveFor.
func (d *dispatch) isLive(user string) bool {
	_, found := slices.BinarySearch(d.live, user)
	return found
}

// away returns the tasks whose verifier was drawn at least wait ago, is not live, and
// holds no lease of them, and takes them out of its queue: tasks for the coordinator to
// verify itself. It returns the identities too, sorted.
func (d *dispatch) away(wait time.Duration) (ids []int, users []string) {
	now := time.Now()
	for user, q := range d.queue {
		if d.isLive(user) {
			continue
		}
		keep := q[:0]
		for _, id := range q {
			switch {
			case d.picked[id] != user || d.verifyLease[id] != nil || d.ver.agreed.has(id):
				// picked again, leased, or verified: not this queue's any more
			case now.Sub(d.pickedAt[id]) >= wait:
				ids = append(ids, id)
				delete(d.picked, id)
				delete(d.pickedAt, id)
				if !slices.Contains(users, user) {
					users = append(users, user)
				}
			default:
				keep = append(keep, id)
			}
		}
		if len(keep) == 0 {
			delete(d.queue, user)
		} else {
			d.queue[user] = keep
		}
	}
	slices.Sort(ids)
	slices.Sort(users)
	return ids, users
}

// undrawn returns the tasks waiting for a verifier with none drawn, all of them drawn
// now if they can be, in id order.
func (d *dispatch) undrawn() []int {
	d.pick(len(d.toVerify))
	var ids []int
	for _, id := range d.toVerify {
		if _, ok := d.ver.firstWorker(id); ok && !d.ver.agreed.has(id) && d.verifyLease[id] == nil && d.picked[id] == "" {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// awaits reports whether a task waits for a verifier: none drawn for it (after the
// tick's draws), or drawn for an identity that is away or has been silent for waitEvery.
// It takes a moment per identity.
func (d *dispatch) awaits() bool {
	if len(d.toVerify) > 0 {
		return true
	}
	for user, q := range d.queue {
		if len(q) > 0 && (!d.isLive(user) || d.silent(user)) {
			return true
		}
	}
	return false
}

// silent reports whether identity user, live, has not asked or beat for waitEvery.
func (d *dispatch) silent(user string) bool {
	return d.isLive(user) && time.Since(d.seen[user]) > waitEvery
}

// waiting says how many tasks wait for a verifier that is not there, and why; "" if none
// does. It draws what can be drawn first.
func (d *dispatch) waiting() string {
	undrawn := len(d.undrawn())
	awayTasks, awayUsers := 0, []string{}
	silentTasks, silentUsers := 0, []string{}
	for user, q := range d.queue {
		away, silent := !d.isLive(user), d.silent(user)
		if !away && !silent {
			continue
		}
		n := 0
		for _, id := range q {
			if d.picked[id] == user && d.verifyLease[id] == nil && !d.ver.agreed.has(id) {
				n++
			}
		}
		switch {
		case n == 0:
		case away:
			awayTasks += n
			awayUsers = append(awayUsers, user)
		default:
			silentTasks += n
			silentUsers = append(silentUsers, user)
		}
	}
	var why []string
	switch {
	case undrawn > 0 && d.growing():
		why = append(why, fmt.Sprintf("%d until the identities seen in this run stop growing for %v (%d seen: %s)",
			undrawn, poolSettle(), len(d.pool), clipText(strings.Join(d.pool, ", "), 4*clipLen)))
	case undrawn > 0:
		why = append(why, fmt.Sprintf("%d until %d distinct identities have been seen in this run (%d seen: %s)",
			undrawn, max(d.minIdentities, 2), len(d.pool), clipText(strings.Join(d.pool, ", "), 4*clipLen)))
	}
	if awayTasks > 0 {
		slices.Sort(awayUsers)
		why = append(why, fmt.Sprintf("%d drawn for identities that are away (%s), verified here if still away %v after the draw",
			awayTasks, clipText(strings.Join(awayUsers, ", "), 4*clipLen), d.verifyWait))
	}
	if silentTasks > 0 {
		slices.Sort(silentUsers)
		why = append(why, fmt.Sprintf("%d drawn for identities silent for over %v (%s), away once silent for %v",
			silentTasks, waitEvery, clipText(strings.Join(silentUsers, ", "), 4*clipLen), d.liveFor))
	}
	if len(why) == 0 {
		return ""
	}
	return fmt.Sprintf("waiting for a second identity to verify %d tasks: %s", undrawn+awayTasks+silentTasks, strings.Join(why, "; "))
}

// verifyAway runs at each tick of the loop. It verifies here the tasks whose drawn
// verifier has been away for VerifyWait since the draw; once every task has a first
// result, at once every task no live identity can verify (none can be drawn for it, or
// the one drawn is away): nothing else is left to wait for. And it says what waits for a
// verifier once it has waited a second, then every waitEvery while it does.
func (r *run) verifyAway(ctx context.Context) error {
	d := r.d
	if ids, users := d.away(r.verifyWait); len(ids) > 0 {
		why := fmt.Sprintf("the identities drawn to verify them (%s) have been away for %v", clipText(strings.Join(users, ", "), 4*clipLen), r.verifyWait)
		if err := r.verifyHere(ctx, ids, why); err != nil {
			return err
		}
	}
	if r.tally.Complete() && !r.ver.done() && !d.growing() {
		away, users := d.away(0)
		undrawn := d.undrawn()
		var why []string
		if len(undrawn) > 0 {
			why = append(why, fmt.Sprintf("%d with no verifier to draw (%d distinct identities seen in this run, %d needed)", len(undrawn), len(d.pool), max(d.minIdentities, 2)))
		}
		if len(away) > 0 {
			why = append(why, fmt.Sprintf("%d drawn for identities that are away (%s)", len(away), clipText(strings.Join(users, ", "), 4*clipLen)))
		}
		if ids := append(away, undrawn...); len(ids) > 0 {
			if err := r.verifyHere(ctx, ids, "every task has a first result, and no live identity can verify these: "+strings.Join(why, "; ")); err != nil {
				return err
			}
		}
	}
	if !d.awaits() {
		r.waitSince, r.waitSaid = time.Time{}, time.Time{}
		return nil
	}
	now := time.Now()
	if r.waitSince.IsZero() {
		r.waitSince = now
	}
	if now.Sub(r.waitSince) >= time.Second && now.Sub(r.waitSaid) >= waitEvery {
		if line := d.waiting(); line != "" {
			r.waitSaid = now
			r.c.logf("job %s: %s", r.job, line)
		}
	}
	return nil
}
