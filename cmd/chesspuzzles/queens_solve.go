package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/progress"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

func newQueensSolveCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "solve N",
		Short: "List every solution of the N×N board, in ascending code order",
		Long: `List every placement of N non-attacking queens on the N×N board, one per line,
in ascending order of the code notation (15863724 is the first for N = 8).

--after resumes a listing after a given solution without re-enumerating what comes before
it: page through a large listing by passing the last line of one page to the next.
With -o FILE the listing is written to a temporary file and renamed at the end, so an
interrupted run never leaves a truncated file behind.`,
		Example: `  chesspuzzles queens solve 8
  chesspuzzles queens solve 8 --unique --format algebraic
  chesspuzzles queens solve 16 --after 1,3,5,2,9,12,10,13,4,6,8,11,7,14,16,15 --limit 100
  chesspuzzles queens solve 32 --limit 1
  chesspuzzles queens solve 14 -o q14.txt
  chesspuzzles queens solve 8 --after 15863724 --format svg -o second.svg`,
		Args: exactArgs(1, "one argument, the board size N"),
	}, func(cmd *cobra.Command, opts *solveOptions) {
		f := cmd.Flags()
		f.StringVar(&opts.formatFlag, "format", "code", "notation: code, perm, coords, algebraic, board or json; or a picture: unicode, or svg or png (the first solution listed)")
		flagChoices(cmd, "format", "code", "perm", "coords", "algebraic", "board", "json", "unicode", "svg", "png")
		f.BoolVar(&opts.unique, "unique", false, "only fundamental solutions, each as the member of its symmetry class with the smallest code")
		f.Int64Var(&opts.limit, "limit", 0, "stop after this many solutions (0: no limit)")
		f.StringVar(&opts.afterFlag, "after", "", "list only solutions after this one (in any notation)")
		f.StringVarP(&opts.output, "output", "o", "", "write to this file (atomically) instead of stdout")
		f.BoolVarP(&opts.quiet, "quiet", "q", false, "no progress line")
	}, func(cmd *cobra.Command, opts *solveOptions, args []string) error {
		var err error
		if opts.n, err = parseN(args[0], queens.MaxN); err != nil {
			return err
		}
		// svg and png draw the first solution listed; unicode draws each.
		if opts.picture = parsePictureFormat(opts.formatFlag); opts.picture == noPicture {
			if opts.format, err = queens.ParseNotation(opts.formatFlag); err != nil {
				return usageErrorf("%v; or a picture: unicode, svg or png", err)
			}
		}
		if opts.limit < 0 {
			return usageErrorf("--limit must be 0 (no limit) or more, got %d", opts.limit)
		}
		if cmd.Flags().Changed("after") {
			if opts.after, err = parseCursor(opts.afterFlag, opts.n); err != nil {
				return err
			}
		}
		return runSolve(cmd.Context(), *opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// solveOptions are the options of "queens solve".
type solveOptions struct {
	n          int
	format     queens.Notation
	picture    pictureFormat // svg, png or unicode instead of a notation
	unique     bool
	limit      int64
	after      queens.Placement
	output     string // file to write, "" for stdout
	quiet      bool
	formatFlag string // --format, read into format or picture
	afterFlag  string // --after, read into after
}

// parseCursor reads the --after placement: N queens, one on each row.
func parseCursor(s string, n int) (queens.Placement, error) {
	pos, err := queens.Parse(s, n)
	if err != nil {
		return nil, usageErrorf("--after: %v", err)
	}
	p, ok := pos.Placement()
	if ok {
		for _, c := range p {
			if c < 0 {
				ok = false
			}
		}
	}
	if !ok {
		return nil, usageErrorf("--after: want a queen on each of the %d rows, got %q", n, s)
	}
	return p, nil
}

func runSolve(ctx context.Context, opts solveOptions, stdout, stderr io.Writer) error {
	if opts.picture == pictureSVG || opts.picture == picturePNG {
		return runSolvePicture(ctx, opts, stdout)
	}
	if opts.after == nil {
		warnSolveCost(opts.n, stderr)
	}
	var count uint64
	err := writeTo(opts.output, stdout, func(out io.Writer) (err error) {
		count, err = writeSolutions(ctx, opts, out, stderr)
		return err
	})
	switch {
	case opts.output == "":
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "interrupted after %s; %s not written\n", plural(count, "solution", "solutions"), opts.output)
	case err == nil:
		fmt.Fprintf(stderr, "wrote %s to %s\n", plural(count, "solution", "solutions"), opts.output)
	}
	return err
}

// writeSolutions writes the listing opts asks for to out and returns how many solutions it
// wrote. It returns ctx's error if ctx ends first, after writing what it has.
func writeSolutions(ctx context.Context, opts solveOptions, out, stderr io.Writer) (count uint64, err error) {
	w := bufio.NewWriterSize(out, 1<<16)
	progress := new(queens.Progress)
	stop := followSolve(stderr, opts, progress, isTerminal(out))
	var buf []byte
	list := queens.List(ctx, opts.n, queens.ListOptions{After: opts.after, Fundamental: opts.unique, Progress: progress})
	for p := range list {
		buf = buf[:0]
		if (opts.format == queens.Board || opts.picture == pictureUnicode) && count > 0 {
			buf = append(buf, '\n')
		}
		if opts.picture == pictureUnicode {
			buf = append(buf, unicodeBoard(out, p.Position(), nil)...)
		} else {
			buf = p.AppendFormat(buf, opts.format)
			buf = append(buf, '\n')
		}
		if _, err = w.Write(buf); err != nil {
			break
		}
		count++
		if opts.limit > 0 && count >= uint64(opts.limit) {
			break
		}
	}
	stop()
	if err != nil {
		return count, fmt.Errorf("writing solutions: %w", err)
	}
	if err = w.Flush(); err != nil {
		return count, fmt.Errorf("writing solutions: %w", err)
	}
	return count, ctx.Err()
}

// followSolve shows the progress of a listing on stderr until the returned function is
// called: the columns of the top row done (the listing goes through them in order),
// solutions per second, and a time left that assumes every column takes as long as those
// done did (rough: the middle columns hold more solutions than the edges). Nothing shows
// while the listing itself goes to the terminal (listingTTY): a bar redrawn there would
// erase lines of it.
func followSolve(stderr io.Writer, opts solveOptions, pr *queens.Progress, listingTTY bool) (stop func()) {
	m := progress.New(stderr, progress.Options{What: fmt.Sprintf("solve N=%d", opts.n), Unit: "columns", RateUnit: "solutions", Quiet: opts.quiet || listingTTY})
	start := time.Now()
	first := -1 // the top-row column the listing started in (not 0 after --after)
	stopFollow := m.Follow(func() progress.Status {
		el := time.Since(start)
		col := pr.TopColumn()
		if first < 0 && col >= 0 {
			first = col
		}
		col = max(col, 0)
		s := progress.Status{Done: int64(col), Total: int64(opts.n), Rate: float64(pr.Found()) / el.Seconds(),
			Note: fmt.Sprintf("%s, %d nodes", plural(pr.Found(), "solution", "solutions"), pr.Nodes())}
		if first >= 0 && col > first {
			s.ETA = time.Duration(float64(el) / float64(col-first) * float64(opts.n-col))
		}
		return s
	})
	return func() {
		stopFollow()
		m.Finish()
	}
}

// runSolvePicture draws the first solution the listing of opts yields (after --after, only
// fundamental ones with --unique) as an SVG or PNG picture. It answers "no" (exit 1) when
// there is none.
func runSolvePicture(ctx context.Context, opts solveOptions, stdout io.Writer) error {
	for p := range queens.List(ctx, opts.n, queens.ListOptions{After: opts.after, Fundamental: opts.unique}) {
		return writeQueensPicture(ctx, p.Position(), nil, opts.picture, opts.output, stdout)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return answerNo(nil)
}
