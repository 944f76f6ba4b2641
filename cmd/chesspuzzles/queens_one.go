package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/chesspuzzles/chesspuzzles/internal/ctxio"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

func newQueensOneCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "one N",
		Short: "Print one solution of the N×N board, for N up to a billion",
		Long: `Print one solution of the N×N board, for every N that has one (N = 1 and N ≥ 4).

Without --random the solution is built by an explicit construction (even columns, then
odd ones, adjusted when N mod 6 is 2 or 3): it streams out row by row in constant
memory, so even a billion queens only take the time to write them (a hundred million
queens, 888,888,898 bytes in code notation, take seconds).

With --random it is a random solution, found by the conflict-minimising local search of
Sosić and Gu: about a second for a million queens, ten seconds for ten million, and 4.5
bytes of memory a queen (N up to 100000000). The same --seed gives the same solution;
without one, a seed is picked and printed on stderr.

For N = 2 and 3, which have no solution, it says so and exits 1.`,
		Example: `  chesspuzzles queens one 8
  chesspuzzles queens one 1000000 --format perm -o million.txt
  chesspuzzles queens one 1000 --random --seed 42
  chesspuzzles queens one 3`,
		Args: exactArgs(1, "one argument, the board size N"),
	}, func(cmd *cobra.Command, opts *oneOptions) {
		f := cmd.Flags()
		f.StringVar(&opts.formatFlag, "format", "code", "notation: code, perm, coords, algebraic, board or json")
		flagChoices(cmd, "format", "code", "perm", "coords", "algebraic", "board", "json")
		f.BoolVar(&opts.random, "random", false, "a random solution, by local search")
		f.Uint64Var(&opts.seed, "seed", 0, "seed of --random, for a reproducible solution")
		f.StringVarP(&opts.output, "output", "o", "", "write to this file (atomically) instead of stdout")
	}, func(cmd *cobra.Command, opts *oneOptions, args []string) error {
		var err error
		if opts.n, err = parseN(args[0], queens.MaxOneN); err != nil {
			return err
		}
		if opts.format, err = queens.ParseNotation(opts.formatFlag); err != nil {
			return usageError(err)
		}
		if opts.format == queens.Board && opts.n > maxDrawnOne {
			return usageErrorf("--format board draws boards of up to %d×%d, got N = %d: use code or perm", maxDrawnOne, maxDrawnOne, opts.n)
		}
		if opts.random && opts.n > queens.MaxRandomN {
			return usageErrorf("N must be a whole number from 1 to %d with --random, got %q", queens.MaxRandomN, args[0])
		}
		opts.seedSet = cmd.Flags().Changed("seed")
		if opts.seedSet && !opts.random {
			return usageErrorf("--seed goes with --random")
		}
		return runOne(cmd.Context(), *opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// oneOptions are the options of "queens one".
type oneOptions struct {
	n          int
	format     queens.Notation
	random     bool
	seed       uint64
	seedSet    bool
	output     string // file to write, "" for stdout
	formatFlag string // --format, read into format
}

func runOne(ctx context.Context, opts oneOptions, stdout, stderr io.Writer) error {
	n := opts.n
	// The construction streams out of OneColumn, a random solution out of the Placement
	// the search returns.
	write := func(w io.Writer) error {
		return queens.WriteColumns(w, n, func(r int) int { return queens.OneColumn(n, r) }, opts.format)
	}
	if opts.random {
		if !opts.seedSet {
			opts.seed = rand.Uint64()
			fmt.Fprintf(stderr, "seed %d\n", opts.seed)
		}
		p, err := queens.Random(ctx, n, rand.New(rand.NewPCG(opts.seed, 0)))
		if err != nil {
			return oneError(err)
		}
		write = func(w io.Writer) error { return p.WriteFormat(w, opts.format) }
	} else if n == 2 || n == 3 {
		_, err := queens.One(n)
		return oneError(err)
	}
	return writeTo(opts.output, stdout, func(out io.Writer) error {
		if err := write(ctxio.Writer{Ctx: ctx, W: out}); err != nil {
			return fmt.Errorf("writing the solution: %w", err)
		}
		if _, err := io.WriteString(out, "\n"); err != nil {
			return fmt.Errorf("writing the solution: %w", err)
		}
		return nil
	})
}

// oneError gives the exit code of an error from the engine: 1 for a board without a
// solution; a cancelled context stays as it is, for execute to turn into 130.
func oneError(err error) error {
	if errors.Is(err, queens.ErrNoSolution) {
		return answerNo(err)
	}
	return err
}
