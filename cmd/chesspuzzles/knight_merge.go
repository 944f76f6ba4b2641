package main

import (
	"context"
	"errors"
	"io"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/shard"
	"github.com/spf13/cobra"
)

func newKnightMergeCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "merge FILE...",
		Short: "Sum the results of 'knight count --plan --shard I/K' into the exact count",
		Long: `Merge sums the result files that "knight count --plan --shard I/K -o FILE" wrote for
I = 0…K-1 into the board's directed open tours, as "knight count" prints them.

It refuses (exit 2) a set of files that is not exactly one complete plan of this build: a
missing slice, a slice given twice, files of another board, plan version or K, a file
whose checksum does not match its content (changed since it was written), whose results
are not its slice's tasks, or whose weighed sum is not its results'. Where the board's
count is published (n×n to 8×8, OEIS A165134; 5×10 and 6×8 by Knuth's DYNAHAMP) a total
unlike it is refused (exit 1). A checksum finds accidents, not forgeries: each result
carries its sweep's counters (states summed, peak), which a re-run of its task
("knight count --start S --end E --verbose") reproduces exactly.`,
		Example: `  chesspuzzles knight count --size 6 --plan --shard 0/2 -o s0.json
  chesspuzzles knight count --size 6 --plan --shard 1/2 -o s1.json
  chesspuzzles knight merge s0.json s1.json`,
		Args: cobra.MinimumNArgs(1),
	}, func(cmd *cobra.Command, o *knightMergeOpts) {
		cmd.Flags().BoolVar(&o.json, "json", false, "print the count as one JSON object, as knight count --json does")
	}, func(cmd *cobra.Command, o *knightMergeOpts, args []string) error {
		return runKnightMerge(cmd.Context(), *o, args, cmd.OutOrStdout())
	})
}

// knightMergeOpts are the options of "knight merge".
type knightMergeOpts struct {
	json bool
}

func runKnightMerge(ctx context.Context, o knightMergeOpts, files []string, stdout io.Writer) error {
	p, total, err := shard.MergePlan(ctx, files, func(name string) (work.Plan, error) { return work.NewKnightPlan(name) })
	switch {
	case errors.Is(err, shard.ErrRefused):
		return answerNo(err)
	case errors.Is(err, shard.ErrInput):
		return usageError(err)
	case err != nil:
		return err
	}
	rows, cols := p.(*work.KnightPlan).Size()
	return printKnightTotal(o.json, board.Size{Rows: rows, Cols: cols}, total, "directed open tours", stdout)
}
