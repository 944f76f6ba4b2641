package dist

import (
	"context"
	"fmt"
	"iter"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// DefaultVerify is the share of a job's tasks that a coordinator has computed a second time
// unless told otherwise: enough to catch a worker that lies often, a few percent of the work.
const DefaultVerify = 0.02

// verifyKey is the results-bucket key of a task's second computation, made to verify the
// first: "<job>.<task id>.v".
func verifyKey(job string, id int) string { return resultKey(job, id) + ".v" }

// checkResult returns why r, stored under task id, cannot be a result of that task of
// plan: it belongs to another job or plan, or its counters are impossible for the task
// (see count.Plan.CheckResult). A second counting method plugs in here, through its
// plan's own check.
func checkResult(plan count.Plan, id int, r *Result) error {
	if err := r.check(jobOf(plan), plan.N(), plan.Version(), id); err != nil {
		return err
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
	return count.Check(plan, r.Result)
}

// VerifySample returns how many of total tasks a share f verifies: ⌈f·total⌉, at least
// one when f > 0 and there is a task.
func VerifySample(f float64, total int) int {
	if !(f > 0) || total == 0 {
		return 0
	}
	return min(total, max(1, int(math.Ceil(f*float64(total)))))
}

// A verifier follows a job's first and second results and compares them. It keeps whole
// first results only for the sampled tasks, and for every other task a 32-bit fingerprint
// (4 bytes a task: 44 MB for the 1.1·10⁷ tasks of the fine plan of N = 27), enough to see a
// task stored again with another result. It is not safe for concurrent use.
type verifier struct {
	job     string
	sample  idSet          // the tasks this run verifies
	first   map[int]Result // accepted first results of the sampled tasks, by task id
	fp      []uint32       // fingerprint of each task's accepted first result, 0 if none
	second  map[int]Result // second results from another worker, by task id
	agreed  idSet          // sampled tasks whose two results agree
	asked   idSet          // sampled tasks whose second computation this run asked for
	workers map[string]bool
}

// newVerifier picks k of the plan's tasks at random (distinct ids, without a permutation
// of the whole plan).
func newVerifier(plan count.Plan, k int) *verifier {
	v := &verifier{
		job:    jobOf(plan),
		sample: newIDSet(plan.Len()), first: map[int]Result{}, second: map[int]Result{},
		agreed: newIDSet(plan.Len()), asked: newIDSet(plan.Len()), workers: map[string]bool{},
		fp: make([]uint32, plan.Len()),
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

// fingerprint returns a nonzero 32-bit FNV-1a hash of r's counters.
func fingerprint(r count.Result) uint32 {
	h := uint32(2166136261)
	for _, x := range [...]uint64{r.Solutions, r.HalfTurn, r.QuarterTurn, r.Nodes, r.RowSets, r.Stored, r.PairTests} {
		for range 8 {
			h ^= uint32(x & 0xff)
			h *= 16777619
			x >>= 8
		}
	}
	return max(h, 1)
}

// sameAsFirst reports whether r, a result for a task that has an accepted first result,
// has that result's counters (as far as its fingerprint tells, for unsampled tasks).
func (v *verifier) sameAsFirst(id int, r Result) bool {
	if f, ok := v.first[id]; ok {
		return f.Result == r.Result
	}
	return id < 0 || id >= len(v.fp) || v.fp[id] == 0 || v.fp[id] == fingerprint(r.Result)
}

// addFirst records an accepted first result. It reports whether the task is one to verify
// whose second computation has not been asked for yet.
func (v *verifier) addFirst(id int, r Result) (ask bool, err error) {
	v.fp[id] = fingerprint(r.Result)
	v.workers[r.Worker] = true
	if !v.sample.has(id) {
		return false, nil
	}
	v.first[id] = r
	if s, ok := v.second[id]; ok {
		if err := v.compare(id, s); err != nil {
			return false, err
		}
	}
	return v.sample.has(id) && !v.agreed.has(id) && !v.asked.has(id), nil
}

// addSecond records a valid second result and compares it with the first, if there is one.
// A second result by the first result's own worker proves nothing and is ignored.
func (v *verifier) addSecond(id int, r Result) error {
	if f, ok := v.first[id]; ok && f.Worker == r.Worker {
		return nil
	}
	v.second[id] = r
	if _, ok := v.first[id]; !ok {
		return nil
	}
	return v.compare(id, r)
}

func (v *verifier) compare(id int, s Result) error {
	f := v.first[id]
	if f.Worker == s.Worker {
		return nil
	}
	if f.Result != s.Result {
		return &DisagreeError{Job: v.job, ID: id, First: f, Second: s}
	}
	v.agreed.add(id)
	return nil
}

// addHere records a first result the coordinator computed itself: it needs no second.
func (v *verifier) addHere(id int, r Result) {
	v.fp[id] = fingerprint(r.Result)
	if v.sample.has(id) {
		v.first[id], v.second[id] = r, r
		v.agreed.add(id)
	}
}

// dropFirst forgets the first result of task id (and an agreement on it).
func (v *verifier) dropFirst(id int) {
	delete(v.first, id)
	v.agreed.del(id)
	v.asked.del(id)
	if id >= 0 && id < len(v.fp) {
		v.fp[id] = 0
	}
}

// dropSecond forgets the second result of task id (and an agreement on it).
func (v *verifier) dropSecond(id int) {
	delete(v.second, id)
	v.agreed.del(id)
}

// pending returns the sampled tasks with no agreeing second result, in id order.
func (v *verifier) pending() []int {
	var out []int
	for id := range v.sample.ids() {
		if !v.agreed.has(id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// A DisagreeError says that two computations of one task differ: a worker lied, or a
// machine is broken. The count that met it prints no total.
type DisagreeError struct {
	Job           string
	ID            int
	First, Second Result
}

func (e *DisagreeError) Error() string {
	by := func(r Result) string {
		if r.Worker == "" {
			return "an unnamed worker"
		}
		return fmt.Sprintf("worker %q", r.Worker)
	}
	return fmt.Sprintf("task %d of job %s was computed twice with different results: %s found %d solutions (%d, %d fixed by turns, %d nodes), %s found %d (%d, %d, %d nodes); the total is refused",
		e.ID, e.Job, by(e.First), e.First.Solutions, e.First.HalfTurn, e.First.QuarterTurn, e.First.Nodes,
		by(e.Second), e.Second.Solutions, e.Second.HalfTurn, e.Second.QuarterTurn, e.Second.Nodes)
}

// countLocally runs tasks on all cores (work.Run) and returns their results in the order
// of ids.
func countLocally(ctx context.Context, plan count.Plan, ids []int) ([]count.Result, error) {
	res, err := work.Run(ctx, plan, work.Options{Tasks: ids})
	return res.Results, err
}
