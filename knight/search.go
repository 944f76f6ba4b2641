package knight

import "math/rand/v2"

// moves are the eight knight moves as (row, col) steps. Their order is the fixed tie-break of
// last resort everywhere in this package.
var moves = [8][2]int{{-2, 1}, {-1, 2}, {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}}

// graph is the knight graph of an h×w rectangle, squares numbered r*w+c, with adjacency lists.
// It is used for boards and blocks small enough to search (a few thousand squares).
type graph struct {
	h, w int
	adj  [][]int32
}

func newGraph(h, w int) *graph {
	g := &graph{h: h, w: w, adj: make([][]int32, h*w)}
	flat := make([]int32, 0, 8*h*w)
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			lo := len(flat)
			for _, m := range moves {
				rr, cc := r+m[0], c+m[1]
				if rr >= 0 && rr < h && cc >= 0 && cc < w {
					flat = append(flat, int32(rr*w+cc))
				}
			}
			g.adj[r*w+c] = flat[lo:len(flat):len(flat)]
		}
	}
	return g
}

// search is a backtracking search for a Hamiltonian path of a graph: iterative (an explicit
// stack, so no recursion grows with the board), candidates tried in Warnsdorff order (fewest
// onward moves first; ties by a one-move look-ahead, or at random when rng is set), and two
// prunings that keep narrow boards cheap:
//   - an unvisited square with no unvisited neighbour must be the very next and last square;
//   - an unvisited square with at most one unvisited neighbour, not next to the knight, can
//     only be the far end of the path, so two such squares mean a dead end.
//
// ends, when not nil, lists the squares where the path may end.
type search struct {
	g      *graph
	ends   []bool
	closed bool // the path must end next to its start (ends must say so too)
	budget int  // most moves to try; 0 means no limit
	rng    *rand.Rand

	stop func() bool // polled every 2^14 moves (about a millisecond); true ends the run

	nodes int
}

// run looks for a path from start. found reports success; when it is false, exhausted
// reports whether the whole tree was searched (so no such path exists) rather than the budget
// running out.
func (s *search) run(start int32) (path []int32, found, exhausted bool) {
	g := s.g
	n := len(g.adj)
	deg := make([]int8, n)
	visited := make([]bool, n)
	low := 0
	for v := range g.adj {
		deg[v] = int8(len(g.adj[v]))
		if deg[v] <= 1 {
			low++
		}
	}
	visit := func(v int32) {
		visited[v] = true
		if deg[v] <= 1 {
			low--
		}
		for _, u := range g.adj[v] {
			deg[u]--
			if !visited[u] && deg[u] == 1 {
				low++
			}
		}
	}
	unvisit := func(v int32) {
		for _, u := range g.adj[v] {
			if !visited[u] && deg[u] == 1 {
				low--
			}
			deg[u]++
		}
		visited[v] = false
		if deg[v] <= 1 {
			low++
		}
	}
	endOK := func(v int32) bool { return s.ends == nil || s.ends[v] }

	path = make([]int32, n)
	cand := make([][8]int32, n)
	ncand := make([]int8, n)
	next := make([]int8, n)
	var key [8]int32

	// expand fills the candidate list at depth d (the knight on path[d]).
	expand := func(d int) {
		v := path[d]
		ncand[d], next[d] = 0, 0
		remaining := n - d - 1
		adjLow := 0
		k := 0
		for _, u := range g.adj[v] {
			if visited[u] {
				continue
			}
			if deg[u] == 0 && remaining > 1 {
				return // u would be stranded
			}
			if deg[u] <= 1 {
				adjLow++
			}
			cand[d][k] = u
			k++
		}
		if low-adjLow > 1 {
			return
		}
		ncand[d] = int8(k)
		// Warnsdorff order: fewest onward moves; ties by the look-ahead (lowest onward
		// count among the square's own onward squares) or at random.
		for i := 0; i < k; i++ {
			u := cand[d][i]
			kk := int32(deg[u]) << 16
			if s.rng != nil {
				kk |= int32(s.rng.IntN(1 << 8))
			} else {
				best := int32(9)
				for _, x := range g.adj[u] {
					if !visited[x] && int32(deg[x])-1 < best {
						best = int32(deg[x]) - 1
					}
				}
				kk |= (best + 1) << 8
			}
			key[i] = kk
		}
		for i := 1; i < k; i++ {
			for j := i; j > 0 && key[j] < key[j-1]; j-- {
				key[j], key[j-1] = key[j-1], key[j]
				cand[d][j], cand[d][j-1] = cand[d][j-1], cand[d][j]
			}
		}
		ncand[d] = int8(k)
	}

	path[0] = start
	if s.closed {
		// The start stays an onward square of its neighbours: the path must come back
		// next to it, so Warnsdorff's order leaves those squares for last.
		visited[start] = true
		if deg[start] <= 1 {
			low--
		}
	} else {
		visit(start)
	}
	if n == 1 {
		return path, endOK(start), true
	}
	expand(0)
	d := 0
	for {
		if next[d] < ncand[d] {
			u := cand[d][next[d]]
			next[d]++
			s.nodes++
			if s.budget > 0 && s.nodes > s.budget {
				return nil, false, false
			}
			if s.stop != nil && s.nodes&(1<<14-1) == 0 && s.stop() {
				return nil, false, false
			}
			visit(u)
			d++
			path[d] = u
			if d == n-1 {
				if endOK(u) {
					return path, true, true
				}
				unvisit(u)
				d--
				continue
			}
			expand(d)
			continue
		}
		if d == 0 {
			return nil, false, true
		}
		unvisit(path[d])
		d--
	}
}
