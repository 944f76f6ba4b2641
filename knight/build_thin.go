package knight

import (
	"context"
	"slices"
)

// Thin boards (3 to 11 rows, many columns) are too narrow for the block chain of build_blocks.go,
// whose block grid needs two rows of blocks to have a cycle. Their closed tours are built by
// merging instead: the board is cut into rows×w blocks that have closed tours (found once per
// shape by closedCycle and remembered), and each block's cycle is spliced into the cycle so
// far by a two-edge switch across the boundary: an edge a→a2 of the old cycle in the two
// columns left of the boundary and an edge b→b2 of the block's cycle in the two columns right
// of it, with a–b2 and b–a2 knight's moves, become a→b2 … b→a2. (If instead a–b and a2–b2
// are moves, the block's cycle is turned round first.) Blocks are at least 6 wide, so the
// edges used on a block's left never touch those its right neighbour will use. Time and
// memory are linear in the board. On 3 rows no such switch exists (see laneCycle in
// build_lanes.go, which builds those boards' closed tours instead).

// thinParts splits cols into block widths for a rows-row board: widths whose rows×w board
// has a closed tour. It returns nil when cols cannot be split that way.
func thinParts(rows, cols int) []int {
	var sizes []int
	switch {
	case rows == 3:
		return nil // no switch exists on 3 rows: see laneCycle
	case rows%2 == 1:
		sizes = []int{6, 8}
	default:
		sizes = []int{6, 7, 8, 9}
	}
	hi := sizes[len(sizes)-1]
	// Fill with the largest size, then fix up the remainder from the end.
	var parts []int
	rest := cols
	for rest > 2*hi {
		parts = append(parts, hi)
		rest -= hi
	}
	// rest is in (hi, 2*hi] or ≤ hi: split it into one or two allowed sizes.
	for _, a := range sizes {
		if a == rest {
			return append(parts, a)
		}
	}
	for _, a := range sizes {
		for _, b := range sizes {
			if a+b == rest {
				return append(parts, a, b)
			}
		}
	}
	// Borrow from a full block: rest+hi as three parts.
	if len(parts) > 0 {
		parts = parts[:len(parts)-1]
		rest += hi
		for _, a := range sizes {
			for _, b := range sizes {
				for _, c := range sizes {
					if a+b+c == rest {
						return append(parts, a, b, c)
					}
				}
			}
		}
	}
	return nil
}

// thinCycle returns a closed tour of a rows×cols board (rows ≤ cols, a closed tour exists)
// starting at square 0, by merging block cycles; nil if it cannot or ctx is done first.
func thinCycle(ctx context.Context, rows, cols int) []int32 {
	succ := thinSucc(ctx, rows, cols)
	if succ.m == nil {
		return nil
	}
	path := make([]int32, rows*cols)
	v := int32(0)
	for i := range path {
		if i&(1<<16-1) == 0 && ctx.Err() != nil {
			return nil
		}
		path[i] = v
		v = succ.next(v)
	}
	return path
}

// cycleMoves is a cycle through every square of a board with cols columns, stored as the
// move (an index into moves) from each square to the next: one byte a square, so that a
// board of 10^8 squares needs 100 MB for it beside the tour's 400 MB.
type cycleMoves struct {
	cols int
	m    []uint8
	off  [8]int32 // the index step of each move
}

func newCycleMoves(rows, cols int) cycleMoves {
	s := cycleMoves{cols: cols, m: make([]uint8, rows*cols)}
	for k, mv := range moves {
		s.off[k] = int32(mv[0]*cols + mv[1])
	}
	return s
}

// next returns the square after v.
func (s *cycleMoves) next(v int32) int32 { return v + s.off[s.m[v]] }

// link makes u the square after v; they must be a knight's move apart.
func (s *cycleMoves) link(v, u int32) {
	s.m[v] = moveIndex(int(u)/s.cols-int(v)/s.cols, int(u)%s.cols-int(v)%s.cols)
}

// prev returns the square before v: the neighbour whose next square is v.
func (s *cycleMoves) prev(v int32) int32 {
	r, c := int(v)/s.cols, int(v)%s.cols
	rows := len(s.m) / s.cols
	for _, mv := range moves {
		rr, cc := r+mv[0], c+mv[1]
		if rr >= 0 && rr < rows && cc >= 0 && cc < s.cols {
			if u := int32(rr*s.cols + cc); s.next(u) == v {
				return u
			}
		}
	}
	return -1
}

// moveIndexOf maps a knight's move (dr, dc) to its index in moves, at (dr+2)*5 + dc+2.
var moveIndexOf = func() (t [25]uint8) {
	for i := range t {
		t[i] = 255
	}
	for k, mv := range moves {
		t[(mv[0]+2)*5+mv[1]+2] = uint8(k)
	}
	return t
}()

// moveIndex returns the index in moves of the step (dr, dc), which must be a knight's move.
func moveIndex(dr, dc int) uint8 {
	if dr < -2 || dr > 2 || dc < -2 || dc > 2 || moveIndexOf[(dr+2)*5+dc+2] == 255 {
		panic("knight: not a knight's move") // callers only link squares a move apart
	}
	return moveIndexOf[(dr+2)*5+dc+2]
}

// thinSucc merges block cycles into a cycle through every square of a rows×cols board
// (rows ≤ cols, a closed tour exists), as described above; the zero cycleMoves if it
// cannot, or when ctx is done first (looked at every 1024 blocks).
func thinSucc(ctx context.Context, rows, cols int) cycleMoves {
	widths := thinParts(rows, cols)
	if widths == nil {
		return cycleMoves{}
	}
	succ := newCycleMoves(rows, cols)
	jump := func(a, b int32) bool {
		dr := abs(int(a)/cols - int(b)/cols)
		dc := abs(int(a)%cols - int(b)%cols)
		return dr == 1 && dc == 2 || dr == 2 && dc == 1
	}
	// A block's cycle, mirrored by variant, as positions relative to the block's top-left
	// square and moves, worked out once per width and variant.
	type install struct {
		pos []int32
		mv  []uint8
	}
	installs := map[[2]int]install{}
	get := func(w, variant int) install {
		if in, ok := installs[[2]int{w, variant}]; ok {
			return in
		}
		// A block of at most 11×9 squares, searched once and remembered: not worth a context.
		local := closedCycle(context.Background(), rows, w)
		rc := func(v int32) (int, int) {
			r, c := int(v)/w, int(v)%w
			if variant&1 != 0 {
				r = rows - 1 - r
			}
			if variant&2 != 0 {
				c = w - 1 - c
			}
			return r, c
		}
		in := install{pos: make([]int32, len(local)), mv: make([]uint8, len(local))}
		for i, v := range local {
			r, c := rc(v)
			r2, c2 := rc(local[(i+1)%len(local)])
			in.pos[i] = int32(r*cols + c)
			in.mv[i] = moveIndex(r2-r, c2-c)
		}
		installs[[2]int{w, variant}] = in
		return in
	}
	off := 0
	for j, w := range widths {
		if j&1023 == 0 && ctx.Err() != nil {
			return cycleMoves{}
		}
		merged := false
		for variant := 0; variant < 4 && !merged; variant++ {
			in := get(w, variant)
			for i, p := range in.pos {
				succ.m[int32(off)+p] = in.mv[i]
			}
			if j == 0 {
				merged = true
				break
			}
			merged = spliceAt(&succ, rows, cols, off, jump)
		}
		if !merged {
			return cycleMoves{}
		}
		off += w
	}
	return succ
}

// spliceAt joins the block cycle in the columns from off on to the cycle on the columns left
// of off, by the switch described above. It reports whether a switch was found.
func spliceAt(succ *cycleMoves, rows, cols, off int, jump func(a, b int32) bool) bool {
	// The edges of the cycle inside columns c0 and c0+1: at most one from each square.
	var lbuf, rbuf [2 * 11][2]int32
	edges := func(es [][2]int32, c0 int) [][2]int32 {
		for r := 0; r < rows; r++ {
			for c := c0; c < c0+2; c++ {
				a := int32(r*cols + c)
				b := succ.next(a)
				if bc := int(b) % cols; bc >= c0 && bc < c0+2 {
					es = append(es, [2]int32{a, b})
				}
			}
		}
		return es
	}
	left, right := edges(lbuf[:0], off-2), edges(rbuf[:0], off)
	for _, e := range left {
		a, a2 := e[0], e[1]
		for _, f := range right {
			b, b2 := f[0], f[1]
			if jump(a, b2) && jump(b, a2) {
				succ.link(a, b2)
				succ.link(b, a2)
				return true
			}
			if jump(a, b) && jump(a2, b2) {
				reverseCycle(succ, b)
				// Now b2→b is an edge of the block's cycle.
				succ.link(a, b)
				succ.link(b2, a2)
				return true
			}
		}
	}
	return false
}

// reverseCycle turns round the cycle of succ through v.
func reverseCycle(succ *cycleMoves, v int32) {
	prev, cur := v, succ.next(v)
	for {
		next := succ.next(cur)
		succ.link(cur, prev)
		if cur == v {
			return
		}
		prev, cur = cur, next
	}
}

// thinOddPath returns an open tour from s of an odd×odd board with rows ≤ 11 rows and many
// columns (s on the majority colour), or nil. The columns are cut just left of s, at an odd
// width: the part right of the cut (even width, s in its first two columns) has a closed tour
// (by merging, or, when it is under thinMinCols wide, by a search done once per shape and
// remembered); it is run from s round to s's cycle neighbour that lies in the first two
// columns, and from there the knight jumps left into the other part, which it crosses right
// to left block by block as in build_blocks.go (blocks of width 6 or 8, the last, leftmost one of
// width 7, 9 or 11, with an odd number of squares), ending anywhere in that last block.
func thinOddPath(ctx context.Context, rows, cols int, s int32) []int32 {
	// Try cuts one and three columns left of s (at odd widths), and the right part's
	// cycle as found and mirrored top to bottom, until s has a cycle neighbour in the
	// right part's first two columns.
	for _, back := range []int{0, 1, 2, 3} {
		for _, flip := range []bool{false, true} {
			if ctx.Err() != nil {
				return nil // before thinOddCut allocates the whole tour again
			}
			if p := thinOddCut(ctx, rows, cols, s, int(s)%cols-back, flip); p != nil {
				return p
			}
		}
	}
	return nil
}

func thinOddCut(ctx context.Context, rows, cols int, s int32, cut int, flip bool) []int32 {
	sr, sc := int(s)/cols, int(s)%cols
	if cut%2 == 0 || cut < 7 || cols-cut < 6 || rows < 3 {
		return nil
	}
	right := cols - cut
	// The left part: widths right to left, the odd one last (at the board's left edge).
	var widths []int
	rest := cut
	for _, odd := range oddWidths(rows) {
		if ev := rest - odd; ev >= 0 {
			if parts := evenPartsFor(rows, ev); parts != nil || ev == 0 {
				widths = append(parts, odd)
				break
			}
		}
	}
	if widths == nil {
		return nil
	}
	var out []int32
	if rows != 3 && rows < blockMinSide && right >= thinMinCols {
		// A long right part: walk its merged cycle straight into the tour, without a
		// second copy of it.
		if out = thinOddRight(ctx, rows, cols, cut, sr, sc, flip); out == nil {
			return nil
		}
	} else {
		// At most 11×29 squares, searched once and remembered: not worth a context.
		cyc := closedCycle(context.Background(), rows, right)
		if cyc == nil {
			return nil
		}
		if flip {
			for i, v := range cyc {
				cyc[i] = int32((rows-1-int(v)/right)*right + int(v)%right)
			}
		}
		ls := int32(sr*right + sc - cut)
		rotate(cyc, ls)
		// Choose the direction round the cycle that ends in the first two columns.
		if int(cyc[len(cyc)-1])%right > 1 {
			if int(cyc[1])%right > 1 {
				return nil
			}
			slices.Reverse(cyc[1:])
		}
		out = make([]int32, 0, rows*cols)
		for _, v := range cyc {
			out = append(out, int32(int(v)/right*cols+cut+int(v)%right))
		}
	}
	// Entry into the left part: the first knight's move from the tour's end that lands
	// in the column just left of the cut, or two left.
	end := out[len(out)-1]
	er, ec := int(end)/cols, int(end)%cols
	var entry [2]int
	found := false
	for _, m := range moves {
		rr, cc := er+m[0], ec+m[1]
		if rr >= 0 && rr < rows && cc < cut && cc >= cut-2 {
			entry, found = [2]int{rr, cc}, true
			break
		}
	}
	if !found {
		return nil
	}
	c1 := cut // right edge (exclusive) of the current block
	for i, w := range widths {
		if i&1023 == 0 && ctx.Err() != nil {
			return nil
		}
		C0 := c1 - w
		k := blockKey{h: rows, w: w, entry: entry[0]*w + entry[1] - C0, tr: noTarget, tc: noTarget}
		last := i == len(widths)-1
		if !last {
			k.dc = -1
			if i == len(widths)-2 {
				k.nextOdd, k.par = true, C0%2
			}
		}
		var ok bool
		if out, entry, ok = appendBlock(out, k, cols, C0, last); !ok {
			return nil
		}
		c1 = C0
	}
	return out
}

// thinOddRight is the right part of thinOddCut for a long part (rows < 12, not 3): the
// merged cycle of the columns from cut on, mirrored top to bottom if flip, run from s
// (row sr, column sc) in the direction that ends in the part's first two columns, as board
// squares in a new slice with room for the whole board; nil if neither direction does.
func thinOddRight(ctx context.Context, rows, cols, cut, sr, sc int, flip bool) []int32 {
	right := cols - cut
	succ := thinSucc(ctx, rows, right)
	if succ.m == nil {
		return nil
	}
	lr := sr
	if flip {
		lr = rows - 1 - sr
	}
	ls := int32(lr*right + sc - cut)
	if int(succ.prev(ls))%right > 1 {
		if int(succ.next(ls))%right > 1 {
			return nil
		}
		reverseCycle(&succ, ls)
	}
	out := make([]int32, 0, rows*cols)
	v := ls
	for i := range rows * right {
		if i&(1<<16-1) == 0 && ctx.Err() != nil {
			return nil
		}
		r, c := int(v)/right, int(v)%right
		if flip {
			r = rows - 1 - r
		}
		out = append(out, int32(r*cols+cut+c))
		v = succ.next(v)
	}
	return out
}

// thinEdgePath returns an open tour from s of an odd×odd board with few rows when s lies in
// the first columns: the knight crosses the board left to right block by block as in
// build_blocks.go, starting in an odd block of width 7, 9 or 11 that holds s (the only odd block,
// at the left edge, so s's colour is its majority colour), then blocks of width 6 or 8,
// ending anywhere in the last; nil if that fails.
func thinEdgePath(ctx context.Context, rows, cols int, s int32) []int32 {
	sc := int(s) % cols
	for _, odd := range oddWidths(rows) {
		if ctx.Err() != nil {
			return nil
		}
		if parts := evenPartsFor(rows, cols-odd); sc < odd && parts != nil {
			if p := thinEdgeChain(ctx, rows, cols, s, append([]int{odd}, parts...)); p != nil {
				return p
			}
		}
	}
	return nil
}

// thinEdgeChain crosses the board left to right through blocks of the given widths.
func thinEdgeChain(ctx context.Context, rows, cols int, s int32, widths []int) []int32 {
	sr, sc := int(s)/cols, int(s)%cols
	out := make([]int32, 0, rows*cols)
	entry := [2]int{sr, sc}
	C0 := 0
	for i, w := range widths {
		if i&1023 == 0 && ctx.Err() != nil {
			return nil
		}
		k := blockKey{h: rows, w: w, entry: entry[0]*w + entry[1] - C0, tr: noTarget, tc: noTarget}
		last := i == len(widths)-1
		if !last {
			k.dc = 1
		}
		var ok bool
		if out, entry, ok = appendBlock(out, k, cols, C0, last); !ok {
			return nil
		}
		C0 += w
	}
	return out
}

// evenParts splits ev into parts of 8 and 6 (as few 6s as possible), or returns nil when
// it cannot be done (ev odd, or 2, 4 or 10, or not positive).
func evenParts(ev int) []int { return splitParts(ev, 8, 6, 3) }

// splitParts splits total into parts of size big and small, bigs first, with as few smalls
// as possible and at most maxSmall of them; nil when that cannot be done.
func splitParts(total, big, small, maxSmall int) []int {
	for ks := 0; ks <= maxSmall; ks++ {
		if r := total - small*ks; total > 0 && r >= 0 && r%big == 0 {
			parts := make([]int, 0, r/big+ks)
			for range r / big {
				parts = append(parts, big)
			}
			for range ks {
				parts = append(parts, small)
			}
			return parts
		}
	}
	return nil
}

// oddWidths are the widths of the odd block that ends a chain of blocks: 3-row blocks need
// to be longer to hold paths between given squares.
func oddWidths(rows int) []int {
	if rows == 3 {
		return []int{9, 11, 13, 15}
	}
	return []int{7, 9, 11}
}

// evenPartsFor is evenParts for boards of more than 3 rows, and splits into parts of 10
// and 12 for 3 rows.
func evenPartsFor(rows, ev int) []int {
	if rows != 3 {
		return evenParts(ev)
	}
	return splitParts(ev, 12, 10, 5)
}

// appendBlock appends to out, as board squares, the path of the block k whose left column
// is c0 on a board of cols columns, and, unless the block is the last, returns the square
// the knight enters next; ok is false when the block has no such path.
func appendBlock(out []int32, k blockKey, cols, c0 int, last bool) (_ []int32, next [2]int, ok bool) {
	p := findBlockPath(k)
	if p == nil {
		return out, next, false
	}
	for _, q := range p.sq {
		out = append(out, int32(int(q[0])*cols+c0+int(q[1])))
	}
	if !last {
		x := p.sq[len(p.sq)-1]
		m := moves[exitTarget(k, int(x[0]), int(x[1]))]
		next = [2]int{int(x[0]) + m[0], c0 + int(x[1]) + m[1]}
	}
	return out, next, true
}
