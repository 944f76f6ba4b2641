package frontier

// Placing one cell on a state: choosing its edges back, checking the cells it finishes.

// expand places the new cell on state a (extended window, slot W empty) in every allowed way.
func (p *plan) expand(st *step, a *picture, w *sweep, lo, hi uint64) {
	W := p.W
	capV := uint8(2)
	if int(st.startSlot) == W {
		capV = 1
	}
	// usable back neighbours: those that can take one more edge
	var nbs [4]int8
	k := 0
	for _, s := range st.back {
		x := a[s]
		if x == full {
			continue
		}
		if s == st.startSlot && x != free {
			continue
		}
		nbs[k] = s
		k++
	}
	// no edge
	b := *a
	b[W] = free
	p.finish(st, &b, w, false, lo, hi)
	for i := 0; i < k; i++ {
		b = *a
		u := nbs[i]
		switch x := b[u]; x {
		case free:
			b[u], b[W] = 15, 15
		default: // loose or label: v takes over the end
			b[u], b[W] = full, x
		}
		p.finish(st, &b, w, false, lo, hi)
	}
	if capV < 2 {
		return
	}
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			b = *a
			u1, u2 := nbs[i], nbs[j]
			x1, x2 := b[u1], b[u2]
			b[W] = full
			closes := false
			switch {
			case x1 == free && x2 == free:
				b[u1], b[u2] = 15, 15
			case x1 == free:
				b[u1], b[u2] = x2, full
			case x2 == free:
				b[u2], b[u1] = x1, full
			case x1 == loose && x2 == loose:
				if p.closed || !w.final {
					continue
				}
				b[u1], b[u2] = full, full
				closes = true
			case x1 == loose || x2 == loose:
				// the labelled end's partner becomes loose
				lab := x1
				if x1 == loose {
					lab = x2
				}
				b[u1], b[u2] = full, full
				for s := 0; s <= W; s++ {
					if b[s] == lab {
						b[s] = loose
					}
				}
			case x1 == x2:
				if !p.closed || !w.final {
					continue
				}
				b[u1], b[u2] = full, full
				closes = true
			default:
				b[u1], b[u2] = full, full
				for s := 0; s <= W; s++ {
					if b[s] == x2 {
						b[s] = x1
					}
				}
			}
			p.finish(st, &b, w, closes, lo, hi)
		}
	}
}

// finish checks and finishes the cells of b after the edges of the new cell were chosen,
// and emits the state if it can still become a tour.
func (p *plan) finish(st *step, b *picture, w *sweep, closes bool, lo, hi uint64) {
	W := p.W
	if w.final {
		if p.closed {
			if !closes {
				return
			}
			for s := 0; s <= W; s++ {
				if b[s] != full {
					return
				}
			}
			w.emit(b, lo, hi)
			return
		}
		// open: one path: every cell full but the two ends of one fragment, or one loose
		// end, or none when the last cell joined two loose ends.
		nLoose, labels := 0, 0
		var lab uint8
		for s := 0; s <= W; s++ {
			switch x := b[s]; x {
			case free:
				return
			case full:
			case loose:
				nLoose++
			default:
				if labels > 0 && x != lab {
					return
				}
				lab = x
				labels++
			}
		}
		if closes && (nLoose > 0 || labels > 0) {
			return
		}
		if !closes && !(nLoose == 1 && labels == 0 || nLoose == 0 && labels == 2) {
			return
		}
		w.emit(b, lo, hi)
		return
	}
	if p.closed {
		// a cell with d edges and fewer than 2-d neighbours to come cannot be finished;
		// only the new cell and its neighbours changed.
		if !st.beyond && degree(b[W])+st.rem[W] < 2 {
			return
		}
		for _, s := range st.back {
			if degree(b[s])+st.rem[s] < 2 {
				return
			}
		}
		w.emit(b, lo, hi)
		return
	}
	for _, s := range st.dying {
		switch x := b[s]; x {
		case free:
			return
		case full:
		case loose:
			// both ends of a path finished before the last cell
			return
		default:
			b[s] = full
			for t := 0; t <= W; t++ {
				if b[t] == x {
					b[t] = loose
				}
			}
		}
	}
	ends := 0
	if st.startPending {
		ends++
	}
	// ends: the loose ones, the start square's, and the cells that can get at most one edge
	for s := 1; s <= W; s++ {
		switch b[s] {
		case loose:
			ends++
		case free:
			if st.rem[s] == 1 && int8(s) != st.startSlot {
				ends++
			}
		}
	}
	if ends > 2 {
		return
	}
	w.emit(b, lo, hi)
}
