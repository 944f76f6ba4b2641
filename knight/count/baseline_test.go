package count

import "context"

// countSearch is the baseline counter of the tests and benchmarks, written apart from the
// meet-in-the-middle counter (search.go): plain recursive backtracking over adjacency lists
// and an array of unvisited-neighbour counts, no bitboards, no symmetry, no memo, with two
// prunings: an unvisited square left with no unvisited neighbour must be entered next and
// last, and two unvisited squares with at most one, neither next to the knight, mean a dead
// end (both would have to be the last square). Directed open tours (from opts.Start, or from
// every square), or undirected closed tours as the paths from the corner that leave by its
// first neighbour and end on its second. Its time grows with the number of tours.
func countSearch(ctx context.Context, rows, cols int, opts Options) (int64, error) {
	g := newGraph(rows, cols)
	n := rows * cols
	deg := make([]int, n)
	for v := range n {
		deg[v] = len(g.adj[v])
	}
	seen := make([]bool, n)
	end := -1 // the square a closed tour's path must end on
	var total int64
	var nodes int
	var walk func(v, depth int) bool
	walk = func(v, depth int) bool {
		if nodes++; nodes&(1<<16-1) == 0 && ctx.Err() != nil {
			return false
		}
		if depth == n {
			if end < 0 || v == end {
				total++
			}
			return true
		}
		seen[v] = true
		for _, u := range g.adj[v] {
			deg[u]--
		}
		defer func() {
			seen[v] = false
			for _, u := range g.adj[v] {
				deg[u]++
			}
		}()
		far := 0
		for u := range n {
			if seen[u] || deg[u] > 1 {
				continue
			}
			next := false
			for _, x := range g.adj[v] {
				next = next || int(x) == u
			}
			if deg[u] == 0 && (!next || depth+1 < n) {
				return true // u is stranded
			}
			if !next {
				far++
			}
		}
		if far > 1 {
			return true
		}
		for _, u := range g.adj[v] {
			if seen[u] || int(u) == end && depth+1 < n {
				continue
			}
			if !walk(int(u), depth+1) {
				return false
			}
		}
		return true
	}
	var starts []int
	switch {
	case opts.Closed:
		if n < 3 || noClosedTour(rows, cols) {
			return 0, ctx.Err()
		}
		a, b := int(g.adj[0][0]), int(g.adj[0][1])
		end = b
		seen[0] = true
		for _, u := range g.adj[0] {
			deg[u]--
		}
		walk(a, 2)
	case opts.Start != nil:
		starts = []int{opts.Start.Row*cols + opts.Start.Col}
	default:
		for v := range n {
			starts = append(starts, v)
		}
	}
	for i, s := range starts {
		if !walk(s, 1) {
			break
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(starts))
		}
	}
	return total, ctx.Err()
}
