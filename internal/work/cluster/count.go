package cluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// CountOptions say how [Count] runs a plan. The zero value counts through an embedded
// server on 127.0.0.1:4222 keeping its state in the current directory, with no local
// worker.
type CountOptions struct {
	// URL is the NATS server to count through; empty starts an embedded one that listens
	// on Listen (default 127.0.0.1:4222; port 0 picks one) and keeps its store, the
	// [Authority] that issues the workers' identities and the coordinator's secret in
	// StoreDir (default "."). The coordinator keeps its snapshot of the job in StoreDir
	// either way (see Coordinator.StateDir).
	URL      string
	Listen   string
	StoreDir string
	// Token and Creds say how the coordinator authenticates to the server at URL: its NATS
	// token, a NATS credentials file, or (neither) the user in the URL, which the operator
	// must give every right. The coordinator itself connects to an embedded server with
	// credentials its Authority makes for it; Token and Creds are then unused.
	Token string
	Creds string
	// Workers is the number of cores of a worker run in this process (0: none, the
	// tasks wait for workers elsewhere); MaxMemory its Worker.MaxMemory.
	Workers   int
	MaxMemory int64
	// AckWait, Verify and VerifyWait are the [Coordinator]'s.
	// Replicas is the Coordinator's.
	AckWait    time.Duration
	Verify     float64
	VerifyWait time.Duration
	Replicas   int
	// Adaptive is the Coordinator's: adaptive replication, nil if off.
	Adaptive *Adaptive
	// MinIdentities is the Coordinator's: the fewest identities a verifier is drawn among.
	MinIdentities int
	// StreamReplicas is the Coordinator's: the copies a cluster at URL keeps of what the
	// coordinator stores.
	StreamReplicas int
	// Logf, if not nil, gets one line per event worth knowing: the server's address and
	// how workers join it, the job resumed, results rejected, the verification.
	Logf func(format string, args ...any)
	// Progress, if not nil, is called after each new result (and once at the start) with
	// the job's status; it must return quickly. Status.Resumed counts the results already
	// on the server when the run started, whose work the rate and ETA leave out.
	Progress func(work.Status)
	// InFlight is the Coordinator's. Store, if not nil, is given once connected the
	// function that returns the bytes the server holds of the results (StoreBytes on the
	// coordinator's connection, which ends with Count).
	InFlight func(first, second int)
	Store    func(bytes func(context.Context) (uint64, error))
}

// Count counts plan through NATS, as a coordinator: it starts the embedded
// server unless opts.URL names one, connects, runs opts.Workers cores of a worker in this
// process if asked, and runs a [Coordinator] until every task has a result and the
// verified share agrees. It returns the plan's exact total and sums (see [Outcome]); ctx.Err() if ctx ends first
// (the job stays on the server, and counting again resumes it); an error wrapping
// [ErrRefused] when the server refuses the credentials, and a [*RefusedError] when the
// total cannot be trusted. Its Stats say how many tasks were computed by how many
// distinct identities. It takes as long as the workers need; its own cost is a moment per
// thousand tasks and one goroutine.
//
// The embedded server trusts only the [Authority] kept in StoreDir: workers join with the
// credentials "chesspuzzles worker add NAME" issues.
func Count(ctx context.Context, plan work.Plan, opts CountOptions) (Outcome, Stats, error) {
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	dir := opts.StoreDir
	if dir == "" {
		dir = "."
	}
	if err := CheckStateDir(dir); err != nil {
		return Outcome{}, Stats{}, err
	}
	admin, err := LoadOrCreateAdmin(dir)
	if err != nil {
		return Outcome{}, Stats{}, err
	}
	auth, err := LoadOrCreateAuthority(dir)
	if err != nil {
		return Outcome{}, Stats{}, err
	}
	url := opts.URL
	co := ConnectOptions{URL: url, Token: opts.Token, Creds: opts.Creds, Name: "chesspuzzles coordinator", Logf: logf}
	if url != "" {
		// The server's own limits apply where it lets this state directory's system
		// account in (external.go); else the operator must set them.
		_, stop, err := watchExternal(ctx, url, auth, DefaultMaxConnections, logf)
		if err != nil {
			logf("%s (%v)", externalLimits, err)
		} else {
			defer stop()
			logf(externalHeld, DefaultMaxConnections)
		}
	}
	if url == "" {
		srv, err := startEmbedded(opts, auth, logf)
		if err != nil {
			return Outcome{}, Stats{}, err
		}
		defer srv.Shutdown()
		url = srv.URL()
		creds, err := auth.CoordinatorCreds()
		if err != nil {
			return Outcome{}, Stats{}, err
		}
		co = ConnectOptions{URL: url, UserCreds: creds, Name: "chesspuzzles coordinator", Logf: logf}
		if err := writeServerURL(dir, localURL(srv)); err != nil {
			logf("%v", err)
		}
		defer os.Remove(filepath.Join(dir, ServerURLFile))
	}
	nc, err := Connect(ctx, co)
	if errors.Is(err, ErrRefused) && opts.URL != "" && opts.Token == "" && opts.Creds == "" && co.UserCreds == nil {
		// A cluster of the operator's own that trusts the identities of StoreDir
		// ("worker server-config"): connect as their coordinator.
		if co.UserCreds, err = auth.CoordinatorCreds(); err != nil {
			return Outcome{}, Stats{}, err
		}
		nc, err = Connect(ctx, co)
	}
	if err != nil {
		return Outcome{}, Stats{}, err
	}
	defer nc.Close()
	if opts.Store != nil {
		opts.Store(func(ctx context.Context) (uint64, error) { return StoreBytes(ctx, nc) })
	}

	wctx, stopWorker := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { stopWorker(); wg.Wait() }()
	if opts.Workers > 0 {
		creds, err := auth.LocalCreds()
		if err != nil {
			return Outcome{}, Stats{}, err
		}
		wc, user, err := ConnectWorker(ctx, ConnectOptions{URL: url, UserCreds: creds, Name: "chesspuzzles local worker", Logf: logf})
		if err != nil {
			return Outcome{}, Stats{}, err
		}
		defer wc.Close()
		host, _ := os.Hostname()
		// Its log would crowd the coordinator's: only why it takes no task, once a line.
		var said sync.Map
		warnf := func(format string, args ...any) {
			line := fmt.Sprintf(format, args...)
			if _, dup := said.LoadOrStore(line, true); !dup {
				logf("this machine's worker: %s", line)
			}
		}
		w := &Worker{Conn: wc, Identity: user, Cores: opts.Workers, Name: host + "-local", Every: time.Hour, MaxMemory: opts.MaxMemory, Warnf: warnf}
		wg.Go(func() { _ = w.Run(wctx) })
	}

	c := &Coordinator{Conn: nc, AckWait: opts.AckWait, Verify: opts.Verify, VerifyWait: opts.VerifyWait, MinIdentities: opts.MinIdentities, Replicas: opts.Replicas, Adaptive: opts.Adaptive,
		StreamReplicas: opts.StreamReplicas, Logf: opts.Logf, StateDir: dir, Sealer: NewSealer(admin), InFlight: opts.InFlight}
	if opts.URL == "" {
		// The embedded server lets in only the identities auth issued; the coordinator
		// takes part only those still issued, and its own local worker.
		c.Admit = admitIssued(auth, logf)
	}
	if opts.Progress != nil {
		p := &jobProgress{plan: plan, workers: opts.Workers}
		p.n, _ = jobBoard(plan.Job())
		opts.Progress(p.status(newTally(plan)))
		c.Progress = func(t *tally) { opts.Progress(p.status(t)) }
		c.CaughtUp = func(t *tally) {
			p.caughtUp(t)
			opts.Progress(p.status(t))
		}
	}
	return c.Run(ctx, plan)
}

// externalLimits is what Count logs at the start of a count through a server it did not
// start and that does not let this state directory's system account in: the connection
// cap (connlimit.go) and the flood shut-out (flood.go, shutout.go) follow the system
// account's events and counters, and do not apply there. externalHeld is what it logs
// where they do (external.go).
const (
	externalLimits = "the NATS server at --nats does not let this state directory's system account in: the coordinator caps no identity's connections there and shuts out no identity that floods it; configure it with \"chesspuzzles worker server-config\", or set in its configuration max_payload: 16KB and max_connections, and a connection limit on the workers' account (nsc edit account --conns N); see docs/distributed.md"
	externalHeld   = "the NATS server at --nats lets this state directory's system account in: each identity is held to %d connections there, and one that floods it is shut out, as on the embedded server"
)

// admitIssued returns a Coordinator's Admit of the identities auth issued and has not
// revoked, and of the local worker ("local"). It reads the issued identities again at
// most once every admitReload, and at once for a name it did not know (an identity issued
// while it runs: the server lets in no other), so that "worker add" and "worker revoke"
// take effect while the coordinator runs; if they cannot be read, it keeps the last it read.
func admitIssued(auth *Authority, logf func(string, ...any)) func(user string) bool {
	var at time.Time
	issued := map[string]bool{}
	return func(user string) bool {
		if user == "local" {
			return true
		}
		// Again every admitReload, and at once for a name not known yet: one issued
		// since (the server lets in no name that is not issued, and a revoked one is
		// known).
		if _, known := issued[user]; !known || time.Since(at) >= admitReload {
			at = time.Now()
			if err := auth.reload(); err != nil {
				logf("reading the issued identities: %v; keeping those read before", err)
			} else {
				clear(issued)
				for _, id := range auth.Identities() {
					issued[id.Name] = id.Revoked.IsZero()
				}
			}
		}
		return issued[user]
	}
}

// admitReload is how often admitIssued reads the issued identities again, at most.
const admitReload = 2 * time.Second

// ServerURLFile is the file, in a coordinator's state directory, that names the URL of
// its embedded server while it runs: where "queens status --state DIR" and "worker revoke"
// find it.
const ServerURLFile = "server.url"

func writeServerURL(dir, url string) error {
	return writePrivate(filepath.Join(dir, ServerURLFile), []byte(url+"\n"), false)
}

// localURL returns a URL of srv for clients on this machine: loopback where it listens on
// every interface.
func localURL(srv *Server) string {
	a := srv.Addr()
	if a == nil || !a.IP.IsUnspecified() {
		return srv.URL()
	}
	host := "127.0.0.1"
	if a.IP.To4() == nil {
		host = "::1"
	}
	return "nats://" + net.JoinHostPort(host, strconv.Itoa(a.Port))
}

// ServerURL returns the URL of the embedded server of the coordinator whose state
// directory is dir, or an error wrapping fs.ErrNotExist if none runs there.
func ServerURL(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, ServerURLFile))
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(data)), nil
}

// startEmbedded starts the embedded server of opts, trusting auth, and logs where it
// listens and how workers join it.
func startEmbedded(opts CountOptions, auth *Authority, logf func(string, ...any)) (*Server, error) {
	listen, dir := opts.Listen, opts.StoreDir
	if listen == "" {
		listen = "127.0.0.1:4222"
	}
	if dir == "" {
		dir = "."
	}
	srv, err := StartServer(ServerOptions{Listen: listen, StoreDir: dir, Authority: auth, Logf: logf})
	if err != nil {
		return nil, err
	}
	port := srv.Addr().Port
	shown := srv.URL()
	if !IsLoopback(listen) {
		host, _ := os.Hostname()
		shown = fmt.Sprintf("nats://%s:%d", host, port)
	}
	host, _, _ := net.SplitHostPort(listen)
	logf("NATS server on %s, state in %s", net.JoinHostPort(host, fmt.Sprint(port)), dir)
	n := 0
	for _, id := range auth.Identities() {
		if id.Revoked.IsZero() {
			n++
		}
	}
	word := "identities"
	if n == 1 {
		word = "identity"
	}
	logf("workers join with: chesspuzzles worker --nats %s --creds FILE (%d %s issued; issue one with: chesspuzzles worker add NAME --state %s)", shown, n, word, dir)
	return srv, nil
}

// jobProgress turns the coordinator's tally into work.Status values. The results already
// on the server when the run starts (in its snapshot, or read from the stream) come first,
// as fast as the server sends them; they are this run's resumed tasks, and its rate and
// ETA are measured from the moment the coordinator has read them (caughtUp).
type jobProgress struct {
	plan    work.Plan
	n       int // the queens board's N, 0 for another plan (jobBoard, read once)
	workers int
	base    struct {
		set   bool
		at    time.Time
		done  int
		nodes uint64
		cost  uint64
	}
}

// caughtUp sets the base of the rate: the tally once the stored results are read.
func (p *jobProgress) caughtUp(t *tally) {
	costDone, _ := t.CostDone()
	p.base.set = true
	p.base.at, p.base.done, p.base.nodes, p.base.cost = time.Now(), t.Done(), t.Nodes(), costDone
}

func (p *jobProgress) status(t *tally) work.Status {
	costDone, costLeft := t.CostDone()
	now := time.Now()
	s := work.Status{
		N: p.n, Tasks: p.plan.Len(), Done: t.Done(), Resumed: t.Done(),
		Solutions: t.Total(), Nodes: t.Nodes(), Workers: p.workers,
		CostTotal: costDone + costLeft, CostLeft: costLeft,
	}
	if p.base.set {
		s.Resumed = p.base.done
		s.NodesRun = t.Nodes() - p.base.nodes
		s.CostRun = costDone - p.base.cost
		s.Elapsed = now.Sub(p.base.at)
	}
	return s
}
