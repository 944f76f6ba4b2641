package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/spf13/cobra"
)

func newWorkerCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "worker",
		Short: "Join a distributed count: ask a coordinator for tasks and run them",
		Long: `Worker joins the distributed counts coordinated by "queens count N --distributed"
or "knight count --plan --distributed" (or --nats URL) on another machine. It asks the
coordinator for one task per core at a time (a knight task within --max-memory), runs it, and hands the result in until the coordinator has stored it, so that a
worker that dies loses nothing: its tasks are assigned again after the coordinator's ack
deadline. While it computes it tells the coordinator so, however long a task takes.

It reconnects for ever after losing the server, logs how many tasks it has done every
--every, and on Ctrl-C hands its current tasks back at once and exits (130).

Every worker has an identity the operator issued: "chesspuzzles worker add NAME" on the
coordinator's machine writes NAME.creds (NATS credentials: a user JWT the coordinator's
account signed, and the user's own key), which the worker gives with --creds FILE. The
server lets the worker ask for tasks, say it works on them and hand in their results under
that identity only, and nothing else; a token or a self-made name gets nothing. "worker
revoke NAME" revokes an identity (the running server closes its connections), "worker
list" lists the issued identities and what each did. On a cluster whose operator gave
each worker a user and password (see docs/distributed.md), the identity is that user, in
the URL (nats://w1:PASSWORD@host:4222) or --identity NAME.

The coordinator, not the worker, picks who computes a task a second time (--replicas,
--verify): never the identity of the first.

  chesspuzzles worker add w1            # on the coordinator's machine: writes w1.creds
  chesspuzzles worker --nats nats://coordinator.example:4222 --creds w1.creds`,
		Args: cobra.NoArgs,
	}, func(cmd *cobra.Command, opts *workerOptions) {
		host, _ := os.Hostname()
		f := cmd.Flags()
		f.StringVar(&opts.nats, "nats", "nats://127.0.0.1:4222", "`URL` of the NATS server (comma-separated for a cluster)")
		addAuthFlags(f, &opts.auth, "`TOKEN` a --nats server of your own requires (default $CHESSPUZZLES_NATS_TOKEN); a coordinator's embedded server takes none, only --creds")
		f.IntVar(&opts.cores, "cores", 0, "tasks to run at once (0: runtime.GOMAXPROCS, the cores this process may use)")
		f.StringVar(&opts.maxMemory, "max-memory", "", "memory each knight task may hold, e.g. 8GiB; a task that needs more is handed back for another worker (default: half of this machine's memory divided by --cores)")
		f.StringVar(&opts.name, "name", fmt.Sprintf("%s-%d", host, os.Getpid()), "`NAME` of this worker in the coordinator's log (its identity is what counts)")
		f.StringVar(&opts.identity, "identity", "", "the NATS user `NAME` the operator gave this worker, for a cluster of users and passwords (default: the user of the --nats URL, else the one --creds names)")
		f.BoolVarP(&opts.verbose, "verbose", "v", false, "log every task")
		f.DurationVar(&opts.every, "every", 30*time.Second, "log the number of tasks done this often")
		f.DurationVar(&opts.stall, "test-stall", 0, "make every task take at least this long (for tests)")
		_ = f.MarkHidden("test-stall")
		addLogFormatFlag(cmd, &opts.logFmt)
		cmd.AddCommand(newWorkerAddCmd(), newWorkerRevokeCmd(), newWorkerListCmd(), newWorkerServerConfigCmd())
	}, func(cmd *cobra.Command, opts *workerOptions, _ []string) error {
		if opts.cores < 0 {
			return usageErrorf("--cores must be 0 (all) or more, got %d", opts.cores)
		}
		return runWorker(cmd.Context(), *opts, cmd.ErrOrStderr())
	})
}

// workerOptions are the options of "worker".
type workerOptions struct {
	nats      string
	auth      natsAuth
	cores     int
	maxMemory string // --max-memory, as given
	name      string
	identity  string
	verbose   bool
	every     time.Duration
	logFmt    string        // --log-format
	stall     time.Duration // testing hook, hidden
}

// runWorker runs a worker until ctx is done. The worker writes only log lines, to stderr.
func runWorker(ctx context.Context, opts workerOptions, stderr io.Writer) error {
	maxMemory, err := workerMemory(opts.maxMemory, opts.cores)
	if err != nil {
		return err
	}
	logger, err := newLogger(stderr, opts.logFmt, "worker")
	if err != nil {
		return err
	}
	logf := logfTo(logger.With("worker", opts.name))
	user := opts.identity
	if user == "" {
		user = urlUser(opts.nats)
	}
	if user != "" && !cluster.ValidIdentity(user) {
		return usageErrorf("--identity must be 1 to 64 letters, digits, '-' or '_', got %q", user)
	}
	if opts.auth.creds != "" {
		data, err := cluster.ReadCreds(opts.auth.creds)
		if err != nil {
			return usageErrorf("--creds: %v", err)
		}
		name, err := cluster.CredsIdentity(data)
		if err != nil {
			return usageErrorf("--creds %s: %v", opts.auth.creds, err)
		}
		if user != "" && user != name {
			return usageErrorf("--creds %s are of identity %q, not %q", opts.auth.creds, name, user)
		}
		user = name
	}
	token := ""
	if user == "" {
		if token, err = opts.auth.given(); err != nil {
			return err
		}
	}
	nc, user, err := cluster.ConnectWorker(ctx, cluster.ConnectOptions{URL: opts.nats, Token: token, Creds: opts.auth.creds, User: user, Password: urlPassword(opts.nats),
		Name: "chesspuzzles worker " + opts.name, Logf: logf})
	if err != nil {
		return refusedHint(err, opts.nats)
	}
	defer nc.Close()
	w := &cluster.Worker{Conn: nc, Identity: user, Cores: opts.cores, Name: opts.name, Logf: logf, Verbose: opts.verbose, Every: opts.every, Stall: opts.stall,
		MaxMemory: maxMemory}
	return w.Run(ctx)
}

// workerMemory returns the bound of each knight task of a worker: --max-memory, else half
// this machine's memory shared by the tasks that run at once (cores, 0: GOMAXPROCS).
func workerMemory(flag string, cores int) (int64, error) {
	if flag != "" {
		size, err := parseSize(flag)
		if err != nil {
			return 0, usageErrorf("--max-memory: %v", err)
		}
		return int64(min(size, 1<<62)), nil
	}
	if cores <= 0 {
		cores = runtime.GOMAXPROCS(0)
	}
	return int64(halfMemory() / uint64(cores)), nil
}
