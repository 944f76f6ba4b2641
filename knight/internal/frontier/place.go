package frontier

// Placing one cell of a closed tour on a state: choosing its edges back, checking the cells
// it finishes. (Open tours are swept forward: ahead.go.)

// expand places the new cell on state a (extended window, slot W empty) in every allowed way.
func (p *plan) expand(st *step, a *picture, w *sweep, lo, hi uint64) {
	W := p.W
	// usable back neighbours: those that can take one more edge
	var nbs [4]int8
	k := 0
	for _, s := range st.back {
		if a[s] == full {
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
		default: // a label: v takes over the end
			b[u], b[W] = full, x
		}
		p.finish(st, &b, w, false, lo, hi)
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
			case x1 == x2:
				if !w.final {
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

// finish checks the cells of b after the edges of the new cell were chosen, and emits the
// state if it can still become a tour.
func (p *plan) finish(st *step, b *picture, w *sweep, closes bool, lo, hi uint64) {
	W := p.W
	if w.final {
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
	// a cell with d edges and fewer than 2-d neighbours to come cannot be finished; only
	// the new cell and its neighbours changed.
	if !st.beyond && degree(b[W])+st.rem[W] < 2 {
		return
	}
	for _, s := range st.back {
		if degree(b[s])+st.rem[s] < 2 {
			return
		}
	}
	w.emit(b, lo, hi)
}
