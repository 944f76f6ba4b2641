package main

import (
	"context"
	"encoding/json"
	"io"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// runKnightDistCount is "knight count --plan --distributed" (or --nats): the coordinator of
// the plan's tasks, with a local worker of --workers cores if asked.
func runKnightDistCount(ctx context.Context, o knightCountOpts, stdout, stderr io.Writer) error {
	f := o.knightDist
	p := o.knightPlanFlags
	switch {
	case !f.distributed && f.nats == "":
		for _, name := range knightDistNames {
			if f.flags.Changed(name) && name == "workers" {
				return usageErrorf("--workers goes with --spill (the sweep's goroutines) or with --distributed or --nats (with --plan: the tasks run through NATS)")
			}
			if f.flags.Changed(name) {
				return usageErrorf("--%s goes with --distributed or --nats (with --plan): the tasks run through NATS", name)
			}
		}
	case !p.plan:
		return usageErrorf("--distributed and --nats run the tasks of --plan: add --plan")
	case p.end != "" || p.checkpoint != "" || p.shard != "" || p.output != "":
		return usageErrorf("--distributed and --nats run the whole plan through NATS; --end, --checkpoint, --shard and -o are other ways to count (the state DIR resumes a distributed count)")
	case f.distributed && f.nats != "":
		return usageErrorf("--distributed starts an embedded server, --nats uses the one at URL: choose one")
	}
	if err := f.check(f.flags, f.workers); err != nil {
		return err
	}
	sz, opts, err := o.options()
	if err != nil {
		return err
	}
	switch {
	case o.closed:
		return usageErrorf("--plan counts open tours; a closed tour has no ends")
	case opts.Start != nil:
		return usageErrorf("--plan counts the tours of every start; --start goes without --plan")
	case o.method != kcount.MethodAuto && o.method != kcount.MethodDP:
		return usageErrorf("--plan counts by the dp method's sweep with fixed ends, not --method %s", o.method)
	}
	op, err := openPlan(sz, p.split)
	if err != nil {
		return usageError(err)
	}
	plan := work.Knight(op)
	m := newCountMeter(stderr, sz.String()+" open tours", o.quiet)
	m.waiting = "waiting for workers"
	m.started = true // a resumed job says so in the coordinator's log
	defer m.Finish()
	counts, stats, err := f.count(ctx, plan, m, f.workers, opts.MaxMemory/int64(max(f.workers, 1)), func(s work.Status) { knightMeterUpdate(m, s) })
	if err != nil {
		return err
	}
	m.Finish()
	if o.json {
		return json.NewEncoder(stdout).Encode(knightCountRecord{Rows: sz.Rows, Cols: sz.Cols, Tours: counts.Total, Counts: "directed open tours",
			Verified: &stats.Verified, Identities: &stats.Identities, ByIdentities: stats.ByIdentities})
	}
	return printKnightTotal(false, sz, counts.Total, "directed open tours", stdout)
}

// knightMeterUpdate shows a knight job's status on m: tasks done, and tours so far.
func knightMeterUpdate(m *countMeter, s work.Status) {
	p := countStatus(s)
	if s.Solutions != nil {
		p.Note = s.Solutions.String() + " tours so far"
	}
	if m.waiting != "" && s.Done == s.Resumed && s.Done < s.Tasks {
		p.Waiting = m.waiting
	}
	m.Update(p)
}
