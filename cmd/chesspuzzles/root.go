package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/spf13/cobra"
)

// negativeArg matches pflag's complaint about an argument like -5, which it reads as a
// bundle of one-letter flags.
var negativeArg = regexp.MustCompile(`^unknown shorthand flag: '[0-9]' in (-[0-9][-0-9,.x]*)$`)

// flagError turns a flag parsing error into a usage error (exit 2), and says what is
// meant when the "flag" is a negative number given as an argument.
func flagError(cmd *cobra.Command, err error) error {
	if m := negativeArg.FindStringSubmatch(err.Error()); m != nil {
		return usageErrorf("%q: negative numbers are not allowed here (sizes, counts and squares start at 1; see %q)", m[1], cmd.CommandPath()+" --help")
	}
	return suggestFlag(cmd, err)
}

// newRootCmd builds the command tree. Every command writes results to stdout and progress
// and errors to stderr, through the writers given here.
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "chesspuzzles",
		Short: "N-queens and knight's tours: solve, count, check and draw",
		Long:  manual(), // the package comment of doc.go

		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(flagError)
	root.Version = buildVersion().String()
	root.SetVersionTemplate("{{.Version}}\n")
	root.AddCommand(newQueensCmd())
	root.AddCommand(newServeCmd())
	root.AddCommand(newVersionCmd())
	root.AddCommand(newKnightCmd())
	root.AddCommand(newWorkerCmd())
	guardGroups(root)
	machineReadable(root)
	return root
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
