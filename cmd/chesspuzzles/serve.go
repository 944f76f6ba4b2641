package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/web"
	"github.com/spf13/cobra"
)

func newServeCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "serve",
		Short: "Serve the local web app: browse solutions, solve by hand, watch a knight's tour",
		Long: `Serve the web app and its JSON API (see docs/api.md) on --addr, by default the
loopback address 127.0.0.1:8080, so nothing is reachable from other machines unless --addr
says so. The address is printed once the server listens (with --addr 127.0.0.1:0 the
system picks a free port). Ctrl-C stops it, letting running requests finish.

On a loopback address the server answers only requests addressed to localhost, 127.0.0.1
or [::1] (any port), so that a web page in the browser cannot reach it through a DNS name
that points at this machine; --allow-host names further host names to answer (a name in
/etc/hosts, say). On any other address (0.0.0.0:P, :P, [::]:P, a LAN address) it warns on
stderr that the page is reachable from the network, and answers every host name.`,
		Example: `  chesspuzzles serve
  chesspuzzles serve --addr 127.0.0.1:9000
  chesspuzzles serve --allow-host chess.home.arpa`,
		Args: exactArgs(0, "no arguments"),
	}, func(cmd *cobra.Command, opts *serveOptions) {
		f := cmd.Flags()
		f.StringVar(&opts.addr, "addr", "127.0.0.1:8080", "address to listen on, host:port")
		f.DurationVar(&opts.timeout, "timeout", 10*time.Second, "time limit of each request")
		f.IntVar(&opts.maxHeavy, "max-heavy", 0, "searches run at once (0: runtime.GOMAXPROCS, the cores this process may use)")
		f.StringSliceVar(&opts.allowHosts, "allow-host", nil, "a further host name (no port) that a loopback server answers; repeat or separate with commas")
	}, func(cmd *cobra.Command, opts *serveOptions, _ []string) error {
		if opts.timeout <= 0 {
			return usageErrorf("--timeout must be positive, got %v", opts.timeout)
		}
		if opts.maxHeavy < 0 {
			return usageErrorf("--max-heavy must be 0 (the number of CPUs) or more, got %d", opts.maxHeavy)
		}
		return runServe(cmd.Context(), *opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// serveOptions are the options of "serve".
type serveOptions struct {
	addr       string
	timeout    time.Duration
	maxHeavy   int
	allowHosts []string
}

// serveStopWait is how long serve waits, once interrupted, for requests under way to end
// (their contexts are cancelled) before it closes their connections. It is under a third
// of the second that serve has from Ctrl-C to its exit: the rest is the process's own end,
// which on a busy machine (a race-built binary at load 19) took up to 400 ms, and CI's
// machine is slower than ours.
const serveStopWait = 300 * time.Millisecond

// runServe serves until ctx is done. On a loopback address the server answers only
// loopback host names and opts.allowHosts; on any other it warns on stderr.
func runServe(ctx context.Context, opts serveOptions, stdout, stderr io.Writer) error {
	for _, h := range opts.allowHosts {
		if h == "" || strings.ContainsAny(h, ":/[] ") {
			return usageErrorf("--allow-host takes a host name without port or scheme, such as chess.home.arpa, got %q", h)
		}
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return usageErrorf("cannot listen on %q: %v", opts.addr, err)
	}
	loopback := false
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		loopback = a.IP.IsLoopback()
	}
	if !loopback {
		fmt.Fprintf(stderr, "chesspuzzles: serve: warning: listening on %s: the page and its API are reachable from the network, by anyone who can reach this machine; use --addr 127.0.0.1:PORT to keep them on this machine\n", ln.Addr())
	}
	var conns activeConns
	srv := &http.Server{
		Handler: web.New(web.Options{
			Timeout: opts.timeout, MaxHeavy: opts.maxHeavy,
			LoopbackOnly: loopback, AllowHosts: opts.allowHosts,
		}).Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		WriteTimeout:      opts.timeout + 5*time.Second,
		IdleTimeout:       time.Minute,
		// Requests live under ctx: Ctrl-C ends the searches and drawings under way (they
		// look at their context), so that the server stops within a second.
		BaseContext: func(net.Listener) context.Context { return ctx },
		ConnState:   conns.track,
	}
	fmt.Fprintf(stdout, "serving on %s\n", pageURL(ln.Addr()))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), serveStopWait)
	defer cancel() // ends a Shutdown still polling after the Close below
	stopped := make(chan error, 1)
	go func() { stopped <- srv.Shutdown(shutdown) }() // no new requests from here on
	select {
	case err := <-stopped:
		if errors.Is(err, context.DeadlineExceeded) {
			srv.Close() // a handler that does not look at its context: cut it off
		} else if err != nil {
			return err
		}
	case <-conns.none():
		srv.Close() // every request answered: close now, not at Shutdown's next poll
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(stdout, "stopped")
	return ctx.Err() // interrupted: exit 130
}

// pageURL is the address of the page served on a, one a browser on this machine opens:
// a listener on every address (0.0.0.0 or [::], which Go reports as [::]) is reached at
// 127.0.0.1, and an IPv6 address is written in brackets.
func pageURL(a net.Addr) string {
	host := a.String()
	if t, ok := a.(*net.TCPAddr); ok {
		ip := t.IP
		if ip == nil || ip.IsUnspecified() {
			ip = net.IPv4(127, 0, 0, 1)
		}
		host = net.JoinHostPort(ip.String(), strconv.Itoa(t.Port))
	}
	return "http://" + host + "/"
}
