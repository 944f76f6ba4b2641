package main

import (
	"context"
)

// This file holds what lets a command end at once on Ctrl-C (exit 130) while it waits on
// I/O that takes no context: opening a FIFO that has no writer yet, reading a pipe or a
// terminal that sends nothing. Computation takes a context instead (the engine's
// …Context functions and count.Plan.Build), never this; the one exception is queens.Parse,
// which takes none yet (parseContext).

// aside runs f, a blocking open or read, on another goroutine and returns its error, or
// ctx.Err() as soon as ctx is done; f is then left to finish on its own (the command is
// ending), so whatever it writes to must stand that: a ctxio.Writer, or a file the caller
// removes.
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
