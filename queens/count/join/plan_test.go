package join

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestCheckTask: every task of the plan, as a worker receives it, passes CheckTask without
// the plan; descriptions no plan cut (another cost, one row set more or less, a first row
// set that is none, another sub-problem, the symmetric task with row sets) are refused. A
// run shifted to other row sets of the same costs passes (only the plan knows where its
// tasks start): the coordinator refuses its result by the task's digest.
func TestCheckTask(t *testing.T) {
	for _, n := range []int{9, 12, 13} {
		p, err := New(n)
		if err != nil {
			t.Fatal(err)
		}
		for id := range p.Len() {
			ct, _ := p.Task(id)
			fresh, _ := New(n) // a worker's plan: never built
			got, err := fresh.CheckTask(ct)
			if err != nil || got != ct {
				t.Fatalf("N=%d task %d (%+v): CheckTask = %+v, %v; want it back", n, id, ct, got, err)
			}
			if fresh.(*plan).cost != nil {
				t.Fatalf("N=%d: CheckTask built the plan", n)
			}
			jt := p.(*plan).taskAt(id)
			var forged []count.Task
			edit := func(f func(*task)) {
				x := jt
				f(&x)
				forged = append(forged, x.public())
			}
			if jt.Run.Sub >= 0 {
				edit(func(x *task) { x.Cost++ })
				edit(func(x *task) { x.Run.RowSets++ })
				edit(func(x *task) { x.Run.RowSets-- })
				edit(func(x *task) { x.Run.First |= 1 << 62 })
				edit(func(x *task) { x.Run.Sub = subproblemCount(n) })
			} else {
				edit(func(x *task) { x.Run.RowSets = 1 })
			}
			c := ct
			c.Method = count.MethodFrames
			forged = append(forged, c)
			for _, f := range forged {
				if _, err := fresh.CheckTask(f); err == nil {
					t.Errorf("N=%d task %d: forged description %+v accepted", n, id, f)
				}
			}
		}
	}
}

// TestCompactPlan: the plan's tasks, made from its compact arrays, are in id order, one
// sub-problem after another in colex order of their first row sets, and the symmetric
// task comes last.
func TestCompactPlan(t *testing.T) {
	p, err := newJoinPlan(15)
	if err != nil {
		t.Fatal(err)
	}
	prev := task{Run: rowSetRun{Sub: 0}}
	for id := range p.Len() - 1 {
		tk := p.taskAt(id)
		if tk.ID != id || tk.Run.RowSets < 1 || tk.Run.Sub < prev.Run.Sub || (tk.Run.Sub == prev.Run.Sub && id > 0 && tk.Run.First <= prev.Run.First) {
			t.Fatalf("task %d = %+v after %+v", id, tk, prev)
		}
		prev = tk
	}
	if last := p.taskAt(p.Len() - 1); last.Run.Sub != -1 || last.Cost <= p.cost[0] {
		t.Errorf("last task = %+v, want the symmetric task, costliest", last)
	}
	if prev.Run.Sub != subproblemCount(15)-1 {
		t.Errorf("the last row-set task is of sub-problem %d, want %d", prev.Run.Sub, subproblemCount(15)-1)
	}
}

// TestBuildCancel checks that Build of the join's plan of N = 27 (seconds of walking row
// sets) returns ctx.Err() within a second of ctx's end, and that a plan whose build was
// cancelled builds in full on the next call.
func TestBuildCancel(t *testing.T) {
	p, err := New(27)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	const after = 100 * time.Millisecond
	time.AfterFunc(after, cancel)
	start := time.Now()
	if err := p.Build(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Build(N=27) with a context cancelled after %v = %v, want %v", after, err, context.Canceled)
	}
	if late := time.Since(start) - after; late > time.Second {
		t.Errorf("Build(N=27) returned %v after its context ended, want within a second", late)
	}

	small, _ := New(15)
	done, stop := context.WithCancel(context.Background())
	stop()
	if err := small.Build(done); !errors.Is(err, context.Canceled) {
		t.Fatalf("Build(N=15) with a cancelled context = %v, want %v", err, context.Canceled)
	}
	if err := small.Build(context.Background()); err != nil {
		t.Fatalf("Build(N=15) after a cancelled build: %v", err)
	}
	want, err := newJoinPlan(15)
	if err != nil {
		t.Fatal(err)
	}
	if small.Len() != want.Len() {
		t.Errorf("N=15 after a cancelled build: %d tasks, want %d", small.Len(), want.Len())
	}
}
