package knight

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// CountOptions are the choices for Count.
type CountOptions struct {
	// Start, if not nil, counts only the tours that begin on this square.
	Start *board.Square
	// Closed counts closed tours, undirected (each cycle once, wherever it starts).
	Closed bool
	// Progress, if not nil, is called after each share of the work is done, with the
	// number of shares done and in all.
	Progress func(done, total int)
}

// MaxCountSquares is the largest board Count accepts. Counting is exponential: 6×6 takes a
// second or two, 6×7 closed a few seconds, and 7×7 or 8×8 are far beyond reach.
const MaxCountSquares = 64

// errCountOverflow reports a count too large for an int64.
var errCountOverflow = errors.New("count overflows a 64-bit integer")

// Count returns the exact number of knight's tours of a rows×cols board: directed open tours
// (each start and each direction counted; with opts.Start, those beginning there) or, with
// opts.Closed, undirected closed tours.
//
// It enumerates the tours by backtracking on bitboards with dead-end pruning, in one
// goroutine, and meets in the middle: the number of ways to finish a half-made path is stored
// by its visited squares and last square, so the second half of the search is done once per
// distinct middle state (see count_mitm.go). Only one start square of each symmetry class is
// searched. Its time grows with the number of tours, about 0.3 µs a tour on 6×6: 5×5 and 5×6
// take milliseconds, 6×6 open (6,637,920 tours) about 2 s and closed 0.03 s, 5×8 closed 0.15
// s, 6×7 closed 1.5 s; its memory is the middle table, 16 MiB on 6×6 and at most 256 MiB (384
// MiB while it doubles). Progress counts shares (a start square and its first move). It stops
// with ctx.Err() when ctx is done, checked every 65536 moves.
func Count(ctx context.Context, rows, cols int, opts CountOptions) (int64, error) {
	sz := board.Size{Rows: rows, Cols: cols}
	if rows < 1 || cols < 1 || rows*cols > MaxCountSquares {
		return 0, fmt.Errorf("board %d×%d: counting needs a board of 1 to %d squares", rows, cols, MaxCountSquares)
	}
	if opts.Start != nil && !sz.Contains(*opts.Start) {
		return 0, fmt.Errorf("start %s is off the %s board", sz.Numeric(*opts.Start), sz)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if opts.Closed && closedExists(rows, cols) != "" {
		return 0, nil
	}
	start := -1
	if opts.Start != nil {
		start = opts.Start.Row*cols + opts.Start.Col
	}
	return countMITM(ctx, rows, cols, opts.Closed, start, opts.Progress)
}

// countSearch is the count by backtracking through every tour, with the dead-end prunings of
// the tour search, in one goroutine: the way Count worked before count_mitm.go, kept as the
// independent cross-check and the baseline of the tests and benchmarks. Its time grows with
// the number of tours, about 2 µs a tour (6×6 open takes about 13 s).
// Progress counts shares: the paths of the first two or three moves.
func countSearch(ctx context.Context, rows, cols int, opts CountOptions) (int64, error) {
	g := newGraph(rows, cols)
	n := rows * cols
	stop := func() bool { return ctx.Err() != nil }
	var tasks []countTask
	if opts.Closed {
		if closedExists(rows, cols) != "" {
			return 0, nil
		}
		// Every closed tour passes the corner, which has exactly two neighbours a and b:
		// count the paths that leave the corner by a and end on b, each cycle once.
		a, b := g.adj[0][0], g.adj[0][1]
		ends := make([]bool, n)
		ends[b] = true
		tasks = splitTasks(g, []int32{0, a}, 1, ends, 4)
	} else {
		var starts []int32
		if opts.Start != nil {
			starts = []int32{int32(opts.Start.Row*cols + opts.Start.Col)}
		} else {
			for v := range n {
				starts = append(starts, int32(v))
			}
		}
		// Squares related by a symmetry of the board start equally many tours, so only the
		// smallest square of each class is searched and its count multiplied.
		weight := make(map[int32]int64)
		var order []int32
		for _, v := range starts {
			c := canonical(rows, cols, v)
			if weight[c] == 0 {
				order = append(order, c)
			}
			weight[c]++
		}
		for _, v := range order {
			tasks = append(tasks, splitTasks(g, []int32{v}, weight[v], nil, 3)...)
		}
	}
	var total int64
	for i, tk := range tasks {
		s := &search{g: g, ends: tk.ends, count: true, stop: stop}
		k, err := countFrom(ctx, s, tk.prefix)
		if err != nil {
			return 0, err
		}
		total += k * tk.weight
		if opts.Progress != nil {
			opts.Progress(i+1, len(tasks))
		}
	}
	return total, nil
}

// countTask is one share of a count: the paths that begin with prefix (and end in ends, if
// not nil), counted weight times.
type countTask struct {
	prefix []int32
	ends   []bool
	weight int64
}

// splitTasks extends prefix by every possible next square until it holds depth squares
// (boards of fewer than 2·depth squares are not split), one task per extension.
func splitTasks(g *graph, prefix []int32, weight int64, ends []bool, depth int) []countTask {
	n := len(g.adj)
	if len(prefix) >= depth || n < 2*depth {
		return []countTask{{prefix: prefix, ends: ends, weight: weight}}
	}
	var out []countTask
	last := prefix[len(prefix)-1]
	for _, u := range g.adj[last] {
		if slices.Contains(prefix, u) {
			continue
		}
		p := append(slices.Clone(prefix), u)
		out = append(out, splitTasks(g, p, weight, ends, depth)...)
	}
	return out
}

// canonical returns the smallest square index among the images of v under the symmetries
// of a rows×cols board (four, or eight when the board is square).
func canonical(rows, cols int, v int32) int32 {
	r, c := int(v)/cols, int(v)%cols
	best := v
	try := func(rr, cc int) {
		if w := int32(rr*cols + cc); w < best {
			best = w
		}
	}
	for _, rr := range []int{r, rows - 1 - r} {
		for _, cc := range []int{c, cols - 1 - c} {
			try(rr, cc)
			if rows == cols {
				try(cc, rr)
			}
		}
	}
	return best
}

// countFrom counts the paths of s that begin with prefix.
func countFrom(ctx context.Context, s *search, prefix []int32) (int64, error) {
	s.prefix = prefix
	s.run(prefix[0])
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return s.total, nil
}
