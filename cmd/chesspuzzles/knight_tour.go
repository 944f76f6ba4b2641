package main

import (
	"context"
	"errors"
	"io"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
	"github.com/spf13/cobra"
)

func newKnightTourCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "tour",
		Short: "Find a knight's tour from a start square",
		Long: `Find a knight's tour of the board from the start square (default a1, bottom left).

--method auto (the default) finds a tour wherever one exists; --method warnsdorff follows
Warnsdorff's rule (fewest onward moves, ties by one move of look-ahead) and says so when it
gets stuck; --method article follows the rule of the classic article's program (its move
order, an accessibility table never reset, its own tie-break), which from b5 on 8×8 gets
stuck and says so. Exit 1 when no tour exists, with the reason.`,
		Example: `  chesspuzzles knight tour --size 8 --start e4
  chesspuzzles knight tour --board 6x9 --closed --format squares
  chesspuzzles knight tour --size 1000 --format json > tour.json
  chesspuzzles knight tour --size 8 --closed --format svg -o tour.svg`,
		Args: cobra.NoArgs,
	}, func(cmd *cobra.Command, o *knightTourOpts) {
		o.sizes.add(cmd, "8")
		cmd.Flags().StringVar(&o.start, "start", "", "start square, e.g. e4 or 5,4 (default a1)")
		cmd.Flags().BoolVar(&o.closed, "closed", false, "the tour must end a knight's move from its start")
		cmd.Flags().StringVar(&o.method, "method", "auto", "auto, warnsdorff or article")
		cmd.Flags().StringVar(&o.format, "format", "board", "board, squares, json, svg or png (a picture of the path), or none (find the tour, print nothing: for timing)")
		flagChoices(cmd, "format", "board", "squares", "json", "svg", "png", "none")
		flagChoices(cmd, "method", "auto", "warnsdorff", "article")
		cmd.Flags().StringVarP(&o.output, "output", "o", "", "write to this file (atomically) instead of stdout")
	}, func(cmd *cobra.Command, o *knightTourOpts, _ []string) error {
		return runKnightTour(cmd.Context(), *o, cmd.OutOrStdout())
	})
}

// knightTourOpts are the options of "knight tour".
type knightTourOpts struct {
	sizes  sizeFlags
	start  string // --start; "" for a1
	closed bool
	method string
	format string
	output string // -o FILE
}

func runKnightTour(ctx context.Context, o knightTourOpts, stdout io.Writer) error {
	sz, _, err := o.sizes.get()
	if err != nil {
		return err
	}
	start := board.Square{Row: sz.Rows - 1, Col: 0}
	if o.start != "" {
		if start, err = sz.ParseSquare(o.start); err != nil {
			return usageError(err)
		}
	}
	opts := knight.Options{Closed: o.closed}
	if opts.Method, err = knight.ParseMethod(o.method); err != nil {
		return usageErrorf("--method must be auto, warnsdorff or article, got %q", board.Clip(o.method))
	}
	write, err := tourWriter(o.format)
	if err != nil {
		return err
	}
	// Checked here, before the search, not after it (tourPicture checks only when writing).
	if err := refusePNGOnTerminal(o.format == "png", o.output, stdout); err != nil {
		return err
	}
	if (o.format == "svg" || o.format == "png") && (sz.Rows > maxPictureN || sz.Cols > maxPictureN) {
		// Refused before the tour is found: a tour of 11585×11585 takes gigabytes.
		return usageErrorf("pictures are drawn for boards of up to %d×%d, got %s: use --format board, squares or json", maxPictureN, maxPictureN, sz)
	}
	t, err := knight.Find(ctx, sz, start, opts)
	if ctxErr := ctx.Err(); ctxErr != nil && err != nil {
		return ctxErr
	}
	if errors.Is(err, knight.ErrNoTour) || errors.Is(err, knight.ErrDeadEnd) {
		return answerNo(err)
	}
	if err != nil {
		return err
	}
	// Writing a tour of a hundred million squares takes seconds; the writers stop within
	// a millisecond of Ctrl-C.
	return writeTo(o.output, stdout, func(w io.Writer) error { return write(ctx, w, t) })
}
