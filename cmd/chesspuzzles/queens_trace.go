package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

func newQueensTraceCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "trace N",
		Short: "Show the backtracking search step by step (N from 4 to 12)",
		Long: `Show the row-by-row backtracking search as a student writes it, one step a line: a
square tried, attacked (by the queen on which square), a queen placed, a dead end (no free
square on the rank), a queen removed, a solution. It stops at the first solution unless --all.
The last line compares the queens placed with the permutations the naive method tests.

--json writes one object a step, {"kind":"attacked","square":"a3","by":"a4",…}, and last
{"kind":"end",…} with the totals.`,
		Example: `  chesspuzzles queens trace 4
  chesspuzzles queens trace 8 --all | tail -1
  chesspuzzles queens trace 5 --json`,
		Args: exactArgs(1, "N, the board size"),
	}, func(cmd *cobra.Command, o *queensTraceOpts) {
		cmd.Flags().BoolVar(&o.all, "all", false, "run through every solution")
		cmd.Flags().BoolVar(&o.json, "json", false, "one JSON object a step, then the totals")
	}, func(cmd *cobra.Command, o *queensTraceOpts, args []string) error {
		n, err := parseN(args[0], queens.MaxTraceN)
		if err != nil {
			return err
		}
		if err := queens.ValidateTrace(n); err != nil {
			return usageError(err)
		}
		return runQueensTrace(cmd.Context(), n, *o, cmd.OutOrStdout())
	})
}

// queensTraceOpts are the options of "queens trace".
type queensTraceOpts struct {
	all  bool
	json bool
}

// traceRecord is one line of queens trace --json: a step, or (kind "end") the totals.
type traceRecord struct {
	Kind         string `json:"kind"`
	Square       string `json:"square,omitempty"` // the square tried, attacked, placed or emptied
	By           string `json:"by,omitempty"`     // attacked: the attacking queen's square
	Rank         string `json:"rank,omitempty"`   // dead end: the rank with no free square
	Placed       int64  `json:"placed"`
	DeadEnds     int64  `json:"deadEnds"`
	Solutions    int64  `json:"solutions"`
	Permutations uint64 `json:"permutations,omitempty"` // end: what testing permutations takes
}

func runQueensTrace(ctx context.Context, n int, o queensTraceOpts, stdout io.Writer) error {
	sz := board.SquareBoard(n)
	w := bufio.NewWriter(stdout)
	enc := json.NewEncoder(w)
	var last queens.Event
	col := make([]int, n) // the column of each row's queen, to name an attacker's square
	for e := range queens.Trace(ctx, n) {
		last = e
		sq := sz.Name(board.Square{Row: e.Row, Col: e.Col})
		if e.Kind == queens.Place {
			col[e.Row] = e.Col
		}
		if o.json {
			r := traceRecord{Kind: e.Kind.String(), Square: sq, Placed: e.Placed, DeadEnds: e.DeadEnds, Solutions: e.Solutions}
			switch e.Kind {
			case queens.Attacked:
				r.By = sz.Name(board.Square{Row: e.By, Col: col[e.By]})
			case queens.DeadEnd:
				r.Square, r.Rank = "", rankName(sz, e.Row)
			}
			if err := enc.Encode(r); err != nil {
				return err
			}
		} else {
			switch e.Kind {
			case queens.Attacked:
				fmt.Fprintf(w, "attacked %s by the queen on %s\n", sq, sz.Name(board.Square{Row: e.By, Col: col[e.By]}))
			case queens.DeadEnd:
				fmt.Fprintf(w, "dead end on rank %s: every square is attacked\n", rankName(sz, e.Row))
			case queens.Solution:
				fmt.Fprintf(w, "solution %d\n", e.Solutions)
			default:
				fmt.Fprintf(w, "%s %s\n", e.Kind, sq)
			}
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
	if o.json {
		if err := enc.Encode(traceRecord{Kind: "end", Placed: last.Placed, DeadEnds: last.DeadEnds, Solutions: last.Solutions, Permutations: naive}); err != nil {
			return err
		}
		return w.Flush()
	}
	fmt.Fprintf(w, "%d queens placed, %d dead ends, %s; testing permutations finds %s solution after %d\n", last.Placed, last.DeadEnds, plural(uint64(last.Solutions), "solution", "solutions"), what, naive)
	return w.Flush()
}
