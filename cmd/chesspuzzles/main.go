package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := execute(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// execute runs the command line args and returns the process exit code, printing any error as
// one line on stderr: "chesspuzzles: <command>: <what was wrong>".
func execute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// A command that writes its answer to a full disk or a closed pipe has not answered,
	// even if it ignored the error: the first write error fails it (exit 1, one line). A
	// terminal is left unwrapped, so that commands still see it as one (isTerminal).
	out := &answerWriter{w: stdout}
	if !isTerminal(stdout) {
		stdout = out
	}
	root := newRootCmd(stdin, stdout, stderr)
	root.SetArgs(args)
	started := false
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		started = true
		return checkFlags(cmd)
	}
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing the answer: %w", out.err)
	}
	if err == nil {
		return exitOK
	}
	code := exitNo
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		code = ee.code
		if ee.err == nil {
			return code
		}
	case errors.Is(err, cluster.ErrCannotConnect):
		// A NATS URL with no server behind it, or a token it refuses: bad input.
		code = exitUsage
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		code = exitInterrupted
		err = errors.New("interrupted")
	case !started:
		// Cobra's own errors (unknown command or flag, wrong number of arguments) come
		// before any command has run: they are usage errors.
		code = exitUsage
	}
	where := ""
	if cmd != nil && cmd != root {
		where = strings.TrimPrefix(cmd.CommandPath(), root.Name()+" ") + ": "
	}
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	fmt.Fprintf(stderr, "chesspuzzles: %s%s\n", where, msg)
	return code
}

// answerWriter is standard output, remembering the first write error.
type answerWriter struct {
	w   io.Writer
	err error
}

func (a *answerWriter) Write(p []byte) (int, error) {
	n, err := a.w.Write(p)
	if err != nil && a.err == nil {
		a.err = err
	}
	return n, err
}
