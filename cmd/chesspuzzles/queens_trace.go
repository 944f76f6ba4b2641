package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

type queensTraceOpts struct {
	all bool
}

func newQueensTraceCmd() *cobra.Command {
	var o queensTraceOpts
	cmd := &cobra.Command{
		Use:   "trace N",
		Short: "Show the backtracking search step by step (N from 4 to 12)",
		Long: `Show the row-by-row backtracking search as a student writes it, one step a line: a
square tried, attacked (by the queen of which row), a queen placed, a dead end (no free square
on the row), a queen removed, a solution. It stops at the first solution unless --all. The
last line compares the queens placed with the permutations the naive method tests.`,
		Example: `  chesspuzzles queens trace 4
  chesspuzzles queens trace 8 --all | tail -1`,
		Args: exactArgs(1, "N, the board size"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseN(args[0], queens.MaxTraceN)
			if err != nil {
				return err
			}
			if err := queens.ValidateTrace(n); err != nil {
				return usageError(err)
			}
			return runQueensTrace(cmd.Context(), n, o, cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&o.all, "all", false, "run through every solution")
	return cmd
}

func runQueensTrace(ctx context.Context, n int, o queensTraceOpts, stdout io.Writer) error {
	sz := board.SquareBoard(n)
	w := bufio.NewWriter(stdout)
	var last queens.Event
	for e := range queens.Trace(ctx, n) {
		last = e
		sq := sz.Name(board.Square{Row: e.Row, Col: e.Col})
		switch e.Kind {
		case queens.Attacked:
			fmt.Fprintf(w, "attacked %s by the queen of row %d\n", sq, e.By+1)
		case queens.DeadEnd:
			fmt.Fprintf(w, "deadend row %d: every square is attacked\n", e.Row+1)
		case queens.Solution:
			fmt.Fprintf(w, "solution %d\n", e.Solutions)
		default:
			fmt.Fprintf(w, "%s %s\n", e.Kind, sq)
		}
		if e.Kind == queens.Solution && !o.all {
			break
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	nv, _ := queens.NaiveCount(n)
	naive := nv.Candidates
	what := "every"
	if !o.all {
		naive, what = nv.ToFirst, "the first"
	}
	fmt.Fprintf(w, "%d queens placed, %d dead ends, %s; testing permutations finds %s solution after %d\n", last.Placed, last.DeadEnds, plural(uint64(last.Solutions), "solution", "solutions"), what, naive)
	return w.Flush()
}
