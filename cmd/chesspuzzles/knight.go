package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
	"github.com/chesspuzzles/chesspuzzles/render"
	"github.com/spf13/cobra"
)

func newKnightCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "knight",
		Short: "Knight's tours: find, check, count; the accessibility table",
		Long: `Knight's tours on any board from 1×1 to 10000×10000.

Boards are --size N (N×N) or --board RxC (R rows, C columns). Squares are algebraic
(e4, a1 is bottom left) or file,rank counted from 1 (5,4 is e4), which works on any board.`,
	}
	cmd.AddCommand(newKnightTourCmd(), newKnightCheckCmd(), newKnightAccessCmd(), newKnightCountCmd())
	cmd.AddCommand(newKnightCompleteCmd(), newKnightEstimateCmd())
	return cmd
}

// sizeFlags are the --size and --board flags shared by the knight commands.
type sizeFlags struct {
	size, board string
}

func (f *sizeFlags) add(cmd *cobra.Command, def string) {
	cmd.Flags().StringVar(&f.size, "size", def, "board size N for an N×N board")
	cmd.Flags().StringVar(&f.board, "board", "", "board size RxC: R rows, C columns")
}

// get returns the board size asked for; set reports whether one was given at all.
func (f *sizeFlags) get() (sz board.Size, set bool, err error) {
	s := f.size
	if f.board != "" {
		s = f.board
	}
	if s == "" {
		return board.Size{}, false, nil
	}
	sz, err = board.ParseSize(s, 0)
	if err != nil {
		return sz, true, usageError(err)
	}
	if sz.Squares() > knight.MaxSquares {
		return sz, true, usageErrorf("board %s has %d squares, at most %d are allowed, got %q", sz, sz.Squares(), knight.MaxSquares, board.Clip(s))
	}
	return sz, true, nil
}

type knightTourOpts struct {
	sizes  sizeFlags
	start  string
	closed bool
	method string
	format string
	output string // -o FILE
}

func newKnightTourCmd() *cobra.Command {
	var o knightTourOpts
	cmd := &cobra.Command{
		Use:   "tour",
		Short: "Find a knight's tour from a start square",
		Long: `Find a knight's tour of the board from the start square (default a1, bottom left).

--method auto (the default) finds a tour wherever one exists; --method warnsdorff follows
Warnsdorff's rule (fewest onward moves, ties by one move of look-ahead) and says so when it
gets stuck; --method article follows the rule of the classic article's program (its move
order, an accessibility table never reset, its own tie-break), which from b5 on 8×8 gets
stuck and says so. Exit 1 when no tour exists, with the reason.`,
		Example: `  chesspuzzles knight tour --size 8 --start e4
  chesspuzzles knight tour --board 6x9 --closed --format squares
  chesspuzzles knight tour --size 1000 --format json > tour.json
  chesspuzzles knight tour --size 8 --closed --format svg -o tour.svg`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runKnightTour(cmd.Context(), o, cmd.OutOrStdout())
		},
	}
	o.sizes.add(cmd, "8")
	cmd.Flags().StringVar(&o.start, "start", "", "start square, e.g. e4 or 5,4 (default a1)")
	cmd.Flags().BoolVar(&o.closed, "closed", false, "the tour must end a knight's move from its start")
	cmd.Flags().StringVar(&o.method, "method", "auto", "auto, warnsdorff or article")
	cmd.Flags().StringVar(&o.format, "format", "board", "board, squares, json, svg or png (a picture of the path), or none (find the tour, print nothing: for timing)")
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "write to this file (atomically) instead of stdout")
	return cmd
}

func runKnightTour(ctx context.Context, o knightTourOpts, stdout io.Writer) error {
	sz, _, err := o.sizes.get()
	if err != nil {
		return err
	}
	start := board.Square{Row: sz.Rows - 1, Col: 0}
	if o.start != "" {
		if start, err = sz.ParseSquare(o.start); err != nil {
			return usageError(err)
		}
	}
	var opts knight.Options
	opts.Closed = o.closed
	switch o.method {
	case "auto":
		opts.Method = knight.Auto
	case "warnsdorff":
		opts.Method = knight.Warnsdorff
	case "article":
		opts.Method = knight.Article
	default:
		return usageErrorf("--method must be auto, warnsdorff or article, got %q", board.Clip(o.method))
	}
	write, err := tourWriter(o.format)
	if err != nil {
		return err
	}
	if o.format == "png" && o.output == "" && isTerminal(stdout) {
		// Checked here, before the search: tourPicture's own check sees only the
		// writer it is given, which for a tour is a ctxWriter, never the terminal.
		return usageErrorf("will not write a PNG image to a terminal: give -o FILE or redirect standard output")
	}
	if (o.format == "svg" || o.format == "png") && (sz.Rows > maxPictureN || sz.Cols > maxPictureN) {
		// Refused before the tour is found: a tour of 11585×11585 takes gigabytes.
		return usageErrorf("pictures are drawn for boards of up to %d×%d, got %s: use --format board, squares or json", maxPictureN, maxPictureN, sz)
	}
	t, err := knight.Find(ctx, sz, start, opts)
	if ctxErr := ctx.Err(); ctxErr != nil && err != nil {
		return ctxErr
	}
	if errors.Is(err, knight.ErrNoTour) || errors.Is(err, knight.ErrDeadEnd) {
		return answerNo(err)
	}
	if err != nil {
		return err
	}
	// Writing a tour of a hundred million squares takes a while, and WriteBoard first
	// inverts the tour, writing nothing for seconds: Ctrl-C stops it at once.
	return writeTo(o.output, stdout, func(w io.Writer) error {
		return aside(ctx, func() error { return write(ctxWriter{ctx, w}, t) })
	})
}

func tourWriter(format string) (func(io.Writer, knight.Tour) error, error) {
	switch format {
	case "board":
		return knight.WriteBoard, nil
	case "squares":
		return knight.WriteSquares, nil
	case "json":
		return knight.WriteJSON, nil
	case "none":
		return func(io.Writer, knight.Tour) error { return nil }, nil
	case "svg", "png":
		return tourPicture(format == "png"), nil
	}
	return nil, usageErrorf("--format must be board, squares, json, svg, png or none, got %q", board.Clip(format))
}

type knightCheckOpts struct {
	sizes sizeFlags
	file  string
	json  bool
}

func newKnightCheckCmd() *cobra.Command {
	var o knightCheckOpts
	cmd := &cobra.Command{
		Use:   "check [FILE]",
		Short: "Check a knight's tour given as squares, JSON or a numbered board",
		Long: `Check a knight's tour read from FILE, or from standard input when there is none.

The tour may be square names ("a1 c2 e1 …"; the board is N×N for N² names, or give --board),
the JSON that "tour --format json" writes, or a board of move numbers. Exit 0 when it is a
tour (open or closed, said on stdout), 1 when it is not (naming the first bad step), 2 when
it cannot be read.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.file = args[0]
			}
			return runKnightCheck(cmd.Context(), o, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	o.sizes.add(cmd, "")
	cmd.Flags().BoolVar(&o.json, "json", false, `one JSON object: {"valid":true,"closed":…,"rows":…,"cols":…,"from":"a1","to":…} or {"valid":false,"reason":…}`)
	return cmd
}

// knightCheckRecord is the --json output of knight check.
type knightCheckRecord struct {
	Valid  bool   `json:"valid"`
	Closed bool   `json:"closed"`
	Rows   int    `json:"rows,omitempty"`
	Cols   int    `json:"cols,omitempty"`
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// notATour ends knight check with exit 1: with --json the reason goes to stdout as
// {"valid":false,"reason":…}, else err to stderr.
func notATour(o knightCheckOpts, stdout io.Writer, err error) error {
	if !o.json {
		return answerNo(err)
	}
	line, _ := json.Marshal(knightCheckRecord{Reason: err.Error()})
	fmt.Fprintf(stdout, "%s\n", line)
	return answerNo(nil)
}

// maxTourBytes bounds what knight check reads for a board of squares squares (0: not
// given): a numbered board writes each square's number in at most 10 digits and a space or
// two, a list of squares less; so 16 bytes a square. Without --size or --board the bound is
// that of a board of 2^22 squares (64 MiB, a 2048×2048 tour): a larger tour names its
// board, so that "yes a1 | knight check" cannot hold gigabytes.
func maxTourBytes(squares int) int64 {
	if squares <= 0 {
		squares = 1 << 22
	}
	return 16*int64(squares) + 4096
}

func runKnightCheck(ctx context.Context, o knightCheckOpts, stdin io.Reader, stdout io.Writer) error {
	sz, _, err := o.sizes.get()
	if err != nil {
		return err
	}
	name := o.file
	if name == "" {
		name = "-"
	}
	what := "tour on standard input"
	if name != "-" {
		what = fmt.Sprintf("tour %q", name)
	}
	data, err := readFileContext(ctx, name, stdin, maxTourBytes(sz.Squares()), what)
	if err != nil && sz.Squares() <= 0 && strings.Contains(err.Error(), "is larger than") {
		return usageErrorf("%s is larger than a tour of 2^22 squares would be; for a larger board give --size or --board", what)
	}
	if err != nil {
		return err
	}
	t, err := knight.ParseTour(data, sz)
	var se *knight.StepError
	if errors.As(err, &se) {
		return notATour(o, stdout, fmt.Errorf("not a tour: %w", err))
	}
	if err != nil {
		return usageError(err)
	}
	if err := t.Check(); err != nil {
		return notATour(o, stdout, fmt.Errorf("not a tour of %s: %w", t.Size(), err))
	}
	if o.json {
		line, err := json.Marshal(knightCheckRecord{Valid: true, Closed: t.Closed(), Rows: t.Rows, Cols: t.Cols,
			From: t.Size().Name(t.Square(0)), To: t.Size().Name(t.Square(t.Len() - 1))})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", line)
		return err
	}
	kind := "open"
	if t.Closed() {
		kind = "closed"
	}
	_, err = fmt.Fprintf(stdout, "valid %s tour of %s from %s to %s\n", kind, t.Size(), t.Size().Name(t.Square(0)), t.Size().Name(t.Square(t.Len()-1)))
	return err
}

type knightAccessOpts struct {
	sizes sizeFlags
	after string
	json  bool
}

func newKnightAccessCmd() *cobra.Command {
	var o knightAccessOpts
	cmd := &cobra.Command{
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
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runKnightAccess(cmd.Context(), o, cmd.OutOrStdout())
		},
	}
	o.sizes.add(cmd, "8")
	cmd.Flags().StringVar(&o.after, "after", "", "squares the knight has visited, in order, e.g. \"a1 b3 c5\"")
	cmd.Flags().BoolVar(&o.json, "json", false, `one JSON object, as the web API answers: {"rows":R,"cols":C,"counts":[[…],…]} (-1 visited, -2 the knight)`)
	return cmd
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
		if n := len(path); n > 0 {
			dr, dc := sq.Row-path[n-1].Row, sq.Col-path[n-1].Col
			if dr*dr+dc*dc != 5 {
				return usageErrorf("--after: %s to %s is not a knight's move", sz.Name(path[n-1]), sz.Name(sq))
			}
		}
		path = append(path, sq)
	}
	table, err := knight.Accessibility(sz, path)
	if err != nil {
		return usageErrorf("--after: %w", err)
	}
	if o.json {
		counts := make([][]int, sz.Rows)
		for r := range counts {
			counts[r] = table[r*sz.Cols : (r+1)*sz.Cols]
		}
		line, err := json.Marshal(map[string]any{"rows": sz.Rows, "cols": sz.Cols, "counts": counts})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", line)
		return err
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

// knightCountFlags are the flags "knight count" and "knight estimate" share: which tours of
// which board, by which method, in how much memory.
type knightCountFlags struct {
	sizes     sizeFlags
	start     string
	closed    bool
	method    string
	maxMemory string
}

// options reads the flags: the board and the count's options, MaxMemory set (half this
// machine's memory unless --max-memory says otherwise). Errors are usage errors.
func (f *knightCountFlags) options() (board.Size, knight.CountOptions, error) {
	sz, _, err := f.sizes.get()
	if err != nil {
		return sz, knight.CountOptions{}, err
	}
	opts := knight.CountOptions{Closed: f.closed, Method: f.method, MaxMemory: int64(halfMemory())}
	if f.start != "" {
		if f.closed {
			return sz, opts, usageErrorf("--start counts open tours; a closed tour passes every square")
		}
		sq, err := sz.ParseSquare(f.start)
		if err != nil {
			return sz, opts, usageError(err)
		}
		opts.Start = &sq
	}
	if f.maxMemory != "" {
		size, err := parseSize(f.maxMemory)
		if err != nil {
			return sz, opts, usageErrorf("--max-memory: %v", err)
		}
		opts.MaxMemory = int64(min(size, 1<<62))
	}
	return sz, opts, nil
}

type knightCountOpts struct {
	knightCountFlags
	quiet bool
	json  bool
}

func newKnightCountCmd() *cobra.Command {
	var o knightCountOpts
	cmd := &cobra.Command{
		Use:   "count",
		Short: "Count knight's tours exactly",
		Long: `Count the knight's tours of a board exactly: directed open tours (every start and both
directions counted), those from --start, or with --closed the undirected closed tours.

Three methods (--method):
  dp      frontier dynamic programming: sweeps the board cell by cell, column by column
          along the long side, keeping every distinct picture of the last 2R+1 cells
          (R the short side, at most 8) with the number of ways to reach it. Time and
          memory grow with R, hardly with the number of tours: 6×8 closed takes about 4 s
          of CPU. Boards past 64 squares are allowed (5×30, 8×12, …); counts past 2^64
          print exactly.
  join    closed tours, long side even: the dp sweep of one half, which by the mirror is
          the other half too, joined at the middle (6×8 closed in about 1.4 s of CPU).
  search  backtracking through every tour, meeting in the middle: 6×6 open in about 2 s,
          at most 64 squares, time growing with the number of tours.
  auto    (the default) search on boards of at most 42 squares (there it is faster), else
          join for closed tours where it applies, else dp.
8×8 closed (13,267,364,410,532 tours) holds hundreds of millions of states in its middle
columns, gigabytes even at about 5 bytes a state ("knight estimate" says what a count will
need before it starts).
The method is named on stderr before the count starts, then progress: a line rewritten on a
terminal, a plain line every few seconds otherwise; --quiet silences both. --max-memory
(default: half this machine's memory) bounds the state store of dp (sorted runs) and join
(hash tables): a count its estimate says cannot fit is refused before it starts, and one
that outgrows the bound stops with exit 2. Ctrl-C stops a count (exit 130).`,
		Example: `  chesspuzzles knight count --size 5
  chesspuzzles knight count --size 5 --start a1
  chesspuzzles knight count --size 6 --closed
  chesspuzzles knight count --board 7x8 --closed --max-memory 4GiB`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runKnightCount(cmd.Context(), o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	o.sizes.add(cmd, "5")
	cmd.Flags().StringVar(&o.start, "start", "", "count only the open tours from this square")
	cmd.Flags().BoolVar(&o.closed, "closed", false, "count closed tours (undirected)")
	cmd.Flags().StringVar(&o.method, "method", knight.MethodAuto, "counting method: auto, dp (frontier dynamic programming), join (closed tours: two mirror halves) or search (backtracking)")
	cmd.Flags().StringVar(&o.maxMemory, "max-memory", "", "memory the dp method may use, e.g. 8GiB, 500MB (default: half of this machine's)")
	cmd.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "no method line, no progress")
	cmd.Flags().BoolVar(&o.json, "json", false, `one JSON object: {"rows":R,"cols":C,"closed":B,"start":"a1" or null,"tours":…,"counts":"directed open tours"…}`)
	return cmd
}

// maxQuickCountSquares is the largest board a knight count runs without estimating its
// memory first: counts of up to 42 squares take seconds (the search method's boards).
const maxQuickCountSquares = 42

func runKnightCount(ctx context.Context, o knightCountOpts, stdout, stderr io.Writer) error {
	sz, opts, err := o.options()
	if err != nil {
		return err
	}
	method, err := knight.ChooseMethod(sz.Rows, sz.Cols, opts)
	if err != nil {
		return usageError(err)
	}
	opts.Method = method
	if (method == knight.MethodDP || method == knight.MethodJoin) && sz.Squares() > maxQuickCountSquares {
		// Refuse up front a count that its estimate says cannot fit, instead of sweeping
		// until the tables outgrow --max-memory (7 minutes for 8×8 closed). The estimate
		// runs the first cells for at most about 3 seconds; on small boards the count
		// itself is as quick, and stops as soon as its tables outgrow the limit.
		est, err := knight.Estimate(ctx, sz.Rows, sz.Cols, opts)
		if err != nil {
			return err
		}
		if est.PeakBytes > opts.MaxMemory {
			return usageErrorf("counting %s would need about %s of memory by its estimate, --max-memory allows %s; raise --max-memory if the machine has more (\"knight estimate\" gives the figures)", sz, knight.FormatBytes(est.PeakBytes), knight.FormatBytes(opts.MaxMemory))
		}
	}
	var p *countProgress
	if !o.quiet {
		name := map[string]string{knight.MethodDP: "frontier dynamic programming", knight.MethodJoin: "frontier dynamic programming of two mirror halves, joined", knight.MethodSearch: "backtracking, meeting in the middle"}[method]
		fmt.Fprintf(stderr, "counting %s by %s (--method %s)\n", sz, name, method)
		p = newCountProgress(stderr, isTerminal(stderr))
		opts.Status = p.update
	}
	k, err := knight.CountBig(ctx, sz.Rows, sz.Cols, opts)
	// The bar is erased before anything else is written: redrawn after the answer, it
	// would wipe it off the screen.
	p.finish()
	var me *knight.MemoryError
	if errors.As(err, &me) {
		return usageErrorf("counting %s would need more than %s of memory, --max-memory allows %s; raise --max-memory if the machine has more (\"knight estimate\" says what a count needs)", sz, knight.FormatBytes(max(me.Need, me.Limit)), knight.FormatBytes(me.Limit))
	}
	if err != nil {
		return err
	}
	what := "directed open tours"
	switch {
	case o.closed:
		what = "closed tours"
	case opts.Start != nil:
		what = "directed open tours from " + sz.Name(*opts.Start)
	}
	if o.json {
		var start *string
		if opts.Start != nil {
			name := sz.Name(*opts.Start)
			start = &name
		}
		line, err := json.Marshal(knightCountRecord{Rows: sz.Rows, Cols: sz.Cols, Closed: o.closed, Start: start, Tours: k, Counts: what})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", line)
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s %s of %s\n", k, what, sz)
	return err
}

// knightCountRecord is the --json output of knight count.
type knightCountRecord struct {
	Rows   int     `json:"rows"`
	Cols   int     `json:"cols"`
	Closed bool    `json:"closed"`
	Start  *string `json:"start"`
	Tours  any     `json:"tours"`
	Counts string  `json:"counts"` // what was counted, in words
}
