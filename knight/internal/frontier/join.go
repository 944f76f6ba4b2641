package frontier

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
)

// Counting closed tours by the mirror join.
//
// The board (R ≤ C rows, swept column by column as in the package comment) is cut between columns
// h-1 and h, h = C/2, C even: the left half is columns 0..h-1, the right half the rest. A
// knight's edge spans at most two columns, so every edge of a tour is inside the left half,
// inside the right half, or crossing (columns h-2, h-1 to columns h, h+1).
//
//  1. The plain sweep over the left half (cells 0..Rh-1) gives the pictures of columns h-2
//     and h-1: degrees from left edges and the pairing of path ends. By the mirror
//     (column c ↔ C-1-c, same row) the same table describes the right half: columns h+1
//     and h with degrees from right edges and the pairing by right paths. The sweep's
//     pruning (a cell that cannot reach two edges, no early cycle) is valid for both.
//  2. The sweep goes on over the cells of columns h and h+1, taking only their edges to
//     cells of the left half (the crossing edges), without the "cannot reach two edges"
//     check for those cells (they get the rest from the right). Its final pictures are of
//     columns h and h+1: degrees from left and crossing edges, pairing by those paths.
//  3. The join: a tour is a pair of a left and a right picture in which every cell's
//     degrees add to 2 and the two pairings of path ends make one cycle. The right pictures
//     are grouped by their degree pattern; for each left picture with 2m path ends, each
//     right picture of the complementary pattern is checked by walking the cycle (at most
//     m steps over the two pairings, packed in one word a right picture, read in order);
//     the products of counts are added in 128 bits (carries kept). Looking up instead each
//     of the 2^(m-1)·(m-1)! pairings that close the left pairing into one cycle (binary
//     search in the group) took four times as long on 6×12 closed: a group holds at most
//     (2m-1)!! pairings, under three times the candidates, and the walk reads them in
//     order where each search misses the caches (bench/README.md, issue 35 items 2 and 4).
//
// Every edge set is built once (left, crossing and right edges are chosen in exactly one
// place), so each closed tour is counted once. Checked against the plain sweep and the
// search (knight's count_join_test.go) and against 7×8's published 34,524,432,316.
//
// Cost: the two sweeps run over the sorted runs (runs.go), as Count's, about 0.27 µs a
// state read once they outgrow the caches (over the hash tables of table_test.go, which they
// used until issue 35, about 1 µs: 7×8 closed's sweeps took 32 CPU-s against 19 now), and
// they reach only the middle of the board, whose
// states are far fewer than the plain sweep's widest: 6×8 closed holds 24,291 right states
// after step 1 and 328,533 left ones after step 2, 7×8 closed 479,037 and 7,450,395 (15.4
// million at the widest cell of step 2), and counts in about a third of the plain sweep's
// time (bench/README.md). The join costs a walk of at most m steps for each right state of
// the complementary pattern of each left state. On 8×8 it does not help: step 1 ends with 7,934,470 states, but the cells
// of column 4 have only crossing edges back, so through column 4 step 2 is the plain sweep
// itself (18,903,956 states after cell 33 and 29,290,587 after 34, the plain sweep's
// figures), and the plain sweep's widest columns are exactly there (159 million states
// after cell 37, 740 million at its peak after cell 45; the hash tables it used would have
// held them in more than 12 GiB, and with the runs it would still sweep them). Cutting elsewhere moves the same column into one of the halves. So
// square boards are counted by Count (8×8 closed: 42 CPU-minutes and 3.2 GiB with the
// runs), not by Join.

// joinRec is one state of the right half of the board in the mirror join: pat is the
// base-3 code of its cells' degrees, pair its pairing of path ends (joinPair), (hi, lo) its
// count.
type joinRec struct {
	pat    uint32
	pair   uint64
	lo, hi uint64
}

// JoinPossible tells whether Join can count closed tours of a rows×cols board: the
// side swept along (the longer, or the columns of a square board) must be even and at
// least 4, and the short side at most MaxRows.
func JoinPossible(rows, cols int) bool {
	R, C := min(rows, cols), max(rows, cols)
	return R >= 1 && R <= MaxRows && C%2 == 0 && C >= 4
}

// joinPair returns the pairing of the path ends of x (the cells with labels, numbered
// 0, 1, … in order): 4 bits for each end, the number of the end it is paired with.
func joinPair(x []uint8) uint64 {
	var ends [2 * MaxRows]uint8
	n := 0
	for _, v := range x {
		if v >= firstLabel {
			ends[n] = v
			n++
		}
	}
	var pair uint64
	for a := range n {
		for b := range n {
			if a != b && ends[a] == ends[b] {
				pair |= uint64(b) << (4 * a)
			}
		}
	}
	return pair
}

// joinPat returns the base-3 code of the degrees of the cells of x.
func joinPat(x []uint8) (pat uint32, labelled int) {
	for _, v := range x {
		d := uint32(degree(v))
		if d == 1 {
			labelled++
		}
		pat = pat*3 + d
	}
	return pat, labelled
}

// JoinCells is the number of cells the two sweeps of Join place on a rows×cols board
// (JoinPossible): the left half and the two middle columns.
func JoinCells(rows, cols int) int {
	R, C := min(rows, cols), max(rows, cols)
	return R * (C/2 + 2)
}

// Join returns the number of closed tours of a rows×cols board (JoinPossible) by cutting
// it in two mirror halves (see the notes at the top of this file); opts.Closed and
// opts.Start are not used. opts.MaxMemory bounds the sweeps' runs; the right half's
// records (40 bytes a state after the first sweep: 32 and a copy of its pairing) and a map
// of their degree patterns are held beside them. It starts with 64-bit counts and is redone with 128-bit ones if one
// carries. It stops with ctx.Err() within a few milliseconds of ctx being done.
func Join(ctx context.Context, rows, cols int, opts Options) (*big.Int, error) {
	if !JoinPossible(rows, cols) {
		return nil, fmt.Errorf("board %d×%d: the join method needs a board whose long side is even and at least 4 and whose short side is at most %d", rows, cols, MaxRows)
	}
	wide := false
	for {
		r, err := join(ctx, rows, cols, wide, opts)
		if !wide && errors.Is(err, errWide) {
			wide = true
			continue
		}
		return r, err
	}
}

// join is Join with counts of 128 bits (wide) or 64.
func join(ctx context.Context, rows, cols int, wide bool, opts Options) (*big.Int, error) {
	p := newPlan(rows, cols, true, -1)
	R, C, W := p.R, p.C, p.W
	h := C / 2
	cut := R * h       // first cell of the right half
	end := R * (h + 2) // the extended left half ends before this cell
	st := newRuns(ctx, defaultRuns, wide, opts.MaxMemory)
	defer st.release()
	w, err := newSweep(p, st, wide)
	if err != nil {
		return nil, err
	}
	// The left half, cells 0..cut-1: by the mirror it is the right half too.
	if err := w.run(ctx, p.steps, 0, cut, opts.Report); err != nil {
		return nil, err
	}
	// The right half's states, mirrored: the window after cell cut-1 holds one cell of
	// column h-3 (slot 0, full), then columns h-2 and h-1 (slots 1..2R); in the mirror
	// column h-1 becomes h and h-2 becomes h+1. The layer is read whole, then written
	// back for the second sweep.
	layer := readAll(st)
	right := make([]joinRec, 0, len(layer))
	var a picture
	x := make([]uint8, 2*R)
	for _, r := range layer {
		decode(&a, r.k-1, W)
		if a[0] != full {
			return nil, fmt.Errorf("join: a finished cell is not full (internal error)")
		}
		copy(x[:R], a[R+1:2*R+1])
		copy(x[R:], a[1:R+1])
		pat, _ := joinPat(x)
		right = append(right, joinRec{pat: pat, pair: joinPair(x), lo: r.lo, hi: r.hi})
	}
	if err := st.write(layer); err != nil {
		return nil, err
	}
	if _, err := st.turn(); err != nil {
		return nil, err
	}
	layer = nil
	slices.SortFunc(right, func(a, b joinRec) int {
		if c := cmp.Compare(a.pat, b.pat); c != 0 {
			return c
		}
		return cmp.Compare(a.pair, b.pair)
	})
	groups := make(map[uint32][2]int32)
	for i := 0; i < len(right); {
		j := i
		for j < len(right) && right[j].pat == right[i].pat {
			j++
		}
		groups[right[i].pat] = [2]int32{int32(i), int32(j)}
		i = j
	}
	// The walk reads the pairings in order; the counts only of the states that match.
	pairs := make([]uint64, len(right))
	for i := range right {
		pairs[i] = right[i].pair
	}
	// The extended left half: the cells of columns h and h+1 take only their edges to
	// the left half.
	steps := slices.Clone(p.steps)
	for v := cut; v < end; v++ {
		s := &steps[v]
		s.beyond = true
		var back []int8
		for _, b := range s.back {
			if v-W+int(b) < cut {
				back = append(back, b)
			}
		}
		s.back = back
	}
	if err := w.run(ctx, steps, cut, end, opts.Report); err != nil {
		return nil, err
	}
	// The join.
	j := &joiner{R: R, right: right, pairs: pairs, groups: groups, x: x}
	done := ctx.Done()
	states := 0
	buf := make([]rec, 0, readBatch)
	for {
		buf = st.read(buf[:0])
		if len(buf) == 0 {
			break
		}
		for _, r := range buf {
			decode(&a, r.k-1, W)
			if a[0] != full {
				return nil, fmt.Errorf("join: a finished cell is not full (internal error)")
			}
			j.left(a[1:2*R+1], r.lo, r.hi)
		}
		states += len(buf)
		select {
		case <-done:
			return nil, ctx.Err()
		default:
		}
	}
	if opts.Report != nil {
		opts.Report(end, states, st.bytes())
	}
	r := new(big.Int).Lsh(new(big.Int).SetUint64(j.carries), 64)
	r.Add(r, new(big.Int).SetUint64(j.sum[0]))
	r.Lsh(r, 64)
	r.Add(r, new(big.Int).SetUint64(j.sum[1]))
	if j.big != nil {
		r.Add(r, j.big)
	}
	return r, nil
}

// joinComplement returns the value a right cell must have to match the left cell value v:
// free for full, full for free, and a path end for a path end.
func joinComplement(v uint8) uint8 {
	switch v {
	case free:
		return full
	case full:
		return free
	}
	return v
}

// joiner adds up the products of the counts of matching left and right states.
type joiner struct {
	R       int
	right   []joinRec
	pairs   []uint64 // right[i].pair, read in order by the walk
	groups  map[uint32][2]int32
	x       []uint8 // the right picture being made
	sum     [2]uint64
	carries uint64   // carries out of sum, each worth 2^128
	big     *big.Int // products of counts wider than 64 bits
	// the path ends of the left state: ends[i] is a cell; sh[i] is 4 times the index of
	// the end it is joined to by a left path (the shift of that end's nibble in a pairing)
	ends []int
	sh   [2 * MaxRows]uint8
}

// left adds the tours made of the left state l (2R cells, count (hi, lo)) and every
// matching right state.
func (j *joiner) left(l []uint8, lo, hi uint64) {
	x := j.x
	for i, v := range l {
		x[i] = joinComplement(v)
	}
	pat, n := joinPat(x)
	if n == 0 {
		return // the left half alone would hold a cycle; no state has this
	}
	g, ok := j.groups[pat]
	if !ok {
		return
	}
	j.ends = j.ends[:0]
	for i, v := range l {
		if v >= firstLabel {
			j.ends = append(j.ends, i)
		}
	}
	for a := range n {
		for b := range n {
			if a != b && l[j.ends[a]] == l[j.ends[b]] {
				j.sh[a] = uint8(4 * b)
			}
		}
	}
	// Walk the cycle from end 0 along a left path, then a right one, until it is back:
	// the pairs make one cycle if that takes n/2 steps.
	sh := &j.sh
	for i, pr := range j.pairs[g[0]:g[1]] {
		c, steps := uint64(0), 0
		for {
			c = pr >> sh[c&15] & 15
			steps++
			if c == 0 {
				break
			}
		}
		if 2*steps == n {
			r := &j.right[int(g[0])+i]
			j.add(lo, hi, r.lo, r.hi)
		}
	}
}

// add adds (ahi, alo)·(bhi, blo) to the sum.
func (j *joiner) add(alo, ahi, blo, bhi uint64) {
	if ahi != 0 || bhi != 0 {
		a := new(big.Int).Lsh(new(big.Int).SetUint64(ahi), 64)
		a.Add(a, new(big.Int).SetUint64(alo))
		b := new(big.Int).Lsh(new(big.Int).SetUint64(bhi), 64)
		b.Add(b, new(big.Int).SetUint64(blo))
		if j.big == nil {
			j.big = new(big.Int)
		}
		j.big.Add(j.big, a.Mul(a, b))
		return
	}
	ph, pl := bits.Mul64(alo, blo)
	var c uint64
	j.sum[1], c = bits.Add64(j.sum[1], pl, 0)
	j.sum[0], c = bits.Add64(j.sum[0], ph, c)
	j.carries += c
}
