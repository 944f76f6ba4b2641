// Command chesspuzzles solves the classic chessboard puzzles: the N-queens problem and the
// knight's tour.
//
// Usage:
//
//	chesspuzzles queens solve 8            # the 92 solutions, one code per line
//	chesspuzzles queens count 1-14         # the table of Q(n) and U(n)
//	chesspuzzles queens check 13572468     # which queens attack which
//
// Run "chesspuzzles help" for every command. Exit codes: 0 done, 1 the answer is "no" (a
// check found conflicts, no tour exists), 2 bad input or usage, 3 undecided within the time
// limit the user gave, 130 interrupted.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := execute(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
