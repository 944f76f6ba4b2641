// The command-line arguments commands share: N, a range of N, and how many arguments.

package main

import (
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/spf13/cobra"
)

// parseN reads a board size N from a command-line argument: a whole number from 1 to most.
func parseN(s string, most int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > most {
		return 0, usageErrorf("N must be a whole number from 1 to %d, got %q", most, board.Clip(s))
	}
	return n, nil
}

// exactArgs is cobra.ExactArgs with an error that says what the argument is.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErrorf("want %s, got %d arguments", what, len(args))
		}
		return nil
	}
}

// maxArgs is cobra.MaximumNArgs with an error that says what the arguments are.
func maxArgs(n int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > n {
			return usageErrorf("want %s, got %d arguments", what, len(args))
		}
		return nil
	}
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
