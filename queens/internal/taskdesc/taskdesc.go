// Package taskdesc reads the count.Task that a plan's CountTask, CheckTask and CheckResult
// receive, a task that may have crossed a process boundary, into the method's own task:
// it checks that the task names the plan's board and method, then has the method read
// its description, and then counts the task, rebuilds it or checks a result of it. The plans of package frames and package join use it; it costs the
// method's Read.
package taskdesc

import (
	"context"
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// A Task is a method's own task, read from a count.Task.
type Task interface {
	// CountContext runs the task, or stops when ctx is done (count.Plan.CountTask).
	CountContext(ctx context.Context) (count.Result, error)
	// CheckResult returns why r cannot be the task's result (count.Plan.CheckResult).
	CheckResult(r count.Result) error
}

// A Format is how one method's plans describe their tasks.
type Format[T Task] struct {
	Method string // the method: count.MethodFrames or count.MethodJoin
	Plan   string // the plan in errors, e.g. "the frames plan"
	// Read returns the task t describes, t.N and t.Method checked, or an error saying
	// why t's other fields describe none.
	Read func(t count.Task) (T, error)
}

// Parse returns the task t describes if t is a task of the plan of board n, or an error
// "task ID of N=… is not a task of PLAN: why".
func (f Format[T]) Parse(n int, t count.Task) (T, error) {
	var x T
	var err error
	switch {
	case t.N != n:
		err = fmt.Errorf("the plan is of N=%d", n)
	case t.Method != f.Method:
		err = fmt.Errorf("method %q", t.Method)
	default:
		x, err = f.Read(t)
	}
	if err != nil {
		var none T
		return none, fmt.Errorf("task %d of N=%d is not a task of %s: %w", t.ID, t.N, f.Plan, err)
	}
	return x, nil
}

// CountTask is count.Plan.CountTask for a plan of board n: it runs the task t describes
// (Task.CountContext), or returns a Result with t's ID and Parse's error.
func (f Format[T]) CountTask(ctx context.Context, n int, t count.Task) (count.Result, error) {
	x, err := f.Parse(n, t)
	if err != nil {
		return count.Result{ID: t.ID}, err
	}
	return x.CountContext(ctx)
}

// CheckTask is count.Plan.CheckTask for a plan of board n: the task t describes as
// rebuild remakes it by the plan's rules, or Parse's or rebuild's error.
func (f Format[T]) CheckTask(n int, t count.Task, rebuild func(T) (count.Task, error)) (count.Task, error) {
	x, err := f.Parse(n, t)
	if err != nil {
		return count.Task{}, err
	}
	return rebuild(x)
}

// CheckResult is count.Plan.CheckResult for a plan of board n: why r cannot be the result
// of the task t describes (Task.CheckResult), or Parse's error.
func (f Format[T]) CheckResult(n int, t count.Task, r count.Result) error {
	x, err := f.Parse(n, t)
	if err != nil {
		return err
	}
	return x.CheckResult(r)
}
