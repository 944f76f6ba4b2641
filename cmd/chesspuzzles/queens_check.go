package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

type checkOptions struct {
	position string
	n        int
	json     bool
}

// maxCheckInput bounds what check reads from standard input: enough for a permutation of
// a hundred million queens.
const maxCheckInput = 1 << 30

// maxSumsN is the largest board whose per-line counts check prints in full.
const maxSumsN = 32

// maxAttacksShown bounds the attacking pairs listed in text output.
const maxAttacksShown = 100

func newQueensCheckCmd() *cobra.Command {
	var opts checkOptions
	cmd := &cobra.Command{
		Use:   "check [POSITION...]",
		Short: "Check a position: is it a solution, which queens attack which",
		Long: `Check a placement of queens, given in any notation (code, perm, coords, algebraic or a
drawn board; detected) as arguments or, with none or "-", on standard input. It says whether
the position is a complete solution, lists every pair of queens that attack each other and
along which line, and counts the queens on each row, column and diagonal.

Exit 0 for a complete solution, 1 for attacks or fewer than N queens, 2 for input that
cannot be read.`,
		Example: `  chesspuzzles queens check 15863724
  chesspuzzles queens check 13572468
  chesspuzzles queens check a8 e7 h6 --n 8
  echo '0,4,7,5,2,6,1,3' | chesspuzzles queens check --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.n < 0 || opts.n > queens.MaxParseN {
				return usageErrorf("--n must be from 1 to %d, got %d", queens.MaxParseN, opts.n)
			}
			if len(args) == 0 || len(args) == 1 && args[0] == "-" {
				in, err := io.ReadAll(io.LimitReader(bufio.NewReader(cmd.InOrStdin()), maxCheckInput+1))
				if err != nil {
					return fmt.Errorf("reading position: %w", err)
				}
				if len(in) > maxCheckInput {
					return usageErrorf("position on standard input is larger than %d bytes", maxCheckInput)
				}
				opts.position = string(in)
			} else {
				opts.position = strings.Join(args, " ")
			}
			return runCheck(opts, cmd.OutOrStdout())
		},
	}
	cmd.Flags().IntVar(&opts.n, "n", 0, "board size (default: inferred from the position)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the report as one JSON object")
	return cmd
}

// checkJSON is the --json form of a report.
type checkJSON struct {
	N             int          `json:"n"`
	Queens        int          `json:"queens"`
	Solved        bool         `json:"solved"`
	Attacks       []attackJSON `json:"attacks"`
	Rows          []int        `json:"rows"`
	Columns       []int        `json:"columns"`
	Diagonals     []int        `json:"diagonals"`
	AntiDiagonals []int        `json:"anti_diagonals"`
}

type attackJSON struct {
	A    string `json:"a"`
	B    string `json:"b"`
	Line string `json:"line"`
}

func runCheck(opts checkOptions, stdout io.Writer) error {
	var (
		pos queens.Position
		rep queens.Report
	)
	if cols, n, ok := queens.ParseColumns(opts.position, opts.n); ok && n > maxSumsN {
		// A long list of columns, as programs write huge placements: read and judge it
		// in one pass each. The report names no queens of a board this large.
		pos = queens.Position{N: n}
		rep = queens.CheckColumns(n, cols)
	} else {
		var err error
		if pos, err = queens.Parse(opts.position, opts.n); err != nil {
			return usageError(err)
		}
		rep = queens.Check(pos)
	}
	sz := board.SquareBoard(rep.N)
	w := bufio.NewWriter(stdout)
	if opts.json {
		out := checkJSON{N: rep.N, Queens: rep.Queens, Solved: rep.Solved, Attacks: []attackJSON{},
			Rows: rep.Rows, Columns: rep.Columns, Diagonals: rep.Diagonals, AntiDiagonals: rep.AntiDiagonals}
		for _, a := range rep.Attacks {
			out.Attacks = append(out.Attacks, attackJSON{A: sz.Name(a.A), B: sz.Name(a.B), Line: a.Line.String()})
		}
		if err := json.NewEncoder(w).Encode(out); err != nil {
			return err
		}
	} else {
		writeReport(w, pos, rep)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if !rep.Solved {
		return answerNo(nil)
	}
	return nil
}

func writeReport(w io.Writer, pos queens.Position, rep queens.Report) {
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
	case len(rep.Attacks) == 0:
		fmt.Fprintf(w, "not a solution: no queen attacks another, but %d more must be placed\n", n-rep.Queens)
	default:
		fmt.Fprintf(w, "not a solution: %s\n", plural(uint64(len(rep.Attacks)), "pair of queens attacks each other", "pairs of queens attack each other"))
		for i, a := range rep.Attacks {
			if i == maxAttacksShown {
				fmt.Fprintf(w, "  … and %d more\n", len(rep.Attacks)-i)
				break
			}
			fmt.Fprintf(w, "  %s and %s on a %s\n", sz.Name(a.A), sz.Name(a.B), a.Line)
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

func rankName(sz board.Size, row int) string { return fmt.Sprint(sz.Rows - row) }

func fileName(sz board.Size, col int) string {
	if sz.HasAlgebraic() {
		return string(rune('a' + col))
	}
	return fmt.Sprint(col + 1)
}

func sums(w io.Writer, label string, counts []int) {
	fmt.Fprintf(w, "  %-22s", label)
	for _, k := range counts {
		fmt.Fprintf(w, " %d", k)
	}
	fmt.Fprintln(w)
}
