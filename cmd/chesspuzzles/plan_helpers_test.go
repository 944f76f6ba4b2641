package main

import "github.com/chesspuzzles/chesspuzzles/queens/count"

// mustTask returns task id of p.
func mustTask(p count.Plan, id int) count.Task {
	t, err := p.Task(id)
	if err != nil {
		panic(err)
	}
	return t
}
