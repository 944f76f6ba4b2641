package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/chesspuzzles/chesspuzzles/web"
	"github.com/spf13/cobra"
)

type serveOptions struct {
	addr     string
	timeout  time.Duration
	maxHeavy int
}

func newServeCmd() *cobra.Command {
	var opts serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the local web app: browse solutions, solve by hand, watch a knight's tour",
		Long: `Serve the web app and its JSON API (see docs/web.md) on --addr, by default the
loopback address 127.0.0.1:8080, so nothing is reachable from other machines unless --addr
says so. The address is printed once the server listens (with --addr 127.0.0.1:0 the
system picks a free port). Ctrl-C stops it, letting running requests finish.`,
		Example: `  chesspuzzles serve
  chesspuzzles serve --addr 127.0.0.1:9000`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.timeout <= 0 {
				return usageErrorf("--timeout must be positive, got %v", opts.timeout)
			}
			if opts.maxHeavy < 0 {
				return usageErrorf("--max-heavy must be 0 (the number of CPUs) or more, got %d", opts.maxHeavy)
			}
			return runServe(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.addr, "addr", "127.0.0.1:8080", "address to listen on, host:port")
	f.DurationVar(&opts.timeout, "timeout", 10*time.Second, "time limit of each request")
	f.IntVar(&opts.maxHeavy, "max-heavy", 0, "searches run at once (0: the number of CPUs)")
	return cmd
}

func runServe(ctx context.Context, opts serveOptions, stdout io.Writer) error {
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return usageErrorf("cannot listen on %q: %v", opts.addr, err)
	}
	srv := &http.Server{
		Handler:           web.New(web.Options{Timeout: opts.timeout, MaxHeavy: opts.maxHeavy}).Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		WriteTimeout:      opts.timeout + 5*time.Second,
		IdleTimeout:       time.Minute,
	}
	fmt.Fprintf(stdout, "serving on http://%s/\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), opts.timeout)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(stdout, "stopped")
	return ctx.Err() // interrupted: exit 130
}
