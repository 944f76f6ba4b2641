package knight

import (
	"context"
	"math/rand/v2"
)

// Long odd 3×n boards get their open tours from "lanes", in time and memory linear in the
// board. The columns are cut into blocks: from left to right a turn block, k two-lane blocks,
// the start block (holding the start square s), j one-lane blocks and an end block. Every
// boundary is crossed at fixed places, the same for all blocks (a protocol, found once per row
// count by search): going left from a block's square X1 to the left block's square E1, and
// going right from a block's square X2 to the right block's square E2. The knight starts at s,
// leaves the start block leftwards at X1, crosses each two-lane block right to left on its
// first lane (E1 to X1), turns round in the turn block (E1 to X2), comes back along the second
// lanes (E2 to X2), finishes the start block on its second lane (E2 to X2), and crosses the
// one-lane blocks (E2 to X2) to end anywhere in the end block. When s lies near the left edge
// there are no turn and two-lane blocks and the start block has a single lane from s to X2.
// Boards whose start lies in the right half are mirrored. Each block's lanes are found once
// per shape and remembered.

// protocol is a choice of crossing squares, as (row, col) local to a block of width w:
// x1 and e2 are in the block's first two columns (counted from its left edge), e1 and x2 in
// its last two (counted from its right edge: col 0 is the last column).
type protocol struct {
	h, wm          int
	x1, e1, e2, x2 [2]int
}

func (p protocol) left(w int, sq [2]int) int  { return sq[0]*w + sq[1] }
func (p protocol) right(w int, sq [2]int) int { return sq[0]*w + w - 1 - sq[1] }

type laneKey struct {
	pr   protocol
	kind int // laneTwo, laneTurn, laneOne, laneEnd, laneStart2, laneStart1
	w    int
	s    int // local start square for the start kinds
}

const (
	laneTwo    = iota // E1→X1 and E2→X2
	laneTurn          // E1→X2
	laneOne           // E2→X2
	laneEnd           // E2→anywhere
	laneStart2        // s→X1 and E2→X2
	laneStart1        // s→X2
	laneTurnR         // E2→X1: the right end of a closed cycle of lanes
)

var (
	lanePaths     remembered[laneKey, []int32]
	laneProtocols remembered[int, []protocol]
)

// lanePath returns the local squares of a block's lanes, in the order the knight takes them
// (first lane, then second), or nil when the search finds none.
func lanePath(k laneKey) []int32 { return lanePaths.get(k, searchLane) }

func searchLane(k laneKey) []int32 {
	h, w, pr := k.pr.h, k.w, k.pr
	g := newGraph(h, w)
	n := h * w
	var start int32
	ends := make([]bool, n+1)
	gadget := false
	switch k.kind {
	case laneTwo, laneStart2:
		gadget = true
		start = int32(pr.right(w, pr.e1))
		if k.kind == laneStart2 {
			start = int32(k.s)
		}
		ends[pr.right(w, pr.x2)] = true
	case laneTurn:
		start = int32(pr.right(w, pr.e1))
		ends[pr.right(w, pr.x2)] = true
	case laneOne:
		start = int32(pr.left(w, pr.e2))
		ends[pr.right(w, pr.x2)] = true
	case laneEnd:
		start = int32(pr.left(w, pr.e2))
		ends = nil
	case laneStart1:
		start = int32(k.s)
		ends[pr.right(w, pr.x2)] = true
	case laneTurnR:
		start = int32(pr.left(w, pr.e2))
		ends[pr.left(w, pr.x1)] = true
	}
	var x1, e2 int32
	if !laneColours(h, w, k, pr, start) {
		return nil
	}
	if gadget {
		// An extra square v joined only to X1 and E2: a path from the start to X2 through
		// every square passes X1 v E2 (or E2 v X1, which is rejected and retried).
		x1, e2 = int32(pr.left(w, pr.x1)), int32(pr.left(w, pr.e2))
		if x1 == e2 || start == e2 || ends[x1] || ends[e2] {
			return nil
		}
		v := int32(n)
		g.adj = append(g.adj, []int32{x1, e2})
		g.adj[x1] = append(g.adj[x1][:len(g.adj[x1]):len(g.adj[x1])], v)
		g.adj[e2] = append(g.adj[e2][:len(g.adj[e2]):len(g.adj[e2])], v)
	} else if ends != nil {
		ends = ends[:n]
	}
	if ends != nil && ends[start] {
		return nil
	}
	for try := uint64(0); try < 6; try++ {
		s := &search{g: g, ends: ends, budget: 5000 << try}
		if try > 0 {
			s.rng = rand.New(rand.NewPCG(try, uint64(k.s+1000*k.w)))
		}
		path, found, exhausted := s.run(start)
		if found {
			out := make([]int32, 0, n)
			good := !gadget
			for i, u := range path {
				if int(u) == n {
					good = path[i-1] == x1
					continue
				}
				out = append(out, u)
			}
			if good {
				return out
			}
		} else if exhausted && try == 0 {
			return nil
		}
	}
	return nil
}

// laneWidths are the block widths tried, by row count.
func laneWidths(h int) (mid []int, others []int) {
	if h == 3 {
		return []int{10, 12}, []int{9, 10, 11, 12, 13, 14, 15}
	}
	// No protocol for 4 rows was found with these widths: 4×n boards still search.
	return []int{8, 6, 10}, []int{5, 6, 7, 8, 9, 10, 11, 12}
}

// protocols returns the crossing protocols for h rows whose two-lane, turn, one-lane and
// end blocks all exist for some widths, found by search once and remembered.
func protocols(h int) []protocol { return laneProtocols.get(h, searchProtocols) }

func searchProtocols(h int) []protocol {
	var ps []protocol
	mids, others := laneWidths(h)
	// Crossing pairs: a square in the first two columns of a block and one in the last two
	// columns of its left neighbour, a knight's move apart.
	type pair struct{ in, out [2]int } // out: local col from the left; in: col from the right
	var lefts []pair
	for r := 0; r < h; r++ {
		for c := 0; c < 2; c++ {
			for _, m := range moves {
				rr, dc := r+m[0], m[1]
				// The target column is -1-off for off = -(c+dc)-1 ∈ {0, 1}.
				off := -(c + dc) - 1
				if rr >= 0 && rr < h && off >= 0 && off <= 1 {
					lefts = append(lefts, pair{out: [2]int{r, c}, in: [2]int{rr, off}})
				}
			}
		}
	}
	for _, wm := range mids {
	search:
		for _, a := range lefts {
			for _, b := range lefts {
				// Going left: X1 = a.out, E1 = a.in. Going right (mirror): X2 is b.in
				// (from the right edge), E2 is b.out (from the left edge).
				pr := protocol{h: h, wm: wm, x1: a.out, e1: a.in, e2: b.out, x2: b.in}
				if lanePath(laneKey{pr: pr, kind: laneTwo, w: wm}) == nil ||
					lanePath(laneKey{pr: pr, kind: laneOne, w: wm}) == nil {
					continue
				}
				turn, end := false, false
				for _, w := range others {
					turn = turn || lanePath(laneKey{pr: pr, kind: laneTurn, w: w}) != nil
					end = end || lanePath(laneKey{pr: pr, kind: laneEnd, w: w}) != nil
				}
				if turn && end {
					ps = append(ps, pr)
					if len(ps) >= 8 {
						break search
					}
				}
			}
		}
	}
	return ps
}

// laneTour returns an open tour from s of a rows×cols board with 3 or 4 rows, built from
// lanes, or nil if no layout works or ctx is done first (looked at every 1024 blocks).
func laneTour(ctx context.Context, rows, cols int, s int32) []int32 {
	sr, sc := int(s)/cols, int(s)%cols
	if 2*sc > cols-1 {
		p := laneTour(ctx, rows, cols, int32(sr*cols+cols-1-sc))
		for i, v := range p {
			p[i] = int32(int(v)/cols*cols + cols - 1 - int(v)%cols)
		}
		return p
	}
	_, others := laneWidths(rows)
	for _, pr := range protocols(rows) {
		for _, ws := range others {
			for off := 0; off < ws && off <= sc; off++ {
				a := sc - off
				ls := int32(sr*ws + off)
				if ctx.Err() != nil {
					return nil // before laneLayout allocates the whole tour again
				}
				if p := laneLayout(ctx, rows, cols, pr, a, ws, ls, others); p != nil {
					return p
				}
			}
		}
	}
	return nil
}

// laneLayout tries the layout whose start block is columns a…a+ws-1.
func laneLayout(ctx context.Context, rows, cols int, pr protocol, a, ws int, ls int32, others []int) []int32 {
	wm := pr.wm
	// Left part: a turn block and k two-lane blocks, or nothing.
	wu, k := 0, 0
	var start []int32
	if a > 0 {
		for _, w := range others {
			if a-w >= 0 && (a-w)%wm == 0 && lanePath(laneKey{pr: pr, kind: laneTurn, w: w}) != nil {
				wu, k = w, (a-w)/wm
				break
			}
		}
		if wu == 0 {
			return nil
		}
		start = lanePath(laneKey{pr: pr, kind: laneStart2, w: ws, s: int(ls)})
	} else {
		start = lanePath(laneKey{pr: pr, kind: laneStart1, w: ws, s: int(ls)})
	}
	if start == nil {
		return nil
	}
	// Right part: j one-lane blocks and an end block, or, when the rest is odd, j one-lane
	// blocks, a bridge block into an odd end block (build_blocks.go's block paths).
	rest := cols - a - ws
	we, j := 0, 0
	oddEnd := rest%2 == 1
	for _, w := range others {
		if oddEnd {
			if w%2 == 1 && rest-w-wm >= 0 && (rest-w-wm)%wm == 0 {
				we, j = w, (rest-w-wm)/wm
				break
			}
			continue
		}
		if rest-w >= 0 && (rest-w)%wm == 0 && lanePath(laneKey{pr: pr, kind: laneEnd, w: w}) != nil {
			we, j = w, (rest-w)/wm
			break
		}
	}
	if we == 0 {
		return nil
	}
	out := make([]int32, 0, rows*cols)
	put := func(p []int32, w, c0 int) {
		for _, v := range p {
			out = append(out, int32(int(v)/w*cols+c0+int(v)%w))
		}
	}
	if a == 0 {
		put(start, ws, 0)
	} else {
		two := lanePath(laneKey{pr: pr, kind: laneTwo, w: wm})
		split2 := splitLanes(two, wm, pr)
		splitS := splitLanes(start, ws, pr)
		if split2 < 0 || splitS < 0 {
			return nil
		}
		put(start[:splitS], ws, a)
		for i := k - 1; i >= 0; i-- {
			if i&1023 == 0 && ctx.Err() != nil {
				return nil
			}
			put(two[:split2], wm, wu+i*wm)
		}
		put(lanePath(laneKey{pr: pr, kind: laneTurn, w: wu}), wu, 0)
		for i := 0; i < k; i++ {
			if i&1023 == 0 && ctx.Err() != nil {
				return nil
			}
			put(two[split2:], wm, wu+i*wm)
		}
		put(start[splitS:], ws, a)
	}
	one := lanePath(laneKey{pr: pr, kind: laneOne, w: wm})
	c0 := a + ws
	for i := range j {
		if i&1023 == 0 && ctx.Err() != nil {
			return nil
		}
		put(one, wm, c0)
		c0 += wm
	}
	if !oddEnd {
		put(lanePath(laneKey{pr: pr, kind: laneEnd, w: we}), we, c0)
	} else {
		bk := blockKey{h: rows, w: wm, entry: pr.left(wm, pr.e2), dc: 1, tr: noTarget, tc: noTarget, nextOdd: true, par: c0 % 2}
		bp := findBlockPath(bk)
		if bp == nil {
			return nil
		}
		for _, q := range bp.sq {
			out = append(out, int32(int(q[0])*cols+c0+int(q[1])))
		}
		x := bp.sq[len(bp.sq)-1]
		m := moves[exitTarget(bk, int(x[0]), int(x[1]))]
		ek := blockKey{h: rows, w: we, entry: (int(x[0])+m[0])*we + int(x[1]) + m[1] - wm, tr: noTarget, tc: noTarget}
		ep := findBlockPath(ek)
		if ep == nil {
			return nil
		}
		for _, q := range ep.sq {
			out = append(out, int32(int(q[0])*cols+c0+wm+int(q[1])))
		}
	}
	if len(out) != rows*cols {
		return nil
	}
	return out
}

// splitLanes returns where the second lane of a two-lane path begins: just after X1.
func splitLanes(p []int32, w int, pr protocol) int {
	x1 := int32(pr.left(w, pr.x1))
	for i, v := range p {
		if v == x1 {
			return i + 1
		}
	}
	return -1
}

// laneColours reports whether the lanes asked for can cover the block as far as colours go:
// a path over squares of alternating colours has as many of each colour, or one more of its
// end squares' colour when both ends have the same colour.
func laneColours(h, w int, k laneKey, pr protocol, start int32) bool {
	col := func(v int) int { return (v/w + v%w) % 2 }
	excess := func(a, b int) int { // colour-0 squares minus colour-1 squares on a path a…b
		if col(a) != col(b) {
			return 0
		}
		return 1 - 2*col(a)
	}
	var got int
	switch k.kind {
	case laneTwo, laneStart2:
		got = excess(int(start), pr.left(w, pr.x1)) + excess(pr.left(w, pr.e2), pr.right(w, pr.x2))
	case laneTurn, laneOne, laneStart1:
		got = excess(int(start), pr.right(w, pr.x2))
	case laneTurnR:
		got = excess(int(start), pr.left(w, pr.x1))
	default:
		return true
	}
	want := 0
	if h*w%2 == 1 {
		want = 1
	}
	return got == want
}

// laneCycle returns a closed tour of a rows×cols board (3 rows, cols even), starting at
// square 0's block, built from lanes: a turn block at the left edge (E1→X2), k two-lane
// blocks, a right turn block at the right edge (E2→X1). The knight runs right along the
// second lanes, turns, comes back left along the first lanes and closes the cycle in the
// left turn block, whose first square E1 is a knight's move from the first two-lane block's
// X1. It returns nil when no layout fits cols.
//
// Three-row boards need this rather than the merge of build_thin.go: a two-edge switch between
// neighbouring blocks needs an edge of each cycle inside the two columns next to the
// boundary, and on 3 rows such edges ((0,c)–(2,c+1) and (2,c)–(0,c+1)) never pair up.
//
// It returns nil too when ctx is done first (looked at every 1024 blocks).
func laneCycle(ctx context.Context, rows, cols int) []int32 {
	_, others := laneWidths(rows)
	for _, pr := range protocols(rows) {
		wm := pr.wm
		for _, wl := range others {
			left := lanePath(laneKey{pr: pr, kind: laneTurn, w: wl})
			if left == nil {
				continue
			}
			for _, wr := range others {
				rest := cols - wl - wr
				if rest < 0 || rest%wm != 0 {
					continue
				}
				if ctx.Err() != nil {
					return nil
				}
				right := lanePath(laneKey{pr: pr, kind: laneTurnR, w: wr})
				if right == nil {
					continue
				}
				k := rest / wm
				var two []int32
				split := 0
				if k > 0 {
					two = lanePath(laneKey{pr: pr, kind: laneTwo, w: wm})
					if two == nil {
						continue
					}
					if split = splitLanes(two, wm, pr); split < 0 {
						continue
					}
				}
				out := make([]int32, 0, rows*cols)
				put := func(p []int32, w, c0 int) {
					for _, v := range p {
						out = append(out, int32(int(v)/w*cols+c0+int(v)%w))
					}
				}
				put(left, wl, 0)
				for i := range k {
					if i&1023 == 0 && ctx.Err() != nil {
						return nil
					}
					put(two[split:], wm, wl+i*wm)
				}
				put(right, wr, cols-wr)
				for i := k - 1; i >= 0; i-- {
					if i&1023 == 0 && ctx.Err() != nil {
						return nil
					}
					put(two[:split], wm, wl+i*wm)
				}
				if len(out) == rows*cols {
					return out
				}
			}
		}
	}
	return nil
}
