package knight

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// CountOptions are the choices for Count.
type CountOptions struct {
	// Start, if not nil, counts only the tours that begin on this square.
	Start *board.Square
	// Closed counts closed tours, undirected (each cycle once, wherever it starts).
	Closed bool
	// Progress, if not nil, is called after each share of the work is done, with the
	// number of shares done and in all (calls come from several goroutines, one at a time).
	Progress func(done, total int)
}

// MaxCountSquares is the largest board Count accepts. Counting is exponential: 6×6 takes
// seconds, and larger boards are far beyond reach.
const MaxCountSquares = 64

// Count returns the exact number of knight's tours of a rows×cols board: directed open tours
// (each start and each direction counted; with opts.Start, those beginning there) or, with
// opts.Closed, undirected closed tours. It searches every tour by backtracking with the
// dead-end prunings of the tour search, split by the first squares of the path into shares
// that GOMAXPROCS goroutines search in parallel, so its time grows with the number of tours
// (5×5 in milliseconds, 6×6 open in about 10 s of CPU: 4 s on 2 cores). It stops with
// ctx.Err() when ctx is done.
func Count(ctx context.Context, rows, cols int, opts CountOptions) (int64, error) {
	sz := board.Size{Rows: rows, Cols: cols}
	if rows < 1 || cols < 1 || rows*cols > MaxCountSquares {
		return 0, fmt.Errorf("board %d×%d: counting needs a board of 1 to %d squares", rows, cols, MaxCountSquares)
	}
	if opts.Start != nil && !sz.Contains(*opts.Start) {
		return 0, fmt.Errorf("start %s is off the %s board", sz.Numeric(*opts.Start), sz)
	}
	g := newGraph(rows, cols)
	n := rows * cols
	stop := func() bool { return ctx.Err() != nil }
	// Work is split into tasks by the first few squares of the path, and the tasks are
	// shared among GOMAXPROCS workers.
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
	return runCount(ctx, g, tasks, stop, opts.Progress)
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

// runCount counts the tasks on GOMAXPROCS workers and adds up their weighted counts.
func runCount(ctx context.Context, g *graph, tasks []countTask, stop func() bool, progress func(done, total int)) (int64, error) {
	var (
		mu    sync.Mutex
		total int64
		done  int
		wg    sync.WaitGroup
	)
	next := make(chan countTask)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for tk := range next {
				s := &search{g: g, ends: tk.ends, count: true, stop: stop}
				k, err := countFrom(ctx, s, tk.prefix)
				mu.Lock()
				if err == nil {
					total += k * tk.weight
				}
				done++
				if progress != nil {
					progress(done, len(tasks))
				}
				mu.Unlock()
			}
		}()
	}
	for _, tk := range tasks {
		if ctx.Err() != nil {
			break
		}
		next <- tk
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return total, nil
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
