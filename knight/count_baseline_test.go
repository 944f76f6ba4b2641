package knight

import (
	"context"
	"slices"
)

// countSearch is the count by backtracking through every tour, with the dead-end prunings of
// the tour search, in one goroutine: the way Count worked before the meet-in-the-middle counter (pathcount.go), kept as the
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

// countFrom counts the paths of s that begin with prefix.
func countFrom(ctx context.Context, s *search, prefix []int32) (int64, error) {
	s.prefix = prefix
	s.run(prefix[0])
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return s.total, nil
}
