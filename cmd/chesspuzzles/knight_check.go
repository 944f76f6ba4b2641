package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/knight"
	"github.com/spf13/cobra"
)

func newKnightCheckCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "check [FILE]",
		Short: "Check a knight's tour given as squares, JSON or a numbered board",
		Long: `Check a knight's tour read from FILE, or from standard input when there is none.

The tour may be square names ("a1 c2 e1 …"; the board is N×N for N² names, or give --board),
the JSON that "tour --format json" writes, or a board of move numbers. Exit 0 when it is a
tour (open or closed, said on stdout), 1 when it is not (naming the first bad step), 2 when
it cannot be read.`,
		Args: cobra.MaximumNArgs(1),
	}, func(cmd *cobra.Command, o *knightCheckOpts) {
		o.sizes.add(cmd, "")
		cmd.Flags().BoolVar(&o.json, "json", false, `one JSON object: {"valid":true,"closed":…,"rows":…,"cols":…,"from":"a1","to":…} or {"valid":false,"reason":…}`)
	}, func(cmd *cobra.Command, o *knightCheckOpts, args []string) error {
		if len(args) == 1 {
			o.file = args[0]
		}
		return runKnightCheck(cmd.Context(), *o, cmd.InOrStdin(), cmd.OutOrStdout())
	})
}

// knightCheckOpts are the options of "knight check".
type knightCheckOpts struct {
	sizes sizeFlags
	file  string
	json  bool
}

// knightCheckRecord is the --json output of knight check.
type knightCheckRecord struct {
	Valid  bool   `json:"valid"`
	Closed bool   `json:"closed"`
	Rows   int    `json:"rows,omitempty"`
	Cols   int    `json:"cols,omitempty"`
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// notATour ends knight check with exit 1: with --json the reason goes to stdout as
// {"valid":false,"reason":…}, else err to stderr.
func notATour(o knightCheckOpts, stdout io.Writer, err error) error {
	if !o.json {
		return answerNo(err)
	}
	json.NewEncoder(stdout).Encode(knightCheckRecord{Reason: err.Error()})
	return answerNo(nil)
}

// maxTourBytes bounds what knight check reads for a board of squares squares (0: not
// given): a numbered board writes each square's number in at most 10 digits and a space or
// two, a list of squares less; so 16 bytes a square. Without --size or --board the bound is
// that of a board of 2^22 squares (64 MiB, a 2048×2048 tour): a larger tour names its
// board, so that "yes a1 | knight check" cannot hold gigabytes.
//
// Whatever the board, at most maxTourText: past it a tour's text and what it is read into
// (about four times the text) would not fit a process of 2 GB, and "yes a1 | knight check
// --size 10000" would read 1.6 GB before refusing. Tours of larger boards are checked where
// they are made (knight tour checks its own).
func maxTourBytes(squares int) int64 {
	if squares <= 0 {
		squares = 1 << 22
	}
	return min(16*int64(squares)+4096, maxTourText)
}

// maxTourText is the most text knight check reads: a list of the squares of a 4000×4000
// tour (about 6 bytes a square), or a numbered board of 2400×2400. maxTourJSON is the
// most it reads as JSON, which takes about ten times its text to decode (48 MB of JSON
// took 530 MB): a 2000×2000 tour as "tour --format json" writes it.
const (
	maxTourText = 96 << 20
	maxTourJSON = 48 << 20
)

func runKnightCheck(ctx context.Context, o knightCheckOpts, stdin io.Reader, stdout io.Writer) error {
	sz, _, err := o.sizes.get()
	if err != nil {
		return err
	}
	name := o.file
	if name == "" {
		name = "-"
	}
	what := "tour on standard input"
	if name != "-" {
		what = fmt.Sprintf("tour %q", name)
	}
	data, err := readFileContext(ctx, name, stdin, maxTourBytes(sz.Squares()), what)
	if err != nil && sz.Squares() <= 0 && strings.Contains(err.Error(), "is larger than") {
		return usageErrorf("%s is larger than a tour of 2^22 squares would be; for a larger board give --size or --board", what)
	}
	if err != nil {
		return err
	}
	if strings.HasPrefix(strings.TrimLeft(data, " \t\r\n"), "{") && len(data) > maxTourJSON {
		return usageErrorf("%s is %d bytes of JSON: knight check reads at most %d bytes of JSON (%d as square names or a numbered board)", what, len(data), maxTourJSON, maxTourText)
	}
	t, err := knight.ParseTour(ctx, data, sz)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var se *knight.StepError
	if errors.As(err, &se) {
		return notATour(o, stdout, fmt.Errorf("not a tour: %w", err))
	}
	if err != nil {
		return usageError(err)
	}
	if err := t.CheckContext(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return notATour(o, stdout, fmt.Errorf("not a tour of %s: %w", t.Size(), err))
	}
	if o.json {
		return json.NewEncoder(stdout).Encode(knightCheckRecord{Valid: true, Closed: t.Closed(), Rows: t.Rows, Cols: t.Cols,
			From: t.Size().Name(t.Square(0)), To: t.Size().Name(t.Square(t.Len() - 1))})
	}
	kind := "open"
	if t.Closed() {
		kind = "closed"
	}
	_, err = fmt.Fprintf(stdout, "valid %s tour of %s from %s to %s\n", kind, t.Size(), t.Size().Name(t.Square(0)), t.Size().Name(t.Square(t.Len()-1)))
	return err
}
