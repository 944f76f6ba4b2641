package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/spf13/cobra"
)

func newQueensCmd() *cobra.Command {
	return group(&cobra.Command{
		Use:   "queens",
		Short: "The N-queens problem: list, count and check placements",
		Long: `The N-queens problem: place N queens on an N×N board so that none attacks another.

Placements are written in any of these notations (--format on output; detected on input):
  code       1-based column of each row from the top: 15863724 (commas from N = 10)
  perm       0-based columns: 0,4,7,5,2,6,1,3
  coords     (x,y) pairs, x the column and y the row from the top, 1-based
  algebraic  chess squares: a8 e7 h6 f5 c4 g3 b2 d1
  board      a drawn board, Q and .
  json       one JSON object a line`,
	},
		newQueensSolveCmd(),
		newQueensCountCmd(),
		newQueensCheckCmd(),
		newQueensEstimateCmd(),
		newQueensOneCmd(),
		newQueensCompleteCmd(),
		newQueensBrowseCmd(),
		newQueensMergeCmd(),
		newQueensStatusCmd(),
		newQueensPuzzleCmd(),
		newQueensTraceCmd(),
		newQueensPlanCmd(),
		newQueensRegionsCmd(),
	)
}

// parseN reads a board size N from a command-line argument: a whole number from 1 to most.
func parseN(s string, most int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > most {
		return 0, usageErrorf("N must be a whole number from 1 to %d, got %q", most, board.Clip(s))
	}
	return n, nil
}

// exactArgs is cobra.ExactArgs with an error that says what the argument is.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErrorf("want %s, got %d arguments", what, len(args))
		}
		return nil
	}
}

// maxArgs is cobra.MaximumNArgs with an error that says what the arguments are.
func maxArgs(n int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > n {
			return usageErrorf("want %s, got %d arguments", what, len(args))
		}
		return nil
	}
}

// plural returns "1 solution" or "92 solutions".
func plural(n uint64, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
