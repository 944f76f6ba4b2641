package main

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
	"github.com/chesspuzzles/chesspuzzles/render"
	"github.com/spf13/cobra"
)

func newKnightAccessCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "accessibility",
		Short: "Print how many knight moves reach each square",
		Long: `Print the accessibility table: for each square, how many knight moves reach it from
squares not yet visited (2 in the corners of an 8×8 board, 8 in the middle). With --after,
the knight has made those moves: visited squares show as "." and the knight as "N", and the
other numbers count only unvisited squares — the table for following Warnsdorff's rule by
hand (move to the neighbour of N with the smallest number).`,
		Example: `  chesspuzzles knight accessibility --size 8
  chesspuzzles knight accessibility --size 8 --after "a1 b3 c5"`,
		Args: cobra.NoArgs,
	}, func(cmd *cobra.Command, o *knightAccessOpts) {
		o.sizes.add(cmd, "8")
		cmd.Flags().StringVar(&o.after, "after", "", "squares the knight has visited, in order, e.g. \"a1 b3 c5\"")
		cmd.Flags().BoolVar(&o.json, "json", false, `one JSON object, as the web API answers: {"rows":R,"cols":C,"counts":[[…],…]} (-1 visited, -2 the knight)`)
	}, func(cmd *cobra.Command, o *knightAccessOpts, _ []string) error {
		return runKnightAccess(cmd.Context(), *o, cmd.OutOrStdout())
	})
}

// knightAccessOpts are the options of "knight accessibility".
type knightAccessOpts struct {
	sizes sizeFlags
	after string // --after: the squares the knight has visited, in order
	json  bool
}

// maxAccessSide bounds the accessibility table: it is for reading, not for huge boards.
const maxAccessSide = 1000

func runKnightAccess(_ context.Context, o knightAccessOpts, stdout io.Writer) error {
	sz, _, err := o.sizes.get()
	if err != nil {
		return err
	}
	if sz.Rows > maxAccessSide || sz.Cols > maxAccessSide {
		return usageErrorf("the accessibility table is for boards up to %d×%d, got %s", maxAccessSide, maxAccessSide, sz)
	}
	var path []board.Square
	for _, f := range strings.FieldsFunc(o.after, func(r rune) bool { return r == ' ' || r == '\t' || r == ';' }) {
		sq, err := sz.ParseSquare(f)
		if err != nil {
			return usageErrorf("--after: %w", err)
		}
		path = append(path, sq)
	}
	// The path's rules (knight's moves, no square twice) are the engine's.
	table, err := knight.Accessibility(sz, path)
	if err != nil {
		return usageErrorf("--after: %w", err)
	}
	if o.json {
		counts := make([][]int, sz.Rows)
		for r := range counts {
			counts[r] = table[r*sz.Cols : (r+1)*sz.Cols]
		}
		return json.NewEncoder(stdout).Encode(map[string]any{"rows": sz.Rows, "cols": sz.Cols, "counts": counts})
	}
	return render.Grid(stdout, sz, func(sq board.Square) string {
		switch v := table[sq.Row*sz.Cols+sq.Col]; v {
		case knight.Visited:
			return "."
		case knight.Knight:
			return "N"
		default:
			return strconv.Itoa(v)
		}
	})
}
