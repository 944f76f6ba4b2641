package cluster

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// A third computation (Coordinator.Replicas 3): every task is computed by three distinct
// identities, the first whoever takes it, the second and the third drawn by the
// coordinator as the verifier of Replicas 2 is (verifiers.go: among every identity seen
// in the run, once the population has settled and holds MinIdentities, at least three;
// fixed once drawn, declines.go), the third drawn once the second agrees, among the
// identities other than the first's and the second's. A task counts only when all three
// agree; the coordinator's own computation settles a task alone (a verification it makes
// when no identity can be drawn, or a disagreement's). On any difference the coordinator
// computes the task, and every identity whose result differs from its own is quarantined:
// the first's, and the second's that confirmed a wrong first, or the one that differs.
//
// What it buys: c colluding identities among K seen confirm a lie of one of them only if
// both further draws fall among the other c−1, probability (c−1)(c−2)/((K−1)(K−2)): zero
// for a coalition of two, whatever K, where Replicas 2 leaves it 1/(K−1). It costs three
// computations a task instead of two (1.5× Replicas 2's CPU, 3× a single computation).
//
// The verifier keeps, for every task, the identity of the agreeing second computation
// (4 bytes a task, only with Replicas 3), so that the third is drawn among the others and
// a quarantine of the second's identity takes its agreement back. Both further results
// are stored under the task's verify key (verifyKey): read again, the first of them to
// agree is the second and the next one of another identity the third.

// MaxReplicas is the most distinct identities a Coordinator has compute each task.
const MaxReplicas = 3

// setThird makes v a verifier of a run with Replicas 3: a task is agreed once two
// identities other than its first's (or the coordinator) agree with its first result.
func (v *verifier) setThird() {
	v.third = true
	if v.who2 == nil {
		v.who2 = make([]uint32, len(v.fp))
	}
}

// second returns the identity of the agreeing second computation of task id, with
// Replicas 3, if it has one and is not yet agreed by a third.
func (v *verifier) second(id int) string {
	if !v.third || id < 0 || id >= len(v.who2) {
		return ""
	}
	return v.names[v.who2[id]]
}

// confirmOnce records, with Replicas 3, that s, by an identity other than the first's,
// agrees with the first result of task id. It reports whether the agreement is not yet
// enough: s is the task's first agreeing further result (the second), or one by the
// second's identity again. A result of the coordinator's own is always enough.
func (v *verifier) confirmOnce(id int, s Result) bool {
	if !v.third || s.Worker == Here || v.agreed.has(id) {
		return false
	}
	switch w := v.who2[id]; {
	case w == 0:
		v.who2[id] = v.ident(s.Worker)
		v.verifiers[s.Worker] = true
		return true
	case v.names[w] == s.Worker:
		return true // the same identity twice confirms nothing more
	}
	return false
}

// dropFurther forgets a further computation of task id by identity worker (its identity
// is quarantined): the task's agreement, and, if worker was the second, that one too.
func (v *verifier) dropFurther(id int, worker string) {
	v.dropSecond(id)
	if v.third && id >= 0 && id < len(v.who2) && v.names[v.who2[id]] == worker {
		v.who2[id] = 0
	}
}

// forgetSecond forgets the second of task id with its first result (dropFirst).
func (v *verifier) forgetSecond(id int) {
	if v.third && id >= 0 && id < len(v.who2) {
		v.who2[id] = 0
	}
}

// checkSeconds says why who2, the second identities of a snapshot of Replicas 3, cannot
// go with the verifier's first results and names, or nil.
func (v *verifier) checkSeconds(who2 []uint32) error {
	if len(who2) != len(v.fp) {
		return fmt.Errorf("it holds %d second identities for %d tasks", len(who2), len(v.fp))
	}
	for id, w := range who2 {
		if w != 0 && (int(w) >= len(v.names) || !v.hasFirst(id) || w == v.who[id]) {
			return fmt.Errorf("task %d has a second identity %d that no first result goes with", id, w)
		}
	}
	return nil
}

// drawAmong returns an identity drawn uniformly at random from pool (sorted) other than
// those of not (at most a few, any order), "" if none is left. It takes a moment per
// identity of not, none per identity of pool.
func drawAmong(pool []string, not ...string) string {
	var skip []int
	for _, u := range not {
		if i, found := slices.BinarySearch(pool, u); found && !slices.Contains(skip, i) {
			skip = append(skip, i)
		}
	}
	n := len(pool) - len(skip)
	if n <= 0 {
		return ""
	}
	slices.Sort(skip)
	j := rand.IntN(n)
	for _, i := range skip {
		if j >= i {
			j++
		}
	}
	return pool[j]
}

// replicasName names the replication of a verifier with or without a third computation.
func replicasName(third bool) string {
	if third {
		return "replicas 3"
	}
	return "replicas 1 or 2"
}

// fewIdentities is the population under which a run with Replicas 2 says, when its first
// verifiers are drawn, that two colluding identities confirm a lone lie with probability
// 1/(K−1) > 1/10, and what closes it.
const fewIdentities = 11

// poolLine says once, when the first verifiers of a run with Replicas 2 can be drawn,
// what the population they are drawn among lets a coalition of two do, if it is smaller
// than fewIdentities: not a refusal, the default stays.
func (d *dispatch) poolLine() {
	k := len(d.pool)
	if k < max(d.minIdentities, 2) {
		return // none can be drawn yet
	}
	d.smallPool = false
	if k >= fewIdentities {
		return
	}
	d.c.logf("job %s: verifiers are drawn among the %d identities seen in this run: two colluding identities among them confirm a lone lie of one with probability 1/%d; --replicas 3 (a third identity on every task, 1.5 times the CPU) closes that, %d identities more would bring it to 1/10",
		d.job, k, k-1, fewIdentities-k)
}
