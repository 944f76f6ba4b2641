package cluster

import (
	"context"
	"crypto/hmac"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"iter"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// DefaultVerify is the share of a job's tasks that a coordinator has computed a second time
// unless told otherwise: enough to catch a worker that lies often, a few percent of the work.
const DefaultVerify = 0.02

// verifyKey is the results-bucket key of a task's second computation, made to verify the
// first: "<job>.<task id>.v".
func verifyKey(job string, id int) string { return resultKey(job, id) + ".v" }

// checkResult returns why r, stored under task id, cannot be a result of that task of
// plan: it belongs to another job, it was counted from another task (its digest), its
// counters are not those the plan names, in their order, or the plan's Check refuses it. A
// result of a build of MessageVersion 2 is made this build's first (legacyResult).
func checkResult(plan work.Plan, id int, r *Result) error {
	if err := r.check(plan.Job(), id); err != nil {
		return err
	}
	if r.old != nil {
		if err := legacyResult(plan, r); err != nil {
			return err
		}
	}
	if r.Task != "" {
		t, err := plan.Task(id)
		if err != nil {
			return err
		}
		if d := taskDigest(t); r.Task != d {
			return fmt.Errorf("task %d: the worker counted a task with digest %s, but task %d of the plan has digest %s", id, r.Task, id, d)
		}
	}
	if r.Count == nil {
		return fmt.Errorf("task %d: a result without a count", id)
	}
	names := plan.Counters()
	if len(r.Counters) != len(names) {
		return fmt.Errorf("task %d: %d counters, but the plan %s names %d (%s)", id, len(r.Counters), plan.Job(), len(names), strings.Join(names, ", "))
	}
	for i, c := range r.Counters {
		if c.Name != names[i] {
			return fmt.Errorf("task %d: counter %d is %.40q, but the plan %s names %q there", id, i, c.Name, plan.Job(), names[i])
		}
	}
	return plan.Check(r.Result)
}

// A verifier follows a job's first and second results and compares them. For every task it
// keeps a keyed 64-bit fingerprint of the accepted first result and the identity that
// computed it (12 bytes a task: 204 MB for the 1.7·10⁷ tasks of N = 28), and whole results
// only for the second computations that came before their first (rare: a first dropped and
// computed again). Two results agree when their fingerprints are equal. The key is random
// and secret (kept only in the coordinator's snapshot, in its state directory), so no worker
// can make a wrong result whose fingerprint is that of the right one; two results with
// different counters share one by chance with probability 2⁻⁶⁴. It is not safe for
// concurrent use.
type verifier struct {
	job    string
	key    [32]byte
	sample idSet    // the tasks this run verifies
	agreed idSet    // tasks whose first result a second by another identity agrees with
	fp     []uint64 // fingerprint of each task's accepted first result, 0 if none
	who    []uint32 // identity of each task's accepted first result: an index into names
	names  []string // identities, names[0] = "" (none)
	index  map[string]uint32
	early  map[int]Result // second results of tasks with no first result yet, by task id
	// workers are the identities of accepted first results, verifiers of agreeing second ones.
	workers, verifiers map[string]bool
	// agree, if set, is told of each task whose two results come to agree.
	agree func(first, second string)
	// adaptive: the sample is every task but those whose first result adaptive
	// replication spared (see Adaptive); a task whose first result is dropped is
	// sampled again.
	adaptive bool
	// drawn are the drawn verifiers a snapshot kept, for the dispatch (keepDraws).
	drawn []drawnTask
	// third: Replicas 3, a task agreed only once two identities other than the first's
	// agree with it; who2 the identity of each task's agreeing second, an index into
	// names, 0 if none (replicas.go).
	third bool
	who2  []uint32
	// few: the default where nothing is published, a third computation only for the
	// tasks whose second was drawn while the run had seen fewer than FewIdentities
	// identities (triple), none for those drawn from then on (pair); a task with neither
	// decision (one read again whose draw was not kept) wants a third (replicas.go).
	few          bool
	triple, pair idSet
}

// newVerifier picks k of the plan's tasks at random (distinct ids, without a permutation
// of the whole plan), with a new fingerprint key.
func newVerifier(plan work.Plan, k int) *verifier {
	v := emptyVerifier(plan)
	if _, err := crand.Read(v.key[:]); err != nil {
		panic(err) // crypto/rand does not fail on the systems Go supports
	}
	n := plan.Len()
	switch {
	case k >= n: // every task (--replicas 2): no permutation of the plan
		for id := range n {
			v.sample.add(id)
		}
		return v
	case 2*k > n:
		for _, id := range rand.Perm(n)[:k] {
			v.sample.add(id)
		}
		return v
	}
	for v.sample.len() < k {
		v.sample.add(rand.IntN(n))
	}
	return v
}

// emptyVerifier returns a verifier of plan that samples no task, with a zero key.
func emptyVerifier(plan work.Plan) *verifier {
	return &verifier{
		job: plan.Job(), sample: newIDSet(plan.Len()), agreed: newIDSet(plan.Len()),
		fp: make([]uint64, plan.Len()), who: make([]uint32, plan.Len()),
		names: []string{""}, index: map[string]uint32{"": 0}, early: map[int]Result{},
		workers: map[string]bool{}, verifiers: map[string]bool{},
	}
}

// An idSet is a set of a plan's task ids, a bit per task (2 MB for the 1.7·10⁷ tasks of
// N = 28, where a map of them all took about a gigabyte). Its zero value is empty and
// holds no id: make it with newIDSet.
type idSet struct {
	bits []uint64
	n    int // members
}

// newIDSet returns an empty set for ids 0 to tasks−1.
func newIDSet(tasks int) idSet { return idSet{bits: make([]uint64, (tasks+63)/64)} }

// has reports whether id is in the set (false for an id out of its range).
func (s *idSet) has(id int) bool {
	return id >= 0 && id/64 < len(s.bits) && s.bits[id/64]&(1<<(id%64)) != 0
}

// add puts id, 0 ≤ id < tasks, into the set.
func (s *idSet) add(id int) {
	if !s.has(id) {
		s.bits[id/64] |= 1 << (id % 64)
		s.n++
	}
}

// del takes id out of the set.
func (s *idSet) del(id int) {
	if s.has(id) {
		s.bits[id/64] &^= 1 << (id % 64)
		s.n--
	}
}

// len returns the number of ids in the set.
func (s *idSet) len() int { return s.n }

// ids yields the set's ids in increasing order.
func (s *idSet) ids() iter.Seq[int] {
	return func(yield func(int) bool) {
		for w, b := range s.bits {
			for b != 0 {
				if !yield(w*64 + bits.TrailingZeros64(b)) {
					return
				}
				b &= b - 1
			}
		}
	}
}

// setWords makes the set the one whose bits are words, for tasks ids, or says why it
// cannot be.
func (s *idSet) setWords(words []uint64, tasks int) error {
	if len(words) != (tasks+63)/64 || tasks%64 != 0 && words[len(words)-1]>>(tasks%64) != 0 {
		return fmt.Errorf("a set of %d words is not one of %d tasks", len(words), tasks)
	}
	s.bits, s.n = words, 0
	for _, w := range words {
		s.n += bits.OnesCount64(w)
	}
	return nil
}

// fingerprint returns the nonzero keyed 64-bit fingerprint of the whole of r: its task
// id, its count and its counters, names and values (the first 8 bytes of their HMAC-SHA-256
// under the key, each part prefixed by its length). About a microsecond.
func (v *verifier) fingerprint(r work.Result) uint64 {
	m := hmac.New(sha256.New, v.key[:])
	var b [8]byte
	put := func(x uint64) {
		binary.LittleEndian.PutUint64(b[:], x)
		m.Write(b[:])
	}
	put(uint64(r.ID))
	var count []byte
	if r.Count != nil {
		count = r.Count.Bytes()
		put(uint64(r.Count.Sign() + 1))
	}
	put(uint64(len(count)))
	m.Write(count)
	put(uint64(len(r.Counters)))
	for _, c := range r.Counters {
		put(uint64(len(c.Name)))
		m.Write([]byte(c.Name))
		put(c.Value)
	}
	sum := m.Sum(nil)
	return max(binary.LittleEndian.Uint64(sum[:8]), 1)
}

// ident returns the index of identity name, adding it if new.
func (v *verifier) ident(name string) uint32 {
	i, ok := v.index[name]
	if !ok {
		i = uint32(len(v.names))
		v.names = append(v.names, name)
		v.index[name] = i
	}
	return i
}

// hasFirst reports whether task id has an accepted first result.
func (v *verifier) hasFirst(id int) bool { return id >= 0 && id < len(v.fp) && v.fp[id] != 0 }

// firstWorker returns the identity of task id's accepted first result, if it has one.
func (v *verifier) firstWorker(id int) (string, bool) {
	if !v.hasFirst(id) {
		return "", false
	}
	return v.names[v.who[id]], true
}

// sameAsFirst reports whether r, a result of task id, has the counters of the task's
// accepted first result (true if it has none).
func (v *verifier) sameAsFirst(id int, r Result) bool {
	return !v.hasFirst(id) || v.fp[id] == v.fingerprint(r.Result)
}

// addFirst records an accepted first result. It reports whether the task is one to verify
// with no agreeing second result yet.
func (v *verifier) addFirst(id int, r Result) (ask bool, err error) {
	v.fp[id], v.who[id] = v.fingerprint(r.Result), v.ident(r.Worker)
	v.workers[r.Worker] = true
	if s, ok := v.early[id]; ok {
		delete(v.early, id)
		if err := v.compare(id, &r, s); err != nil {
			return false, err
		}
	}
	return v.sample.has(id) && !v.agreed.has(id), nil
}

// addSecond records a valid second result and compares it with the first, if there is one.
// A second result by the first result's own worker proves nothing and is ignored.
func (v *verifier) addSecond(id int, r Result) error {
	if !v.hasFirst(id) {
		v.early[id] = r
		return nil
	}
	return v.compare(id, nil, r)
}

// compare holds the second result s of task id against its first (first, if the caller
// has it whole): equal fingerprints by distinct identities agree; different ones are a
// DisagreeError, whose First is only the task id and the identity when first is nil.
func (v *verifier) compare(id int, first *Result, s Result) error {
	fw := v.names[v.who[id]]
	if fw == s.Worker {
		return nil
	}
	if v.fingerprint(s.Result) != v.fp[id] {
		if first != nil {
			return &DisagreeError{Job: v.job, ID: id, First: *first, Second: s}
		}
		return v.against(id, s)
	}
	if v.confirmOnce(id, s) {
		return nil // a third identity must agree as well
	}
	v.verifiers[s.Worker] = true
	if !v.agreed.has(id) {
		v.agreed.add(id)
		if v.agree != nil {
			v.agree(fw, s.Worker)
		}
	}
	return nil
}

// against returns the disagreement of r, a result of task id, with the task's accepted
// first result, which it names by its identity only (see DisagreeError).
func (v *verifier) against(id int, r Result) *DisagreeError {
	fw, _ := v.firstWorker(id)
	return &DisagreeError{Job: v.job, ID: id, First: Result{Job: v.job, Result: work.Result{ID: id}, Worker: fw}, Second: r, partial: true}
}

// addHere records a first result the coordinator computed itself: it needs no second.
func (v *verifier) addHere(id int, r Result) {
	v.fp[id], v.who[id] = v.fingerprint(r.Result), v.ident(Here)
	v.forgetSecond(id)
	delete(v.early, id)
	if v.sample.has(id) {
		v.agreed.add(id)
	}
}

// dropFirst forgets the first result of task id (and an agreement on it: the task waits
// for a first result and then a second; with adaptive replication, the draw for its next
// first result says whether).
func (v *verifier) dropFirst(id int) {
	v.agreed.del(id)
	v.forgetSecond(id)
	if id >= 0 && id < len(v.fp) {
		v.fp[id], v.who[id] = 0, 0
		if v.adaptive {
			v.sample.add(id)
		}
	}
}

// dropSecond forgets the second result of task id (and an agreement on it).
func (v *verifier) dropSecond(id int) {
	delete(v.early, id)
	v.agreed.del(id)
}

// unagreed yields the sampled tasks with no agreeing second result, in id order.
func (v *verifier) unagreed() iter.Seq[int] {
	return func(yield func(int) bool) {
		for w, b := range v.sample.bits {
			b &^= v.agreed.bits[w]
			for b != 0 {
				if !yield(w*64 + bits.TrailingZeros64(b)) {
					return
				}
				b &= b - 1
			}
		}
	}
}

// pending returns the sampled tasks with no agreeing second result, in id order.
func (v *verifier) pending() []int { return slices.Collect(v.unagreed()) }

// done reports whether every sampled task has an agreeing second result.
func (v *verifier) done() bool {
	for range v.unagreed() {
		return false
	}
	return true
}

// A DisagreeError says that two computations of one task differ: a worker lied, or a
// machine is broken. The count that met it prints no total.
type DisagreeError struct {
	Job           string
	ID            int
	First, Second Result
	// partial: First holds only the task id and the identity (the verifier keeps a
	// fingerprint of first results): the dispatch reads it whole from the bucket.
	partial bool
}

func (e *DisagreeError) Error() string {
	by := func(r Result) string {
		w := "an unnamed worker"
		if r.Worker != "" {
			w = fmt.Sprintf("worker %q", r.Worker)
		}
		return w + " found " + describe(r.Result)
	}
	return fmt.Sprintf("task %d of job %s was computed twice with different results: %s, %s; the total is refused",
		e.ID, e.Job, by(e.First), by(e.Second))
}

// describe says what a result found: "92 (half_turn 4, quarter_turn 0, nodes 1965)".
func describe(r work.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v (", r.Count)
	for i, c := range r.Counters {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", c.Name, c.Value)
	}
	b.WriteString(")")
	return b.String()
}

// countLocally runs tasks on all cores (work.RunPlan) and returns their results in the
// order of ids; it counts them in st.ComputedHere.
func countLocally(ctx context.Context, plan work.Plan, ids []int, st *Stats) ([]work.Result, error) {
	st.ComputedHere += len(ids)
	out, err := work.RunPlan(ctx, plan, work.Options{Tasks: ids})
	return out.Results, err
}
