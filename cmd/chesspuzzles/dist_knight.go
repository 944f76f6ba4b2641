package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/dist"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// knightDistFlags are the flags of "knight count --plan" that run the plan's tasks through
// NATS, as "queens count --distributed" runs a queens plan: the same coordinator, the same
// workers ("chesspuzzles worker"), the same state directory and identities.
type knightDistFlags struct {
	distributed bool
	nats        string
	listen      string
	state       string
	auth        natsAuth
	verify      float64
	replicas    int
	verifyWait  time.Duration
	ackWait     time.Duration
	workers     int
	logFmt      string
	flags       *pflag.FlagSet // the command's, to tell the flags given
}

// knightDistNames are the names of the flags of knightDistFlags.
var knightDistNames = []string{"distributed", "nats", "nats-listen", "state", "token", "token-file", "creds", "verify", "replicas", "verify-wait", "ack-wait", "workers", "log-format"}

// add binds the flags to cmd.
func (f *knightDistFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	f.flags = fs
	fs.BoolVar(&f.distributed, "distributed", false, "with --plan: run the tasks through an embedded NATS server that workers (\"chesspuzzles worker\") join, as queens count --distributed")
	fs.StringVar(&f.nats, "nats", "", "with --plan: run the tasks through the NATS server at `URL` instead of an embedded one")
	fs.StringVar(&f.listen, "nats-listen", "127.0.0.1:4222", "with --distributed: `ADDR` the embedded NATS server listens on (0.0.0.0:4222 for other machines)")
	fs.StringVar(&f.state, "state", defaultStateDir(), "with --distributed or --nats: `DIR` of the embedded server's store, the identities and the coordinator's snapshot; the same DIR resumes")
	addAuthFlags(fs, &f.auth, "`TOKEN` the coordinator gives a --nats server that wants one (default $CHESSPUZZLES_NATS_TOKEN)")
	fs.Float64Var(&f.verify, "verify", defaultVerify, "with --distributed or --nats: recompute this `FRACTION` of the tasks, chosen at random, on another worker identity (0: none)")
	fs.IntVar(&f.replicas, "replicas", 0, "with --distributed or --nats: 2 has every task computed by two distinct worker identities; 1 by one (default: 2 on a board whose count is not published, else 1)")
	fs.DurationVar(&f.verifyWait, "verify-wait", time.Minute, "with --distributed or --nats: verify in the coordinator the tasks no other worker verified within this `DURATION`")
	fs.DurationVar(&f.ackWait, "ack-wait", dist.DefaultAckWait, "with --distributed or --nats: give again a task whose worker has been silent this long")
	fs.IntVar(&f.workers, "workers", 1, "with --distributed or --nats: tasks a worker in this process runs at once, each holding its sweep's memory (0: none, the tasks wait for workers elsewhere)")
	addLogFormatFlag(cmd, &f.logFmt)
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
	case f.workers < 0:
		return usageErrorf("--workers must be a whole number from 0 up, got %d", f.workers)
	case f.ackWait < 100*time.Millisecond:
		return usageErrorf("--ack-wait must be at least 100ms, got %v", f.ackWait)
	case f.verifyWait <= 0:
		return usageErrorf("--verify-wait must be a positive duration, got %v", f.verifyWait)
	case f.flags.Changed("replicas") && f.replicas != 1 && f.replicas != 2:
		return usageErrorf("--replicas must be 1 or 2, got %d", f.replicas)
	}
	if _, port, err := net.SplitHostPort(f.listen); err != nil || !validPort(port) {
		return usageErrorf("--nats-listen must be HOST:PORT with a port from 0 to 65535, got %q", f.listen)
	}
	if err := checkVerify(f.verify); err != nil {
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
	plan, err := dist.KnightPlan(tp)
	if err != nil {
		return err
	}
	if err := dist.CheckStateDir(f.state); err != nil {
		return usageError(err)
	}
	token, err := f.auth.given()
	if err != nil {
		return err
	}
	m := newCountMeter(stderr, fmt.Sprintf("%s open tours", sz), o.quiet)
	m.waiting = "waiting for workers"
	m.started = true // a resumed job says so in the coordinator's log
	defer m.Finish()
	logger, err := newLogger(m, f.logFmt, "coordinator")
	if err != nil {
		return err
	}
	counts, _, err := dist.Count(ctx, plan, dist.CountOptions{
		URL: f.nats, Listen: f.listen, StoreDir: f.state, Token: token, Creds: f.auth.creds,
		Workers: f.workers, AckWait: f.ackWait, Verify: f.verify, VerifyWait: f.verifyWait, Replicas: f.replicas,
		Logf: logfTo(logger), Progress: func(s work.Status) { knightMeterUpdate(m, s) },
	})
	if err != nil {
		url := f.nats
		if url == "" {
			url = "nats://" + f.listen
		}
		return refusedHint(err, url)
	}
	m.Finish()
	return printKnightTotal(o.json, board.Size{Rows: sz.Rows, Cols: sz.Cols}, counts.Total, "directed open tours", stdout)
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
