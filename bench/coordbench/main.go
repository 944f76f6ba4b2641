// Command coordbench measures one distributed-count coordinator on a plan of many tiny
// tasks: the fine plan of a small N cut with a tiny bound (internal/boundplan), which
// "queens count" cannot select, so this program plays each part in its own process:
//
//	coordbench -role server -listen 127.0.0.1:4333 -state DIR -workers 8
//	coordbench -role worker -nats nats://127.0.0.1:4333 -creds DIR/cb1.creds -cores 4 -n 14 -bound 12
//	coordbench -role coordinator -nats nats://127.0.0.1:4333 -state DIR -n 14 -bound 12
//
// The server trusts the [cluster.Authority] it keeps in DIR, as the command line's embedded
// server does: it issues -workers identities, cb1 to cbK, and writes their credentials in
// DIR/cb<i>.creds (mode 0600) before it listens; the coordinator, on the same machine, takes
// its own credentials from DIR.
//
// The coordinator prints the plan's size, its time from start to the exact count, the
// tasks per second, and its Go heap after the run; bench/coordinator.sh wraps it in
// /usr/bin/time for the peak RSS of each process.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/boundplan"
	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

func main() {
	role := flag.String("role", "", "server, worker or coordinator")
	listen := flag.String("listen", "127.0.0.1:4333", "server: address")
	url := flag.String("nats", "nats://127.0.0.1:4333", "worker, coordinator: server URL")
	state := flag.String("state", "", "server, coordinator: state directory (store, authority)")
	workers := flag.Int("workers", 8, "server: worker identities to issue (DIR/cb1.creds ...)")
	creds := flag.String("creds", "", "worker: credentials file the server wrote")
	n := flag.Int("n", 14, "board size")
	bound := flag.Uint64("bound", 12, "fine plan bound (1 splits every frame to the end)")
	cores := flag.Int("cores", 4, "worker: goroutines")
	window := flag.Int("window", 0, "coordinator: queue window (0: cluster.DefaultWindow)")
	verify := flag.Float64("verify", 0.001, "coordinator: share of tasks computed twice")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *role, *listen, *state, *url, *creds, *workers, *n, *bound, *cores, *window, *verify); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "coordbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, role, listen, state, url, creds string, workers, n int, bound uint64, cores, window int, verify float64) error {
	switch role {
	case "server":
		auth, err := cluster.LoadOrCreateAuthority(state)
		if err != nil {
			return err
		}
		for i := 1; i <= workers; i++ {
			c, err := auth.Issue(fmt.Sprintf("cb%d", i))
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(state, fmt.Sprintf("cb%d.creds", i)), c, 0o600); err != nil {
				return err
			}
		}
		s, err := cluster.StartServer(cluster.ServerOptions{Listen: listen, StoreDir: state, Authority: auth})
		if err != nil {
			return err
		}
		defer s.Shutdown()
		<-ctx.Done()
		return nil
	case "worker", "coordinator":
	default:
		return fmt.Errorf("-role must be server, worker or coordinator, got %q", role)
	}
	cp, err := boundplan.New(n, bound)
	if err != nil {
		return err
	}
	plan := work.Queens(cp)
	if role == "worker" {
		nc, user, err := cluster.ConnectWorker(ctx, cluster.ConnectOptions{URL: url, Creds: creds, Name: "coordbench " + role})
		if err != nil {
			return err
		}
		defer nc.Close()
		host, _ := os.Hostname()
		w := &cluster.Worker{Conn: nc, Identity: user, Cores: cores, Name: fmt.Sprintf("%s-%d", host, os.Getpid()), Every: time.Hour,
			Plans: func(string) (work.Plan, error) { return plan, nil }}
		return w.Run(ctx)
	}
	auth, err := cluster.LoadAuthority(state)
	if err != nil {
		return err
	}
	cc, err := auth.CoordinatorCreds()
	if err != nil {
		return err
	}
	nc, err := cluster.Connect(ctx, cluster.ConnectOptions{URL: url, UserCreds: cc, Name: "coordbench " + role})
	if err != nil {
		return err
	}
	defer nc.Close()
	start := time.Now()
	c := &cluster.Coordinator{Conn: nc, Window: window, Verify: verify, VerifyWait: 10 * time.Second,
		Logf: func(f string, a ...any) {
			fmt.Fprintf(os.Stderr, "%s "+f+"\n", append([]any{time.Now().Format("15:04:05")}, a...)...)
		}}
	out, st, err := c.Run(ctx, plan)
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	want, _ := queens.Known(n)
	counts := plan.Counts(out.Total, out.Sums)
	fmt.Printf("N=%d bound %d: %d tasks in %.1f s, %.0f tasks/s; Q=%v (%v) U=%v; resumed %d, queued %d, verified %d; heap after GC %.1f MiB\n",
		n, bound, plan.Len(), secs, float64(plan.Len()-st.Resumed)/secs, counts.Total, counts.Total.Cmp(want.Total) == 0, counts.Unique,
		st.Resumed, st.Queued, st.Verified, float64(m.HeapAlloc)/(1<<20))
	if counts.Total.Cmp(want.Total) != 0 {
		return fmt.Errorf("Q(%d) = %v, want %v", n, counts.Total, want.Total)
	}
	return nil
}
