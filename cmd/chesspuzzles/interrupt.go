package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// This file holds what lets a long step of a command end at once on Ctrl-C (exit 130)
// when the engine call it makes takes no context (ctxWriter, for writers, is in
// queens_one.go).

// newPlan is newMethodPlan(n, method, version) that returns ctx.Err() as soon as ctx is done. Building the
// plan of N = 32 takes seconds and NewPlan takes no context: it runs aside, and is left to
// finish on its own when ctx ends first (the command is ending then).
func newPlan(ctx context.Context, n int, method string, version int) (*queens.Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		p   *queens.Plan
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

// readAllContext reads r to its end, at most limit bytes, into a string held once (a
// Builder's String does not copy). A read blocks until input comes, so it runs aside: Ctrl-C
// while waiting for a terminal or a slow pipe returns ctx.Err() at once.
func readAllContext(ctx context.Context, r io.Reader, limit int64) (string, error) {
	type result struct {
		s   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		var b strings.Builder
		_, err := io.Copy(&b, io.LimitReader(r, limit+1))
		switch {
		case err != nil:
			err = fmt.Errorf("reading position: %w", err)
		case int64(b.Len()) > limit:
			err = usageErrorf("position on standard input is larger than %d bytes", limit)
		}
		done <- result{b.String(), err}
	}()
	select {
	case r := <-done:
		return r.s, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// aside runs f on another goroutine and returns its error, or ctx.Err() as soon as ctx is
// done; f is then left to finish on its own (the command is ending), so whatever it writes
// to must stand that: a ctxWriter, or a file the caller removes.
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
