package cluster

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math/big"
	"slices"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// A tally sums a job's results as they are accepted, each task id once: a second result
// for a task is ignored, so a duplicate never changes the total. It holds a bit per task,
// the exact total Σ weight × count, and for each counter the plan names the weighted sum
// (a queens plan's U(N) is made of those of "half_turn" and "quarter_turn") and the plain
// sum (a progress line's nodes). It is not safe for concurrent use.
type tally struct {
	plan     work.Plan
	w        work.Weigher
	names    []string
	seen     idSet
	total    big.Int
	weighted []big.Int // by counter, in the plan's order
	plain    []uint64  // by counter, in the plan's order (wrapping past 2⁶⁴)
	costDone uint64
	costLeft uint64
}

// newTally returns an empty tally of plan. It costs a pass over the plan's costs and a bit
// per task.
func newTally(plan work.Plan) *tally {
	t := &tally{plan: plan, w: work.WeigherOf(plan), names: plan.Counters(), seen: newIDSet(plan.Len())}
	t.weighted = make([]big.Int, len(t.names))
	t.plain = make([]uint64, len(t.names))
	for id := range plan.Len() {
		t.costLeft += t.w.Cost(id)
	}
	return t
}

// add records r, a result the plan's Check accepts, and reports whether it was new: false,
// changing nothing, if the tally has a result of r.ID already.
func (t *tally) add(r work.Result) (bool, error) {
	return t.apply(r, 1)
}

// remove takes r, the very result add recorded for r.ID, out again, so that the task is
// counted anew; it reports false if the tally has no result of r.ID.
func (t *tally) remove(r work.Result) bool {
	ok, _ := t.apply(r, -1)
	return ok
}

// apply adds (sign 1) or removes (−1) r.
func (t *tally) apply(r work.Result, sign int) (bool, error) {
	if r.ID < 0 || r.ID >= t.plan.Len() {
		return false, fmt.Errorf("result of task %d, but the plan %s has tasks 0 to %d", r.ID, t.plan.Job(), t.plan.Len()-1)
	}
	if t.seen.has(r.ID) == (sign > 0) {
		return false, nil
	}
	if len(r.Counters) != len(t.names) || r.Count == nil {
		return false, fmt.Errorf("result of task %d has %d counters, the plan %s %d", r.ID, len(r.Counters), t.plan.Job(), len(t.names))
	}
	w := big.NewInt(t.w.Weight(r.ID) * int64(sign))
	var x big.Int
	t.total.Add(&t.total, x.Mul(w, r.Count))
	for i, c := range r.Counters {
		t.weighted[i].Add(&t.weighted[i], x.Mul(w, x.SetUint64(c.Value)))
		t.plain[i] += uint64(sign) * c.Value
	}
	cost := t.w.Cost(r.ID)
	if sign > 0 {
		t.seen.add(r.ID)
		t.costDone, t.costLeft = t.costDone+cost, t.costLeft-cost
	} else {
		t.seen.del(r.ID)
		t.costDone, t.costLeft = t.costDone-cost, t.costLeft+cost
	}
	return true, nil
}

// Has reports whether the tally has a result of task id.
func (t *tally) Has(id int) bool { return t.seen.has(id) }

// Done returns the number of tasks with a result.
func (t *tally) Done() int { return t.seen.len() }

// Complete reports whether every task has a result.
func (t *tally) Complete() bool { return t.seen.len() == t.plan.Len() }

// CostDone returns the summed Cost of the tasks with a result and of those without.
func (t *tally) CostDone() (done, left uint64) { return t.costDone, t.costLeft }

// Total returns Σ weight × count so far: the plan's count once complete.
func (t *tally) Total() *big.Int { return new(big.Int).Set(&t.total) }

// Sums returns the weighted sum of each counter so far, by name.
func (t *tally) Sums() map[string]*big.Int {
	m := make(map[string]*big.Int, len(t.names))
	for i, name := range t.names {
		m[name] = new(big.Int).Set(&t.weighted[i])
	}
	return m
}

// Nodes returns the plain sum of the counter that measures a task's work, for a rate:
// "nodes" (queens), else "states" (knight), else 0.
func (t *tally) Nodes() uint64 {
	for _, name := range []string{"nodes", "states"} {
		if i := slices.Index(t.names, name); i >= 0 {
			return t.plain[i]
		}
	}
	return 0
}

// tallyState is a tally as a snapshot stores it (gob): its tasks with a result as bits,
// and its sums in decimal.
type tallyState struct {
	Seen     []uint64
	Total    string
	Names    []string
	Weighted []string
	Plain    []uint64
}

// MarshalBinary returns the tally's state, for a snapshot.
func (t *tally) MarshalBinary() ([]byte, error) {
	s := tallyState{Seen: t.seen.bits, Total: t.total.String(), Names: t.names, Plain: t.plain}
	for i := range t.weighted {
		s.Weighted = append(s.Weighted, t.weighted[i].String())
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(s); err != nil {
		return nil, fmt.Errorf("encoding a tally: %w", err)
	}
	return buf.Bytes(), nil
}

// UnmarshalBinary sets t, a tally newTally made, to the state MarshalBinary gave for a
// tally of the same plan, or says why data cannot be one, leaving t as it was. It costs a
// pass over the plan's tasks.
func (t *tally) UnmarshalBinary(data []byte) error {
	var s tallyState
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&s); err != nil {
		return fmt.Errorf("reading a tally: %w", err)
	}
	u := newTally(t.plan)
	if err := u.seen.setWords(s.Seen, t.plan.Len()); err != nil {
		return fmt.Errorf("reading a tally: %v", err)
	}
	if !slices.Equal(s.Names, u.names) || len(s.Weighted) != len(u.names) || len(s.Plain) != len(u.names) {
		return fmt.Errorf("reading a tally: its counters are %q, the plan's %q", s.Names, u.names)
	}
	if _, ok := u.total.SetString(s.Total, 10); !ok {
		return fmt.Errorf("reading a tally: total %q is not a whole number", s.Total)
	}
	for i, x := range s.Weighted {
		if _, ok := u.weighted[i].SetString(x, 10); !ok {
			return fmt.Errorf("reading a tally: sum %q is not a whole number", x)
		}
	}
	copy(u.plain, s.Plain)
	for id := range u.seen.ids() {
		c := u.w.Cost(id)
		u.costDone, u.costLeft = u.costDone+c, u.costLeft-c
	}
	*t = *u
	return nil
}
