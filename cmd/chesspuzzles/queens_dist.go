package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/dist"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

// distOptions are the flags of "queens count" that run a count on many machines: through
// NATS (--distributed, --nats), or as slices for a batch scheduler (--shard).
type distOptions struct {
	distributed bool
	nats        string
	listen      string
	state       string
	auth        natsAuth
	verify      float64
	replicas    int
	verifyWait  time.Duration
	ackWait     time.Duration
	shard       string
	status      bool
	method      *methodOptions // the count's --method and --max-memory
	logFmt      string         // --log-format of the coordinator
	quiet       bool           // the count's --quiet: no progress
	listenSet   bool           // whether --nats-listen was given (status)
}

// addDistFlags adds the distributed-count flags to cmd.
func addDistFlags(cmd *cobra.Command, o *distOptions) {
	f := cmd.Flags()
	f.BoolVar(&o.distributed, "distributed", false, "count through an embedded NATS server that workers on other machines join")
	f.StringVar(&o.nats, "nats", "", "count through the NATS server at `URL` instead of an embedded one (with --status: the server to ask)")
	f.StringVar(&o.listen, "nats-listen", "127.0.0.1:4222", "`ADDR` the embedded NATS server listens on (0.0.0.0:4222 for other machines)")
	f.StringVar(&o.state, "state", defaultStateDir(), "`DIR` of the embedded server's store and the coordinator's snapshot; start again with the same DIR to resume")
	addAuthFlags(f, &o.auth, "`TOKEN` the coordinator gives a --nats server that wants one (default $CHESSPUZZLES_NATS_TOKEN); the embedded server takes no token, only identities \"worker add\" issued")
	f.Float64Var(&o.verify, "verify", defaultVerify, "with --distributed or --nats: recompute this `FRACTION` of the tasks, chosen at random, on another worker, and refuse the total if any differs (0: none)")
	f.IntVar(&o.replicas, "replicas", 0, "with --distributed or --nats: 2 has every task computed by two distinct worker identities, the second chosen by the coordinator, a disagreement settled by a third computation; 1 by one (default: 2 at an N with no published count, else 1)")
	f.DurationVar(&o.verifyWait, "verify-wait", time.Minute, "verify in the coordinator the tasks no other worker has verified within this `DURATION`")
	f.DurationVar(&o.ackWait, "ack-wait", dist.DefaultAckWait, "redeliver a task whose worker has been silent this long")
	f.StringVar(&o.shard, "shard", "", "compute only slice `I/K` (0 ≤ I < K) of the plan and print it as JSON for \"queens merge\"")
	addLogFormatFlag(cmd, &o.logFmt)
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
	if _, port, err := net.SplitHostPort(o.listen); err != nil || !validPort(port) {
		return usageErrorf("--nats-listen must be HOST:PORT with a port from 0 to 65535, got %q", o.listen)
	}
	if o.ackWait < 100*time.Millisecond {
		return usageErrorf("--ack-wait must be at least 100ms, got %v", o.ackWait)
	}
	c, err := o.method.plan(n, 0) // its tasks run on workers elsewhere
	if err != nil {
		return err
	}
	plan := c.Plan
	if err := plan.Build(ctx); err != nil {
		return err
	}
	if err := checkVerify(o.verify); err != nil {
		return err
	}
	if o.verifyWait <= 0 {
		return usageErrorf("--verify-wait must be a positive duration, got %v", o.verifyWait)
	}
	if cmd.Flags().Changed("replicas") && o.replicas != 1 && o.replicas != 2 {
		return usageErrorf("--replicas must be 1 or 2, got %d", o.replicas)
	}
	if err := dist.CheckStateDir(o.state); err != nil {
		return usageError(err)
	}
	token, err := o.auth.given()
	if err != nil {
		return err
	}
	// Log lines go through the meter, so that they do not tear its bar.
	m := newCountMeter(stderr, fmt.Sprintf("N=%d", n), o.quiet)
	m.waiting = "waiting for workers"
	defer m.Finish()
	logger, err := newLogger(m, o.logFmt, "coordinator")
	if err != nil {
		return err
	}
	start := time.Now()
	counts, stats, err := dist.Count(ctx, plan, dist.CountOptions{
		URL: o.nats, Listen: o.listen, StoreDir: o.state, Token: token, Creds: o.auth.creds,
		Workers: workers, AckWait: o.ackWait, Verify: o.verify, VerifyWait: o.verifyWait, Replicas: o.replicas,
		Logf: logfTo(logger), Progress: m.update,
	})
	if err != nil {
		url := o.nats
		if url == "" {
			url = "nats://" + o.listen
		}
		return refusedHint(err, url)
	}
	m.Finish()
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
