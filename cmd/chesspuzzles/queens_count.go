package main

// PLACEHOLDER until branch count brings the real "queens count": the smallest command
// that lets the distributed flags (queens_dist.go) run. Replace with count's file on merge,
// keeping its two hooks: addDistFlags(cmd, &dist) and the runDistCount branch.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

type queensCountOptions struct {
	n          int
	workers    int
	checkpoint string
	json       bool
	dist       distOptions
}

func newQueensCountCmd() *cobra.Command {
	var opts queensCountOptions
	cmd := &cobra.Command{
		Use:   "count N",
		Short: "Count the solutions of the N×N board exactly",
		Args:  cobra.RangeArgs(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && !opts.dist.status {
				return usageErrorf("count needs N, a whole number from 1 to %d", queens.MaxCountN)
			}
			if len(args) == 1 {
				n, err := strconv.Atoi(args[0])
				if err != nil || n < 1 || n > queens.MaxCountN {
					return usageErrorf("N must be a whole number from 1 to %d, got %q", queens.MaxCountN, args[0])
				}
				opts.n = n
			}
			if opts.dist.active() {
				return runDistCount(cmd.Context(), cmd, &opts.dist, opts.n, opts.workers, cmd.Flags().Changed("workers"), opts.json)
			}
			return runQueensCount(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	cmd.Flags().IntVar(&opts.workers, "workers", 0, "goroutines counting (0: one per core)")
	cmd.Flags().StringVar(&opts.checkpoint, "checkpoint", "", "record finished tasks in `FILE` and resume from it")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the counts as one JSON object")
	addDistFlags(cmd, &opts.dist)
	return cmd
}

func runQueensCount(ctx context.Context, opts queensCountOptions, stdout io.Writer) error {
	plan, err := queens.NewPlan(opts.n)
	if err != nil {
		return usageError(err)
	}
	counts, err := work.Run(ctx, plan, work.Options{Workers: opts.workers, Checkpoint: opts.checkpoint})
	if err != nil {
		return err
	}
	return printCounts(stdout, counts, opts.json)
}

// printCounts writes Q(N) and U(N), or one JSON object.
func printCounts(w io.Writer, c queens.Counts, jsonOut bool) error {
	if jsonOut {
		data, err := json.Marshal(map[string]any{"n": c.N, "total": json.Number(c.Total.String()), "unique": json.Number(c.Unique.String())})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", data)
		return err
	}
	_, err := fmt.Fprintf(w, "Q(%d) = %s\nU(%d) = %s\n", c.N, c.Total, c.N, c.Unique)
	return err
}
