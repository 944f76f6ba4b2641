package cluster

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Adaptive replication (Coordinator.Adaptive, opt-in; the model is BOINC's): where every
// task would be computed by two identities, an identity with a record of results that
// another identity (or the coordinator) confirmed has only a share of its first results
// computed a second time. The coordinator decides when it takes a first result, by a
// random draw of its own: the worker learns nothing of it, so it cannot tell a task it
// will be checked on from one it will not, whenever it chooses to lie. Until an identity
// has After of its first results confirmed, every one of them is computed again; an
// identity quarantined in any job of the state directory's history is never trusted.
// A second computation that differs is settled as always (resolve): the coordinator
// computes the task, the identity shown wrong is quarantined, every result of it is
// dropped and computed again by others (its first results verified again as the policy
// says for their new identities), and every task it verified is verified again.
//
// What it buys and what it risks: once its identities are trusted, a count costs 1 + Share
// computations a task instead of 2; the first After results of each identity are
// computed twice. A single lie of a trusted identity slips through with probability
// 1 − Share; an identity that lies on a fraction f of its tasks, independently, escapes
// for its first n tasks with probability at most (1−f)^After·(1−f·Share)^(n−After)
// ([Adaptive.MissChance]; fewer in a real run, where confirmations come after the
// results and every result taken before the After-th confirmation is verified).

// DefaultAdaptiveShare and DefaultAdaptiveAfter are an Adaptive's Share and After unless
// set: with them an identity that lies on 5 % of its tasks is caught within its first 500
// with probability at least 1 − 0.95⁶⁰·0.995⁴⁴⁰ ≈ 99.5 %, and a count costs about 1.1
// times a single computation once its identities are trusted (the first 60 tasks of
// each identity, computed twice, are a small share of a plan of many thousands).
const (
	DefaultAdaptiveShare = 0.1
	DefaultAdaptiveAfter = 60
)

// An Adaptive says how adaptive replication trusts an identity: once After of its first
// results have been confirmed by another identity, each further first result of it is
// computed a second time with probability Share, drawn by the coordinator; before, every
// one is. Zero fields take the defaults.
type Adaptive struct {
	Share float64
	After int
}

func (a *Adaptive) share() float64 {
	if a.Share > 0 {
		return min(a.Share, 1)
	}
	return DefaultAdaptiveShare
}

func (a *Adaptive) after() int {
	if a.After > 0 {
		return a.After
	}
	return DefaultAdaptiveAfter
}

// check says why a cannot be used: a share outside (0, 1], or a negative After.
func (a *Adaptive) check() error {
	if a.Share < 0 || a.Share > 1 || math.IsNaN(a.Share) || a.After < 0 {
		return fmt.Errorf("adaptive replication: the share verified must be from 0 to 1 and the results before trust from 0 up, got %v and %d", a.Share, a.After)
	}
	return nil
}

// verifies draws whether a first result of an identity is computed a second time, given
// the number of its first results confirmed so far and whether it is distrusted
// (quarantined in another job): always until it is trusted, then with probability Share.
func (a *Adaptive) verifies(confirmed int, distrusted bool) bool {
	if distrusted || confirmed < a.after() {
		return true
	}
	return rand.Float64() < a.share()
}

// MissChance returns the probability that an identity lying on each of its tasks with
// probability lie, independently, has none of its lies in its first n tasks computed a
// second time, if every task of its first After is and each later one with probability
// Share: (1−lie)^After·(1−lie·Share)^(n−After). A bound on a real run's, where an
// identity's results before its After-th confirmation are all computed twice.
func (a *Adaptive) MissChance(lie float64, n int) float64 {
	m := min(a.after(), n)
	return math.Pow(1-lie, float64(m)) * math.Pow(1-lie*a.share(), float64(n-m))
}

// String says the policy in a few words, for the log.
func (a *Adaptive) String() string {
	return fmt.Sprintf("every first result of an identity computed twice until %d of them are confirmed, then a share %.3g of them drawn by the coordinator", a.after(), a.share())
}

// spare draws whether the first result of task id, just taken from identity user, needs
// no second computation under adaptive replication, and if so takes the task out of the
// verifier's sample. It reports whether it did.
func (d *dispatch) spare(id int, user string) bool {
	if d.adapt == nil || !ValidIdentity(user) {
		return false
	}
	if d.adapt.verifies(d.his(user).Confirmed+d.priorConfirmed[user], d.distrusted[user]) {
		return false
	}
	d.ver.sample.del(id)
	return true
}

// withdraw takes back the confirmation of task id's first result, if it has one, from its
// identity's record: the second result that agreed is dropped (its identity is
// quarantined), so it confirms nothing, and the task verified again is not counted twice.
func (d *dispatch) withdraw(id int) {
	if !d.ver.agreed.has(id) {
		return
	}
	if first, ok := d.ver.firstWorker(id); ok && ValidIdentity(first) && d.his(first).Confirmed > 0 {
		d.his(first).Confirmed--
	}
}

// priorRecords sets, from the history of the other jobs (h: job → identity → record),
// the confirmed first results each identity brings to this job, and which ones were
// quarantined in any of them.
func (d *dispatch) priorRecords(h History) {
	d.priorConfirmed, d.distrusted = map[string]int{}, map[string]bool{}
	for job, ids := range h {
		for name, rec := range ids {
			if rec.Quarantined {
				d.distrusted[name] = true
			}
			if job != d.job {
				d.priorConfirmed[name] += rec.Confirmed
			}
		}
	}
}
