package main

import (
	"context"
	"errors"
	"io"

	"github.com/chesspuzzles/chesspuzzles/internal/work/shard"
	"github.com/spf13/cobra"
)

func newQueensMergeCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "merge FILE...",
		Short: "Sum the results of 'queens count N --shard I/K' into the exact count",
		Long: `Merge sums the JSON results that "queens count N --shard I/K" printed for
I = 0…K-1 into the exact count of N, as "queens count N" prints it (with --json, "seconds"
is the slices' wall times added up).

It refuses (exit 2) a set of files that is not exactly one complete plan of this build:
a missing slice, a slice given twice, a slice of another N, of another K or of another
plan version, a file whose tasks are not the ones its slice holds, or a file larger than
64 MiB (1 GiB for all files: count in more slices). It refuses as well a file changed
since it was written: one whose checksum does not match its content, with
data after its JSON object, whose totals are not the sums of its tasks' results, or with a
task result impossible for its task (see count.Plan.CheckResult).

What a checksum proves: the SHA-256 in each file finds accidents (a cut copy, a flipped
bit, a hand edit that forgot it); it is no signature, since anyone can compute it again
for an edited file. So it does not prove that the file is what "queens count --shard"
computed: a forged file with its checksum recomputed passes it. What catches a forgery is
the task checks above (a result impossible for its task) and recomputation.

A lie that keeps to all of these (a consistent file written by a broken or dishonest
machine) is found by recomputation: --verify FRACTION recomputes that share of the tasks,
chosen at random, on this machine (at least one task unless FRACTION is 0), and refuses
the total (exit 1, naming the task) if any differs. --verify 1 recomputes everything.
Where Q(N) is published (N ≤ 27) a sum unlike it is refused too (exit 1, as "queens
count" refuses it).

--replicas R wants every slice computed R times, independently (on machines, accounts or
sites that do not trust one another), and given R times: merge refuses (exit 1, naming
the slice and the task) any task whose R results are not all equal, so one dishonest
replica cannot change the total unless the others lie the same way. Each file names the
run that computed it (a random identity, under its checksum), and the replicas of a slice
must come from different runs: the same file given twice, a copy of one under another
name, or a file of an older build that names no run, is refused (exit 2). merge cannot see that the runs were independent, nor stop a
forger who gives a copy a new identity and checksum; that is for whoever schedules them.

  chesspuzzles queens count 18 --shard 0/3 > s0.json   # on any machine
  chesspuzzles queens count 18 --shard 1/3 > s1.json
  chesspuzzles queens count 18 --shard 2/3 > s2.json
  chesspuzzles queens merge s*.json
  chesspuzzles queens merge --replicas 2 siteA/s*.json siteB/s*.json`,
		Args: cobra.MinimumNArgs(1),
	}, func(cmd *cobra.Command, opts *queensMergeOptions) {
		cmd.Flags().BoolVar(&opts.json, "json", false, "print the counts as one JSON object")
		cmd.Flags().IntVar(&opts.replicas, "replicas", 1, "want every slice `R` times, from independent runs, and refuse any task whose results differ")
		cmd.Flags().Float64Var(&opts.verify, "verify", defaultVerify, "recompute this `FRACTION` of the tasks, chosen at random, and refuse the total if any differs (0: none)")
	}, func(cmd *cobra.Command, opts *queensMergeOptions, args []string) error {
		opts.files = args
		return runQueensMerge(cmd.Context(), *opts, cmd.OutOrStdout())
	})
}

// queensMergeOptions are the options of "queens merge".
type queensMergeOptions struct {
	files    []string
	json     bool
	verify   float64
	replicas int
}

func runQueensMerge(ctx context.Context, opts queensMergeOptions, stdout io.Writer) error {
	counts, secs, err := shard.Merge(ctx, opts.files, shard.MergeOptions{Replicas: opts.replicas, Verify: opts.verify})
	switch {
	case errors.Is(err, shard.ErrRefused):
		return answerNo(err)
	case errors.Is(err, shard.ErrInput):
		return usageError(err)
	case err != nil:
		return err
	}
	return printCounts(stdout, counts, opts.json, secs)
}
