package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
	"github.com/spf13/cobra"
)

func newKnightEstimateCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "estimate",
		Short: "Estimate what a knight count will cost (states, memory, time)",
		Long: `Estimate the peak states, memory and one-core time of "knight count" with the same
flags, before committing to a long count. The estimate runs the first cells of the frontier
sweep (a few seconds; for open tours its first three columns, up to a minute once two
are: 8×8 takes about two minutes) and extrapolates: it says which figures were measured
and which extrapolated. When the whole sweep fits in that time the figures are measured. For the
search method (small boards) it only says so: its time follows the number of tours.
If the expected memory is over --max-memory (default half this machine's), it says that
the count would stop, and how much memory it would need.`,
		Example: `  chesspuzzles knight estimate --board 6x8 --closed
  chesspuzzles knight estimate --size 8 --closed`,
		Args: cobra.NoArgs,
	}, func(cmd *cobra.Command, o *knightEstimateOpts) {
		cmd.Flags().BoolVar(&o.json, "json", false, "one JSON object")
		o.add(cmd, knightCountHelp{
			start:     "estimate the count of open tours from this square",
			closed:    "closed tours",
			method:    "counting method: auto, dp, join or search",
			maxMemory: "memory the count may use, e.g. 8GiB (default: half of this machine's)",
		})
	}, func(cmd *cobra.Command, o *knightEstimateOpts, _ []string) error {
		return runKnightEstimate(cmd.Context(), *o, cmd.OutOrStdout())
	})
}

// knightEstimateOpts are the options of "knight estimate".
type knightEstimateOpts struct {
	knightCountFlags
	json bool
}

func runKnightEstimate(ctx context.Context, o knightEstimateOpts, stdout io.Writer) error {
	sz, opts, err := o.options()
	if err != nil {
		return err
	}
	limit := opts.MaxMemory
	if _, err := kcount.ChooseMethod(sz.Rows, sz.Cols, opts); err != nil {
		return usageError(err)
	}
	est, err := kcount.Estimate(ctx, sz.Rows, sz.Cols, opts)
	if err != nil {
		return err
	}
	fits := est.PeakBytes <= limit
	if o.json {
		return json.NewEncoder(stdout).Encode(map[string]any{
			"rows": sz.Rows, "cols": sz.Cols, "closed": o.closed, "method": est.Method,
			"cells": est.Cells, "measured_cells": est.Measured, "exact": est.Exact,
			"peak_states": int64(est.PeakStates), "peak_bytes": est.PeakBytes,
			"cpu_seconds": est.CPU.Seconds(), "fits_max_memory": fits, "how": est.How,
		})
	}
	fmt.Fprintf(stdout, "board:        %s, %s, method %s\n", sz, map[bool]string{true: "closed tours", false: "open tours"}[o.closed], est.Method)
	if est.Cells > 0 {
		fmt.Fprintf(stdout, "peak states:  %.3g\n", est.PeakStates)
		fmt.Fprintf(stdout, "memory:       %s (--max-memory %s: %s)\n", kcount.FormatBytes(est.PeakBytes), kcount.FormatBytes(limit),
			map[bool]string{true: "fits", false: "the count would stop; raise --max-memory if the machine has it"}[fits])
		round := time.Duration(100 * time.Millisecond)
		if est.CPU < time.Second {
			round = time.Millisecond
		}
		fmt.Fprintf(stdout, "time:         %s of one core\n", est.CPU.Round(round))
	}
	_, err = fmt.Fprintf(stdout, "how:          %s\n", est.How)
	return err
}
