package count_test

import (
	"context"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// TestTallyRemove: a wrong result added, removed and replaced by the right one leaves the
// tally as if the wrong one had never come: the published Q(10) and U(10), every task done.
func TestTallyRemove(t *testing.T) {
	const n = 10
	p, err := frames.New(n, frames.PlanVersion)
	if err != nil {
		t.Fatal(err)
	}
	tally := count.NewTally(p)
	var wrong, right count.Result
	for id := range p.Len() {
		task, _ := p.Task(id)
		r, err := p.CountTask(context.Background(), task)
		if err != nil {
			t.Fatal(err)
		}
		if wrong.Solutions == 0 && r.Solutions > 0 {
			right, wrong = r, r
			wrong.Solutions += 2
			r = wrong
		}
		tally.Add(r)
	}
	if !tally.Remove(wrong) || tally.Has(wrong.ID) || tally.Complete() {
		t.Fatalf("Remove(task %d): the tally still holds it", wrong.ID)
	}
	if tally.Remove(wrong) {
		t.Errorf("Remove of a task the tally does not hold reported true")
	}
	if added, err := tally.Add(right); !added || err != nil {
		t.Fatalf("Add after Remove = %v, %v", added, err)
	}
	c, err := tally.Final()
	k, _ := count.Known(n)
	if err != nil || c.Total.Cmp(k.Total) != 0 || c.Unique.Cmp(k.Unique) != 0 {
		t.Errorf("after Remove and Add: %v, %v, %v; want %v, %v", c.Total, c.Unique, err, k.Total, k.Unique)
	}
	if done, left := tally.CostDone(); left != 0 || done == 0 {
		t.Errorf("CostDone = %d, %d; want all done", done, left)
	}
}
