package frontier

import (
	"encoding/binary"
	"math/bits"
)

// Open tours are swept the other way round: each cell chooses its edges to the cells after
// it when it is placed, so the window holds the cells still to come, not the cells placed.
//
// A state is then the picture of the next W cells v..v+W-1 (the cells a placed cell can
// reach: a knight's move forward reaches at most v+2R+1), each free (no edge yet), full (two
// edges: it takes no more), loose (one edge, and the other end of its path is a finished end
// of the tour) or a label shared with the other end of its path fragment: the codes of the
// frontier's future vertices, as Knuth's DYNAHAMP keys its classes. Placing cell v (slot 0
// of the extended window; slot W is the cell v+W, free) takes its picture as fixed and
// chooses a subset of its edges forward so that it ends with one edge (an end of the tour)
// or two; then it leaves the window. Each edge is chosen once, by its earlier cell.
//
// Against the first way (place.go: the picture of the cells placed, each edge chosen by its
// later cell), a cell's choice is made at once instead of carried in the state until its
// last neighbour comes, and a cell that can no longer get the edges it needs is seen as
// soon as its last earlier neighbour is placed: on 5×10 open the states summed over the
// cells fall from 12.1 to 6.9 million, and with the colour balance (leave) to 4.7 million.

// aheadStep is what placing cell v needs in the forward sweep.
type aheadStep struct {
	fwd []int8 // slots (1..W) of the neighbours of v after it
	// for the window after the step (slots 1..W): on marks the slots that are cells of the
	// board; nb[s] the slots of the neighbours of slot s's cell after v, and out[s] how many
	// of its neighbours lie past slot W (free, they can always give an edge).
	on  uint32
	nb  [maxW + 1]uint32
	out [maxW + 1]int8
	// short0 and short1 mark the slots (on the board) whose cells have no neighbour, and
	// one, past slot W: the only cells that can run short of edges (leave checks those).
	short0, short1 uint32
	// startSlot is the slot of the start square while it is in the extended window (0: it
	// is placed at this step), else -1; startAfter tells whether it comes after v.
	startSlot  int8
	startAfter bool
	// mayEnd marks the slots (0..W) whose cells may be the tour's other end (every cell but
	// the start square unless the ends are given: Options.Ends); endLater tells whether a
	// cell after v may be.
	mayEnd   uint32
	endLater bool
	last     int // the board's last cell less v: a completed path must hold every cell
	// colour is +1 or -1 for the two colours of the board's squares, by slot (0 off the
	// board); need is the sum of 2·colour over the cells after v, startColour the start
	// square's colour (the balance check in leave).
	colour      [maxW + 1]int8
	need        int
	startColour int
	// white and black mark the slots 1..W of colour +1 and -1 (leave sums colours over
	// masks of slots by popcounts).
	white, black uint32
}

// newAheadSteps prepares the forward sweep's steps of p; start is a cell index or -1, ends
// nil (any cell may end a tour) or the cells the tours from start may end on.
func newAheadSteps(p *plan, nb [][]int, start int, ends []int) []aheadStep {
	W, n := p.W, p.n
	steps := make([]aheadStep, n)
	endOK := make([]bool, n)
	for u := range endOK {
		endOK[u] = ends == nil && u != start
	}
	for _, u := range ends {
		endOK[u] = u != start
	}
	later := false // a cell after v may end the tour
	for v := n - 1; v >= 0; v-- {
		steps[v].endLater = later
		later = later || endOK[v]
	}
	for v := range n {
		st := &steps[v]
		for s := 0; s <= W && v+s < n; s++ {
			if endOK[v+s] {
				st.mayEnd |= 1 << s
			}
		}
		st.last = n - 1 - v
		st.startSlot = -1
		if start >= v && start <= v+W {
			st.startSlot = int8(start - v)
		}
		st.startAfter = start > v
		if start >= 0 {
			st.startColour = squareColour(p, start)
		}
		for u := v + 1; u < n; u++ {
			st.need += 2 * squareColour(p, u)
		}
		for _, u := range nb[v] {
			if u > v {
				st.fwd = append(st.fwd, int8(u-v))
			}
		}
		for s := 1; s <= W && v+s < n; s++ {
			st.on |= 1 << s
			st.colour[s] = int8(squareColour(p, v+s))
			if st.colour[s] > 0 {
				st.white |= 1 << s
			} else {
				st.black |= 1 << s
			}
			for _, y := range nb[v+s] {
				switch {
				case y <= v:
				case y-v <= W:
					st.nb[s] |= 1 << (y - v)
				default:
					st.out[s]++
				}
			}
			switch st.out[s] {
			case 0:
				st.short0 |= 1 << s
			case 1:
				st.short1 |= 1 << s
			}
		}
	}
	return steps
}

// squareColour is +1 for the cells of one colour of the board, -1 for the other.
func squareColour(p *plan, v int) int {
	if (v%p.R+v/p.R)%2 == 0 {
		return 1
	}
	return -1
}

// expandAhead places cell v (slot 0 of a; slot W free) in every allowed way: its edges
// forward chosen so that it ends with one or two (exactly one if it is the start square).
func (p *plan) expandAhead(st *aheadStep, a *picture, w *sweep, lo, hi uint64) {
	c := a[0]
	have := degree(c)
	capV := int8(2)
	if st.startSlot == 0 {
		capV = 1
	}
	// usable forward neighbours: those that can take one more edge
	var nbs [8]int8
	k := 0
	for _, s := range st.fwd {
		x := a[s]
		if x == full || s == st.startSlot && x != free {
			continue
		}
		nbs[k] = s
		k++
	}
	if have >= 1 {
		b := *a
		p.leave(st, &b, w, have, lo, hi)
	}
	if have+1 > capV {
		return
	}
	for i := range k {
		b := *a
		if !link(&b, 0, nbs[i]) {
			continue
		}
		p.leave(st, &b, w, have+1, lo, hi)
	}
	if have+2 > capV {
		return
	}
	for i := range k {
		for j := i + 1; j < k; j++ {
			b := *a
			if !link(&b, 0, nbs[i]) || !link(&b, 0, nbs[j]) {
				continue
			}
			p.leave(st, &b, w, 2, lo, hi)
		}
	}
}

// done marks a path that holds both ends of the tour in b[0] (see link and leave).
const done = 14

// link adds the edge between slots u and x of b (x free, loose or labelled; u anything but
// full): the fragments' ends are relabelled, u's value becomes what is left of it (full
// when it has two edges). It reports false if the edge closes a cycle; a path with both
// ends finished leaves done in b[0].
func link(b *picture, u, x int8) bool {
	xu, xx := b[u], b[x]
	switch {
	case xu == free && xx == free:
		b[u], b[x] = 15, 15
	case xu == free:
		b[u], b[x] = xx, full
	case xx == free:
		b[u], b[x] = full, xu
	case xu == loose && xx == loose:
		b[u], b[x] = done, full
	case xu == loose || xx == loose:
		// the labelled end's partner becomes loose
		lab := xu
		if xu == loose {
			lab = xx
		}
		b[u], b[x] = full, full
		relabel(b, lab, loose)
	case xu == xx:
		return false
	default:
		b[u], b[x] = full, full
		relabel(b, xx, xu)
	}
	return true
}

// relabel changes every slot of b holding from to to (values below 16, as every slot's).
// Eight slots are done at once, without a branch a slot: a byte of w^from is zero exactly
// where the slot holds from, found as slotMasks finds its values, and spread into a mask
// of whole bytes.
func relabel(b *picture, from, to uint8) {
	const ones = 0x0101010101010101
	f, t := uint64(from)*ones, uint64(to)*ones
	swap := func(w uint64) uint64 {
		z := ^((w ^ f) + 0x7f*ones) & (0x80 * ones)
		m := (z >> 7) * 0xff
		return w&^m | t&m
	}
	binary.LittleEndian.PutUint64(b[0:8], swap(binary.LittleEndian.Uint64(b[0:8])))
	binary.LittleEndian.PutUint64(b[8:16], swap(binary.LittleEndian.Uint64(b[8:16])))
	binary.LittleEndian.PutUint16(b[16:18], uint16(swap(uint64(binary.LittleEndian.Uint16(b[16:18])))))
}

// leave finishes cell v (slot 0) with deg edges after its edges forward were chosen in b,
// then checks what is left: a path complete (both ends finished) counts if it holds every
// cell; otherwise the state is made if its cells can still all be passed by a tour of at
// most two ends.
func (p *plan) leave(st *aheadStep, b *picture, w *sweep, deg int8, lo, hi uint64) {
	W := p.W
	x := b[0]
	if deg == 1 && st.startSlot != 0 && st.mayEnd&1 == 0 {
		return // v may not end the tour
	}
	if deg == 1 {
		// v is an end of the tour: its fragment's other end becomes loose
		switch {
		case x == loose:
			x = done
		case x >= firstLabel && x != done:
			relabel(b, x, loose)
		}
	}
	// The slots 1..W by value, as masks (a loop over the slots with a switch on each
	// value cost a third of 5×10 open's time, mostly in branches mispredicted).
	frees, fulls, looses := slotMasks(b)
	slots := uint32(1)<<(W+1) - 2
	fullMask := fulls & slots
	ends1 := slots &^ frees &^ fulls // one edge: loose or labelled
	loose2 := bits.OnesCount32(looses & slots)
	// Σ colour·(edges still needed as if no cell were an end)
	balance := st.need - 2*colourSum(fullMask, st.white, st.black) - colourSum(ends1, st.white, st.black)
	if x == done {
		// every cell after v must be full already
		if st.last > W || st.on&^fullMask != 0 {
			return
		}
		w.addTotal(lo, hi)
		return
	}
	if w.final {
		return
	}
	ends := loose2
	if st.startAfter {
		ends++
	}
	if ends > 2 {
		return
	}
	// Every edge joins two colours, so the edges the cells after v still need, less one
	// for each end of the tour among them, balance between the colours: balance is the
	// colour sum of the ends still to come (the start square's, if it comes, among them).
	left := 2 - loose2
	if st.startAfter {
		balance -= st.startColour
		left--
	}
	if !balanced(balance, left) || left > 0 && !st.endLater {
		return
	}
	// The cells to come that cannot get the edges they need: none if free, or an end. A
	// cell with two neighbours past slot W (free cells, never a cycle) always can; one with
	// one can unless it is free (it needs one edge more, and has the one past slot W).
	for m := (st.short0 | st.short1&frees) &^ fullMask; m != 0; m &= m - 1 {
		s := bits.TrailingZeros32(m)
		open := st.nb[s] &^ fullMask
		av := int(st.out[s]) + bits.OnesCount32(open)
		if av == 1 && open != 0 && b[s] >= firstLabel && b[bits.TrailingZeros32(open)] == b[s] {
			av = 0 // its one edge left would close its fragment into a cycle
		}
		if b[s] == free {
			if av == 0 {
				return
			}
			if av > 1 {
				continue
			}
		} else if av > 0 {
			continue
		}
		if int8(s) == st.startSlot {
			continue // its end is counted
		}
		if st.mayEnd>>s&1 == 0 {
			return // it may not end the tour
		}
		if ends++; ends > 2 {
			return
		}
		balance -= int(st.colour[s])
		left--
	}
	if !balanced(balance, left) {
		return
	}
	w.emit(b, lo, hi)
}

// colourSum is the sum of the colours of the slots of m: +1 for those in white, -1 for
// those in black.
func colourSum(m, white, black uint32) int {
	return bits.OnesCount32(m&white) - bits.OnesCount32(m&black)
}

// slotMasks returns masks of the slots of b (bit s for slot s) holding free, full and
// loose. Eight slots are read at once, as bit planes: a value below 16 is free, full or
// loose when its bits 2 and 3 are clear, then told apart by bits 0 and 1; each plane's bit
// of the eight bytes is gathered into a byte by one multiplication.
func slotMasks(b *picture) (frees, fulls, looses uint32) {
	const ones = 0x0101010101010101
	gather := func(w uint64) uint32 {
		return uint32((w & ones) * 0x0102040810204080 >> 56)
	}
	planes := func(w uint64) (p0, p1, big uint32) {
		return gather(w), gather(w >> 1), gather(w>>2 | w>>3)
	}
	a0, a1, ab := planes(binary.LittleEndian.Uint64(b[0:8]))
	b0, b1, bb := planes(binary.LittleEndian.Uint64(b[8:16]))
	c0, c1, cb := planes(uint64(binary.LittleEndian.Uint16(b[16:18])))
	p0 := a0 | b0<<8 | c0<<16
	p1 := a1 | b1<<8 | c1<<16
	small := ^(ab | bb<<8 | cb<<16) & (1<<len(b) - 1)
	return small &^ p0 &^ p1, small & p0 &^ p1, small &^ p0 & p1
}

// balanced reports whether left ends of the tour, of colours +1 and -1, can have the colour
// sum balance.
func balanced(balance, left int) bool {
	if balance < 0 {
		balance = -balance
	}
	return balance <= left && (left-balance)%2 == 0
}
