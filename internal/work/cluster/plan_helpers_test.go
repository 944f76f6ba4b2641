package cluster

import (
	"context"
	"math/big"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

// newQueensPlan returns queens.NewPlan's plan as a work.Plan.
func newQueensPlan(n int, method string, v int) (work.Plan, error) {
	p, err := queens.NewPlan(n, method, v)
	if err != nil {
		return nil, err
	}
	return work.Queens(p), nil
}

// mustTask returns task id of p.
func mustTask(p work.Plan, id int) work.Task {
	t, err := p.Task(id)
	if err != nil {
		panic(err)
	}
	return t
}

// runTask counts task id of p.
func runTask(p work.Plan, id int) work.Result {
	r, err := p.RunTask(context.Background(), mustTask(p, id))
	if err != nil {
		panic(err)
	}
	return r
}

// unique returns U(N) of a queens plan's outcome.
func unique(p work.Plan, o Outcome) *big.Int {
	return p.(*work.QueensPlan).Counts(o.Total, o.Sums).Unique
}

// plus returns r with k more counted: a lie.
func plus(r work.Result, k int64) work.Result {
	r.Count = new(big.Int).Add(r.Count, big.NewInt(k))
	return r
}
