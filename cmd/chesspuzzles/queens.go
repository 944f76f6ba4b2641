package main

import "github.com/spf13/cobra"

func newQueensCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "queens",
		Short: "The N-queens problem: list, count and check placements",
	}
	return cmd
}
