package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/monitor"
	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// natsFlags are the flags of a count whose tasks run through NATS, a coordinator's: those
// of "queens count --distributed" and "knight count --plan --distributed" alike.
type natsFlags struct {
	distributed  bool
	nats         string
	listen       string
	state        string
	auth         natsAuth
	verify       float64
	replicas     int
	adaptive     bool
	metrics      string
	streamCopies int
	verifyWait   time.Duration
	minIDs       int
	ackWait      time.Duration
	logFmt       string // --log-format of the coordinator
}

// add binds the flags to cmd: --distributed and --nats with the help given, the others
// with the help of every count; unpublished says what may have no published count ("an
// N", "a board").
func (o *natsFlags) add(cmd *cobra.Command, distributedHelp, natsHelp, unpublished string) {
	f := cmd.Flags()
	f.BoolVar(&o.distributed, "distributed", false, distributedHelp)
	f.StringVar(&o.nats, "nats", "", natsHelp)
	f.StringVar(&o.listen, "nats-listen", "127.0.0.1:4222", "`ADDR` the embedded NATS server listens on (0.0.0.0:4222 for other machines)")
	f.StringVar(&o.state, "state", defaultStateDir(), "`DIR` of the embedded server's store and the coordinator's snapshot; start again with the same DIR to resume")
	addAuthFlags(f, &o.auth, "`TOKEN` the coordinator gives a --nats server that wants one (default $CHESSPUZZLES_NATS_TOKEN); the embedded server takes no token, only identities \"worker add\" issued")
	f.Float64Var(&o.verify, "verify", defaultVerify, "with --distributed or --nats: recompute this `FRACTION` of the tasks, chosen at random, on another worker, and refuse the total if any differs (0: none)")
	f.IntVar(&o.replicas, "replicas", 0, "with --distributed or --nats: 2 has every task computed by two distinct worker identities, the second chosen by the coordinator, a disagreement settled by a computation of its own; 3 by three, the second and third chosen by the coordinator, so that two colluding identities never confirm a lie (3× the CPU); 1 by one (default: at "+unpublished+" with no published count, "+cluster.FewThird+"; else 1)")
	f.BoolVar(&o.adaptive, "adaptive", false, "with --distributed or --nats: adaptive replication instead of --replicas 2: every task of an identity is computed twice until "+strconv.Itoa(cluster.DefaultAdaptiveAfter)+" of its results agree with another's, then a share of "+strconv.FormatFloat(cluster.DefaultAdaptiveShare, 'g', -1, 64)+" drawn by the coordinator (a lie of a trusted identity slips through with probability "+strconv.FormatFloat(1-cluster.DefaultAdaptiveShare, 'g', 2, 64)+"; docs/distributed.md)")
	f.StringVar(&o.metrics, "metrics-listen", "", "serve Prometheus metrics at http://`ADDR`/metrics and a status page at http://ADDR/ while the coordinator runs (off by default; 127.0.0.1:9464, or 0.0.0.0:9464 for other machines)")
	f.IntVar(&o.streamCopies, "stream-replicas", 0, "with --nats: keep this many copies (1 to 5) of the results stream and the jobs bucket on the cluster's servers, 3 on three servers to survive losing one (default: the copies they have, 1 when new)")
	f.DurationVar(&o.verifyWait, "verify-wait", time.Minute, "verify in the coordinator the tasks no other worker has verified within this `DURATION`")
	f.IntVar(&o.minIDs, "min-identities", cluster.DefaultMinIdentities, "draw the worker that verifies a task only once this many distinct `K` identities have taken part (two colluding identities confirm one lie at most once in K−1)")
	f.DurationVar(&o.ackWait, "ack-wait", cluster.DefaultAckWait, "redeliver a task whose worker has been silent this long")
	addLogFormatFlag(cmd, &o.logFmt)
}

// check refuses flags a coordinator cannot run with (workers: the cores of its local
// worker; flags: the command's, to tell --replicas given from its default).
func (o *natsFlags) check(flags *pflag.FlagSet, workers int) error {
	switch {
	case workers < 0:
		return usageErrorf("--workers must be a whole number from 0 up, got %d", workers)
	case o.ackWait < 100*time.Millisecond:
		return usageErrorf("--ack-wait must be at least 100ms, got %v", o.ackWait)
	case o.verifyWait <= 0:
		return usageErrorf("--verify-wait must be a positive duration, got %v", o.verifyWait)
	case o.minIDs < 2:
		return usageErrorf("--min-identities must be a whole number from 2 up, got %d", o.minIDs)
	case flags.Changed("replicas") && (o.replicas < 1 || o.replicas > cluster.MaxReplicas):
		return usageErrorf("--replicas must be 1, 2 or 3, got %d", o.replicas)
	case o.adaptive && (flags.Changed("replicas") || flags.Changed("verify")):
		return usageErrorf("--adaptive chooses the tasks computed twice itself: give it without --replicas or --verify")
	case flags.Changed("stream-replicas") && (o.streamCopies < 1 || o.streamCopies > cluster.MaxStreamReplicas):
		return usageErrorf("--stream-replicas must be a whole number from 1 to %d, got %d", cluster.MaxStreamReplicas, o.streamCopies)
	case flags.Changed("stream-replicas") && o.nats == "":
		return usageErrorf("--stream-replicas is for a cluster of servers given with --nats URL; the embedded server keeps one copy")
	}
	if o.metrics != "" {
		if _, port, err := net.SplitHostPort(o.metrics); err != nil || !validPort(port) {
			return usageErrorf("--metrics-listen must be HOST:PORT with a port from 0 to 65535, got %q", o.metrics)
		}
	}
	if _, port, err := net.SplitHostPort(o.listen); err != nil || !validPort(port) {
		return usageErrorf("--nats-listen must be HOST:PORT with a port from 0 to 65535, got %q", o.listen)
	}
	if err := checkVerify(o.verify); err != nil {
		return err
	}
	if err := cluster.CheckStateDir(o.state); err != nil {
		return usageError(err)
	}
	return nil
}

// count runs plan through NATS as the flags say, with a local worker of workers cores
// (each knight task within maxMemory), logging to m and showing progress by progress.
func (o *natsFlags) count(ctx context.Context, plan work.Plan, m *countMeter, workers int, maxMemory int64, progress func(work.Status)) (cluster.Outcome, cluster.Stats, error) {
	token, err := o.auth.given()
	if err != nil {
		return cluster.Outcome{}, cluster.Stats{}, err
	}
	logger, err := m.logger(o.logFmt, "coordinator")
	if err != nil {
		return cluster.Outcome{}, cluster.Stats{}, err
	}
	opts := cluster.CountOptions{
		URL: o.nats, Listen: o.listen, StoreDir: o.state, Token: token, Creds: o.auth.creds,
		Workers: workers, MaxMemory: maxMemory, AckWait: o.ackWait, Verify: o.verify, VerifyWait: o.verifyWait, MinIdentities: o.minIDs, Replicas: o.replicas, StreamReplicas: o.streamCopies,
		Logf: logfTo(logger), Progress: progress,
	}
	if o.adaptive {
		opts.Adaptive = &cluster.Adaptive{}
	}
	if err := o.watch(ctx, plan, logger, &opts); err != nil {
		return cluster.Outcome{}, cluster.Stats{}, err
	}
	counts, stats, err := cluster.Count(ctx, plan, opts)
	if err != nil {
		url := o.nats
		if url == "" {
			url = "nats://" + o.listen
		}
		return counts, stats, refusedHint(err, url)
	}
	return counts, stats, nil
}

// watch starts the metrics and status page --metrics-listen asks for, if any, and has
// opts feed them: its progress (then the progress it had, which may be nil), the tasks in
// flight and the store's size. They stop with ctx. An address it cannot listen on is a
// usage error.
func (o *natsFlags) watch(ctx context.Context, plan work.Plan, logger *slog.Logger, opts *cluster.CountOptions) error {
	if o.metrics == "" {
		return nil
	}
	m := monitor.New(o.state)
	addr, err := m.Serve(ctx, o.metrics, logfTo(logger))
	if err != nil {
		return usageError(err)
	}
	logger.Info(fmt.Sprintf("metrics on http://%s/metrics, the status page on http://%s/", addr, addr))
	job := plan.Job()
	progress := opts.Progress
	opts.Progress = func(s work.Status) {
		m.Update(job, s)
		if progress != nil {
			progress(s)
		}
	}
	opts.InFlight, opts.Store = m.InFlight, m.SetStore
	return nil
}

// distOptions are the flags of "queens count" that run a count on many machines: through
// NATS (--distributed, --nats), or as slices for a batch scheduler (--shard).
type distOptions struct {
	natsFlags
	shard     string
	status    bool
	method    *methodOptions // the count's --method and --max-memory
	quiet     bool           // the count's --quiet: no progress
	listenSet bool           // whether --nats-listen was given (status)
}

// addDistFlags adds the distributed-count flags to cmd.
func addDistFlags(cmd *cobra.Command, o *distOptions) {
	o.natsFlags.add(cmd, "count through an embedded NATS server that workers on other machines join",
		"count through the NATS server at `URL` instead of an embedded one (with --status: the server to ask)", "an N")
	f := cmd.Flags()
	f.StringVar(&o.shard, "shard", "", "compute only slice `I/K` (0 ≤ I < K) of the plan and print it as JSON for \"queens merge\"")
	// "queens status" is the command; the flag stays, hidden, for the scripts that use it,
	// and says so on stderr (cobra's MarkDeprecated would say it on stdout).
	f.BoolVar(&o.status, "status", false, `an alias of "queens status"`)
	_ = f.MarkHidden("status")
}

// distArgs is the count command's argument check: none with --status (or N to show one
// job), else what next allows.
func distArgs(o *distOptions, next cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if o.status && len(args) <= 1 {
			return nil
		}
		return next(cmd, args)
	}
}

// runDistCount is "queens count" through NATS (--distributed or --nats). workers is
// --workers: the local workers of the count (0 for none).
func runDistCount(ctx context.Context, cmd *cobra.Command, o *distOptions, args []string, workers int, jsonOut bool) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if workers < 0 {
		return usageErrorf("--workers must be a whole number from 0 up, got %d", workers)
	}
	n, err := parseN(args[0], queens.MaxCountN)
	if err != nil {
		return err
	}
	if err := o.check(cmd.Flags(), workers); err != nil {
		return err
	}
	c, err := o.method.plan(n, 0) // its tasks run on workers elsewhere
	if err != nil {
		return err
	}
	plan := work.Queens(c.Plan)
	if err := plan.Build(ctx); err != nil {
		return err
	}
	// Log lines go through the meter, so that they do not tear its bar.
	m := newCountMeter(stderr, fmt.Sprintf("N=%d", n), o.quiet)
	m.waiting = "waiting for workers"
	defer m.Finish()
	start := time.Now()
	out, stats, err := o.count(ctx, plan, m, workers, 0, m.update)
	if err != nil {
		return err
	}
	m.Finish()
	counts := plan.Counts(out.Total, out.Sums)
	if jsonOut {
		return json.NewEncoder(stdout).Encode(distRecord{N: counts.N, Total: counts.Total, Unique: counts.Unique, Seconds: roundSeconds(time.Since(start).Seconds()),
			Verified: stats.Verified, Identities: stats.Identities, ByIdentities: stats.ByIdentities})
	}
	return printCounts(stdout, counts, false, 0)
}

// distRecord is the JSON line of a distributed count: a countRecord, and how many tasks
// were computed twice and agree (Verified), how many worker identities computed the
// results (Identities), and how many tasks were computed by k distinct identities
// (ByIdentities, by k; the coordinator counts as one).
type distRecord struct {
	N            int         `json:"n"`
	Total        any         `json:"total"`
	Unique       any         `json:"unique"`
	Seconds      float64     `json:"seconds"`
	Verified     int         `json:"verified"`
	Identities   int         `json:"identities"`
	ByIdentities map[int]int `json:"by_identities"`
}

func validPort(s string) bool {
	p, err := strconv.Atoi(s)
	return err == nil && p >= 0 && p <= 65535
}
