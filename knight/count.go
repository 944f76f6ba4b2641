package knight

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// CountOptions are the choices for Count.
type CountOptions struct {
	// Start, if not nil, counts only the tours that begin on this square.
	Start *board.Square
	// Closed counts closed tours, undirected (each cycle once, wherever it starts).
	Closed bool
	// Method is MethodAuto (""), MethodDP, MethodJoin (closed tours only) or MethodSearch.
	Method string
	// MaxMemory, if positive, bounds the bytes the state tables of the dp and join methods
	// may hold; past it the count stops with a *MemoryError. (The join's sorted records of
	// the right half, 32 bytes a state of its first sweep, come on top.)
	MaxMemory int64
	// Progress, if not nil, is called after each share of the work is done, with the
	// number of shares done and in all (cells placed, for the dp method).
	Progress func(done, total int)
	// Status, if not nil, is called like Progress with more detail: for the dp method the
	// states in the frontier and the memory held.
	Status func(CountStatus)
}

// The counting methods of CountOptions.Method.
const (
	MethodAuto   = "auto"   // the faster of the two for the board (see ChooseMethod)
	MethodDP     = "dp"     // frontier dynamic programming (count_dp.go)
	MethodSearch = "search" // backtracking that meets in the middle (count_mitm.go)
	MethodJoin   = "join"   // closed tours: frontier sweeps of two mirror halves, joined (count_join.go)
)

// MaxCountSquares is the largest board the search method accepts. The dp method takes any
// board whose short side is at most DPMaxRows and whose long side is at most MaxCountLong,
// as memory allows.
const MaxCountSquares = 64

// MaxCountLong is the longest side Count accepts (with the short side at most DPMaxRows).
const MaxCountLong = 1000

// errCountOverflow reports a count too large for an int64.
var errCountOverflow = errors.New("count overflows a 64-bit integer")

// ChooseMethod returns the method Count uses for a rows×cols board with opts: opts.Method
// if it names one, otherwise MethodDP, except on boards of at most 42 squares (up to 6×7),
// where the search was measured faster (CPU seconds, bench/kcount.sh: 6×6 open 1.4 against
// 17, 6×6 closed 0.07 against 0.3, 6×7 closed 1.0 against 1.8; open tours leave the frontier
// far more pictures than closed ones), closed tours of oblong boards (long side even and
// at least 4, and longer than the short side) the join takes, where it was measured faster
// than the dp method (6×8: 1.4 s of CPU against 4.7, 6×10: 5.8 against 10.7, 7×8: 48
// against 63–67 with the run store), but not square ones: on 8×8 the join's second sweep,
// through the middle columns, is the plain sweep where it is widest, in hash tables that
// need more than 12 GiB, where dp counts it in a few GiB (bench/README.md). Boards the dp
// method cannot take (a short side over DPMaxRows) go to the search. It returns an error if
// the board is not one the method can count.
func ChooseMethod(rows, cols int, opts CountOptions) (string, error) {
	sz := board.Size{Rows: rows, Cols: cols}
	if rows < 1 || cols < 1 {
		return "", fmt.Errorf("board %d×%d: counting needs a board of at least 1×1", rows, cols)
	}
	if opts.Start != nil && !sz.Contains(*opts.Start) {
		return "", fmt.Errorf("start %s is off the %s board", sz.Numeric(*opts.Start), sz)
	}
	m := opts.Method
	switch m {
	case "", MethodAuto:
		m = MethodDP
		if rows*cols <= 42 {
			m = MethodSearch
		}
		if rows*cols <= MaxCountSquares && min(rows, cols) > DPMaxRows {
			m = MethodSearch
		}
		if m == MethodDP && opts.Closed && rows != cols && joinPossible(rows, cols) {
			m = MethodJoin
		}
	case MethodDP, MethodSearch:
	case MethodJoin:
		if !opts.Closed {
			return "", fmt.Errorf("method join counts closed tours only (add --closed, or use dp or search)")
		}
		if !joinPossible(rows, cols) {
			return "", fmt.Errorf("board %d×%d: the join method needs a long side that is even and at least 4 and a short side of at most %d", rows, cols, DPMaxRows)
		}
	default:
		return "", fmt.Errorf("method %q: the methods are auto, dp, join and search", m)
	}
	switch {
	case m == MethodSearch && rows*cols > MaxCountSquares:
		return "", fmt.Errorf("board %d×%d: the search method counts boards of at most %d squares", rows, cols, MaxCountSquares)
	case m == MethodDP && (min(rows, cols) > DPMaxRows || max(rows, cols) > MaxCountLong):
		return "", fmt.Errorf("board %d×%d: the dp method counts boards with a short side of at most %d and a long side of at most %d", rows, cols, DPMaxRows, MaxCountLong)
	}
	return m, nil
}

// Count returns the exact number of knight's tours of a rows×cols board: directed open tours
// (each start and each direction counted; with opts.Start, those beginning there) or, with
// opts.Closed, undirected closed tours. A count beyond an int64 is an error; CountBig returns
// it exactly.
//
// Count uses the method ChooseMethod names. The dp method sweeps the board cell by cell,
// keeping the distinct pictures of the frontier (see count_dp.go): its time and memory grow
// with the number of those states, about 5^R for a board of R ≤ C rows, and hardly with the
// number of tours: 6×8 closed (55,488,142 tours) takes about 4 s of CPU and 150 MB, 5×30
// closed (2·10^32 tours) 3 s; open tours leave more states than closed ones (6×6 open: 17 s
// of CPU, against 2 s by the search). The join method (closed tours, long side even; see
// count_join.go) sweeps only the first half and the two middle columns and joins the half
// with its own mirror image: 6×8 closed in 1.4 s of CPU and 85 MB, 6×10 in 5.8 s against
// 10.7 s by dp. On 8×8 closed (1.3·10^13 tours) both hold hundreds of millions of states in
// the middle columns (159 million after cell 37 of the plain sweep, still growing), more
// than 12 GiB: it is not counted yet. The search method enumerates the tours by
// backtracking on bitboards with dead-end pruning, meeting in the middle: the number of ways
// to finish a half-made path is stored by its visited squares and last square (see
// count_mitm.go). Only one start square of each symmetry class is searched. Its time grows
// with the number of tours, about 0.3 µs a tour on 6×6: 6×6 open takes about 2 s and closed
// 0.03 s, 6×7 closed 1.5 s; its memory is at most 384 MiB. All run in one goroutine and
// stop with ctx.Err() when ctx is done, checked at least every few milliseconds.
// Estimate tells what a count will cost before it starts.
func Count(ctx context.Context, rows, cols int, opts CountOptions) (int64, error) {
	k, err := CountBig(ctx, rows, cols, opts)
	if err != nil {
		return 0, err
	}
	if !k.IsInt64() {
		return 0, errCountOverflow
	}
	return k.Int64(), nil
}

// CountBig is Count with a result of any size: counts of boards of more than 64 squares can
// pass 2^64 (the dp method then keeps 128-bit counts, checked for overflow).
func CountBig(ctx context.Context, rows, cols int, opts CountOptions) (*big.Int, error) {
	m, err := ChooseMethod(rows, cols, opts)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Closed && closedExists(rows, cols) != "" {
		return new(big.Int), nil
	}
	start := -1
	if opts.Start != nil {
		start = opts.Start.Row*cols + opts.Start.Col
	}
	if m == MethodDP || m == MethodJoin {
		status := opts.Status
		if opts.Progress != nil {
			status = func(s CountStatus) {
				opts.Progress(s.Done, s.Total)
				if opts.Status != nil {
					opts.Status(s)
				}
			}
		}
		if m == MethodJoin {
			return countJoin(ctx, rows, cols, opts.MaxMemory, status)
		}
		return countDP(ctx, rows, cols, opts.Closed, start, opts.MaxMemory, status)
	}
	progress := opts.Progress
	if opts.Status != nil {
		progress = func(done, total int) {
			if opts.Progress != nil {
				opts.Progress(done, total)
			}
			opts.Status(CountStatus{Method: MethodSearch, Done: done, Total: total})
		}
	}
	k, err := countMITM(ctx, rows, cols, opts.Closed, start, progress)
	if err != nil {
		return nil, err
	}
	return big.NewInt(k), nil
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
