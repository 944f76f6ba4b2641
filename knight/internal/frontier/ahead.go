package frontier

import "math/bits"

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
	// fixed marks the slots (0..W) of the tour's fixed ends: the start square and, when
	// Options.Ends names one square, that square (each takes one edge only); fixedAfter is
	// how many fixed ends come after v, fixedColour the sum of their colours.
	fixed       uint32
	fixedAfter  int
	fixedColour int
	// mayEnd marks the slots (0..W) whose cells may be the tour's other end (every cell but
	// the start square unless the ends are given: Options.Ends); endLater tells whether a
	// cell after v may be.
	mayEnd   uint32
	endLater bool
	last     int // the board's last cell less v: a completed path must hold every cell
	// colour is +1 or -1 for the two colours of the board's squares, by slot (0 off the
	// board); need is the sum of 2·colour over the cells after v (the balance check in
	// leave).
	colour [maxW + 1]int8
	need   int
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
	fixedEnds := []int{}
	if start >= 0 {
		fixedEnds = append(fixedEnds, start)
	}
	if len(ends) == 1 && ends[0] != start {
		fixedEnds = append(fixedEnds, ends[0])
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
		for _, u := range fixedEnds {
			if u >= v && u <= v+W {
				st.fixed |= 1 << (u - v)
			}
			if u > v {
				st.fixedAfter++
				st.fixedColour += squareColour(p, u)
			}
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
			for _, y := range nb[v+s] {
				switch {
				case y <= v:
				case y-v <= W:
					st.nb[s] |= 1 << (y - v)
				default:
					st.out[s]++
				}
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
	if st.fixed&1 != 0 {
		capV = 1
	}
	// usable forward neighbours: those that can take one more edge
	var nbs [8]int8
	k := 0
	for _, s := range st.fwd {
		x := a[s]
		if x == full || st.fixed>>s&1 != 0 && x != free {
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

// relabel changes every slot of b holding from to to.
func relabel(b *picture, from, to uint8) {
	for s := range b {
		if b[s] == from {
			b[s] = to
		}
	}
}

// leave finishes cell v (slot 0) with deg edges after its edges forward were chosen in b,
// then checks what is left: a path complete (both ends finished) counts if it holds every
// cell; otherwise the state is made if its cells can still all be passed by a tour of at
// most two ends.
func (p *plan) leave(st *aheadStep, b *picture, w *sweep, deg int8, lo, hi uint64) {
	W := p.W
	x := b[0]
	if deg == 1 && st.fixed&1 == 0 && st.mayEnd&1 == 0 {
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
	var fullMask uint32
	loose2 := 0
	balance := st.need // Σ colour·(edges still needed as if no cell were an end)
	for s := 1; s <= W; s++ {
		switch b[s] {
		case free:
		case full:
			fullMask |= 1 << s
			balance -= 2 * int(st.colour[s])
		case loose:
			loose2++
			balance -= int(st.colour[s])
		default:
			balance -= int(st.colour[s])
		}
	}
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
	ends := loose2 + st.fixedAfter
	if ends > 2 {
		return
	}
	// Every edge joins two colours, so the edges the cells after v still need, less one
	// for each end of the tour among them, balance between the colours: balance is the
	// colour sum of the ends still to come (the fixed ends', if they come, among them).
	left := 2 - loose2 - st.fixedAfter
	balance -= st.fixedColour
	if !balanced(balance, left) || left > 0 && !st.endLater {
		return
	}
	// the cells to come that cannot get the edges they need: none if free, or an end
	for m := st.on &^ fullMask; m != 0; m &= m - 1 {
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
		if st.fixed>>s&1 != 0 {
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

// balanced reports whether left ends of the tour, of colours +1 and -1, can have the colour
// sum balance.
func balanced(balance, left int) bool {
	if balance < 0 {
		balance = -balance
	}
	return balance <= left && (left-balance)%2 == 0
}
