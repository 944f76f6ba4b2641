package frontier

// moves are the eight knight's moves as (row, col) steps.
var moves = [8][2]int{{-2, 1}, {-1, 2}, {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}}

// step is what the sweep needs to know about placing one cell. Slots index the extended
// window: 0..W-1 the cells v-W..v-1, W the new cell v.
type step struct {
	back []int8 // slots of the earlier neighbours of v
	// rem[s] is how many neighbours the cell of slot s has after v
	rem [maxW + 1]int8
	// beyond marks a cell past the cut of the mirror join (join.go): it takes edges only
	// to cells before the cut and gets the rest later, so it is not checked here.
	beyond bool
}

// plan is the sweep of one board: its shape (R ≤ C rows, n cells, a window of W) and a
// step for each cell.
type plan struct {
	R, C, n, W int
	closed     bool
	steps      []step
	// ahead, for open tours, are the steps of the forward sweep (ahead.go), which Count
	// runs instead of steps.
	ahead []aheadStep
	// splits, for open tours, keep one part of the states at their cells (split.go).
	splits []Split
	// reading, if not nil, is Options.Reading: told during a step how far it has read.
	reading func(cell, read int)
}

// newPlan prepares the sweep of a rows×cols board; start is a square index r*cols+c of the
// original board or -1.
func newPlan(rows, cols int, closed bool, start int) *plan {
	return newPlanEnds(rows, cols, closed, start, nil)
}

// newPlanEnds is newPlan for open tours from start (≥ 0) that end on one of the squares
// ends (indices like start), or on any square if ends is nil.
func newPlanEnds(rows, cols int, closed bool, start int, ends []int) *plan {
	R, C := rows, cols
	transposed := rows > cols
	if transposed {
		R, C = cols, rows
	}
	n := R * C
	W := 2*R + 1
	p := &plan{R: R, C: C, n: n, W: W, closed: closed}
	cell := func(sq int) int {
		r, c := sq/cols, sq%cols
		if transposed {
			r, c = c, r
		}
		return c*R + r
	}
	sv := -1
	if start >= 0 && !closed {
		sv = cell(start)
	}
	var ev []int
	if ends != nil {
		ev = make([]int, 0, len(ends))
		for _, e := range ends {
			ev = append(ev, cell(e))
		}
	}
	// nb[v]: neighbours of cell v in sweep order
	nb := make([][]int, n)
	for v := range n {
		r, c := v%R, v/R
		for _, m := range moves {
			rr, cc := r+m[0], c+m[1]
			if rr >= 0 && rr < R && cc >= 0 && cc < C {
				nb[v] = append(nb[v], cc*R+rr)
			}
		}
	}
	if !closed {
		p.ahead = newAheadSteps(p, nb, sv, ev)
		return p
	}
	p.steps = make([]step, n)
	for v := range n {
		st := &p.steps[v]
		for s := 0; s <= W; s++ {
			u := v - W + s
			if u < 0 {
				continue
			}
			k := 0
			for _, w := range nb[u] {
				if w > v {
					k++
				}
				if u == v && w < v {
					st.back = append(st.back, int8(w-v+W))
				}
			}
			st.rem[s] = int8(k)
		}
	}
	return p
}
