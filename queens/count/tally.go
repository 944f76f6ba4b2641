package count

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"math/big"
)

// A Tally sums task results as they arrive, each task id once: a second result for the
// same id is ignored, so a duplicate delivery never changes the total. It is not safe for
// concurrent use.
type Tally struct {
	plan                    Plan
	seen                    []uint64 // a bit per task: task id in bit id%64 of word id/64
	tasks                   int
	done                    int
	total, half, quarter    big.Int
	nodes                   uint64
	doneCost, remainingCost uint64
	// w, v and wv are Add's and Remove's scratch: the weight, a count and their product,
	// whose words are reused, so that a result costs no allocation once they have grown.
	w, v, wv big.Int
}

// NewTally returns an empty tally for the plan. It costs a pass over the plan's costs, and
// holds a bit per task (5.5 MB at 4.4·10⁷ tasks).
func NewTally(p Plan) *Tally {
	n := p.Len()
	t := &Tally{plan: p, seen: make([]uint64, (n+63)/64), tasks: n}
	for id := range n {
		t.remainingCost += p.Cost(id)
	}
	return t
}

// Add records r. It reports false, changing nothing, if the tally already holds a result for
// r.ID, and returns an error if r.ID is not a task of the plan.
func (t *Tally) Add(r Result) (bool, error) {
	if r.ID < 0 || r.ID >= t.tasks {
		return false, fmt.Errorf("result for task %d, but the plan for N=%d has tasks 0 to %d", r.ID, t.plan.N(), t.tasks-1)
	}
	if t.Has(r.ID) {
		return false, nil
	}
	t.seen[r.ID/64] |= 1 << (r.ID % 64)
	t.done++
	t.w.SetUint64(uint64(t.plan.Weight(r.ID)))
	t.total.Add(&t.total, t.weighted(r.Solutions))
	t.half.Add(&t.half, t.weighted(r.HalfTurn))
	t.quarter.Add(&t.quarter, t.weighted(r.QuarterTurn))
	t.nodes += r.Nodes
	c := t.plan.Cost(r.ID)
	t.doneCost += c
	t.remainingCost -= c
	return true, nil
}

// AddAll records results of distinct tasks, or returns an error if one's id is not a task
// of the plan or is already in the tally (given twice).
func (t *Tally) AddAll(results []Result) error {
	for _, r := range results {
		added, err := t.Add(r)
		if err != nil {
			return err
		}
		if !added {
			return fmt.Errorf("task %d given twice", r.ID)
		}
	}
	return nil
}

// Remove takes r, a result the tally holds for r.ID, out of it again, so that the task can
// be counted anew: what a distributed count does with the results of a worker shown to
// lie. It reports false, changing nothing, if the tally holds no result for r.ID. The
// caller must give the very result it added (the tally keeps only sums).
func (t *Tally) Remove(r Result) bool {
	if !t.Has(r.ID) {
		return false
	}
	t.seen[r.ID/64] &^= 1 << (r.ID % 64)
	t.done--
	t.w.SetUint64(uint64(t.plan.Weight(r.ID)))
	t.total.Sub(&t.total, t.weighted(r.Solutions))
	t.half.Sub(&t.half, t.weighted(r.HalfTurn))
	t.quarter.Sub(&t.quarter, t.weighted(r.QuarterTurn))
	t.nodes -= r.Nodes
	c := t.plan.Cost(r.ID)
	t.doneCost -= c
	t.remainingCost += c
	return true
}

// weighted returns t.w × v in t.wv, valid until the next call.
func (t *Tally) weighted(v uint64) *big.Int {
	return t.wv.Mul(&t.w, t.v.SetUint64(v))
}

// Has reports whether the tally holds a result for task id.
func (t *Tally) Has(id int) bool {
	return id >= 0 && id < t.tasks && t.seen[id/64]&(1<<(id%64)) != 0
}

// Done returns the number of tasks with a result.
func (t *Tally) Done() int { return t.done }

// Complete reports whether every task of the plan has a result.
func (t *Tally) Complete() bool { return t.done == t.tasks }

// Nodes returns the search-tree nodes of the results so far.
func (t *Tally) Nodes() uint64 { return t.nodes }

// CostDone returns the summed Cost of the tasks with a result and of those without.
func (t *Tally) CostDone() (done, remaining uint64) { return t.doneCost, t.remainingCost }

// Solutions returns the weighted number of solutions found so far: the total once complete.
func (t *Tally) Solutions() *big.Int { return new(big.Int).Set(&t.total) }

// Counts returns the counts summed so far; they are the board's counts once Complete.
func (t *Tally) Counts() Counts {
	n := t.plan.N()
	c := Counts{
		N:           n,
		Total:       new(big.Int).Set(&t.total),
		HalfTurn:    new(big.Int).Set(&t.half),
		QuarterTurn: new(big.Int).Set(&t.quarter),
	}
	c.Unique = uniqueFrom(n, c.Total, c.HalfTurn, c.QuarterTurn)
	return c
}

// Final returns the board's counts once every task of the plan has a result, checked
// against the published counts where they exist (N ≤ MaxKnownN): a total that disagrees
// means that some result is wrong — a fault, or a forged result that no other check caught
// — and Final refuses it with an error naming both values. Past MaxKnownN nothing is
// published and the counts are returned as summed. It errs too while tasks lack a result.
func (t *Tally) Final() (Counts, error) {
	if !t.Complete() {
		return Counts{}, fmt.Errorf("%d of %d tasks have no result", t.tasks-t.done, t.tasks)
	}
	c := t.Counts()
	k, ok := Known(c.N)
	if !ok {
		return c, nil
	}
	for _, v := range []struct {
		name, oeis string
		got, want  *big.Int
	}{
		{"Q", "A000170", c.Total, k.Total},
		{"U", "A002562", c.Unique, k.Unique},
	} {
		if v.got.Cmp(v.want) != 0 {
			return Counts{}, fmt.Errorf("%s(%d) summed to %s, but the published value is %s (OEIS %s): some task's result is wrong; the total is refused", v.name, c.N, v.got, v.want, v.oeis)
		}
	}
	return c, nil
}

// tallyState is the whole of a Tally as MarshalBinary stores it (gob-encoded): which
// tasks have a result and the exact sums of their results.
type tallyState struct {
	// Seen holds a bit per task, task id in bit id%8 of byte id/8.
	Seen []byte
	Done int
	// Total, HalfTurn and QuarterTurn are the weighted sums so far, in decimal.
	Total, HalfTurn, QuarterTurn string
	Nodes                        uint64
}

// MarshalBinary returns the tally's state, which tasks have a result and the exact sums of
// their results, in a form to store (encoding.BinaryMarshaler): a runner's snapshot of a
// long count. UnmarshalBinary reads it back. It costs a bit per task of the plan.
func (t *Tally) MarshalBinary() ([]byte, error) {
	s := tallyState{
		Seen: make([]byte, (t.tasks+7)/8), Done: t.done,
		Total: t.total.String(), HalfTurn: t.half.String(), QuarterTurn: t.quarter.String(),
		Nodes: t.nodes,
	}
	for i := range s.Seen {
		s.Seen[i] = byte(t.seen[i/8] >> (8 * (i % 8)))
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(s); err != nil {
		return nil, fmt.Errorf("encoding a tally: %w", err)
	}
	return buf.Bytes(), nil
}

// UnmarshalBinary sets t, a tally that NewTally made for a plan, to the state data that
// MarshalBinary gave for a tally of that plan (encoding.BinaryUnmarshaler), or returns an
// error, leaving t as it was, if data cannot be one: its bits do not fit the plan's tasks,
// its count of tasks done is not their number, or a sum is not a whole number from 0 up.
// It cannot tell a state of another plan with as many tasks: the caller names the plan
// beside the state. It costs a pass over the plan's tasks.
func (t *Tally) UnmarshalBinary(data []byte) error {
	if t.plan == nil {
		return errors.New("reading a tally: the tally has no plan (make it with NewTally)")
	}
	var s tallyState
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&s); err != nil {
		return fmt.Errorf("reading a tally: %w", err)
	}
	p := t.plan
	u := NewTally(p)
	if len(s.Seen) != (u.tasks+7)/8 {
		return fmt.Errorf("tally state of %d bytes, but the plan of N=%d has %d tasks", len(s.Seen), p.N(), u.tasks)
	}
	for id := range u.tasks {
		if s.Seen[id/8]&(1<<(id%8)) != 0 {
			u.seen[id/64] |= 1 << (id % 64)
			u.done++
			c := p.Cost(id)
			u.doneCost += c
			u.remainingCost -= c
		}
	}
	if extra := u.tasks % 8; extra != 0 && s.Seen[len(s.Seen)-1]>>extra != 0 {
		return errors.New("tally state marks tasks beyond the plan's last")
	}
	if u.done != s.Done {
		return fmt.Errorf("tally state says %d tasks are done, but marks %d", s.Done, u.done)
	}
	for _, x := range []struct {
		dst *big.Int
		src string
	}{{&u.total, s.Total}, {&u.half, s.HalfTurn}, {&u.quarter, s.QuarterTurn}} {
		if _, ok := x.dst.SetString(x.src, 10); !ok || x.dst.Sign() < 0 {
			return fmt.Errorf("tally state has the sum %q, want a whole number from 0 up", x.src)
		}
	}
	u.nodes = s.Nodes
	*t = *u
	return nil
}
