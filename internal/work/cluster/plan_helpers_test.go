package cluster

import (
	"context"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// mustTask returns task id of p.
func mustTask(p count.Plan, id int) count.Task {
	t, err := p.Task(id)
	if err != nil {
		panic(err)
	}
	return t
}

// runTask counts task id of p.
func runTask(p count.Plan, id int) count.Result {
	r, err := p.CountTask(context.Background(), mustTask(p, id))
	if err != nil {
		panic(err)
	}
	return r
}
