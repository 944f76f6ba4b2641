package main

import "github.com/spf13/cobra"

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
