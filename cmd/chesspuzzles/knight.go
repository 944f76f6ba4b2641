package main

import "github.com/spf13/cobra"

func newKnightCmd() *cobra.Command {
	return group(&cobra.Command{
		Use:   "knight",
		Short: "Knight's tours: find, check, count; the accessibility table",
		Long: `Knight's tours on any board from 1×1 to 10000×10000.

Boards are --size N (N×N) or --board RxC (R rows, C columns). Squares are algebraic
(e4, a1 is bottom left) or file,rank counted from 1 (5,4 is e4), which works on any board.`,
	},
		newKnightTourCmd(),
		newKnightCheckCmd(),
		newKnightAccessCmd(),
		newKnightCountCmd(),
		newKnightCompleteCmd(),
		newKnightEstimateCmd(),
		newKnightPlanCmd(),
		newKnightMergeCmd(),
	)
}
