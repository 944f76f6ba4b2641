package count

import (
	"context"
	"math/bits"
)

// Counting by backtracking on bitboards, meeting in the middle.
//
// The tours are enumerated by depth-first search on 64-bit masks of visited squares, with
// the dead-end prunings of the tour search: a square with no unvisited neighbour must be
// the very next and last one, and a square with at most one unvisited neighbour, not next to
// the knight, can only be the far end of the path, so two such squares end the branch.
//
// The search meets itself in the middle: how many ways a path can be finished depends only
// on the squares visited and the square the knight stands on, not on the order of the first
// half. So once the path holds half the squares, that pair is looked up in a table; the
// second half of the tree below it is searched only the first time the pair is met, and its
// count is stored and reused. On 6×6 the open paths from the six kinds of start square meet
// in about 420,000 distinct middle states (a 16 MiB table, shared by all start squares, since
// finishing does not depend on the start), and the memo makes the count about 1.7 times
// faster than the same search without it. Storing several depths was tried and gained
// nothing measurable.
//
// Joining half-paths from both ends (enumerating every half-path of 18 squares from every
// square, keyed by visited squares and end) was measured first and rejected: 6×6 has some
// 2.7·10^9 such half-paths, because the pruning that makes the search cheap works only near
// the end of a path; and a sweep of board states (frontier dynamic programming, the dp
// method) needs about 8 million states at once for 6×6 open tours and is over ten times
// slower (bench/README.md).

// memoHeadShift places the knight's square above the visited mask in a memo key; boards of
// more than memoMaxSquares squares are searched without the memo.
const (
	memoHeadShift  = 58
	memoMaxSquares = 58
	// memoMaxEntries bounds the memo table so that it stays at 2^24 slots of 16 bytes
	// (256 MiB; 384 MiB while it doubles to that size, the old table still held): past it,
	// new middle states are searched without being stored.
	memoMaxEntries = 3<<22 - 1
)

// pathCounter counts the Hamiltonian paths of a knight graph that extend a given start.
type pathCounter struct {
	n    int
	adj  []uint64 // neighbour masks
	ends uint64   // squares where a path may end
	// memo maps a middle state (visited mask | knight<<memoHeadShift) to the number of ways
	// to finish; used when the path holds exactly memoDepth squares. nil: no memo.
	memo      *stateTable
	memoDepth int
	stop      func() bool
	nodes     int
}

func newPathCounter(rows, cols int, ends uint64, stop func() bool) *pathCounter {
	g := newGraph(rows, cols)
	pc := &pathCounter{n: rows * cols, adj: make([]uint64, rows*cols), ends: ends, stop: stop}
	for v, ns := range g.adj {
		for _, u := range ns {
			pc.adj[v] |= 1 << u
		}
	}
	if pc.n <= memoMaxSquares && pc.n >= 16 {
		pc.memo = newStateTable(1 << 16)
		pc.memoDepth = pc.n / 2
	}
	return pc
}

// pcFrame is one square of the path on the explicit stack of pathCounter.count.
type pcFrame struct {
	head    int
	visited uint64
	cand    uint64 // moves from head still to try
	low     uint64 // unvisited squares with at most one unvisited neighbour
	entry   uint64 // total when the frame was entered (for the memo)
	key     uint64 // memo key, or emptyState when the frame is not stored
}

// count returns the number of paths covering every square that begin with the squares of
// visited (all visited squares are counted as the path so far; head is its last square), and
// whether the search finished (false when stop said so). It uses no recursion.
func (pc *pathCounter) count(head int, visited uint64) (uint64, bool) {
	full := uint64(1)<<pc.n - 1
	if pc.n == 64 {
		full = ^uint64(0)
	}
	var total uint64
	stack := make([]pcFrame, 0, pc.n+1)
	// low for the starting position.
	var low uint64
	for u := range pc.n {
		if visited>>u&1 == 0 && bits.OnesCount64(pc.adj[u]&^visited) <= 1 {
			low |= 1 << u
		}
	}
	// push enters head as the newest square; it reports false when the position is a dead
	// end or is finished (counted, or found in the memo).
	push := func(head int, visited, low uint64) bool {
		unvisited := full &^ visited
		left := bits.OnesCount64(unvisited)
		if left == 0 {
			if pc.ends>>head&1 == 1 {
				total++
			}
			return false
		}
		low &^= 1 << head
		for m := pc.adj[head] & unvisited; m != 0; m &= m - 1 {
			u := bits.TrailingZeros64(m)
			switch bits.OnesCount64(pc.adj[u] & unvisited) {
			case 0:
				if left > 1 {
					return false // u would be stranded
				}
				low |= 1 << u
			case 1:
				low |= 1 << u
			}
		}
		// Squares of low not next to the knight can only be the last square.
		far := low &^ pc.adj[head]
		if far&(far-1) != 0 || far&^pc.ends != 0 {
			return false
		}
		cand := pc.adj[head] & unvisited
		if left > 1 && pc.ends != full {
			cand &^= pc.ends // a restricted end is entered last
		}
		key := emptyState
		if pc.memo != nil && pc.n-left == pc.memoDepth {
			key = visited | uint64(head)<<memoHeadShift
			if c, ok := pc.memo.get(key); ok {
				total += c
				return false
			}
			if pc.memo.n >= memoMaxEntries {
				key = emptyState
			}
		}
		stack = append(stack, pcFrame{head: head, visited: visited, cand: cand, low: low, entry: total, key: key})
		return true
	}
	stack = stack[:0]
	if !push(head, visited, low) {
		return total, true
	}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.cand == 0 {
			if f.key != emptyState && pc.memo.n < memoMaxEntries {
				pc.memo.add(f.key, total-f.entry)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		u := bits.TrailingZeros64(f.cand)
		f.cand &= f.cand - 1
		if pc.nodes++; pc.nodes&(1<<16-1) == 0 && pc.stop != nil && pc.stop() {
			return 0, false
		}
		push(u, f.visited|1<<u, f.low)
	}
	return total, true
}

// countMITM counts tours with a pathCounter: directed open tours from start (an index), or
// from every square when start < 0, or undirected closed tours. Shares of the work (a start
// square's first moves) are reported to progress.
func countMITM(ctx context.Context, rows, cols int, closed bool, start int, progress func(done, total int)) (int64, error) {
	n := rows * cols
	stop := func() bool { return ctx.Err() != nil }
	type share struct {
		head    int
		visited uint64
		weight  uint64
	}
	var shares []share
	var pc *pathCounter
	full := uint64(1)<<n - 1
	if n == 64 {
		full = ^uint64(0)
	}
	if closed {
		// Every closed tour passes the corner, which has exactly two neighbours a and b:
		// count the paths from the corner that leave by a and end on b, each cycle once.
		g := newGraph(rows, cols)
		a, b := int(g.adj[0][0]), int(g.adj[0][1])
		pc = newPathCounter(rows, cols, 1<<b, stop)
		// Shares: the two squares after a (b comes last, so it is never one of them).
		for m := pc.adj[a] &^ (1 | 1<<b); m != 0; m &= m - 1 {
			u := bits.TrailingZeros64(m)
			for m2 := pc.adj[u] &^ (1 | 1<<a | 1<<b); m2 != 0; m2 &= m2 - 1 {
				w := bits.TrailingZeros64(m2)
				shares = append(shares, share{w, 1 | 1<<a | 1<<u | 1<<w, 1})
			}
		}
	} else {
		pc = newPathCounter(rows, cols, full, stop)
		// Squares related by a symmetry of the board start equally many tours, so only the
		// smallest square of each class is searched and its count multiplied.
		weight := make(map[int]uint64)
		var order []int
		for v := range n {
			if start >= 0 && v != start {
				continue
			}
			c := int(canonical(rows, cols, int32(v)))
			if weight[c] == 0 {
				order = append(order, c)
			}
			weight[c]++
		}
		for _, v := range order {
			if n == 1 {
				shares = append(shares, share{v, 1 << v, weight[v]})
				continue
			}
			for m := pc.adj[v]; m != 0; m &= m - 1 {
				u := bits.TrailingZeros64(m)
				shares = append(shares, share{u, 1<<v | 1<<u, weight[v]})
			}
		}
	}
	var total uint64
	for i, sh := range shares {
		k, ok := pc.count(sh.head, sh.visited)
		if !ok {
			break
		}
		hi, lo := bits.Mul64(k, sh.weight)
		var carry uint64
		total, carry = bits.Add64(total, lo, 0)
		if hi != 0 || carry != 0 || total > 1<<63-1 {
			return 0, errCountOverflow
		}
		if progress != nil {
			progress(i+1, len(shares))
		}
	}

	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return int64(total), nil
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
