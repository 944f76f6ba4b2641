package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/spf13/cobra"
)

func newQueensCountCmd() *cobra.Command {
	cmd := command(&cobra.Command{
		Use:   "count N|FROM-TO",
		Short: "Count the solutions of the N×N board exactly: total and fundamental",
		Long: `Count the solutions of the N×N board exactly: Q(N), all solutions, and U(N), the
fundamental ones (classes under the eight symmetries of the square). A range FROM-TO prints a
table, one row per N as it is done. The time each N took goes to stderr.

Two methods count, with the same exact result. "join" cuts the board into a left and a
right half, builds every half-board from a table of quarter-board pieces and counts the
pairs of half-boards that share no diagonal, 512 pairs at a time: several times faster than
"frames" to N = 23. Its whole table grows about ninefold every two steps of N (7.8 MiB
at N = 18–19, 60.4 MiB at 20–21, 521 MiB at 22–23, 4.76 GiB at 24–25); where it does not fit
--max-memory (default: half the machine's), the join builds only the table rows its row
sets read, so any N up to 29 counts in 2 GiB on one worker. "frames" pre-places the border queens and
searches the rest: any N, almost no memory. --method auto (the default) takes whichever
the cost model measured by bench/cost.sh says is faster at N within --max-memory (the join
to N = 29 by the figures of 25 November, extrapolated beyond 27; "queens plan N" and "queens estimate N" show the same choice;
--shard and --distributed take frames, which fit any machine); the method, plan version and
memory are printed on stderr before the count starts.

The count is cut into a plan of independent tasks (frames: one per class of border
placements under the symmetries of the square; join: groups of row sets) that --workers
goroutines share, biggest first. Progress goes
to stderr: a bar on a terminal (tasks done, the share of the work, nodes per second, time
left estimated from the work already measured, solutions so far), otherwise a line every 5
seconds; --quiet for none. With --checkpoint FILE every finished task is recorded in FILE; if the run is
interrupted (Ctrl-C exits 130 after recording) or killed, the same command resumes where it
stopped and ends with the exact count. A checkpoint of another N or method is refused.

Time grows six- to tenfold per step of N (more for larger N): "chesspuzzles queens estimate N"
tells how long.`,
		Example: `  chesspuzzles queens count 8
  chesspuzzles queens count 1-14
  chesspuzzles queens count 12 --json
  chesspuzzles queens count 18 --checkpoint q18.ckpt`,
		Args: exactArgs(1, "one argument, N or a range FROM-TO"),
	}, func(cmd *cobra.Command, opts *countOptions) {
		cmd.Flags().BoolVar(&opts.json, "json", false, `one JSON object per N: {"n":8,"total":92,"unique":12,"seconds":…}`)
		cmd.Flags().IntVar(&opts.workers, "workers", runtime.GOMAXPROCS(0), "goroutines counting (default: the cores this process may use, runtime.GOMAXPROCS)")
		cmd.Flags().StringVar(&opts.checkpoint, "checkpoint", "", "record finished tasks in `FILE` and resume from it")
		cmd.Flags().BoolVarP(&opts.quiet, "quiet", "q", false, "no progress on stderr")
		cmd.Flags().StringVarP(&opts.output, "output", "o", "", "with --shard: write the slice's JSON to `FILE` (atomically) instead of stdout")
		addDistFlags(cmd, &opts.dist)
		cmd.Args = distArgs(&opts.dist, cmd.Args) // --status takes no argument, or N
		addMethodFlags(cmd, &opts.method)
		flagChoices(cmd, "method", "auto", count.MethodJoin, count.MethodFrames)
	}, func(cmd *cobra.Command, opts *countOptions, args []string) error {
		if err := opts.method.validate(); err != nil {
			return err
		}
		opts.dist.method = &opts.method
		opts.dist.quiet = opts.quiet
		if opts.output != "" && opts.dist.shard == "" {
			return usageErrorf("-o FILE goes with --shard (it writes the slice's result there)")
		}
		// One way of counting a run, chosen by its flag in the order of the modes below
		// (withModes has refused the flags it would ignore).
		switch {
		case opts.dist.status:
			return runCountStatusAlias(cmd, &opts.dist, args, opts.json)
		case opts.dist.shard != "":
			return runCountShard(cmd, *opts, args)
		case opts.dist.distributed || opts.dist.nats != "":
			return runDistCount(cmd.Context(), cmd, &opts.dist, args, opts.workers, opts.json)
		default:
			return runLocalCount(cmd, *opts, args)
		}
	})
	// The flags each way of counting reads; any other of these would be ignored, so it is refused.
	return withModes(cmd,
		flagMode{"--status", "status", []string{"status", "nats", "state", "token", "json"}},
		flagMode{"--shard", "shard", []string{"shard", "workers", "quiet", "json"}},
		flagMode{"--nats", "nats", []string{"nats", "state", "token", "ack-wait", "replicas", "adaptive", "min-identities", "workers", "quiet", "json"}},
		flagMode{"--distributed", "distributed", []string{"distributed", "nats-listen", "state", "token", "ack-wait", "replicas", "adaptive", "min-identities", "workers", "quiet", "json"}},
		flagMode{"a local count", "", []string{"workers", "checkpoint", "quiet", "json"}},
	)
}

// countOptions are the options of "queens count".
type countOptions struct {
	from, to   int // the range of N, inclusive
	json       bool
	workers    int    // goroutines counting; runtime.GOMAXPROCS(0) by default
	checkpoint string // file recording finished tasks, to resume from; one N only
	quiet      bool   // no progress on stderr
	output     string // -o FILE: where a --shard result goes (atomically), for images without a shell
	dist       distOptions
	method     methodOptions
}

// runLocalCount is "queens count" in this process: N or a range, on --workers goroutines.
func runLocalCount(cmd *cobra.Command, opts countOptions, args []string) error {
	if cmd.Flags().Changed("verify") || cmd.Flags().Changed("verify-wait") {
		return usageErrorf("--verify goes with --distributed or --nats: a local count computes every task itself (slices are verified by \"queens merge --verify FRACTION\")")
	}
	var err error
	if opts.from, opts.to, err = parseRange(args[0], queens.MaxCountN); err != nil {
		return err
	}
	if opts.workers < 1 {
		return usageErrorf("--workers must be a whole number from 1 up (default: %d, the cores this process may use), got %d", runtime.GOMAXPROCS(0), opts.workers)
	}
	if opts.checkpoint != "" && opts.from != opts.to {
		return usageErrorf("--checkpoint records one N, not a range, got %q", args[0])
	}
	return runCount(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
}

// runCountShard is "queens count N --shard I/K": one slice of the plan, its JSON result to
// stdout or, with -o FILE, atomically to FILE.
func runCountShard(cmd *cobra.Command, opts countOptions, args []string) error {
	n, err := parseN(args[0], queens.MaxCountN)
	if err != nil {
		return err
	}
	if opts.workers < 1 {
		return usageErrorf("--workers must be a whole number from 1 up with --shard, got %d", opts.workers)
	}
	if cmd.Flags().Changed("verify") || cmd.Flags().Changed("verify-wait") {
		return usageErrorf("--verify goes with --distributed or --nats; slices are verified by \"queens merge --verify FRACTION\"")
	}
	i, k, err := parseShard(opts.dist.shard)
	if err != nil {
		return usageError(err)
	}
	c, err := opts.method.plan(n, 0) // the slices run on other machines
	if err != nil {
		return err
	}
	method, v := c.Plan.Method(), c.Plan.Version()
	ctx, stderr := cmd.Context(), cmd.ErrOrStderr()
	if opts.output == "" {
		return runShard(ctx, n, method, v, i, k, opts.workers, opts.quiet, cmd.OutOrStdout(), stderr)
	}
	return writeTo(opts.output, cmd.OutOrStdout(), func(w io.Writer) error {
		return runShard(ctx, n, method, v, i, k, opts.workers, opts.quiet, w, stderr)
	})
}

// runCountStatusAlias is the hidden "queens count --status [N]", an alias of "queens status".
func runCountStatusAlias(cmd *cobra.Command, o *distOptions, args []string, jsonOut bool) error {
	n := 0
	if len(args) == 1 {
		var err error
		if n, err = parseN(args[0], queens.MaxCountN); err != nil {
			return err
		}
	}
	fmt.Fprintln(cmd.ErrOrStderr(), `"queens count --status" is an alias of "queens status", the command that shows the jobs; use that`)
	return runCountStatus(cmd.Context(), o, n, jsonOut, cmd.OutOrStdout())
}

func runCount(ctx context.Context, opts countOptions, stdout, stderr io.Writer) error {
	table := opts.from != opts.to && !opts.json
	// The notes on each N (its method, its time) go to stderr after a table, not between
	// its rows, where on a terminal they would cut the table into pieces.
	notes := stderr
	if table {
		var buf bytes.Buffer
		notes = &buf
		defer func() { stderr.Write(buf.Bytes()) }()
		fmt.Fprintln(stdout, "| n | Q(n) | U(n) |")
		fmt.Fprintln(stdout, "|---:|---:|---:|")
	}
	for n := opts.from; n <= opts.to; n++ {
		start := time.Now()
		c, err := countPlan(ctx, n, opts, notes, stderr)
		if err != nil {
			return err
		}
		secs := time.Since(start).Seconds()
		switch {
		case opts.json:
			line, err := json.Marshal(countRecord{N: n, Total: c.Total, Unique: c.Unique, Seconds: roundSeconds(secs)})
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s\n", line)
		case table:
			fmt.Fprintf(stdout, "| %d | %s | %s |\n", n, c.Total, c.Unique)
		default:
			fmt.Fprintf(stdout, "%d queens: %s solutions, %s fundamental\n", n, c.Total, c.Unique)
		}
		if !opts.json && !opts.quiet {
			fmt.Fprintf(notes, "N = %d counted in %.3g s\n", n, secs)
		}
	}
	return nil
}

// countProgressHook, when set (by tests only), sees every status countPlan's run reports,
// after the progress meter: after each finished task, which the checkpoint has recorded by
// then, each task as it ends (work.Options.EachResult). The manual's test presses its
// reader's Ctrl-C from it, so that an example interrupted "after a moment" is interrupted
// after its first tasks however fast the machine counts them.
var countProgressHook func(work.Status)

// countPlan counts one N on the work pool, with the checkpoint and progress opts ask for:
// the method it chose goes to notes, warnings and progress to stderr; the bar is erased
// before countPlan returns.
func countPlan(ctx context.Context, n int, opts countOptions, notes, stderr io.Writer) (queens.Counts, error) {
	c, err := opts.method.plan(n, opts.workers)
	if err != nil {
		return queens.Counts{}, err
	}
	plan := c.Plan
	defer smallCountGC(c.Memory)()
	if err := plan.Build(ctx); err != nil {
		return queens.Counts{}, err
	}
	if !opts.quiet {
		limit, _ := opts.method.memoryLimit()
		describeMethod(notes, plan, opts.workers, limit)
	}
	if err := warnCountCost(ctx, plan, opts.workers, opts.checkpoint, stderr); err != nil {
		return queens.Counts{}, err
	}
	m := newCountMeter(stderr, fmt.Sprintf("N=%d", n), opts.quiet)
	wo := work.Options{Workers: opts.workers, Checkpoint: opts.checkpoint, Progress: m.update}
	if hook := countProgressHook; hook != nil {
		wo.Progress = func(s work.Status) { m.update(s); hook(s) }
		wo.EachResult = true
	}
	res, err := work.Run(ctx, plan, wo)
	m.Finish()
	var ce *work.CheckpointError
	if errors.As(err, &ce) {
		return res.Counts, usageError(err)
	}
	return res.Counts, err
}
