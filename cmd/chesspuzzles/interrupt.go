package main

import (
	"context"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// This file holds what lets a long step of a command end at once on Ctrl-C (exit 130)
// when the engine call it makes takes no context.

// newPlan is newMethodPlan(n, method, version) that returns ctx.Err() as soon as ctx is done. Building the
// plan of N = 32 takes seconds and NewPlan takes no context: it runs aside, and is left to
// finish on its own when ctx ends first (the command is ending then).
func newPlan(ctx context.Context, n int, method string, version int) (count.Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		p   count.Plan
		err error
	}
	done := make(chan result, 1)
	go func() {
		p, err := newMethodPlan(n, method, version)
		done <- result{p, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, usageError(r.err)
		}
		return r.p, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// aside runs f on another goroutine and returns its error, or ctx.Err() as soon as ctx is
// done; f is then left to finish on its own (the command is ending), so whatever it writes
// to must stand that: a ctxio.Writer, or a file the caller removes.
func aside(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
