// Package worktest holds a toy plan for the tests of every runner of package work and
// below it: a third kind of count, written as its work.Plan alone (and the one function
// that makes it again from its job id, as a merge or a worker does), which the local
// runner, checkpoints, slices and shard files must all take unchanged.
package worktest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/big"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// Toy counts the binary strings of length Bits, in tasks by their first Prefix bits. A
// string and its complement have the same count, so only prefixes that begin with 0 are
// tasks, each of weight 2. A task counts its strings one by one (its "steps" counter is
// the strings it looked at), so the total, 2^Bits, is checkable by hand. Task Fail's run
// fails (-1: none). A task takes 2^(Bits−Prefix) steps. With Shift, each string counts
// for 2^Shift: the total is 2^(Bits+Shift), past 2^64 for a Shift of 64 − Bits or more,
// which every runner must carry exactly.
type Toy struct {
	Bits, Prefix int
	Shift        uint
	Fail         int
}

// NewToy returns the toy plan of bits and prefix whose tasks all succeed.
func NewToy(bits, prefix int) Toy { return Toy{Bits: bits, Prefix: prefix, Fail: -1} }

// ParseToy returns the toy plan whose job id is job ("toy12-5-v1", "toy12-5-x60-v1"), as
// a merge of its files or a worker makes it again: the toy kind's function for
// work.RegisterKind.
func ParseToy(job string) (work.Plan, error) {
	p := NewToy(0, 0)
	if n, err := fmt.Sscanf(job, "toy%d-%d-x%d-v1", &p.Bits, &p.Prefix, &p.Shift); n != 3 || err != nil {
		p.Shift = 0
		if n, err := fmt.Sscanf(job, "toy%d-%d-v1", &p.Bits, &p.Prefix); n != 2 || err != nil {
			return nil, fmt.Errorf("%q is not a toy plan's job id", job)
		}
	}
	if p.Job() != job || p.Prefix < 1 || p.Bits < p.Prefix || p.Bits > 24 || p.Shift > 1000 {
		return nil, fmt.Errorf("%q is not a toy plan's job id", job)
	}
	return p, nil
}

// Job returns "toy", Bits, Prefix, Shift if any and the version: "toy12-5-v1",
// "toy12-5-x60-v1".
func (p Toy) Job() string {
	if p.Shift != 0 {
		return fmt.Sprintf("toy%d-%d-x%d-v1", p.Bits, p.Prefix, p.Shift)
	}
	return fmt.Sprintf("toy%d-%d-v1", p.Bits, p.Prefix)
}

// Len returns 2^(Prefix−1).
func (p Toy) Len() int { return 1 << (p.Prefix - 1) }

// Counters returns "steps".
func (p Toy) Counters() []string { return []string{"steps"} }

// Order yields the ids in increasing order.
func (p Toy) Order() iter.Seq[int] {
	return func(yield func(int) bool) {
		for id := range p.Len() {
			if !yield(id) {
				return
			}
		}
	}
}

// Published returns 2^(Bits+Shift).
func (p Toy) Published() (*big.Int, bool) {
	return new(big.Int).Lsh(big.NewInt(1), uint(p.Bits)+p.Shift), true
}

// Task returns task id: weight 2, cost 1, its prefix as its description.
func (p Toy) Task(id int) (work.Task, error) {
	if id < 0 || id >= p.Len() {
		return work.Task{}, fmt.Errorf("task %d: the plan %s has tasks 0 to %d", id, p.Job(), p.Len()-1)
	}
	return work.Task{ID: id, Weight: 2, Cost: 1, Desc: fmt.Sprintf("prefix %0*b", p.Prefix, id)}, nil
}

// RunTask counts task t's strings one by one.
func (p Toy) RunTask(ctx context.Context, t work.Task) (work.Result, error) {
	if t.ID == p.Fail {
		return work.Result{}, errors.New("toy task fails")
	}
	var n uint64
	for range 1 << (p.Bits - p.Prefix) {
		if err := ctx.Err(); err != nil {
			return work.Result{}, err
		}
		n++
	}
	c := new(big.Int).SetUint64(n)
	return work.Result{ID: t.ID, Count: c.Lsh(c, p.Shift), Counters: []work.Counter{{Name: "steps", Value: n}}}, nil
}

// Check refuses a result of no task, or whose count is not its steps times 2^Shift.
func (p Toy) Check(r work.Result) error {
	if r.ID < 0 || r.ID >= p.Len() {
		return fmt.Errorf("task %d: the plan %s has tasks 0 to %d", r.ID, p.Job(), p.Len()-1)
	}
	if len(r.Counters) != 1 || r.Counters[0].Name != "steps" || r.Count == nil ||
		r.Count.Cmp(new(big.Int).Lsh(new(big.Int).SetUint64(r.Counters[0].Value), p.Shift)) != 0 {
		return fmt.Errorf("task %d: a toy result counts 2^%d a string, one string a step", r.ID, p.Shift)
	}
	return nil
}
