package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

func newQueensCompleteCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "complete [POSITION...]",
		Short: "Extend a partial placement to a solution, or prove that none exists",
		Long: `Extend a placement of some queens, on any rows and in any notation (code with "."
for empty rows, perm with "-", coords, algebraic squares in any order, a drawn board),
to a full solution of the N×N board and print it. The position is read from the
arguments or, with none or "-", from standard input; --n gives the board size when the
position does not show it (a few squares such as "c4 a8" would otherwise make the board
as small as fits them).

This is the N-queens completion problem, NP-complete in general. When at most 64 rows
are empty (so on every board up to 64×64) the search is exact: it finds a completion or
proves there is none. With more empty rows it is a local search that finds completions
but cannot prove there are none: it answers "undecided" when the time runs out.

Exit 0 with the completion on stdout; 1 when the position cannot be completed (two of
its queens attack each other, which is named, or no solution holds them all); 2 for
input that cannot be read; 3 when undecided within --timeout; 130 when interrupted.`,
		Example: `  chesspuzzles queens complete c4 a8 --n 8
  chesspuzzles queens complete 1....... --format board
  chesspuzzles queens complete "(1,1) (2,3)" --n 8
  chesspuzzles queens complete 3,1,.,.,.,.,.,.,.,. --timeout 2s`,
	}, func(cmd *cobra.Command, opts *completeOptions) {
		f := cmd.Flags()
		f.IntVar(&opts.n, "n", 0, "board size (default: inferred from the position)")
		addTimeoutFlag(cmd, &opts.timeout)
		f.StringVar(&opts.formatFlag, "format", "code", "notation: code, perm, coords, algebraic, board or json")
		flagChoices(cmd, "format", "code", "perm", "coords", "algebraic", "board", "json")
	}, func(cmd *cobra.Command, opts *completeOptions, args []string) error {
		var err error
		if opts.n < 0 || opts.n > queens.MaxCompleteN {
			return usageErrorf("--n must be from 1 to %d, got %d", queens.MaxCompleteN, opts.n)
		}
		if err := checkTimeout(opts.timeout); err != nil {
			return err
		}
		if opts.format, err = queens.ParseNotation(opts.formatFlag); err != nil {
			return usageError(err)
		}
		if opts.position, err = positionArgs(cmd.Context(), args, cmd.InOrStdin(), maxCompleteInput); err != nil {
			return err
		}
		return runComplete(cmd.Context(), *opts, cmd.OutOrStdout())
	})
}

// completeOptions are the options of "queens complete".
type completeOptions struct {
	position   string
	n          int
	timeout    time.Duration
	format     queens.Notation
	formatFlag string // --format, read into format
}

// maxCompleteInput bounds what complete reads from standard input.
const maxCompleteInput = 64 << 20

// maxCompleteFields bounds the fields of a position complete reads (countFields): a
// position it can complete has at most one queen a row, two fields a queen written
// "(x,y)", on a board of at most queens.MaxCompleteN; beyond, the squares alone would
// take hundreds of megabytes (about 100 bytes each) before the answer "no".
const maxCompleteFields = 2 * queens.MaxCompleteN

func runComplete(ctx context.Context, opts completeOptions, stdout io.Writer) error {
	if f := countFields(opts.position); f > maxCompleteFields {
		return usageErrorf("the position has more than %d fields (numbers or squares): complete takes at most one queen a row on a board of up to %d×%d", maxCompleteFields, queens.MaxCompleteN, queens.MaxCompleteN)
	}
	pos, err := queens.Parse(opts.position, opts.n)
	if err != nil {
		return usageError(err)
	}
	if pos.N > queens.MaxCompleteN {
		return usageErrorf("complete takes boards of up to %d×%d, got %d×%d", queens.MaxCompleteN, queens.MaxCompleteN, pos.N, pos.N)
	}
	if opts.format == queens.Board && pos.N > maxDrawnOne {
		return usageErrorf("--format board draws boards of up to %d×%d, got N = %d: use code or perm", maxDrawnOne, maxDrawnOne, pos.N)
	}
	limit, cancel := withTimeout(ctx, opts.timeout)
	defer cancel()
	p, err := queens.Complete(limit, pos)
	if err := searchEnd(ctx, err, queens.ErrNoCompletion, opts.timeout, "no completion found, and none ruled out"); err != nil {
		return err
	}
	if err := p.WriteFormat(stdout, opts.format); err != nil {
		return fmt.Errorf("writing the solution: %w", err)
	}
	if _, err := io.WriteString(stdout, "\n"); err != nil {
		return fmt.Errorf("writing the solution: %w", err)
	}
	return nil
}
