package frames

import (
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// byCost returns the tasks of p in its Order.
func (p *plan) ByCost() []task {
	var out []task
	for id := range p.Order() {
		out = append(out, p.taskAt(id))
	}
	return out
}

// shardTasks is count.Shard of p as tasks.
func shardTasks(p *plan, i, k int) ([]task, error) {
	ids, err := count.Shard(p, i, k)
	var out []task
	for _, id := range ids {
		out = append(out, p.taskAt(id))
	}
	return out, err
}

// newPlanVersion returns the plan of n for version v, its tasks in a slice.
func newPlanVersion(n, v int) (*plan, error) {
	if v == FinePlanVersion {
		return newFinePlan(n, 0)
	}
	return newPlan(n)
}

// mustPlan returns the plan of version 1 of n.
func mustPlan(t testing.TB, n int) *plan {
	t.Helper()
	p, err := newPlan(n)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
