package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/render"
	"github.com/spf13/cobra"
)

func newQueensPuzzleCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "puzzle [N]",
		Short: "Make a puzzle: some queens given, place the rest; exactly one answer",
		Long: `Make a "place the remaining queens" puzzle for an N×N board, N from 6 to 20, whose
completion is unique (proved by counting the completions). Levels: hard gives a minimal set
of queens (each one needed for uniqueness), medium and easy give back a quarter and a half
of the rows hard leaves empty; among a few candidates the one needing the most (hard) or
least (easy) search is chosen. The same --n, --level and --seed give the same puzzle, so a
teacher can hand it out.

--format text draws the board (Q a given queen, . an empty square) and says how many queens
to place; svg and png draw a picture; json writes the puzzle with its solution.
The board size is N, or --n N (8 if neither is given).`,
		Example: `  chesspuzzles queens puzzle 10 --level hard --seed 7
  chesspuzzles queens puzzle --n 8 --level easy --seed 1 --format svg -o puzzle.svg`,
		Args: maxArgs(1, "at most one argument, the board size N"),
	}, func(cmd *cobra.Command, o *queensPuzzleOpts) {
		f := cmd.Flags()
		f.IntVar(&o.n, "n", 8, "board size N, from 6 to 20 (or give N as the argument)")
		f.StringVar(&o.level, "level", "medium", "easy, medium or hard")
		f.Uint64Var(&o.seed, "seed", 1, "the seed: the same seed gives the same puzzle")
		f.StringVar(&o.format, "format", "text", "text, svg, png or json")
		flagChoices(cmd, "format", "text", "svg", "png", "json")
		f.StringVarP(&o.output, "output", "o", "", "write to this file (atomically) instead of stdout")
		f.BoolVar(&o.solution, "solution", false, "with text: print the solution after the puzzle")
	}, func(cmd *cobra.Command, o *queensPuzzleOpts, args []string) error {
		if len(args) == 1 {
			n, err := strconv.Atoi(args[0])
			if err != nil || n < queens.MinPuzzleN || n > queens.MaxPuzzleN {
				return usageErrorf("N must be a whole number from %d to %d, got %q", queens.MinPuzzleN, queens.MaxPuzzleN, board.Clip(args[0]))
			}
			if cmd.Flags().Changed("n") && n != o.n {
				return usageErrorf("the board size is given twice, as %d and as --n %d: give one", n, o.n)
			}
			o.n = n
		}
		return runQueensPuzzle(cmd.Context(), *o, cmd.OutOrStdout())
	})
}

// queensPuzzleOpts are the options of "queens puzzle".
type queensPuzzleOpts struct {
	n        int
	level    string
	seed     uint64
	format   string
	output   string
	solution bool
}

func runQueensPuzzle(ctx context.Context, o queensPuzzleOpts, stdout io.Writer) error {
	level, err := puzzleFlags(o.n, queens.MinPuzzleN, queens.MaxPuzzleN, o.level, o.format)
	if err != nil {
		return err
	}
	p, err := queens.NewPuzzle(ctx, o.n, level, o.seed)
	if err != nil {
		return err
	}
	given := p.Given.Position()
	switch o.format {
	case "svg":
		return writeQueensPicture(ctx, given, nil, pictureSVG, o.output, stdout)
	case "png":
		return writeQueensPicture(ctx, given, nil, picturePNG, o.output, stdout)
	case "json":
		return writeTo(o.output, stdout, func(w io.Writer) error { return json.NewEncoder(w).Encode(p) })
	}
	return writeTo(o.output, stdout, func(w io.Writer) error {
		var b strings.Builder
		fmt.Fprintf(&b, "%d×%d, %s, seed %d: place %d more queens (exactly one way)\n", p.N, p.N, p.Level, p.Seed, p.Empty())
		given := p.Given.Position()
		at := make(map[board.Square]bool, len(given.Queens))
		for _, q := range given.Queens {
			at[q] = true
		}
		render.Grid(&b, board.SquareBoard(p.N), func(sq board.Square) string {
			if at[sq] {
				return "Q"
			}
			return "."
		})
		// The given queens once more as squares, which "queens complete" reads.
		b.WriteString("given: " + p.Given.Format(queens.Algebraic) + "\n")
		if o.solution {
			b.WriteString("\nsolution: " + p.Solution.Format(queens.Code) + "\n")
		}
		_, err := io.WriteString(w, b.String())
		return err
	})
}
