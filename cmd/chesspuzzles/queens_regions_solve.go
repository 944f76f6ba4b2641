package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens/regions"
	"github.com/spf13/cobra"
)

func newQueensRegionsSolveCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "solve FILE|IMAGE|-",
		Short: "Solve a region-queens grid: how many solutions, one of them, and how",
		Long: `Read a grid of region letters (A, B, …; one row a line; - for standard input) and print
the number of its solutions (0, 1 or "more than one"), then a solution drawn over the grid
(Q a queen, the region letter in lower case elsewhere). With --explain, the steps a person
would take, each with its technique, and the puzzle's level; a puzzle the techniques cannot
finish is said to need guessing. --format svg or png draws the solved grid instead.

A region may be in several pieces, as in some of the published game's levels. A grid that
is not square or lacks a region (an N×N grid has regions A to the N-th letter) is refused
with exit 2; a grid without a solution exits 1.

FILE may also be a picture of a puzzle (PNG, JPEG or GIF, told by its first bytes): a
screenshot of the daily game or of another app, read as "regions read" reads it.`,
		Example: `  chesspuzzles queens regions solve puzzle.txt
  chesspuzzles queens regions solve --explain screenshot.png
  chesspuzzles queens regions --n 8 --seed 7 | chesspuzzles queens regions solve --explain -`,
		Args: exactArgs(1, "one grid file or picture (or - for standard input)"),
	}, func(cmd *cobra.Command, o *queensRegionsSolveOpts) {
		f := cmd.Flags()
		f.BoolVar(&o.explain, "explain", false, "print the steps of a solution by human techniques")
		f.StringVar(&o.format, "format", "text", "text, svg or png")
		f.StringVarP(&o.output, "output", "o", "", "write to this file (atomically) instead of stdout")
	}, func(cmd *cobra.Command, o *queensRegionsSolveOpts, args []string) error {
		return runQueensRegionsSolve(cmd.Context(), *o, args[0], cmd.InOrStdin(), cmd.OutOrStdout())
	})
}

// queensRegionsSolveOpts are the options of "queens regions solve".
type queensRegionsSolveOpts struct {
	explain bool
	format  string
	output  string
}

func runQueensRegionsSolve(ctx context.Context, o queensRegionsSolveOpts, file string, stdin io.Reader, stdout io.Writer) error {
	switch o.format {
	case "text", "svg", "png":
	default:
		return usageErrorf("--format must be text, svg or png, got %q", board.Clip(o.format))
	}
	p, err := readRegionsPuzzle(ctx, file, stdin, false)
	if err != nil {
		return err
	}
	count, err := regions.CountContext(ctx, p, 2)
	if err != nil {
		return err
	}
	if count == 0 {
		return answerNo(fmt.Errorf("the %d×%d grid has no solution", p.N(), p.N()))
	}
	sol, err := regions.SolveContext(ctx, p)
	if err != nil {
		return err
	}
	if o.format != "text" {
		if err := refusePNGOnTerminal(o.format == "png", o.output, stdout); err != nil {
			return err
		}
		return writeRegionsPicture(ctx, p, sol, o.format == "png", o.output, stdout)
	}
	var b strings.Builder
	if count == 1 {
		b.WriteString("solutions: 1\n")
	} else {
		b.WriteString("solutions: more than one\n")
	}
	b.WriteString(regionsBoard(p, sol))
	if o.explain {
		steps, err := regions.ExplainContext(ctx, p)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		b.WriteString("\n")
		for i, st := range steps {
			fmt.Fprintf(&b, "%d. [%s] %s\n", i+1, st.Technique, st.Text)
		}
		switch {
		case err == nil:
			level := regions.Easy
			for _, st := range steps {
				level = max(level, st.Technique.Level())
			}
			fmt.Fprintf(&b, "level: %s (%d steps, no guessing)\n", level, len(steps))
		case errors.Is(err, regions.ErrStuck):
			fmt.Fprintf(&b, "stuck after %d steps: no technique applies; the rest needs guessing\n", len(steps))
		default:
			fmt.Fprintf(&b, "stopped after %d steps: %v\n", len(steps), err)
		}
	}
	return writeTo(o.output, stdout, func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	})
}
