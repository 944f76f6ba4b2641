package main

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
	"github.com/spf13/cobra"
)

func newKnightCompleteCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "complete SQUARES...",
		Short: "Finish a knight's tour from the squares visited so far",
		Long: `Finish a knight's tour that begins with the given squares, in order: the path you made by
hand, from its start to where the knight stands now.

Squares are algebraic (e4) or file,rank counted from 1 (5,4), separated by spaces, as one
argument or several. Exit 0 with the whole tour; 1 when no tour begins with these squares,
with the reason: the rules "knight tour" applies (7×7 from e4: the wrong colour), or a square
the path cuts off, named (b6 d5 c7 e6: a8 is cut off), or else how many squares were left
when the search ran out; 2 for bad input (a square off the board or twice, a step that is
not a knight's move); 3 when not decided within --timeout.`,
		Example: `  chesspuzzles knight complete a1 b3 c1
  chesspuzzles knight complete "a1 c2 e1" --closed --format squares
  chesspuzzles knight complete 1,1 2,3 --board 5x6`,
		Args: cobra.MinimumNArgs(1),
	}, func(cmd *cobra.Command, o *knightCompleteOpts) {
		o.sizes.add(cmd, "8")
		cmd.Flags().BoolVar(&o.closed, "closed", false, "the tour must end a knight's move from its start")
		cmd.Flags().StringVar(&o.format, "format", "board", "board, squares, json, svg or png")
		flagChoices(cmd, "format", "board", "squares", "json", "svg", "png")
		cmd.Flags().StringVarP(&o.output, "output", "o", "", "write to this file (atomically) instead of stdout")
		addTimeoutFlag(cmd, &o.timeout)
	}, func(cmd *cobra.Command, o *knightCompleteOpts, args []string) error {
		return runKnightComplete(cmd.Context(), *o, args, cmd.OutOrStdout())
	})
}

// knightCompleteOpts are the options of "knight complete".
type knightCompleteOpts struct {
	sizes   sizeFlags
	closed  bool
	format  string
	output  string
	timeout time.Duration
}

func runKnightComplete(ctx context.Context, o knightCompleteOpts, args []string, stdout io.Writer) error {
	sz, _, err := o.sizes.get()
	if err != nil {
		return err
	}
	if sz.Squares() > knight.MaxCompleteSquares {
		return usageErrorf("complete takes boards of at most %d squares, got %s", knight.MaxCompleteSquares, sz)
	}
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	var path []board.Square
	for _, a := range args {
		for _, f := range strings.Fields(a) {
			sq, err := sz.ParseSquare(f)
			if err != nil {
				return usageError(err)
			}
			path = append(path, sq)
		}
	}
	if len(path) == 0 {
		return usageErrorf("want the squares of the path so far, e.g. a1 b3 c1; got none")
	}
	if _, err := knight.Accessibility(sz, path); err != nil {
		return usageErrorf("the path: %v", err)
	}
	write, err := tourWriter(o.format)
	if err != nil {
		return err
	}
	// Refused before the search, not after it (tourPicture checks only when writing).
	if err := refusePNGOnTerminal(o.format == "png", o.output, stdout); err != nil {
		return err
	}
	limit, cancel := withTimeout(ctx, o.timeout)
	defer cancel()
	t, err := knight.Complete(limit, sz.Rows, sz.Cols, path, o.closed)
	if err := searchEnd(ctx, err, knight.ErrNoTour, o.timeout, "no tour found and none ruled out"); err != nil {
		return err
	}
	return writeTo(o.output, stdout, func(w io.Writer) error { return write(ctx, w, t) })
}
