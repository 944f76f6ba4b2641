package knight

import (
	"context"
	"math/rand/v2"
)

// Large boards are built from blocks, in time and memory linear in the number of squares.
//
// The board's rows are split into bands of height 6 or 8 (plus one band of 7 or 9, the first,
// when the number of rows is odd), its columns likewise, so every block is 6…9 squares on a
// side and at most one block, the top-left one, has an odd number of squares. The blocks form
// a P×Q grid with P·Q even, which has a Hamiltonian cycle: along the top band, snaking back
// and forth through the other bands leaving out the first column of blocks, and up that
// column home. The knight runs through the blocks in that order. In each block it follows a
// Hamiltonian path of the block, from the square where it entered to a square a knight's move
// from the next block, found once per (block shape, entry square, direction) by the
// backtracking search of search.go and remembered; the next block is entered at that move's
// target. The last block's path ends a knight's move from the first block's entry, which
// closes the tour. An open tour from s runs the same cycle of blocks beginning with s's block
// and s as its entry, and ends anywhere in the last block.
//
// Colours keep the chain possible: a block with an even number of squares is left on the
// colour opposite its entry, and the one odd block (top-left, so its majority colour is the
// board's) is entered only after even blocks or at the start, hence on its majority colour.
// Everything the chain does is checked by the tests (every board with sides from 12 to 64,
// all starts on 64×64); should a block ever have no path, buildBlocks returns nil and the
// caller falls back to searching.

// blockMinSide is the shortest side for which boards are built from blocks.
const blockMinSide = 12

// splitSide splits a side of length L ≥ 12 into k parts of 6 and 8, with a first part of 7
// or 9 when L is odd. It returns nil when that cannot be done.
func splitSide(L, k int) []int {
	first := 0
	if L%2 == 1 {
		for _, o := range []int{7, 9} {
			if rest := L - o; rest >= 6*(k-1) && rest <= 8*(k-1) && (k > 1 || rest == 0) {
				first = o
				break
			}
		}
		if first == 0 {
			return nil
		}
	}
	rest, m := L-first, k
	if first > 0 {
		m--
	}
	if m == 0 {
		if rest == 0 {
			return []int{first}
		}
		return nil
	}
	// 6m + 2b = rest with b parts of 8.
	if rest < 6*m || rest > 8*m || (rest-6*m)%2 != 0 {
		return nil
	}
	b := (rest - 6*m) / 2
	parts := make([]int, 0, k)
	if first > 0 {
		parts = append(parts, first)
	}
	for i := 0; i < m; i++ {
		if i < b {
			parts = append(parts, 8)
		} else {
			parts = append(parts, 6)
		}
	}
	return parts
}

// splitBoard chooses row and column parts with at least two of each and an even number of
// blocks, preferring bigger blocks (fewer of them).
func splitBoard(rows, cols int) (hs, ws []int) {
	for kr := max(2, rows/9); kr <= rows/6; kr++ {
		h := splitSide(rows, kr)
		if h == nil {
			continue
		}
		for kc := max(2, cols/9); kc <= cols/6; kc++ {
			w := splitSide(cols, kc)
			if w != nil && (kr*kc)%2 == 0 {
				return h, w
			}
		}
	}
	return nil, nil
}

// blockCycle returns a Hamiltonian cycle of the P×Q grid (P·Q even, both at least 2) as a
// list of (block row, block col), beginning at (0, 0) and ending at (1, 0).
func blockCycle(P, Q int) [][2]int {
	if P%2 == 1 {
		c := blockCycle(Q, P)
		for i := range c {
			c[i][0], c[i][1] = c[i][1], c[i][0]
		}
		return c
	}
	c := make([][2]int, 0, P*Q)
	for j := 0; j < Q; j++ {
		c = append(c, [2]int{0, j})
	}
	for i := 1; i < P; i++ {
		if i%2 == 1 {
			for j := Q - 1; j >= 1; j-- {
				c = append(c, [2]int{i, j})
			}
		} else {
			for j := 1; j < Q; j++ {
				c = append(c, [2]int{i, j})
			}
		}
	}
	for i := P - 1; i >= 1; i-- {
		c = append(c, [2]int{i, 0})
	}
	return c
}

// blockKey names a remembered block path: the block's shape, its entry square (local
// row*w+col), the side it must be left by (the step to the next block, as the block-grid
// step dr, dc), and, for the closing block of a closed tour, the target it must end next to
// (local to the block, possibly off it; tr, tc, or noTarget).
type blockKey struct {
	h, w, entry int
	dr, dc      int
	tr, tc      int
	nextOdd     bool
	par         int // (block row + block col) % 2 of the block's top-left square, when nextOdd
}

const noTarget = -100

// blockPath is a remembered path through a block: local squares (row, col) in order.
type blockPath struct {
	sq [][2]int8
}

var blockPaths remembered[blockKey, *blockPath]

// findBlockPath finds (or recalls) a Hamiltonian path of the h×w block from entry. With
// dr, dc not both 0 it must end on a square with a knight's move into the neighbouring block
// in that direction (whose entry, if nextOdd, must be of the majority colour there); with a
// target it must end a knight's move from the target; with neither it may end anywhere.
func findBlockPath(k blockKey) *blockPath { return blockPaths.get(k, searchBlockPath) }

func searchBlockPath(k blockKey) *blockPath {
	g := newGraph(k.h, k.w)
	n := k.h * k.w
	er, ec := k.entry/k.w, k.entry%k.w
	// Candidate ends, in a fixed order; each is tried alone so the search stays small.
	var cands []int
	for v := 0; v < n; v++ {
		r, c := v/k.w, v%k.w
		if v == k.entry {
			continue
		}
		if n%2 == 0 && (r+c)%2 == (er+ec)%2 {
			continue // an even block is left on the other colour
		}
		if n%2 == 1 && (r+c)%2 != 0 {
			continue
		}
		if k.tr != noTarget {
			dr, dc := abs(r-k.tr), abs(c-k.tc)
			if dr == 1 && dc == 2 || dr == 2 && dc == 1 {
				cands = append(cands, v)
			}
			continue
		}
		if k.dr == 0 && k.dc == 0 {
			cands = append(cands, v)
			continue
		}
		if exitTarget(k, r, c) >= 0 {
			cands = append(cands, v)
		}
	}
	if k.tr == noTarget && k.dr == 0 && k.dc == 0 {
		s := &search{g: g, budget: 200000}
		if path, found, _ := s.run(int32(k.entry)); found {
			return toBlockPath(path, k.w)
		}
		return nil
	}
	for round := 0; round < 6; round++ {
		for _, x := range cands {
			ends := make([]bool, n)
			ends[x] = true
			s := &search{g: g, ends: ends, budget: 5000 << round}
			if round > 0 {
				s.rng = rand.New(rand.NewPCG(uint64(x), uint64(round)))
			}
			if path, found, _ := s.run(int32(k.entry)); found {
				return toBlockPath(path, k.w)
			}
		}
	}
	return nil
}

// exitTarget returns the index in moves of the first knight's move from the block's square
// (r, c) into the next block (the neighbour in direction dr, dc, which has the same height for
// a sideways step and the same width for an up or down step, and is at least 6 squares on its
// other side), avoiding that block's corners and, if it is the odd block, its minority
// colour; -1 if there is none.
func exitTarget(k blockKey, r, c int) int {
	for i, m := range moves {
		rr, cc := r+m[0], c+m[1]
		// The move lands along the shared edge (of length n) and out lines past it into
		// the next block: 0 for the first line, 1 for the second; a corner of the next
		// block is on its first line, at an end of the edge.
		var along, out, n int
		switch {
		case k.dc == 1:
			along, out, n = rr, cc-k.w, k.h
		case k.dc == -1:
			along, out, n = rr, -1-cc, k.h
		case k.dr == 1:
			along, out, n = cc, rr-k.h, k.w
		case k.dr == -1:
			along, out, n = cc, -1-rr, k.w
		default:
			return -1
		}
		if along < 0 || along >= n || out < 0 || out > 1 {
			continue
		}
		if out == 0 && (along == 0 || along == n-1) {
			continue
		}
		if k.nextOdd && (rr+cc+k.par)%2 != 0 {
			continue
		}
		return i
	}
	return -1
}

func toBlockPath(path []int32, w int) *blockPath {
	p := &blockPath{sq: make([][2]int8, len(path))}
	for i, v := range path {
		p.sq[i] = [2]int8{int8(int(v) / w), int8(int(v) % w)}
	}
	return p
}

// buildBlocks builds a tour of a rows×cols board from blocks: closed (s < 0; it starts at
// the first block's entry), or open from s. It returns nil when the board cannot be split
// or a block has no path, and the caller then searches instead; nil too when ctx is done
// (looked at every 256 blocks, about every millisecond).
func buildBlocks(ctx context.Context, rows, cols int, s int32, closed bool) []int32 {
	hs, ws := splitBoard(rows, cols)
	if hs == nil {
		return nil
	}
	P, Q := len(hs), len(ws)
	r0 := make([]int, P+1)
	for i, h := range hs {
		r0[i+1] = r0[i] + h
	}
	c0 := make([]int, Q+1)
	for j, w := range ws {
		c0[j+1] = c0[j] + w
	}
	cyc := blockCycle(P, Q)
	K := len(cyc)
	first := 0
	var entry [2]int // global row, col of the entry of the current block
	if !closed {
		sr, sc := int(s)/cols, int(s)%cols
		for i, b := range cyc {
			if sr >= r0[b[0]] && sr < r0[b[0]+1] && sc >= c0[b[1]] && sc < c0[b[1]+1] {
				first = i
			}
		}
		entry = [2]int{sr, sc}
	} else {
		// The first block (0,0) is entered from the last, (1,0), below it: on its
		// bottom row, where four squares of (1,0) are a knight's move away.
		entry = [2]int{hs[0] - 1, 2}
		if cyc[K-1] != [2]int{1, 0} {
			entry = [2]int{2, ws[0] - 1} // the last block is (0,1), to the right
		}
	}
	out := make([]int32, 0, rows*cols)
	start := entry
	for t := 0; t < K; t++ {
		if t&(1<<8-1) == 0 && ctx.Err() != nil {
			return nil
		}
		b := cyc[(first+t)%K]
		h, w := hs[b[0]], ws[b[1]]
		R0, C0 := r0[b[0]], c0[b[1]]
		k := blockKey{h: h, w: w, entry: (entry[0]-R0)*w + entry[1] - C0, tr: noTarget, tc: noTarget}
		last := t == K-1
		if !last {
			nb := cyc[(first+t+1)%K]
			k.dr, k.dc = nb[0]-b[0], nb[1]-b[1]
			if nb == [2]int{0, 0} && (hs[0]*ws[0])%2 == 1 {
				k.nextOdd, k.par = true, (R0+C0)%2
			}
		} else if closed {
			k.tr, k.tc = start[0]-R0, start[1]-C0
		}
		p := findBlockPath(k)
		if p == nil {
			return nil
		}
		for _, q := range p.sq {
			out = append(out, int32((R0+int(q[0]))*cols+C0+int(q[1])))
		}
		if !last {
			x := p.sq[len(p.sq)-1]
			m := moves[exitTarget(k, int(x[0]), int(x[1]))]
			entry = [2]int{R0 + int(x[0]) + m[0], C0 + int(x[1]) + m[1]}
		}
	}
	return out
}
