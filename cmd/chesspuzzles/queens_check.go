package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/internal/ctxio"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

// maxCheckInput bounds what check reads from standard input: enough for a permutation of
// ten million queens (79 MB written with spaces), and, read in blocks, about 100 MB of
// memory when an endless input is refused.
const maxCheckInput = 96 << 20

// maxCheckQueens bounds the fields (numbers, squares, a board's cells) of a position
// check reads as a column list; maxCheckSquares those of any other notation, whose queens
// take about 100 bytes each, ten times a column's. At these bounds a check takes at most
// about 350 MB (ten million columns) and 200 MB (two million squares), so that a hostile
// input within maxCheckInput ("1 1 1 …", "a1 a1 …") is refused rather than holding
// gigabytes.
const (
	maxCheckQueens  = 10_000_000
	maxCheckSquares = 2_000_000
)

// maxSumsN is the largest board whose per-line counts check prints in full.
const maxSumsN = 32

// maxLinesN is the largest board whose per-line counts the JSON report holds: past it they
// would be tens of megabytes of numbers.
const maxLinesN = 10_000

func newQueensCheckCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "check [POSITION...]",
		Short: "Check a position: is it a solution, which queens attack which",
		Long: `Check a placement of queens, given in any notation (code, perm, coords, algebraic or a
drawn board; detected) as arguments or, with none or "-", on standard input. It says whether
the position is a complete solution, lists every pair of queens that attack each other and
along which line, and counts the queens on each row, column and diagonal.

Exit 0 for a complete solution, 1 for attacks or fewer than N queens, 2 for input that
cannot be read, 130 when interrupted.

Limits, so that a huge or hostile position cannot take the machine: the input is at most
96 MiB, ten million queens as a list of columns, two million in any other notation; the first --max-attacks attacking pairs from the top
are listed (default 1000; a picture marks those) and all are counted exactly; the per-line
counts are printed for boards up to 32×32 (text) or 10000×10000 (JSON; null beyond). A
column list of ten million queens takes about 311 MB and 0.93 s of CPU.`,
		Example: `  chesspuzzles queens check 15863724
  chesspuzzles queens check 13572468
  chesspuzzles queens check a8 e7 h6 --n 8
  echo '0,4,7,5,2,6,1,3' | chesspuzzles queens check --json
  chesspuzzles queens check a8 e8 h1 --n 8 --format svg -o conflicts.svg`,
	}, func(cmd *cobra.Command, opts *checkOptions) {
		cmd.Flags().IntVar(&opts.n, "n", 0, "board size (default: inferred from the position)")
		cmd.Flags().BoolVar(&opts.json, "json", false, "print the report as one JSON object")
		cmd.Flags().StringVar(&opts.format, "format", "text", "text, json, unicode (the board, then the report), or a picture with the conflicts in red: svg or png")
		flagChoices(cmd, "format", "text", "json", "unicode", "svg", "png")
		cmd.Flags().StringVarP(&opts.output, "output", "o", "", "write the svg or png picture to this file")
		cmd.Flags().IntVar(&opts.maxAttacks, "max-attacks", 1000, "list at most `K` attacking pairs, the first from the top (all are counted)")
		cmd.PreRunE = func(cmd *cobra.Command, _ []string) error {
			if p := parsePictureFormat(opts.format); cmd.Flags().Changed("output") && p != pictureSVG && p != picturePNG {
				return usageErrorf("-o writes the picture of --format svg or png; the report goes to stdout (redirect it with >)")
			}
			return nil
		}
	}, func(cmd *cobra.Command, opts *checkOptions, args []string) error {
		if opts.n < 0 || opts.n > queens.MaxParseN {
			return usageErrorf("--n must be from 1 to %d, got %d", queens.MaxParseN, opts.n)
		}
		var err error
		if opts.position, err = positionArgs(cmd.Context(), args, cmd.InOrStdin(), maxCheckInput); err != nil {
			return err
		}
		switch opts.format {
		case "text", "unicode", "svg", "png":
		case "json":
			opts.json = true
		default:
			return usageErrorf("unknown format %q: want text, json, unicode, svg or png", opts.format)
		}
		if opts.maxAttacks < 0 {
			return usageErrorf("--max-attacks must be 0 (count only) or more, got %d", opts.maxAttacks)
		}
		return runCheck(cmd.Context(), *opts, cmd.OutOrStdout())
	})
}

// checkOptions are the options of "queens check".
type checkOptions struct {
	position string // the arguments, or standard input
	n        int
	json     bool
	format   string // text, json, unicode, svg or png
	output   string // file for svg and png, "" for stdout
	// maxAttacks is how many attacking pairs are listed; all are counted.
	maxAttacks int
}

func runCheck(ctx context.Context, opts checkOptions, stdout io.Writer) error {
	var (
		pos     queens.Position
		rep     queens.Report
		attacks int64
		err     error
	)
	lim := queens.CheckLimits{MaxAttacks: opts.maxAttacks}
	fields := countFields(opts.position)
	if fields > maxCheckQueens {
		return usageErrorf("the position has more than %d fields (numbers or squares): check reads at most %d queens", maxCheckQueens, maxCheckQueens)
	}
	p, ok, err := queens.ParseColumnsContext(ctx, opts.position, opts.n)
	if err != nil {
		return err
	}
	if !ok && fields > maxCheckSquares {
		return usageErrorf("the position has %d fields, and is no list of columns: check reads at most %d queens written as squares or a board (%d as a list of columns)", fields, maxCheckSquares, maxCheckQueens)
	}
	if ok {
		// A list of columns, as programs write huge placements: read and judged in one
		// pass each. The squares of the queens are only made for a board small enough
		// to be drawn; the report names none beyond 32×32.
		pos = queens.Position{N: len(p)}
		if len(p) <= maxPictureN {
			pos = p.Position()
		}
		lim.Lines = len(p) <= maxSumsN || opts.json && len(p) <= maxLinesN
		rep, attacks, err = p.CheckContext(ctx, lim)
	} else {
		if pos, err = parseContext(ctx, opts.position, opts.n); err != nil {
			return err
		}
		lim.Lines = pos.N <= maxSumsN || opts.json && pos.N <= maxLinesN
		rep, attacks, err = queens.CheckContext(ctx, pos, lim)
	}
	if err != nil {
		return err
	}
	// Output of a huge report stops at the next buffer on Ctrl-C.
	w := bufio.NewWriter(ctxio.Writer{Ctx: ctx, W: stdout})
	if pf := parsePictureFormat(opts.format); pf == pictureSVG || pf == picturePNG {
		if err := writeQueensPicture(ctx, pos, rep.Attacks, pf, opts.output, stdout); err != nil {
			return err
		}
	} else if opts.json {
		if err := json.NewEncoder(w).Encode(rep.Record(attacks)); err != nil {
			return err
		}
	} else {
		if opts.format == "unicode" && rep.N <= maxSumsN {
			io.WriteString(w, unicodeBoard(stdout, pos, rep.Attacks))
		}
		writeReport(w, pos, rep, attacks)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err // interrupted: 130, not the answer
	}
	if !rep.Solved {
		return answerNo(nil)
	}
	return nil
}

// parseContext is queens.Parse, run aside so that Ctrl-C ends a parse of a hundred million
// squares at once; an unreadable position is a usage error.
func parseContext(ctx context.Context, text string, n int) (queens.Position, error) {
	var pos queens.Position
	err := aside(ctx, func() (err error) {
		pos, err = queens.Parse(text, n)
		return err
	})
	switch {
	case err == nil:
		return pos, nil
	case err == ctx.Err():
		// pos is not read: the parse may still be writing it.
		return queens.Position{}, err
	}
	return queens.Position{}, usageError(err)
}

// writeReport writes rep as text; attacks is the number of attacking pairs, of which
// rep.Attacks lists the first.
func writeReport(w io.Writer, pos queens.Position, rep queens.Report, attacks int64) {
	n := rep.N
	sz := board.SquareBoard(n)
	name := ""
	if n > maxSumsN {
		// A large board: no name, the report says enough.
	} else if p, ok := pos.Placement(); ok && rep.Queens == n {
		name = p.Format(queens.Code) + " "
	} else if rep.Queens <= 16 {
		for _, q := range pos.Queens {
			name += sz.Name(q) + " "
		}
	}
	fmt.Fprintf(w, "%son the %s board: %s\n", name, sz, plural(uint64(rep.Queens), "queen", "queens"))
	switch {
	case rep.Solved:
		fmt.Fprintln(w, "a solution: no queen attacks another")
	case attacks == 0:
		fmt.Fprintf(w, "not a solution: no queen attacks another, but %d more must be placed\n", n-rep.Queens)
	default:
		fmt.Fprintf(w, "not a solution: %s\n", plural(uint64(attacks), "pair of queens attacks each other", "pairs of queens attack each other"))
		for _, a := range rep.Attacks {
			fmt.Fprintf(w, "  %s and %s on a %s\n", sz.Name(a.A), sz.Name(a.B), a.Line)
		}
		if more := attacks - int64(len(rep.Attacks)); more > 0 {
			fmt.Fprintf(w, "  … and %d more (--max-attacks lists more)\n", more)
		}
	}
	if n > maxSumsN {
		return
	}
	first := func(sq board.Square) string { return sz.Name(sq) }
	fmt.Fprintln(w, "queens on each line:")
	sums(w, fmt.Sprintf("rows %s…%s", rankName(sz, 0), rankName(sz, n-1)), rep.Rows)
	sums(w, fmt.Sprintf("columns %s…%s", fileName(sz, 0), fileName(sz, n-1)), rep.Columns)
	sums(w, fmt.Sprintf("diagonals ↘ %s…%s", first(board.Square{Row: n - 1, Col: 0}), first(board.Square{Row: 0, Col: n - 1})), rep.Diagonals)
	sums(w, fmt.Sprintf("anti-diagonals ↗ %s…%s", first(board.Square{Row: 0, Col: 0}), first(board.Square{Row: n - 1, Col: n - 1})), rep.AntiDiagonals)
}

func sums(w io.Writer, label string, counts []int) {
	fmt.Fprintf(w, "  %-22s", label)
	for _, k := range counts {
		fmt.Fprintf(w, " %d", k)
	}
	fmt.Fprintln(w)
}
