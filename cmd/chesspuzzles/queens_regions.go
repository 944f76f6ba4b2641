package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/regions"
	"github.com/spf13/cobra"
)

func newQueensRegionsCmd() *cobra.Command {
	return group(command(&cobra.Command{
		Use:   "regions",
		Short: `Make a region-queens puzzle (the daily "Queens" game) with exactly one answer`,
		Long: `Make a region-queens puzzle: an N×N grid cut into N regions; place N queens, one in
every row, every column and every region, no two touching (diagonal neighbours included;
queens far apart on a diagonal are allowed). N is from 5 to 20. Every puzzle has exactly one
solution, proved by counting, and is solved without guessing by the techniques of its level:
easy (last free cells, a region within one row or column, a cell whose queen would empty a
row, column or region), medium (also two regions within two rows or columns) or hard (also
groups of three or more, and forcing chains). The same --n, --seed and --level give the same
puzzle on every machine; without --seed, the seed is today's date as YYYYMMDD (local time),
which gives the page's puzzle of the day at the same size and level: with no flags, the
puzzle the page opens with (8×8, easy).

--format text writes a header line (# N×N, level, seed: what to do) and the grid as region
letters, one row a line (the form "regions solve" reads, skipping the header); svg and png
draw it, each region a colour-blind-safe colour and its letter; json writes n, level, seed,
regions (N rows of region ids 0…N−1) and solution (the column, 0-based, of the queen in each
row). --solution adds the answer to text and pictures.

"chesspuzzles queens regions solve FILE" reads a grid and solves it.`,
		Example: `  chesspuzzles queens regions --n 8 --seed 7 --level medium
  chesspuzzles queens regions --n 10 --level hard --format png -o puzzle.png
  chesspuzzles queens regions --n 8 --seed 7 | chesspuzzles queens regions solve --explain -`,
		Args: cobra.NoArgs,
	}, func(cmd *cobra.Command, o *queensRegionsOpts) {
		f := cmd.Flags()
		f.IntVar(&o.n, "n", 8, fmt.Sprintf("grid size N, from %d to %d", regions.MinGenerateN, regions.MaxGenerateN))
		f.Uint64Var(&o.seed, "seed", 0, "the seed: the same seed gives the same puzzle (default today's date, YYYYMMDD)")
		f.StringVar(&o.level, "level", "easy", "easy, medium or hard")
		f.StringVar(&o.format, "format", "text", "text, svg, png or json")
		f.StringVarP(&o.output, "output", "o", "", "write to this file (atomically) instead of stdout")
		f.BoolVar(&o.solution, "solution", false, "show the solution too")
	}, func(cmd *cobra.Command, o *queensRegionsOpts, _ []string) error {
		if !cmd.Flags().Changed("seed") {
			o.seed = todaySeed(time.Now())
		}
		return runQueensRegions(cmd.Context(), *o, cmd.OutOrStdout())
	}), newQueensRegionsSolveCmd(), newQueensRegionsReadCmd())
}

// queensRegionsOpts are the options of "queens regions".
type queensRegionsOpts struct {
	n        int
	seed     uint64
	level    string
	format   string
	output   string
	solution bool
}

func runQueensRegions(ctx context.Context, o queensRegionsOpts, stdout io.Writer) error {
	level, err := puzzleFlags(o.n, regions.MinGenerateN, regions.MaxGenerateN, o.level, o.format)
	if err != nil {
		return err
	}
	if err := refusePNGOnTerminal(o.format == "png", o.output, stdout); err != nil {
		return err
	}
	p, err := regions.Generate(ctx, o.n, o.seed, level)
	if err != nil {
		return err
	}
	sol, err := regions.SolveContext(ctx, p)
	if err != nil {
		return err
	}
	switch o.format {
	case "json":
		return writeTo(o.output, stdout, func(w io.Writer) error {
			return json.NewEncoder(w).Encode(p.Record(level, o.seed, sol))
		})
	case "svg", "png":
		var queens []int
		if o.solution {
			queens = sol
		}
		return writeRegionsPicture(ctx, p, queens, o.format == "png", o.output, stdout)
	}
	return writeTo(o.output, stdout, func(w io.Writer) error {
		text := fmt.Sprintf("# %d×%d, %s, seed %d: place %d queens, one in every row, column and region, none touching (exactly one way)\n",
			o.n, o.n, level, o.seed, o.n) + p.String()
		if o.solution {
			text += "\n" + regionsBoard(p, sol)
		}
		_, err := io.WriteString(w, text)
		return err
	})
}

// todaySeed returns the seed of the puzzle of the day t falls on, in t's time zone: the
// date as the number YYYYMMDD, as the page's "today's puzzle" numbers it.
func todaySeed(t time.Time) uint64 {
	y, m, d := t.Date()
	return uint64(y*10000 + int(m)*100 + d)
}
