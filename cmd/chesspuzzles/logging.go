package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/spf13/cobra"
)

// logFormats are the values of --log-format.
var logFormats = []string{"text", "json"}

// addLogFormatFlag adds --log-format to the commands that log (worker, and the coordinator
// of a distributed count).
func addLogFormatFlag(cmd *cobra.Command, format *string) {
	cmd.Flags().StringVar(format, "log-format", "text", "log lines as `text` (key=value, RFC 3339 times) or json (one object a line, for log collectors)")
	_ = cmd.RegisterFlagCompletionFunc("log-format", cobra.FixedCompletions(logFormats, cobra.ShellCompDirectiveNoFileComp))
}

// newLogger returns the logger --log-format asks for, writing to w. Either way every line
// carries the full time (RFC 3339 with milliseconds and zone, as log/slog writes it), the
// level and the message, and component names what logs: "worker" or "coordinator".
func newLogger(w io.Writer, format, component string) (*slog.Logger, error) {
	var h slog.Handler
	switch format {
	case "text":
		h = slog.NewTextHandler(w, nil)
	case "json":
		h = slog.NewJSONHandler(w, nil)
	default:
		return nil, usageErrorf("--log-format must be text or json, got %q", format)
	}
	return slog.New(h).With("component", component), nil
}

// logfTo adapts l to the printf-style Logf hooks of internal/work/cluster: each call is one
// line at level INFO whose message is the formatted text.
func logfTo(l *slog.Logger) func(format string, args ...any) {
	return func(format string, args ...any) {
		l.Info(fmt.Sprintf(format, args...))
	}
}
