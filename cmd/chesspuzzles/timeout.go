package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
)

// This file holds --timeout of the searches that may not end (queens complete, knight
// complete): both are NP-complete, most answers come in milliseconds, some never do, and
// a search the limit ends is undecided (exit 3), not a "no".

// addTimeoutFlag adds --timeout to cmd, into d: 10 s by default, 0 for no limit.
func addTimeoutFlag(cmd *cobra.Command, d *time.Duration) {
	cmd.Flags().DurationVar(d, "timeout", 10*time.Second, "give up, undecided (exit 3), after this long; 0 for no limit")
}

// checkTimeout refuses a --timeout below 0.
func checkTimeout(d time.Duration) error {
	if d < 0 {
		return usageErrorf("--timeout must be 0 (no limit) or more, got %v", d)
	}
	return nil
}

// withTimeout is ctx ended after d as well, or ctx itself when d is 0 (no limit).
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return ctx, func() {}
}

// searchEnd is how a search bounded by withTimeout(ctx, d) ends the command, given its
// error: nil when it found its answer; exit 1 when err is no (there is none); exit 3 when
// the limit ended it (ctx itself is not done: Ctrl-C stays an interrupt), saying that
// notFound (what was neither found nor ruled out) may be decided by more time; else err.
func searchEnd(ctx context.Context, err, no error, d time.Duration, notFound string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, no):
		return answerNo(err)
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		return &exitError{code: exitUndecided, err: fmt.Errorf("undecided within %v: %s (more time may decide it: --timeout)", d, notFound)}
	}
	return err
}
