package knight

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
)

// closedCycle returns a closed tour of a rows×cols board that has one, starting at square 0.
// Boards whose sides are both at least 10 are built from blocks (linear time); smaller ones
// are searched. It returns nil when ctx is done first (nothing is remembered then).
func closedCycle(ctx context.Context, rows, cols int) []int32 {
	if rows > cols {
		p := closedCycle(ctx, cols, rows)
		if p == nil {
			return nil
		}
		return transpose(p, cols, rows)
	}
	if rows*cols <= cacheSquares {
		key := [2]int{rows, cols}
		cycleCache.Lock()
		p, ok := cycleCache.m[key]
		cycleCache.Unlock()
		if !ok {
			if p = newClosedCycle(ctx, rows, cols); p == nil {
				return nil
			}
			cycleCache.Lock()
			cycleCache.m[key] = p
			cycleCache.Unlock()
		}
		return slices.Clone(p)
	}
	return newClosedCycle(ctx, rows, cols)
}

// thinMinCols is the length from which boards narrower than blockMinSide are built by
// merging block cycles (build_thin.go) rather than searched.
const thinMinCols = 30

// thinOddMinCols is the length from which open tours of odd×odd boards with 5 to 11 rows
// are built from a block cycle and a block chain (build_thin.go) when Warnsdorff's rule gets stuck.
const thinOddMinCols = 13

// laneCycleMinCols is the length from which closed tours of 3×n boards (n even) are built
// from lanes (build_lanes.go).
const laneCycleMinCols = 20

// laneMinCols is the length from which open tours of odd 3×n boards are built from lanes
// (build_lanes.go) when Warnsdorff's rule gets stuck.
const laneMinCols = 31

// cacheSquares is the largest board whose closed tour is kept for reuse: the closed tour of
// a small board is found once and rotated for every start square.
const cacheSquares = 64 * 64

var cycleCache = struct {
	sync.Mutex
	m map[[2]int][]int32
}{m: map[[2]int][]int32{}}

// transpose maps a path of a rows×cols board to the mirrored cols×rows board, in place.
func transpose(p []int32, rows, cols int) []int32 {
	for i, v := range p {
		r, c := int(v)/cols, int(v)%cols
		p[i] = int32(c*rows + r)
	}
	return p
}

// newClosedCycle finds or builds a closed tour; nil when ctx is done first. Each stage is
// followed by a look at ctx, so that a cancelled construction does not fall through to a
// search of a board far too big for it.
func newClosedCycle(ctx context.Context, rows, cols int) []int32 {
	if rows == 3 && cols >= laneCycleMinCols {
		if p := laneCycle(ctx, rows, cols); p != nil {
			rotate(p, 0)
			return p
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	if rows < blockMinSide && cols >= thinMinCols {
		if p := thinCycle(ctx, rows, cols); p != nil {
			return p
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	if min(rows, cols) >= blockMinSide {
		if p := buildBlocks(ctx, rows, cols, -1, true); p != nil {
			return p
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	g := newGraph(rows, cols)
	if p := closeByRotation(ctx, g); p != nil {
		return p
	}
	if ctx.Err() != nil {
		return nil
	}
	// The corner has exactly two neighbours, so a closed tour through it is a path from
	// the corner that ends on one of them.
	ends := make([]bool, rows*cols)
	for _, u := range g.adj[0] {
		ends[u] = true
	}
	return hamPath(ctx, g, 0, ends, true)
}

// closeByRotation turns a Warnsdorff path from the corner into a closed tour by Pósa
// rotations: while the last square is not next to the first, pick a square x next to the
// last one, earlier on the path, and reverse the part after x, so that the square after x
// becomes the last; every few rounds turn the whole path round to work on the other end.
// Each rotation keeps a Hamiltonian path, so the result, if any, is a closed tour. It gives
// up (nil) after a bounded number of rotations, or when ctx is done.
func closeByRotation(ctx context.Context, g *graph) []int32 {
	n := len(g.adj)
	p, ok := warnsdorff(ctx, g.h, g.w, 0)
	if !ok {
		p = hamPath(ctx, g, 0, nil, false)
		if p == nil {
			return nil
		}
	}
	pos := make([]int32, n)
	for i, v := range p {
		pos[v] = int32(i)
	}
	adjacent := func(a, b int32) bool {
		for _, u := range g.adj[a] {
			if u == b {
				return true
			}
		}
		return false
	}
	reverse := func(i, j int) {
		for ; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
			pos[p[i]], pos[p[j]] = int32(i), int32(j)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	for round := 0; round < 2000*n+100000; round++ {
		last := p[n-1]
		if adjacent(last, p[0]) {
			rotate(p, 0)
			return p
		}
		if round&(1<<12-1) == 0 && ctx.Err() != nil {
			return nil
		}
		if round%50 == 49 {
			reverse(0, n-1)
			continue
		}
		nb := g.adj[last]
		x := nb[rng.IntN(len(nb))]
		if i := int(pos[x]); i < n-2 {
			reverse(i+1, n-1)
		}
	}
	return nil
}

// openPath returns an open tour from s of a board that has one from s and no closed tour;
// nil when ctx is done first.
func openPath(ctx context.Context, rows, cols int, s int32) []int32 {
	if rows > cols {
		r, c := int(s)/cols, int(s)%cols
		p := openPath(ctx, cols, rows, int32(c*rows+r))
		if p == nil {
			return nil
		}
		return transpose(p, cols, rows)
	}
	if min(rows, cols) >= blockMinSide {
		if p := buildBlocks(ctx, rows, cols, s, false); p != nil {
			return p
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	if rows == 4 && cols >= fourMinCols {
		return fourTour(cols, s)
	}
	if rows == 3 && cols%2 == 1 && cols >= laneMinCols {
		// Lanes before Warnsdorff's rule: on a long board a failed greedy run costs
		// as much time and memory as the whole tour.
		if p := laneTour(ctx, rows, cols, s); p != nil {
			return p
		}
	}
	oddThin := rows%2 == 1 && cols%2 == 1 && cols >= thinOddMinCols
	if oddThin && rows >= 5 {
		// The construction before Warnsdorff's rule, which on a long board costs as much
		// as the whole tour when it fails.
		if p := thinOdd(ctx, rows, cols, s); p != nil {
			return p
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	if p, ok := warnsdorff(ctx, rows, cols, s); ok {
		return p
	}
	if ctx.Err() != nil {
		return nil
	}
	if oddThin && rows == 3 {
		if p := thinOdd(ctx, rows, cols, s); p != nil {
			return p
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	return hamPath(ctx, newGraph(rows, cols), s, nil, false)
}

// thinOdd returns an open tour from s of an odd×odd board with 3 to 11 rows (rows ≤ cols)
// built by thinOddPath or thinEdgePath, trying the board mirrored left to right too; nil
// when neither works.
func thinOdd(ctx context.Context, rows, cols int, s int32) []int32 {
	if p := thinOddPath(ctx, rows, cols, s); p != nil {
		return p
	}
	if p := thinEdgePath(ctx, rows, cols, s); p != nil {
		return p
	}
	// Mirror left-right, so that the odd block is on the other side of s.
	r, c := int(s)/cols, int(s)%cols
	p := thinOddPath(ctx, rows, cols, int32(r*cols+cols-1-c))
	if p == nil {
		p = thinEdgePath(ctx, rows, cols, int32(r*cols+cols-1-c))
	}
	for i, v := range p {
		p[i] = int32(int(v)/cols*cols + cols - 1 - int(v)%cols)
	}
	return p
}

// hamPath searches for a Hamiltonian path of g from start ending in ends (nil: anywhere):
// first in plain Warnsdorff order, then with random tie-breaks and a growing budget of moves,
// which escapes the rare deep dead subtree that the fixed order walks into. It returns nil
// only if the search proves there is no such path, or when ctx is done (the search looks at
// ctx every few thousand moves, so it stops within about a millisecond).
func hamPath(ctx context.Context, g *graph, start int32, ends []bool, closed bool) []int32 {
	n := len(g.adj)
	budget := 3*n + 10000
	stop := func() bool { return ctx.Err() != nil }
	s := &search{g: g, ends: ends, closed: closed, budget: budget, stop: stop}
	path, found, exhausted := s.run(start)
	if found {
		return path
	}
	if exhausted {
		return nil
	}
	for i := uint64(1); ; i++ {
		if stop() {
			return nil
		}
		s := &search{g: g, ends: ends, closed: closed, budget: budget, stop: stop, rng: rand.New(rand.NewPCG(i, uint64(n)))}
		path, found, exhausted := s.run(start)
		if found {
			return path
		}
		if exhausted || stop() {
			return nil
		}
		if i%4 == 0 {
			budget += budget / 2
		}
	}
}

// rotate turns the cycle p in place so that it begins at s.
func rotate(p []int32, s int32) {
	i := slices.Index(p, s)
	if i <= 0 {
		return
	}
	slices.Reverse(p[:i])
	slices.Reverse(p[i:])
	slices.Reverse(p)
}
