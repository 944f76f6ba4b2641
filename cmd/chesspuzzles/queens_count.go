package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

type countOptions struct {
	from, to int // the range of N, inclusive
	json     bool
}

func newQueensCountCmd() *cobra.Command {
	var opts countOptions
	cmd := &cobra.Command{
		Use:   "count N|FROM-TO",
		Short: "Count the solutions of the N×N board exactly: total and fundamental",
		Long: `Count the solutions of the N×N board exactly: Q(N), all solutions, and U(N), the
fundamental ones (classes under the eight symmetries of the square). A range FROM-TO prints a
table, one row per N as it is done. The time each N took goes to stderr.`,
		Example: `  chesspuzzles queens count 8
  chesspuzzles queens count 1-14
  chesspuzzles queens count 12 --json`,
		Args: exactArgs(1, "one argument, N or a range FROM-TO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if opts.from, opts.to, err = parseRange(args[0], queens.MaxCountN); err != nil {
				return err
			}
			return runCount(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, `one JSON object per N: {"n":8,"total":92,"unique":12,"seconds":…}`)
	return cmd
}

// parseRange reads "N" or "FROM-TO", each from 1 to most, FROM ≤ TO.
func parseRange(s string, most int) (from, to int, err error) {
	a, b, isRange := strings.Cut(s, "-")
	if !isRange {
		n, err := parseN(s, most)
		return n, n, err
	}
	from, err1 := parseN(a, most)
	to, err2 := parseN(b, most)
	if err1 != nil || err2 != nil {
		return 0, 0, usageErrorf("a range is FROM-TO, each a whole number from 1 to %d, got %q", most, board.Clip(s))
	}
	if from > to {
		return 0, 0, usageErrorf("a range FROM-TO needs FROM ≤ TO, got %q", board.Clip(s))
	}
	return from, to, nil
}

// countRecord is one line of --json output.
type countRecord struct {
	N       int     `json:"n"`
	Total   any     `json:"total"`
	Unique  any     `json:"unique"`
	Seconds float64 `json:"seconds"`
}

func runCount(ctx context.Context, opts countOptions, stdout, stderr io.Writer) error {
	table := opts.from != opts.to && !opts.json
	if table {
		fmt.Fprintln(stdout, "| n | Q(n) | U(n) |")
		fmt.Fprintln(stdout, "|---:|---:|---:|")
	}
	for n := opts.from; n <= opts.to; n++ {
		start := time.Now()
		c, err := queens.Count(ctx, n)
		if err != nil {
			return err
		}
		secs := time.Since(start).Seconds()
		switch {
		case opts.json:
			line, err := json.Marshal(countRecord{N: n, Total: c.Total, Unique: c.Unique, Seconds: roundSeconds(secs)})
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s\n", line)
		case table:
			fmt.Fprintf(stdout, "| %d | %s | %s |\n", n, c.Total, c.Unique)
		default:
			fmt.Fprintf(stdout, "%d queens: %s solutions, %s fundamental\n", n, c.Total, c.Unique)
		}
		if !opts.json {
			fmt.Fprintf(stderr, "N = %d counted in %.3g s\n", n, secs)
		}
	}
	return nil
}

// roundSeconds keeps four significant digits: timings are not more precise than that.
func roundSeconds(s float64) float64 {
	var r float64
	fmt.Sscanf(fmt.Sprintf("%.4g", s), "%g", &r)
	return r
}
