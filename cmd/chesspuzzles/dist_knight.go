package main

import (
	"context"
	"encoding/json"
	"io"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// knightDistFlags are the flags of "knight count --plan" that run the plan's tasks through
// NATS, as "queens count --distributed" runs a queens plan: the same flags (natsFlags),
// coordinator, workers ("chesspuzzles worker"), state directory and identities.
type knightDistFlags struct {
	natsFlags
	workers int
	flags   *pflag.FlagSet // the command's, to tell the flags given
}

// knightDistNames are the names of the flags of knightDistFlags.
var knightDistNames = []string{"distributed", "nats", "nats-listen", "state", "token", "token-file", "creds", "verify", "replicas", "verify-wait", "ack-wait", "workers", "log-format"}

// add binds the flags to cmd.
func (f *knightDistFlags) add(cmd *cobra.Command) {
	f.natsFlags.add(cmd, "with --plan: run the tasks through an embedded NATS server that workers (\"chesspuzzles worker\") join, as queens count --distributed",
		"with --plan: run the tasks through the NATS server at `URL` instead of an embedded one", "a board")
	f.flags = cmd.Flags()
	f.flags.IntVar(&f.workers, "workers", 1, "with --distributed or --nats: tasks a worker in this process runs at once, sharing --max-memory (0: none, the tasks wait for workers elsewhere)")
}

// used reports whether any of the flags was given: the count runs through NATS, or is
// refused for a flag that goes with --distributed or --nats.
func (f *knightDistFlags) used() bool {
	for _, name := range knightDistNames {
		if f.flags != nil && f.flags.Changed(name) {
			return true
		}
	}
	return false
}

// runKnightDistCount is "knight count --plan --distributed" (or --nats): the coordinator of
// the plan's tasks, with a local worker of --workers cores if asked.
func runKnightDistCount(ctx context.Context, o knightCountOpts, stdout, stderr io.Writer) error {
	f := o.knightDist
	p := o.knightPlanFlags
	switch {
	case !f.distributed && f.nats == "":
		for _, name := range knightDistNames {
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
	tp, err := tourPlan(sz, p.split)
	if err != nil {
		return usageError(err)
	}
	plan, err := cluster.KnightPlan(tp)
	if err != nil {
		return err
	}
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
