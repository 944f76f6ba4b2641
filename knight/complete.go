package knight

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// MaxCompleteSquares is the largest board, in squares, that [Complete] takes.
const MaxCompleteSquares = 32 * 32

// Complete returns a tour of a rows×cols board that begins with the squares of path, in
// order: path completed by a search, closed if asked. It returns
//   - an error wrapping [ErrNoTour] when no tour begins with path: at once when the rules of
//     [Exists] rule out a tour from path's first square, or the path as it is leaves a square
//     cut off, two squares that could each only be the last, a square the knight cannot
//     reach or a knight with no move (the error names the square); after the search
//     otherwise (it says how many squares were left);
//   - ctx.Err() when ctx is done before the search decides;
//   - another error when path is empty, leaves the board, visits a square twice or makes a
//     step that is not a knight's move, or the board is larger than MaxCompleteSquares.
//
// The search is backtracking from the last square of path, the onward squares tried in
// Warnsdorff order (fewest onward moves first, ties by a one-move look-ahead; on restarts
// after a budget of nodes ran out, remaining ties at random), and at every
// node it gives up on a branch when the unvisited squares cannot all be reached from the
// knight, when an unvisited square has no unvisited neighbour and is not next to the knight,
// or when two squares not next to the knight have at most one unvisited neighbour each (only
// the last square of a path may; on a closed tour it must also be next to the start). On 8×8
// most paths are decided in milliseconds, but the problem is NP-complete and some are not
// (measured: 4 of 100 random knight's walks of 5 to 45 squares on 8×8, asking for an open tour,
// were undecided after 3 s; 0 of 100 asking for a closed one); the search then runs until ctx
// is done. Memory is linear in the board.
func Complete(ctx context.Context, rows, cols int, path []board.Square, closed bool) (Tour, error) {
	sz := board.Size{Rows: rows, Cols: cols}
	if rows < 1 || cols < 1 || rows*cols > MaxCompleteSquares {
		return Tour{}, fmt.Errorf("board %d×%d: completing a tour takes boards of at most %d squares", rows, cols, MaxCompleteSquares)
	}
	if len(path) == 0 {
		return Tour{}, fmt.Errorf("give at least the start square of the path")
	}
	if _, err := Accessibility(sz, path); err != nil {
		return Tour{}, err
	}
	// The rules tour uses first: no search can find what they rule out.
	if err := Exists(sz, path[0], closed); err != nil {
		return Tour{}, err
	}
	n := rows * cols
	c := &completer{rows: rows, cols: cols, ctx: ctx, closed: closed}
	c.adj = newGraph(rows, cols).adj
	c.visited = make([]bool, n)
	c.deg = make([]int, n)
	c.path = make([]int32, 0, n)
	for v := range c.adj {
		c.deg[v] = len(c.adj[v])
	}
	for _, sq := range path {
		c.visit(int32(sq.Row*cols + sq.Col))
	}
	if closed {
		c.toStart = make([]bool, n)
		for _, u := range c.adj[c.path[0]] {
			c.toStart[u] = true
		}
	}
	kind := "tour"
	if closed {
		kind = "closed tour"
	}
	if why := c.whyNot(); why != "" {
		return Tour{}, noTour(fmt.Sprintf("no %s of %s begins with these %d squares: %s", kind, sz, len(path), why))
	}
	if err := ctx.Err(); err != nil {
		return Tour{}, err
	}
	// Restarts: a fixed-order search sometimes walks into a deep subtree with no tour in
	// it, so each run has a budget of nodes; a run cut by its budget is tried again with
	// random tie-breaks (seeded by the run number, so the answer is the same every time)
	// and a budget growing by half every four runs. A run that ends within its budget
	// decides: it found a tour, or it searched the whole tree.
	budget := 20 * n
	for run := uint64(0); ; run++ {
		c.nodes, c.budget, c.cut = 0, budget, false
		if run > 0 {
			c.rng = rand.New(rand.NewPCG(run, uint64(n)))
		}
		if c.search() {
			return Tour{Rows: rows, Cols: cols, Path: c.path}, nil
		}
		if c.err != nil {
			return Tour{}, c.err
		}
		if !c.cut {
			break
		}
		if run%4 == 3 {
			budget += budget / 2
		}
	}
	return Tour{}, noTour(fmt.Sprintf("no %s of %s begins with these %d squares (%d squares left)", kind, sz, len(path), n-len(path)))
}

// completer is the state of Complete's search: deg[v] counts the unvisited neighbours of v.
type completer struct {
	rows, cols int
	ctx        context.Context
	closed     bool
	adj        [][]int32
	visited    []bool
	deg        []int
	path       []int32
	nodes      int
	budget     int  // most nodes this run may visit
	cut        bool // the run ran out of budget
	rng        *rand.Rand
	err        error

	toStart []bool // closed: the squares a knight's move from the start

	mark  []int32 // BFS scratch: the generation a square was reached in
	gen   int32
	queue []int32
}

func (c *completer) visit(v int32) {
	c.visited[v] = true
	c.path = append(c.path, v)
	for _, u := range c.adj[v] {
		c.deg[u]--
	}
}

func (c *completer) unvisit(v int32) {
	c.visited[v] = false
	c.path = c.path[:len(c.path)-1]
	for _, u := range c.adj[v] {
		c.deg[u]++
	}
}

// search extends c.path to a tour and reports whether it did; on false c.path is as it was.
func (c *completer) search() bool {
	n := len(c.visited)
	cur := c.path[len(c.path)-1]
	if len(c.path) == n {
		return !c.closed || c.isMove(cur, c.path[0])
	}
	c.nodes++
	if c.nodes&1023 == 0 && c.ctx.Err() != nil {
		c.err = c.ctx.Err()
	}
	if c.nodes > c.budget {
		c.cut = true
	}
	if c.err != nil || c.cut || !c.feasible(cur) {
		return false
	}
	// Warnsdorff order: fewest onward moves, then the fewest onward moves of an onward
	// square (one move of look-ahead), then at random on restarts.
	var cand [8]int32
	var key [8]int
	k := 0
	for _, u := range c.adj[cur] {
		if c.visited[u] {
			continue
		}
		look := 9
		for _, x := range c.adj[u] {
			if !c.visited[x] {
				look = min(look, c.deg[x]-1)
			}
		}
		cand[k], key[k] = u, c.deg[u]<<16|(look+1)<<8
		if c.rng != nil {
			key[k] |= c.rng.IntN(256)
		}
		for j := k; j > 0 && key[j] < key[j-1]; j-- {
			cand[j], cand[j-1] = cand[j-1], cand[j]
			key[j], key[j-1] = key[j-1], key[j]
		}
		k++
	}
	for _, u := range cand[:k] {
		c.visit(u)
		if c.search() {
			return true
		}
		c.unvisit(u)
		if c.err != nil || c.cut {
			return false
		}
	}
	return false
}

// feasible applies the cuts of Complete's comment with the knight on cur.
func (c *completer) feasible(cur int32) bool {
	n := len(c.visited)
	left := n - len(c.path)
	if c.closed && left > 0 {
		// Some unvisited neighbour of the start must remain to end on.
		ok := false
		for _, u := range c.adj[c.path[0]] {
			ok = ok || !c.visited[u]
		}
		if !ok {
			return false
		}
	}
	if c.mark == nil {
		c.mark = make([]int32, n)
		c.queue = make([]int32, 0, n)
	}
	c.gen++
	for _, u := range c.adj[cur] {
		if !c.visited[u] {
			c.mark[u] = c.gen
		}
	}
	low := 0
	c.queue = c.queue[:0]
	for v := range c.visited {
		if c.visited[v] {
			continue
		}
		near := c.mark[v] == c.gen
		if !near && c.deg[v] == 0 {
			return false
		}
		if !near && c.deg[v] <= 1 {
			// v can only be the last square; on a closed tour that one is next to the
			// start and has another unvisited neighbour to come from.
			if c.closed && (c.deg[v] == 0 || !c.toStart[v]) {
				return false
			}
			low++
			if low > 1 {
				return false
			}
		}
		if near {
			c.queue = append(c.queue, int32(v))
		}
	}
	// Every unvisited square must be reachable from the knight through unvisited squares.
	reached := len(c.queue)
	for i := 0; i < len(c.queue); i++ {
		for _, u := range c.adj[c.queue[i]] {
			if !c.visited[u] && c.mark[u] != c.gen {
				c.mark[u] = c.gen
				c.queue = append(c.queue, u)
				reached++
			}
		}
	}
	return reached == left
}

// whyNot returns, in words that name a square, the first of the search's cuts (see
// completer.feasible) that rules out every tour from the path as it is, or "" if none
// does: a knight with no move, a square cut off, two squares that could each only end the tour, a square the
// knight cannot reach, a start with nothing left to close on. It takes time linear in
// the board.
func (c *completer) whyNot() string {
	sz := board.Size{Rows: c.rows, Cols: c.cols}
	name := func(v int32) string { return sz.Name(board.Square{Row: int(v) / c.cols, Col: int(v) % c.cols}) }
	n := int32(len(c.visited))
	cur := c.path[len(c.path)-1]
	if len(c.path) == len(c.visited) {
		return ""
	}
	if c.closed && c.deg[c.path[0]] == 0 {
		return fmt.Sprintf("every square a knight's move from the start %s is visited, so the tour cannot close", name(c.path[0]))
	}
	near := make([]bool, n)
	stuck := true
	for _, u := range c.adj[cur] {
		near[u] = true
		stuck = stuck && c.visited[u]
	}
	if stuck {
		return fmt.Sprintf("the knight on %s has no move, every square a knight's move from it is visited", name(cur))
	}
	var low []int32
	for v := range n {
		if c.visited[v] || near[v] {
			continue
		}
		switch {
		case c.deg[v] == 0:
			return fmt.Sprintf("%s is cut off, every square a knight's move from it is visited", name(v))
		case c.deg[v] == 1 && c.closed && !c.toStart[v]:
			return fmt.Sprintf("%s has one unvisited neighbour, so it can only end the tour, but it is not a knight's move from the start %s", name(v), name(c.path[0]))
		case c.deg[v] == 1:
			low = append(low, v)
		}
	}
	if len(low) > 1 {
		return fmt.Sprintf("%s and %s each have one unvisited neighbour, so each could only end the tour", name(low[0]), name(low[1]))
	}
	seen := make([]bool, n)
	queue := []int32{}
	for _, u := range c.adj[cur] {
		if !c.visited[u] {
			seen[u] = true
			queue = append(queue, u)
		}
	}
	for i := 0; i < len(queue); i++ {
		for _, u := range c.adj[queue[i]] {
			if !c.visited[u] && !seen[u] {
				seen[u] = true
				queue = append(queue, u)
			}
		}
	}
	for v := range n {
		if !c.visited[v] && !seen[v] {
			return fmt.Sprintf("the knight on %s cannot reach %s: visited squares cut it off", name(cur), name(v))
		}
	}
	return ""
}

func (c *completer) isMove(a, b int32) bool {
	return Tour{Rows: c.rows, Cols: c.cols}.isMove(a, b)
}
