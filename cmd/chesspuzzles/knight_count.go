package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/progress"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
	"github.com/spf13/cobra"
)

func newKnightCountCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "count",
		Short: "Count knight's tours exactly",
		Long: `Count the knight's tours of a board exactly: directed open tours (every start and both
directions counted), those from --start, or with --closed the undirected closed tours.

Three methods (--method):
  dp      frontier dynamic programming: sweeps the board cell by cell, column by column
          along the long side, keeping every distinct picture of the last 2R+1 cells
          (R the short side, at most 8) with the number of ways to reach it. Time and
          memory grow with R, hardly with the number of tours: 6×8 closed takes about 4.4 s
          of CPU. Boards past 64 squares are allowed (5×30, 8×12, …); counts past 2^64
          print exactly.
  join    closed tours, long side even: the dp sweep of one half, which by the mirror is
          the other half too, joined at the middle (6×8 closed in 1.2–2.5 s of CPU).
  search  backtracking through every tour, meeting in the middle: 6×6 open in about 2 s,
          at most 64 squares, time growing with the number of tours.
  auto    (the default) search on 5×5, 5×6 and 6×6, and 5×7 from --start (there it
          is faster), else join for closed tours where it applies, else dp.
8×8 closed (13,267,364,410,532 tours) holds hundreds of millions of states in its middle
columns, gigabytes even at about 5 bytes a state ("knight estimate" says what a count will
need before it starts).
The method is named on stderr before the count starts, then progress: a line rewritten on a
terminal, a plain line every few seconds otherwise; --quiet silences both. --verbose adds,
after a dp or join count, the states it held: summed over the cells and at the peak (the
figures frontier programs compare). --max-memory
(default: half this machine's memory) bounds the state store of dp and join (sorted runs):
a count its estimate says cannot fit is refused within its first seconds, and one that
outgrows the bound stops with exit 2. Ctrl-C stops a count (exit 130).
--start S --end E counts the open tours from S to E (the dp sweep with both ends fixed).
--plan counts the directed open tours as tasks, one for each class of pairs of end squares
("knight plan" lists them), in this process, with --checkpoint FILE to resume, or one slice
with --shard I/K -o FILE ("knight merge" sums the slices). --plan --split LEVELS takes
the tasks of a split of the whole sweep instead ("knight plan --split" lists them).`,
		Example: `  chesspuzzles knight count --size 5
  chesspuzzles knight count --size 5 --start a1
  chesspuzzles knight count --size 6 --closed
  chesspuzzles knight count --board 7x8 --closed --max-memory 4GiB`,
		Args: cobra.NoArgs,
	}, func(cmd *cobra.Command, o *knightCountOpts) {
		o.knightCountFlags.add(cmd, knightCountHelp{
			start:     "count only the open tours from this square",
			closed:    "count closed tours (undirected)",
			method:    "counting method: auto, dp (frontier dynamic programming), join (closed tours: two mirror halves) or search (backtracking)",
			maxMemory: "memory the dp method may use, e.g. 8GiB, 500MB (default: half of this machine's)",
		})
		cmd.Flags().StringVar(&o.spill, "spill", "", "keep the dp sweep's layers in this directory (made if missing): runs spill there past --max-memory, and the same command resumes from the last layer sealed")
		cmd.Flags().DurationVar(&o.cutEvery, "cut-every", 10*time.Minute, "with --spill, the longest a cell goes on before its states made so far spill and the point reached is sealed, so that a stopped count resumes there (0: only when they pass --max-memory)")
		cmd.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "no method line, no progress")
		cmd.Flags().BoolVarP(&o.verbose, "verbose", "v", false, "after a dp or join count, the states it held on stderr: summed over the cells and at the peak")
		cmd.Flags().BoolVar(&o.json, "json", false, `one JSON object: {"rows":R,"cols":C,"closed":B,"start":"a1" or null,"tours":…,"counts":"directed open tours"…, and for dp and join "states":{"sum":…,"peak":…,"peak_cell":…,"cells":…}}; distributed, also "verified", "identities" and "by_identities" as queens count gives them`)
		o.knightPlanFlags.add(cmd)
		o.knightDist.add(cmd)
	}, func(cmd *cobra.Command, o *knightCountOpts, _ []string) error {
		return runKnightCount(cmd.Context(), *o, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

func runKnightCount(ctx context.Context, o knightCountOpts, stdout, stderr io.Writer) error {
	if o.spill != "" && (o.knightPlanFlags.used() || o.knightDist.used(true)) {
		return usageErrorf("--spill counts the whole sweep in this process: not with --plan or a distributed count")
	}
	if o.knightDist.used(o.spill != "") {
		return runKnightDistCount(ctx, o, stdout, stderr)
	}
	if o.knightPlanFlags.used() {
		return runKnightCountEnds(ctx, o, stdout, stderr)
	}
	sz, opts, err := o.options()
	if err != nil {
		return err
	}
	var dir spillDir
	if o.spill != "" {
		if dir, err = openSpillDir(o.spill); err != nil {
			return usageErrorf("--spill: %v", err)
		}
		opts.Spill = dir
		if o.cutEvery < 0 {
			return usageErrorf("--cut-every must be a duration of 0 or more, e.g. 10m, got %s", o.cutEvery)
		}
		opts.CutEvery = o.cutEvery
		opts.Workers = runtime.GOMAXPROCS(0)
		if o.knightDist.flags.Changed("workers") {
			if opts.Workers = o.knightDist.workers; opts.Workers < 1 {
				return usageErrorf("--workers must be a whole number from 1 up with --spill, got %d", opts.Workers)
			}
		}
	}
	method, err := kcount.ChooseMethod(sz.Rows, sz.Cols, opts)
	if err != nil {
		return usageError(err)
	}
	opts.Method = method
	// Tours checks the memory on its way (kcount.Options.MaxMemory): calling CheckMemory
	// first would sweep the first cells twice.
	var p *countProgress
	if !o.quiet {
		name := map[string]string{kcount.MethodDP: "frontier dynamic programming", kcount.MethodJoin: "frontier dynamic programming of two mirror halves, joined", kcount.MethodSearch: "backtracking, meeting in the middle"}[method]
		fmt.Fprintf(stderr, "counting %s by %s (--method %s)\n", sz, name, method)
		p = newCountProgress(stderr, progress.CanDraw(stderr))
		if o.spill != "" {
			p.disk = dir
		}
		opts.Status = p.update
		if method == kcount.MethodDP {
			p.total = sz.Squares()
			opts.Reading = p.reading
		}
	}
	if o.spill != "" {
		opts.Resumed = func(cells int) {
			if !o.quiet {
				fmt.Fprintf(stderr, "resuming from the layer after cell %d, sealed in %s\n", cells, o.spill)
			}
			p.resumed(cells)
		}
		opts.ResumedCut = func(cells, done, runs int) {
			if !o.quiet {
				fmt.Fprintf(stderr, "resuming inside cell %d from its cut: %d states of the layer after cell %d placed, %s\n", cells+1, done, cells, plural(uint64(runs), "sorted run kept (its files on disk)", "sorted runs kept (their files on disk)"))
			}
			p.resumedCut()
		}
	}
	var figs kcount.StateFigures
	if status := opts.Status; status != nil {
		opts.Status = func(s kcount.Status) { figs.Add(s); status(s) }
	} else {
		opts.Status = figs.Add
	}
	k, err := kcount.Tours(ctx, sz.Rows, sz.Cols, opts)
	// The bar is erased before anything else is written: redrawn after the answer, it
	// would wipe it off the screen.
	p.finish()
	var me *kcount.MemoryError
	if errors.As(err, &me) && me.Estimated {
		return usageErrorf("counting %s would need about %s of memory by its estimate, --max-memory allows %s; raise --max-memory if the machine has more (\"knight estimate\" gives the figures)", sz, kcount.FormatBytes(me.Need), kcount.FormatBytes(me.Limit))
	}
	if errors.As(err, &me) {
		return usageErrorf("counting %s would need more than %s of memory, --max-memory allows %s; raise --max-memory if the machine has more (\"knight estimate\" says what a count needs)", sz, kcount.FormatBytes(max(me.Need, me.Limit)), kcount.FormatBytes(me.Limit))
	}
	if errors.Is(err, kcount.ErrCutRefused) {
		return usageErrorf("--spill %s: %v", o.spill, err)
	}
	if errors.Is(err, kcount.ErrLayerChecksum) || errors.Is(err, kcount.ErrOtherCount) {
		return usageErrorf("--spill %s: %v; remove its files to count from the start", o.spill, err)
	}
	if err != nil && o.spill != "" && ctx.Err() == nil {
		return fmt.Errorf("counting %s with --spill %s: %w", sz, o.spill, err)
	}
	if err != nil {
		return err
	}
	what := "directed open tours"
	switch {
	case o.closed:
		what = "closed tours"
	case opts.Start != nil:
		what = "directed open tours from " + sz.Name(*opts.Start)
	}
	var states *knightStatesRecord
	if method != kcount.MethodSearch {
		states = &knightStatesRecord{Sum: figs.Sum, Peak: figs.Peak, PeakCell: figs.PeakCell, Cells: figs.Cells}
		if o.verbose {
			fmt.Fprintf(stderr, "states: %d summed over %d cells, peak %d after cell %d\n", figs.Sum, figs.Cells, figs.Peak, figs.PeakCell)
		}
	}
	if o.json {
		var start *string
		if opts.Start != nil {
			name := sz.Name(*opts.Start)
			start = &name
		}
		return json.NewEncoder(stdout).Encode(knightCountRecord{Rows: sz.Rows, Cols: sz.Cols, Closed: o.closed, Start: start, Tours: k, Counts: what, States: states})
	}
	_, err = fmt.Fprintf(stdout, "%s %s of %s\n", k, what, sz)
	return err
}
