package main

import "github.com/spf13/cobra"

func newQueensCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "queens",
		Short: "The N-queens problem: list, count and check placements",
	}
	cmd.AddCommand(newQueensCountCmd()) // placeholder until branch count
	cmd.AddCommand(newQueensMergeCmd())
	return cmd
}
