package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/internal/progress"
	"github.com/chesspuzzles/chesspuzzles/internal/work/tours"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
	"github.com/spf13/cobra"
)

// knightPlanFlags are the flags of "knight count" that count open tours as a plan of
// tasks by pairs of end squares (kcount.OpenPlan), or one pair.
type knightPlanFlags struct {
	end        string // --end: with --start, the tours from start to end
	plan       bool   // --plan: the whole count as the plan's tasks
	split      string // --split: the plan's tasks are parts of a split of the whole sweep
	checkpoint string
	shard      string
	output     string
}

// add binds the flags to cmd.
func (f *knightPlanFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.end, "end", "", "with --start: count only the open tours from --start that end on this square")
	cmd.Flags().BoolVar(&f.plan, "plan", false, "count the open tours as a plan of tasks, one for each class of pairs of end squares (see \"knight plan\")")
	cmd.Flags().StringVar(&f.split, "split", "", "with --plan: the tasks are the parts of a split of the whole sweep, `LEVELS` as \"knight plan --split\" takes them")
	cmd.Flags().StringVar(&f.checkpoint, "checkpoint", "", "with --plan: record each finished task in `FILE` and resume from it")
	cmd.Flags().StringVar(&f.shard, "shard", "", "with --plan: count only slice `I/K` of the tasks and print its result file (JSON, for \"knight merge\")")
	cmd.Flags().StringVarP(&f.output, "output", "o", "", "with --shard: write the slice's result to `FILE` (atomically) instead of stdout")
}

// used reports whether any of the flags asks for a count by end squares.
func (f *knightPlanFlags) used() bool {
	return f.end != "" || f.plan || f.split != "" || f.checkpoint != "" || f.shard != "" || f.output != ""
}

// openPlan returns the plan of sz's open tours: by pairs of ends, or the split of split
// (kcount.ParseSplitLevels) if it is not empty.
func openPlan(sz board.Size, split string) (*kcount.OpenPlan, error) {
	if split == "" {
		return kcount.NewOpenPlan(sz.Rows, sz.Cols)
	}
	levels, err := kcount.ParseSplitLevels(split)
	if err != nil {
		return nil, err
	}
	return kcount.NewSplitPlan(sz.Rows, sz.Cols, levels)
}

// tourPlan is openPlan as the runners take it (tours.OpenEnds or tours.OpenSplit).
func tourPlan(sz board.Size, split string) (tours.Plan, error) {
	p, err := openPlan(sz, split)
	if err != nil {
		return nil, err
	}
	if p.Split != nil {
		return tours.OpenSplit(p), nil
	}
	return tours.OpenEnds(p), nil
}

// taskName says which tours task t of p counts: its ends, or its parts.
func taskName(sz board.Size, p *kcount.OpenPlan, t kcount.OpenTask) string {
	if t.Split == nil {
		return sz.Name(t.Start) + "–" + sz.Name(t.End)
	}
	var b strings.Builder
	for i, s := range t.Split {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "part %d/%d at cell %d", s.Part, s.Parts, s.Cell)
	}
	return b.String()
}

// runKnightCountEnds is "knight count" with --end or --plan (and its --checkpoint, --shard,
// -o): the dp method's forward sweep with fixed ends.
func runKnightCountEnds(ctx context.Context, o knightCountOpts, stdout, stderr io.Writer) error {
	f := o.knightPlanFlags
	sz, opts, err := o.options()
	if err != nil {
		return err
	}
	switch {
	case o.closed:
		return usageErrorf("--end and --plan count open tours; a closed tour has no ends")
	case o.method != kcount.MethodAuto && o.method != kcount.MethodDP:
		return usageErrorf("--end and --plan count by the dp method's sweep with fixed ends, not --method %s", o.method)
	case f.end != "" && (f.plan || f.split != "" || f.checkpoint != "" || f.shard != "" || f.output != ""):
		return usageErrorf("--end counts one pair of squares; --plan, --checkpoint, --shard and -o count the plan of every pair")
	case f.end != "" && opts.Start == nil:
		return usageErrorf("--end needs --start: the tours from --start that end on --end")
	case f.end == "" && opts.Start != nil:
		return usageErrorf("--plan counts the tours of every start; --start goes with --end or without --plan")
	case f.end == "" && !f.plan:
		return usageErrorf("--split, --checkpoint, --shard and -o go with --plan")
	case f.output != "" && f.shard == "":
		return usageErrorf("-o FILE goes with --shard (it writes the slice's result there)")
	case f.checkpoint != "" && f.shard != "":
		return usageErrorf("--checkpoint and --shard are two ways to run the plan: choose one")
	}
	if min(sz.Rows, sz.Cols) > kcount.DPMaxRows {
		return usageErrorf("board %s: counting by end squares needs a short side of at most %d", sz, kcount.DPMaxRows)
	}
	if f.end != "" {
		end, err := sz.ParseSquare(f.end)
		if err != nil {
			return usageError(err)
		}
		return runKnightCountPair(ctx, o, sz, *opts.Start, end, opts.MaxMemory, stdout, stderr)
	}
	p, err := openPlan(sz, f.split)
	if err != nil {
		return usageError(err)
	}
	how := "by pairs of end squares"
	sweep := "by the forward sweep with both ends fixed"
	tp := tours.OpenEnds(p)
	if p.Split != nil {
		how, sweep = "by a split of the whole sweep", "by the forward sweep, each keeping its part of the states"
		tp = tours.OpenSplit(p)
	}
	ropts := tours.Options{MaxMemory: opts.MaxMemory}
	if !o.quiet {
		// each task's cells, as knight count shows a sweep's: a line rewritten on a
		// terminal, a plain line every few seconds otherwise
		var bar *countProgress
		current := -1
		ropts.Status = func(t tours.Task, s kcount.Status) {
			if t.ID != current {
				bar.finish()
				bar, current = newCountProgress(stderr, progress.CanDraw(stderr)), t.ID
			}
			bar.update(s)
		}
		defer func() { bar.finish() }()
		ropts.Finished = func(r kcount.OpenResult, cpu time.Duration) {
			bar.finish()
			bar, current = nil, -1
			t := p.Tasks[r.ID]
			fmt.Fprintf(stderr, "task %d of %d (%s, weight %d): %v tours, %d states summed, peak %d, %.1f CPU-s\n",
				r.ID, len(p.Tasks), taskName(sz, p, t), t.Weight, r.Tours, r.States, r.Peak, cpu.Seconds())
		}
	}
	if f.shard != "" {
		i, k, err := parseShard(f.shard)
		if err != nil {
			return usageError(err)
		}
		if !o.quiet {
			fmt.Fprintf(stderr, "counting slice %d/%d of %s (%d tasks in all) %s\n", i, k, p.Name(), len(p.Tasks), sweep)
		}
		return writeTo(f.output, stdout, func(w io.Writer) error {
			file, err := tours.Compute(ctx, tp, i, k, ropts)
			if err != nil {
				return planError(err)
			}
			data, err := json.Marshal(file)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(w, "%s\n", data)
			return err
		})
	}
	if f.checkpoint != "" {
		c, done, err := tours.OpenCheckpoint(ctx, f.checkpoint, tp)
		if err != nil {
			return planError(err)
		}
		defer c.Close()
		ropts.Checkpoint, ropts.Done = c, done
		if !o.quiet && len(done) > 0 {
			fmt.Fprintf(stderr, "resuming %s from %s: %d of %d tasks done\n", p.Name(), f.checkpoint, len(done), len(p.Tasks))
		}
	}
	if !o.quiet {
		fmt.Fprintf(stderr, "counting %s as %d tasks %s (%s), %s\n", sz, len(p.Tasks), how, p.Name(), sweep)
	}
	rs, err := tours.Run(ctx, tp, ropts)
	if err != nil {
		return planError(err)
	}
	total, err := p.Total(rs)
	if err != nil {
		return err
	}
	if want, ok := kcount.PublishedOpen(sz.Rows, sz.Cols); ok && want.Cmp(total) != 0 {
		return fmt.Errorf("the tasks sum to %v directed open tours of %s, the published count is %v: a task is wrong", total, sz, want)
	}
	return printKnightTotal(o.json, sz, total, "directed open tours", stdout)
}

// runKnightCountPair counts the open tours of sz from start to end, printing the sweep's
// counters with --verbose (those a plan's result file records for the pair's task).
func runKnightCountPair(ctx context.Context, o knightCountOpts, sz board.Size, start, end board.Square, maxMemory int64, stdout, stderr io.Writer) error {
	if start == end {
		return usageErrorf("--start and --end are both %s: an open tour's ends are two squares", sz.Name(start))
	}
	var p *countProgress
	var status func(kcount.Status)
	if !o.quiet {
		fmt.Fprintf(stderr, "counting the open tours of %s from %s to %s by the forward sweep with both ends fixed\n", sz, sz.Name(start), sz.Name(end))
		p = newCountProgress(stderr, progress.CanDraw(stderr))
		status = p.update
	}
	r, err := kcount.CountOpenTask(ctx, sz.Rows, sz.Cols, kcount.OpenTask{Start: start, End: end}, maxMemory, status)
	p.finish()
	var me *kcount.MemoryError
	if errors.As(err, &me) {
		return usageErrorf("counting %s from %s to %s would need more than %s of memory, --max-memory allows %s", sz, sz.Name(start), sz.Name(end), kcount.FormatBytes(max(me.Need, me.Limit)), kcount.FormatBytes(me.Limit))
	}
	if err != nil {
		return err
	}
	if o.verbose {
		fmt.Fprintf(stderr, "states: %d summed over %d cells, peak %d\n", r.States, sz.Squares(), r.Peak)
	}
	return printKnightTotal(o.json, sz, r.Tours, fmt.Sprintf("directed open tours from %s to %s", sz.Name(start), sz.Name(end)), stdout)
}

// printKnightTotal prints a count as knight count does.
func printKnightTotal(asJSON bool, sz board.Size, k *big.Int, what string, stdout io.Writer) error {
	if asJSON {
		return json.NewEncoder(stdout).Encode(knightCountRecord{Rows: sz.Rows, Cols: sz.Cols, Tours: k, Counts: what})
	}
	_, err := fmt.Fprintf(stdout, "%s %s of %s\n", k, what, sz)
	return err
}

// planError maps the errors of running a plan: a checkpoint that cannot be used, a slice
// that does not exist, a task past --max-memory are bad input (exit 2).
func planError(err error) error {
	var ce *tours.CheckpointError
	var me *kcount.MemoryError
	switch {
	case errors.As(err, &ce):
		return usageError(err)
	case errors.As(err, &me):
		return usageErrorf("a task would need more than %s of memory, --max-memory allows %s", kcount.FormatBytes(max(me.Need, me.Limit)), kcount.FormatBytes(me.Limit))
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return err
}

func newKnightPlanCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "plan",
		Short: "The tasks of a count of open tours by pairs of end squares",
		Long: `Plan lists the tasks "knight count --plan" runs for a board's directed open tours: one
for each class of pairs of squares an open tour can end on (one of each colour on a board
of an even number of squares, both of the majority colour on an odd one) under the board's
symmetries. A task counts the tours between its two squares, on the image of its class
that the sweep finds cheapest; its weight is the directed tours each of them stands for
(two directions times the pairs of its class). The total is the sum of count × weight.
8×8 has 136 tasks (Chernov's classes). Columns: id, start, end, weight.

--split LEVELS lists instead the tasks of a split of the whole forward sweep: a level
cCELLkPARTSfFAR gives each state before cell CELL of the sweep (column by column of the
board turned to have no more rows than columns, from 0) to one of PARTS parts by a hash of
its FAR cells furthest ahead (0: of the whole state); levels joined by - split again. A
task keeps one part at each level: the parts' counts sum to the whole count (weight 1).
Columns: id, the part at each level (CELL:PART/PARTS), weight.`,
		Example: `  chesspuzzles knight plan --size 6
  chesspuzzles knight plan --size 8 --json
  chesspuzzles knight plan --board 5x6 --split c10k4f3`,
		Args: cobra.NoArgs,
	}, func(cmd *cobra.Command, o *knightPlanOpts) {
		o.sizes.add(cmd, "8")
		cmd.Flags().BoolVar(&o.json, "json", false, `one JSON object: {"plan":…,"rows":R,"cols":C,"tasks":[{"id":…,"start":"a1","end":"b3","weight":…},…]} (split tasks: "parts":["10:0/4",…] instead of start and end)`)
		cmd.Flags().StringVar(&o.split, "split", "", "list the tasks of a split of the whole sweep at `LEVELS` (e.g. c10k4f3) instead of pairs of ends")
	}, func(cmd *cobra.Command, o *knightPlanOpts, _ []string) error {
		return runKnightPlan(*o, cmd.OutOrStdout())
	})
}

// knightPlanOpts are the options of "knight plan".
type knightPlanOpts struct {
	sizes sizeFlags
	json  bool
	split string
}

func runKnightPlan(o knightPlanOpts, stdout io.Writer) error {
	sz, _, err := o.sizes.get()
	if err != nil {
		return err
	}
	p, err := openPlan(sz, o.split)
	if err != nil {
		return usageError(err)
	}
	type task struct {
		ID     int      `json:"id"`
		Start  string   `json:"start,omitempty"`
		End    string   `json:"end,omitempty"`
		Parts  []string `json:"parts,omitempty"`
		Weight int64    `json:"weight"`
	}
	var ts []task
	for _, t := range p.Tasks {
		if t.Split == nil {
			ts = append(ts, task{ID: t.ID, Start: sz.Name(t.Start), End: sz.Name(t.End), Weight: t.Weight})
			continue
		}
		tk := task{ID: t.ID, Weight: t.Weight}
		for _, s := range t.Split {
			tk.Parts = append(tk.Parts, fmt.Sprintf("%d:%d/%d", s.Cell, s.Part, s.Parts))
		}
		ts = append(ts, tk)
	}
	if o.json {
		return json.NewEncoder(stdout).Encode(struct {
			Plan  string `json:"plan"`
			Rows  int    `json:"rows"`
			Cols  int    `json:"cols"`
			Tasks []task `json:"tasks"`
		}{p.Name(), sz.Rows, sz.Cols, ts})
	}
	for _, t := range ts {
		what := t.Start + " " + t.End
		if t.Parts != nil {
			what = strings.Join(t.Parts, " ")
		}
		if _, err := fmt.Fprintf(stdout, "%d %s %d\n", t.ID, what, t.Weight); err != nil {
			return err
		}
	}
	return nil
}

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
	p, total, err := tours.Merge(ctx, files)
	switch {
	case errors.Is(err, tours.ErrRefused):
		return answerNo(err)
	case errors.Is(err, tours.ErrInput):
		return usageError(err)
	case err != nil:
		return err
	}
	rows, cols := p.Size()
	return printKnightTotal(o.json, board.Size{Rows: rows, Cols: cols}, total, "directed open tours", stdout)
}
