package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens/regions"
	"github.com/chesspuzzles/chesspuzzles/render"
	"github.com/spf13/cobra"
)

type queensRegionsOpts struct {
	n        int
	seed     uint64
	level    string
	format   string
	output   string
	solution bool
}

func newQueensRegionsCmd() *cobra.Command {
	var o queensRegionsOpts
	cmd := &cobra.Command{
		Use:   "regions",
		Short: `Make a region-queens puzzle (the daily "Queens" game) with exactly one answer`,
		Long: `Make a region-queens puzzle: an N×N grid cut into N regions; place N queens, one in
every row, every column and every region, no two touching (diagonal neighbours included;
queens far apart on a diagonal are allowed). N is from 5 to 20. Every puzzle has exactly one
solution, proved by counting, and is solved without guessing by the techniques of its level:
easy (last free cells, a region within one row or column, a cell whose queen would empty a
row, column or region), medium (also two regions within two rows or columns) or hard (also
groups of three or more, and forcing chains). The same --n, --seed and --level give the same
puzzle on every machine.

--format text writes the grid as region letters, one row a line (the form "regions solve"
reads); svg and png draw it, each region a colour-blind-safe colour and its letter; json
writes n, level, seed, regions (N rows of region ids 0…N−1) and solution (the column,
0-based, of the queen in each row). --solution adds the answer to text and pictures.

"chesspuzzles queens regions solve FILE" reads a grid and solves it.`,
		Example: `  chesspuzzles queens regions --n 8 --seed 7 --level medium
  chesspuzzles queens regions --n 10 --level hard --format png -o puzzle.png
  chesspuzzles queens regions --n 8 --seed 7 | chesspuzzles queens regions solve --explain -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runQueensRegions(cmd.Context(), o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.n, "n", 8, fmt.Sprintf("grid size N, from %d to %d", regions.MinGenerateN, regions.MaxGenerateN))
	f.Uint64Var(&o.seed, "seed", 1, "the seed: the same seed gives the same puzzle")
	f.StringVar(&o.level, "level", "medium", "easy, medium or hard")
	f.StringVar(&o.format, "format", "text", "text, svg, png or json")
	f.StringVarP(&o.output, "output", "o", "", "write to this file (atomically) instead of stdout")
	f.BoolVar(&o.solution, "solution", false, "show the solution too")
	cmd.AddCommand(newQueensRegionsSolveCmd())
	return cmd
}

// regionsJSON is the JSON form of a generated puzzle.
type regionsJSON struct {
	N        int     `json:"n"`
	Level    string  `json:"level"`
	Seed     uint64  `json:"seed"`
	Regions  [][]int `json:"regions"`
	Solution []int   `json:"solution"`
}

func runQueensRegions(ctx context.Context, o queensRegionsOpts, stdout io.Writer) error {
	level, err := puzzleFlags(o.n, regions.MinGenerateN, regions.MaxGenerateN, o.level, o.format)
	if err != nil {
		return err
	}
	if o.format == "png" && o.output == "" && isTerminal(stdout) {
		return usageErrorf("will not write a PNG image to a terminal: give -o FILE or redirect standard output")
	}
	p, err := regions.Generate(ctx, o.n, o.seed, level)
	if err != nil {
		return err
	}
	sol, err := regions.Solve(p)
	if err != nil {
		return err
	}
	switch o.format {
	case "json":
		return writeTo(o.output, stdout, func(w io.Writer) error {
			return json.NewEncoder(w).Encode(regionsJSON{N: p.N(), Level: level.String(), Seed: o.seed, Regions: p.Rows(), Solution: sol})
		})
	case "svg", "png":
		var queens []int
		if o.solution {
			queens = sol
		}
		return writeRegionsPicture(p, queens, o.format == "png", o.output, stdout)
	}
	return writeTo(o.output, stdout, func(w io.Writer) error {
		text := p.String()
		if o.solution {
			text += "\n" + regionsBoard(p, sol)
		}
		_, err := io.WriteString(w, text)
		return err
	})
}

// regionsBoard draws a solution over the grid: Q for a queen, the region letter in lower
// case elsewhere.
func regionsBoard(p *regions.Puzzle, sol []int) string {
	var b strings.Builder
	for r := range p.N() {
		for c := range p.N() {
			if sol[r] == c {
				b.WriteByte('Q')
			} else {
				b.WriteString(strings.ToLower(regions.Letter(p.Region(r, c))))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func writeRegionsPicture(p *regions.Puzzle, queens []int, png bool, output string, stdout io.Writer) error {
	var b bytes.Buffer
	pic := render.Regions{Region: p.Rows(), Queens: queens}
	var err error
	if png {
		err = render.RegionsPNG(&b, pic, render.Options{})
	} else {
		err = render.RegionsSVG(&b, pic, render.Options{})
	}
	if err != nil {
		return err
	}
	return writeTo(output, stdout, func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	})
}

type queensRegionsSolveOpts struct {
	explain bool
	format  string
	output  string
}

func newQueensRegionsSolveCmd() *cobra.Command {
	var o queensRegionsSolveOpts
	cmd := &cobra.Command{
		Use:   "solve FILE|-",
		Short: "Solve a region-queens grid: how many solutions, one of them, and how",
		Long: `Read a grid of region letters (A, B, …; one row a line; - for standard input) and print
the number of its solutions (0, 1 or "more than one"), then a solution drawn over the grid
(Q a queen, the region letter in lower case elsewhere). With --explain, the steps a person
would take, each with its technique, and the puzzle's level; a puzzle the techniques cannot
finish is said to need guessing. --format svg or png draws the solved grid instead.

A grid that is not square, lacks a region (an N×N grid has regions A to the N-th letter) or
has a region in two pieces is refused with exit 2; a grid without a solution exits 1.`,
		Example: `  chesspuzzles queens regions solve puzzle.txt
  chesspuzzles queens regions --n 8 --seed 7 | chesspuzzles queens regions solve --explain -`,
		Args: exactArgs(1, "one grid file (or - for standard input)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runQueensRegionsSolve(cmd.Context(), o, args[0], cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.explain, "explain", false, "print the steps of a solution by human techniques")
	f.StringVar(&o.format, "format", "text", "text, svg or png")
	f.StringVarP(&o.output, "output", "o", "", "write to this file (atomically) instead of stdout")
	return cmd
}

// maxRegionsInput bounds what regions solve reads: more than the 64 KiB regions.Parse
// accepts, so that Parse's own message says a grid is too long.
const maxRegionsInput = 1 << 20

func runQueensRegionsSolve(ctx context.Context, o queensRegionsSolveOpts, file string, stdin io.Reader, stdout io.Writer) error {
	switch o.format {
	case "text", "svg", "png":
	default:
		return usageErrorf("--format must be text, svg or png, got %q", board.Clip(o.format))
	}
	name, what := "standard input", "grid on standard input"
	if file != "-" {
		name, what = fmt.Sprintf("%q", file), fmt.Sprintf("grid %q", file)
	}
	// Read aside, bounded, stopping on Ctrl-C: opening a FIFO with no writer, or a
	// terminal's standard input, blocks; Parse bounds the grid itself to 64 KiB.
	data, err := readFileContext(ctx, file, stdin, maxRegionsInput, what)
	if err != nil {
		return err
	}
	p, err := regions.Parse(strings.NewReader(data))
	if err != nil {
		if errors.Is(err, regions.ErrBadGrid) {
			return usageErrorf("%s: %v", name, err)
		}
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	count := regions.Count(p, 2)
	if count == 0 {
		return answerNo(fmt.Errorf("the %d×%d grid has no solution", p.N(), p.N()))
	}
	sol, err := regions.Solve(p)
	if err != nil {
		return err
	}
	if o.format != "text" {
		if o.format == "png" && o.output == "" && isTerminal(stdout) {
			return usageErrorf("will not write a PNG image to a terminal: give -o FILE or redirect standard output")
		}
		return writeRegionsPicture(p, sol, o.format == "png", o.output, stdout)
	}
	var b strings.Builder
	if count == 1 {
		b.WriteString("solutions: 1\n")
	} else {
		b.WriteString("solutions: more than one\n")
	}
	b.WriteString(regionsBoard(p, sol))
	if o.explain {
		steps, err := regions.Explain(p)
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
