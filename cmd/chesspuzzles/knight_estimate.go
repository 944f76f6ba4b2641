package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
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
the count would stop, and how much memory it would need. With --spill DIR (as "knight
count --spill DIR" would run, a dp count whose layers go to disk; the estimate writes
nothing there) a count over --max-memory does not stop: its widest steps spill their runs
to disk, and the estimate says so, takes those steps at the rate of a spilling step
(2 times the rate it measures in memory, the other steps 1.2 times for their layers on
disk; measured on 7×7 and the 8×8 count, and good to about a half: it moves with the
load) and gives the disk the count's files will need at their widest, beside what is free
there now (not enough: it says so).`,
		Example: `  chesspuzzles knight estimate --board 6x8 --closed
  chesspuzzles knight estimate --size 8 --closed
  chesspuzzles knight estimate --size 8 --spill /var/tmp/k8 --max-memory 8GiB`,
		Args: cobra.NoArgs,
	}, func(cmd *cobra.Command, o *knightEstimateOpts) {
		cmd.Flags().BoolVar(&o.json, "json", false, "one JSON object")
		cmd.Flags().StringVar(&o.spill, "spill", "", `estimate "knight count --spill DIR": the dp count with its layers on disk, whose runs spill there past --max-memory (nothing is written in DIR)`)
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
	json  bool
	spill string
}

func runKnightEstimate(ctx context.Context, o knightEstimateOpts, stdout io.Writer) error {
	sz, opts, err := o.options()
	if err != nil {
		return err
	}
	limit := opts.MaxMemory
	free := int64(-1)
	if o.spill != "" {
		if st, err := os.Stat(o.spill); err == nil && !st.IsDir() {
			return usageErrorf("--spill: %s is not a directory", o.spill)
		}
		opts.Spill = spillDir(o.spill) // only told that the layers go to disk: not opened
		free = spillFree(o.spill)
	}
	if _, err := kcount.ChooseMethod(sz.Rows, sz.Cols, opts); err != nil {
		return usageError(err)
	}
	est, err := kcount.Estimate(ctx, sz.Rows, sz.Cols, opts)
	if err != nil {
		return err
	}
	fits := est.PeakBytes <= limit
	if o.json {
		rec := map[string]any{
			"rows": sz.Rows, "cols": sz.Cols, "closed": o.closed, "method": est.Method,
			"cells": est.Cells, "measured_cells": est.Measured, "exact": est.Exact,
			"peak_states": int64(est.PeakStates), "peak_bytes": est.PeakBytes,
			"cpu_seconds": est.CPU.Seconds(), "fits_max_memory": fits, "how": est.How,
		}
		if opts.Spill != nil {
			rec["spills"], rec["disk_bytes"], rec["memory_cpu_seconds"] = est.Spills, est.DiskBytes, est.MemoryCPU.Seconds()
			if free >= 0 {
				rec["disk_free_bytes"] = free
			}
		}
		return json.NewEncoder(stdout).Encode(rec)
	}
	fmt.Fprintf(stdout, "board:        %s, %s, method %s\n", sz, map[bool]string{true: "closed tours", false: "open tours"}[o.closed], est.Method)
	if est.Cells > 0 {
		fmt.Fprintf(stdout, "peak states:  %.3g\n", est.PeakStates)
		verdict := map[bool]string{true: "fits", false: "the count would stop; raise --max-memory if the machine has it, or count with --spill"}[fits]
		if opts.Spill != nil && !fits {
			verdict = "over it: the widest steps' runs spill to disk (--spill)"
		}
		fmt.Fprintf(stdout, "memory:       %s (--max-memory %s: %s)\n", kcount.FormatBytes(est.PeakBytes), kcount.FormatBytes(limit), verdict)
		if opts.Spill != nil {
			fmt.Fprintf(stdout, "disk:         %s\n", spillDiskLine(est.DiskBytes, o.spill, free))
		}
		round := time.Duration(100 * time.Millisecond)
		if est.CPU < time.Second {
			round = time.Millisecond
		}
		if opts.Spill != nil && !est.Exact {
			fmt.Fprintf(stdout, "time:         %s of one core with its layers on disk (%s in memory)\n", est.CPU.Round(round), est.MemoryCPU.Round(round))
		} else {
			fmt.Fprintf(stdout, "time:         %s of one core\n", est.CPU.Round(round))
		}
	}
	_, err = fmt.Fprintf(stdout, "how:          %s\n", est.How)
	return err
}

// spillDiskLine says the disk a spilling count needs at its widest step in dir, and the
// bytes free there (free, or -1 if not known): "not enough" where they are fewer.
func spillDiskLine(need int64, dir string, free int64) string {
	room := ""
	switch {
	case free >= 0 && need > free:
		room = fmt.Sprintf(", where %s is free: not enough", kcount.FormatBytes(free))
	case free >= 0:
		room = fmt.Sprintf(", where %s is free", kcount.FormatBytes(free))
	}
	return fmt.Sprintf("%s at the widest step (--spill %s%s)", kcount.FormatBytes(need), dir, room)
}
