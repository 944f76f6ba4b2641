package work

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/big"
	"path/filepath"
	"testing"
	"time"
)

// toyPlan is a third kind of count written as its plan alone, to show that every runner
// takes it: the binary strings of length bits, in tasks by their first prefix bits. A
// string and its complement have the same count, so only prefixes that begin with 0 are
// tasks, each of weight 2. A task counts its strings one by one (its "steps" counter is
// the strings it looked at), so the total, 2^bits, is checkable by hand.
type toyPlan struct {
	bits, prefix int
	fail         int // a task id whose run fails (-1: none)
}

func (p toyPlan) Job() string        { return fmt.Sprintf("toy%d-%d-v1", p.bits, p.prefix) }
func (p toyPlan) Len() int           { return 1 << (p.prefix - 1) }
func (p toyPlan) Counters() []string { return []string{"steps"} }
func (p toyPlan) Order() iter.Seq[int] {
	return func(yield func(int) bool) {
		for id := range p.Len() {
			if !yield(id) {
				return
			}
		}
	}
}

func (p toyPlan) Published() (*big.Int, bool) {
	return new(big.Int).Lsh(big.NewInt(1), uint(p.bits)), true
}

func (p toyPlan) Task(id int) (Task, error) {
	if id < 0 || id >= p.Len() {
		return Task{}, fmt.Errorf("task %d: the plan %s has tasks 0 to %d", id, p.Job(), p.Len()-1)
	}
	return Task{ID: id, Weight: 2, Cost: 1, Desc: fmt.Sprintf("prefix %0*b", p.prefix, id)}, nil
}

func (p toyPlan) RunTask(ctx context.Context, t Task) (Result, error) {
	if t.ID == p.fail {
		return Result{}, errors.New("toy task fails")
	}
	var n uint64
	for range 1 << (p.bits - p.prefix) {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		n++
	}
	return Result{ID: t.ID, Count: new(big.Int).SetUint64(n), Counters: []Counter{{"steps", n}}}, nil
}

func (p toyPlan) Check(r Result) error {
	if r.ID < 0 || r.ID >= p.Len() {
		return fmt.Errorf("task %d: the plan %s has tasks 0 to %d", r.ID, p.Job(), p.Len()-1)
	}
	if len(r.Counters) != 1 || r.Counters[0].Name != "steps" || r.Count == nil || !r.Count.IsUint64() || r.Count.Uint64() != r.Counters[0].Value {
		return fmt.Errorf("task %d: a toy result counts one string a step", r.ID)
	}
	return nil
}

// TestToyPlanRunners: the toy plan, and nothing else of its own, runs locally on two
// workers, with a checkpoint that an interrupted run leaves and a second run resumes, and
// in slices summed by Total; each way gives 2^bits, and a failing task stops a run with
// its error.
func TestToyPlanRunners(t *testing.T) {
	ctx := context.Background()
	p := toyPlan{bits: 12, prefix: 5, fail: -1}
	want, _ := p.Published()

	out, err := RunPlan(ctx, p, Options{Workers: 2})
	if err != nil || out.Total.Cmp(want) != 0 {
		t.Fatalf("RunPlan = %v, %v; want %v", out.Total, err, want)
	}

	defer func(d time.Duration) { resultDelay = d }(resultDelay)
	resultDelay = 0 // each result on its own: the run stops a few tasks after the cancel
	path := filepath.Join(t.TempDir(), "toy.ckpt")
	ctx1, cancel := context.WithCancel(ctx)
	n := 0
	_, err = RunPlan(ctx1, p, Options{Workers: 1, Checkpoint: path, Finished: func(Result, time.Duration) error {
		if n++; n == 5 {
			cancel()
		}
		return nil
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a run cancelled after 5 tasks: %v", err)
	}
	c, done, err := OpenPlanCheckpoint(ctx, path, p)
	if err != nil || len(done) < 5 || len(done) == p.Len() {
		t.Fatalf("the checkpoint of the cancelled run: %v, %d results; want from 5 to %d", err, len(done), p.Len()-1)
	}
	c.Close()
	var resumed int
	out, err = RunPlan(ctx, p, Options{Workers: 2, Checkpoint: path, Progress: func(s Status) { resumed = s.Resumed }})
	if err != nil || out.Total.Cmp(want) != 0 || resumed != len(done) {
		t.Fatalf("the resumed run = %v, %v, %d resumed; want %v, %d resumed", out.Total, err, resumed, want, len(done))
	}
	if _, _, err := OpenPlanCheckpoint(ctx, path, toyPlan{bits: 12, prefix: 4, fail: -1}); err == nil {
		t.Error("the checkpoint opened for another toy plan")
	}

	var all []Result
	const K = 3
	for i := range K {
		ids, err := Slice(p, i, K)
		if err != nil {
			t.Fatal(err)
		}
		out, err := RunPlan(ctx, p, Options{Tasks: ids})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, out.Results...)
	}
	if total, err := Total(p, all); err != nil || total.Cmp(want) != 0 {
		t.Errorf("the %d slices sum to %v, %v; want %v", K, total, err, want)
	}

	if _, err := RunPlan(ctx, toyPlan{bits: 12, prefix: 5, fail: 7}, Options{Workers: 2}); err == nil || err.Error() != "toy task fails" {
		t.Errorf("a run with a failing task: %v, want its error", err)
	}
}
