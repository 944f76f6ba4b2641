package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"sync"
	"time"

	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/internal/progress"
	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/shard"
)

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
	if p.Split != nil {
		how, sweep = "by a split of the whole sweep", "by the forward sweep, each keeping its part of the states"
	}
	kp := work.Knight(p)
	kp.MaxMemory = opts.MaxMemory
	// Each task's sweep is one goroutine and holds the memory: two at once would need
	// twice it.
	wopts := work.Options{Workers: 1, Checkpoint: f.checkpoint}
	if !o.quiet {
		// each task's cells, as knight count shows a sweep's: a line rewritten on a
		// terminal, a plain line every few seconds otherwise. Status is called on the
		// runner's worker, Finished and Progress on its own goroutine: one at a time.
		var mu sync.Mutex
		var bar *countProgress
		current := -1
		kp.Status = func(t work.Task, s kcount.Status) {
			mu.Lock()
			defer mu.Unlock()
			if t.ID != current {
				bar.finish()
				bar, current = newCountProgress(stderr, progress.CanDraw(stderr)), t.ID
			}
			bar.update(s)
		}
		defer func() { bar.finish() }()
		wopts.Finished = func(wr work.Result, cpu time.Duration) error {
			r, err := work.OpenResult(wr)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			bar.finish()
			bar, current = nil, -1
			t := p.Tasks[r.ID]
			fmt.Fprintf(stderr, "task %d of %d (%s, weight %d): %v tours, %d states summed, peak %d, %.1f CPU-s\n",
				r.ID, len(p.Tasks), taskName(sz, p, t), t.Weight, r.Tours, r.States, r.Peak, cpu.Seconds())
			return nil
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
			file, err := shard.ComputePlan(ctx, kp, i, k, wopts)
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
	if !o.quiet {
		// The first report comes once the checkpoint is open, with the tasks it holds.
		first := true
		wopts.Progress = func(st work.Status) {
			if !first {
				return
			}
			first = false
			if st.Resumed > 0 {
				fmt.Fprintf(stderr, "resuming %s from %s: %d of %d tasks done\n", p.Name(), f.checkpoint, st.Resumed, len(p.Tasks))
			}
			fmt.Fprintf(stderr, "counting %s as %d tasks %s (%s), %s\n", sz, len(p.Tasks), how, p.Name(), sweep)
		}
	}
	// RunPlan holds a whole plan's total against the board's published count.
	out, err := work.RunPlan(ctx, kp, wopts)
	if err != nil {
		return planError(err)
	}
	total := out.Total
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
	var ce *work.CheckpointError
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
