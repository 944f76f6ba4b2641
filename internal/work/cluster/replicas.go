package cluster

import (
	"fmt"
	"math/bits"
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
//
// The default where nothing is published (Replicas 0, no Adaptive) is Replicas 2 with a
// third while the pool is small: when a task's second is drawn, among K identities seen
// (not quarantined), the task is decided at three if K < FewIdentities, where a lone lie
// would stand at two with probability 1/(K−1) > 1/10, and at two otherwise; the decision
// stands for the task whatever happens to the pool after, and the snapshot keeps it (2
// bits a task). A task at three goes exactly as with Replicas 3. So a small fleet pays up
// to three computations a task and a coalition of two confirms no lie in it; from 11
// identities on, new tasks cost two and a coalition of c confirms a lone lie with
// probability (c−1)/(K−1) ≤ (c−1)/10. A task read again after a restart whose decision
// the snapshot does not hold (its second drawn after the last snapshot) is decided at
// three: a restart costs at most a snapshot interval's worth of third computations, and
// never takes a third away.

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

// setFew makes v a verifier of the default where nothing is published (a third while
// the pool is small, fewThird): a task wants a third identity unless decide made it one
// of two. It costs 4 bytes a task (who2) and 2 bits (the decisions).
func (v *verifier) setFew() {
	v.few = true
	if v.who2 == nil {
		v.who2 = make([]uint32, len(v.fp))
	}
	if v.triple.bits == nil {
		v.triple, v.pair = newIDSet(len(v.fp)), newIDSet(len(v.fp))
	}
}

// wantsThird reports whether task id is agreed only once a third identity agrees too:
// every task with Replicas 3, with the default (few) every task not decided at two.
func (v *verifier) wantsThird(id int) bool {
	return v.third || v.few && !v.pair.has(id)
}

// decide fixes, with the default (few), whether task id, whose second computation is
// being drawn among pool identities, is computed by a third: while pool is smaller than
// FewIdentities. A decision once made stands (a later draw of the task, after a
// quarantine, or a pool grown or shrunk, changes nothing). It reports whether the task
// wants a third.
func (v *verifier) decide(id, pool int) bool {
	if !v.few || v.triple.has(id) || v.pair.has(id) {
		return v.wantsThird(id)
	}
	if pool < FewIdentities {
		v.triple.add(id)
		return true
	}
	v.pair.add(id)
	return false
}

// second returns the identity of the agreeing second computation of task id, with
// Replicas 3 or the default's third, if it has one and is not yet agreed by a third.
func (v *verifier) second(id int) string {
	if v.who2 == nil || id < 0 || id >= len(v.who2) {
		return ""
	}
	return v.names[v.who2[id]]
}

// confirmOnce records, with Replicas 3 or a task of the default that wants a third
// (wantsThird), that s, by an identity other than the first's, agrees with the first
// result of task id. It reports whether the agreement is not yet enough: s is the task's
// first agreeing further result (the second), or one by the second's identity again. A
// result of the coordinator's own is always enough. A task of the default read again
// with no decision kept (its draw came after the last snapshot) is decided at three here.
func (v *verifier) confirmOnce(id int, s Result) bool {
	if !v.wantsThird(id) || s.Worker == Here || v.agreed.has(id) {
		return false
	}
	switch w := v.who2[id]; {
	case w == 0:
		if v.few {
			v.triple.add(id)
		}
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
	if v.who2 != nil && id >= 0 && id < len(v.who2) && v.names[v.who2[id]] == worker {
		v.who2[id] = 0
	}
}

// forgetSecond forgets the second of task id with its first result (dropFirst).
func (v *verifier) forgetSecond(id int) {
	if v.who2 != nil && id >= 0 && id < len(v.who2) {
		v.who2[id] = 0
	}
}

// checkSeconds says why who2, the second identities of a snapshot of Replicas 3 or of
// the default, cannot go with the verifier's first results and names, or nil.
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

// setDecisions makes v a verifier of the default (setFew) whose tasks decided at three
// and at two are those of the bit sets triple and pair of a snapshot, or says why they
// cannot be: sets of another plan, a task decided both ways, or one decided at two with
// a second that waits for a third.
func (v *verifier) setDecisions(triple, pair []uint64) error {
	var t, p idSet
	if err := t.setWords(triple, len(v.fp)); err != nil {
		return fmt.Errorf("its tasks decided at three: %v", err)
	}
	if err := p.setWords(pair, len(v.fp)); err != nil {
		return fmt.Errorf("its tasks decided at two: %v", err)
	}
	for w := range t.bits {
		if b := t.bits[w] & p.bits[w]; b != 0 {
			return fmt.Errorf("task %d is decided both at two and at three", w*64+bits.TrailingZeros64(b))
		}
	}
	for id := range p.ids() {
		if v.who2 != nil && v.who2[id] != 0 {
			return fmt.Errorf("task %d is decided at two, but its second waits for a third", id)
		}
	}
	v.setFew()
	v.triple, v.pair = t, p
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

// replicasName names the replication of a verifier: Replicas 3, the default's third while
// the pool is small (few), or neither.
func replicasName(third, few bool) string {
	switch {
	case third:
		return "replicas 3"
	case few:
		return "the default (two identities a task, a third while the pool is small)"
	}
	return "replicas 1 or 2"
}

// FewIdentities is the population under which the default where nothing is published
// has a task computed by a third identity: a coalition of c identities among K seen
// confirms a lone lie of one of them at two with probability (c−1)/(K−1), above 1/10 for
// two colluders until K = 11. From 11 identities on, a task whose second is drawn is
// computed by two; and a run with --replicas 2 says, when its first verifiers are drawn
// among fewer, what a coalition of two can do and what closes it (poolLine).
const FewIdentities = 11

// FewThird says what the default does where nothing is published, in the words of the
// start line, the job's status and the cost line.
var FewThird = fmt.Sprintf("two identities a task, a third while fewer than %d identities have joined: up to 3× the CPU of one computation", FewIdentities)

// poolLine says once, when the first verifiers of a run with Replicas 2 can be drawn,
// what the population they are drawn among lets a coalition of two do, if it is smaller
// than FewIdentities: not a refusal.
func (d *dispatch) poolLine() {
	k := len(d.pool)
	if k < max(d.minIdentities, 2) {
		return // none can be drawn yet
	}
	d.smallPool = false
	if k >= FewIdentities {
		return
	}
	d.c.logf("job %s: verifiers are drawn among the %d identities seen in this run: two colluding identities among them confirm a lone lie of one with probability 1/%d; --replicas 3 (a third identity on every task, 1.5 times the CPU) closes that, %d identities more would bring it to 1/10",
		d.job, k, k-1, FewIdentities-k)
}

// fewDecide fixes, with the default, whether task id, its second drawn now among the
// identities seen, is computed by a third (verifier.decide), and says once when the pool
// first reaches FewIdentities that the tasks drawn from then on are computed by two.
func (d *dispatch) fewDecide(id int, first string) {
	k := d.population(first)
	d.ver.decide(id, k)
	if k >= FewIdentities && !d.fewSaid {
		d.fewSaid = true
		d.c.logf("job %s: %d identities have been seen in this run: a task whose second computation is drawn from now on is computed by two identities, not three (two colluding identities confirm a lone lie with probability at most 1/10)", d.job, k)
	}
}
