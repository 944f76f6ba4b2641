package knight

// Open tours of 4×n boards are built from two "halves", in time linear in the board and
// without any search whose size grows with n.
//
// Colour the outer rows (0 and 3) and the inner rows (1 and 2). An outer square's knight
// moves all lead to inner squares, and every move changes colour. A tour has 2n outer
// squares among 4n, no two in a row. Strictly alternating outer and inner squares would give
// every outer square one colour, yet the outer rows hold both; so the tour starts and ends on
// the outer rows and has exactly one step from an inner square to an inner square: before it
// every outer square of the tour has the start's colour c, after it the other colour. So the
// tour is a Hamiltonian path of the half G(c) = {outer squares of colour c, inner squares of
// colour 1-c}, one inner-to-inner step, and a Hamiltonian path of the other half G(1-c).
//
// Each half holds one outer square O_k and one inner square I_k in every column k (in
// G(c): (0,k) and (1,k) when k%2 = c, else (3,k) and (2,k)), and its knight moves are
// exactly O_j–I_k for |j−k| ∈ {1, 2}: the same graph H_n for both halves. The inner-to-inner
// step is (1,k)–(2,k±2), which joins I_k of one half to I_{k±2} of the other, for every k.
//
// H_n has two "strands": A_p runs through the columns k = 0…n-1 taking O_k when k%2 = p and
// I_k otherwise, each step a move. A Hamiltonian path of H_n from a square S in column a
// runs along S's strand left to column g, turns round in the first g columns (a gadget: a
// path through all of them, found once by search), runs right along the other strand to
// column n-1-g, turns round in the last g columns (the mirror image of a gadget) and runs
// left along the first strand to column a+1. When S lies in the first columns a start
// gadget covers them from S instead, and one turn at the right end suffices; starts near
// the right end are mirror images. The gadgets cover fourGadget columns (6 squares
// of H) and are searched once and remembered.
//
// The tour from s then is: the path of G(c) from s, which ends on an inner square I_x; the
// step to I_{x+2} (or I_{x-2} at the right edge) of G(1-c); the path of G(1-c) from there.
// Everything this file builds is checked by the tests with their own validator: every start
// of every 4×n board for n up to 100 and a few far longer.

// fourMinCols is the length from which 4×n open tours are built by halves: from 2g+3
// columns on, a start in the left half has at least g columns on its left or lies in the
// first g, and the strands between the gadgets are not empty.
const fourMinCols = 2*fourGadget + 3

// fourGadget is the width g of the turn and start gadgets, in columns. The search finds
// turns for g = 3…9 but start gadgets from every square only for g = 3 and 5…9 (from
// column 1 or 2 of four columns there is none), so 3 it is.
const fourGadget = 3

// hv is a square of H_n: column k, and inner (I) or outer (O).
type hv struct {
	k     int
	inner bool
}

// strand returns the strand (0 or 1) that v lies on.
func (v hv) strand() int {
	if v.inner {
		return 1 - v.k%2
	}
	return v.k % 2
}

// onStrand returns the square of strand p in column k.
func onStrand(p, k int) hv { return hv{k: k, inner: k%2 != p} }

// hAdj reports whether u and v are joined in H (a knight's move within a half).
func hAdj(u, v hv) bool {
	if u.inner == v.inner {
		return false
	}
	d := abs(u.k - v.k)
	return d == 1 || d == 2
}

// fourTour returns an open tour of the 4×n board from s, n ≥ fourMinCols, or nil if s is on
// an inner row (no tour starts there). It takes time and memory linear in n.
func fourTour(n int, s int32) []int32 {
	r, a := int(s)/n, int(s)%n
	if r == 1 || r == 2 {
		return nil
	}
	c := (r + a) % 2
	out := make([]int32, 0, 4*n)
	emit := func(half int) func(hv) {
		return func(v hv) {
			row := 0
			if v.k%2 != half {
				row = 3
			}
			if v.inner {
				row = 1 + row/3 // 0 → 1, 3 → 2
			}
			out = append(out, int32(row*n+v.k))
		}
	}
	end := hamH(n, hv{k: a}, emit(c))
	y := end.k + 2
	if y >= n {
		y = end.k - 2
	}
	hamH(n, hv{k: y, inner: true}, emit(1-c))
	return out
}

// hamH emits a Hamiltonian path of H_n from s, n ≥ fourMinCols, and returns its last square.
func hamH(n int, s hv, emit func(hv)) hv {
	g := fourGadget
	if s.k > n-1-s.k {
		// Mirror, so that s lies in the left half.
		mir := func(v hv) hv { return hv{k: n - 1 - v.k, inner: v.inner} }
		last := hamH(n, mir(s), func(v hv) { emit(mir(v)) })
		return mir(last)
	}
	// The right turn: a left turn of the mirrored board, from strand q to strand 1-q
	// going right, that is from the mirror's strand (q+n-1)%2.
	rightTurn := func(q int) {
		for _, v := range fourTurn((q + n - 1) % 2) {
			emit(hv{k: n - 1 - v.k, inner: v.inner})
		}
	}
	var last hv
	run := func(p, from, to int) { // strand p from column from to column to, either way
		step := 1
		if to < from {
			step = -1
		}
		for k := from; ; k += step {
			last = onStrand(p, k)
			emit(last)
			if k == to {
				return
			}
		}
	}
	if s.k >= g {
		p := s.strand()
		run(p, s.k, g)
		for _, v := range fourTurn(p) {
			emit(v)
		}
		run(1-p, g, n-1-g)
		rightTurn(1 - p)
		if s.k+1 <= n-1-g {
			run(p, n-1-g, s.k+1)
		}
		return last
	}
	path, r := fourStart(s)
	for _, v := range path {
		emit(v)
	}
	run(r, g, n-1-g)
	rightTurn(r)
	run(1-r, n-1-g, g)
	return last
}

var (
	fourTurns  remembered[int, []hv]
	fourStarts remembered[hv, fourStartPath]
)

type fourStartPath struct {
	path []hv
	r    int
}

// fourTurn returns a Hamiltonian path of the first fourGadget columns of H whose first
// square is next to strand p's square in column fourGadget and whose last is next to the
// other strand's square there: the knight comes in along strand p and leaves along 1-p.
func fourTurn(p int) []hv { return fourTurns.get(p, searchFourTurn) }

func searchFourTurn(p int) []hv {
	g := fourGadget
	in, out := onStrand(p, g), onStrand(1-p, g)
	var t []hv
	for _, first := range hWindow(g) {
		if !hAdj(first, in) {
			continue
		}
		if t = hPathIn(g, first, func(v hv) bool { return hAdj(v, out) }); t != nil {
			break
		}
	}
	if t == nil {
		panic("knight: no turn gadget for 4×n boards") // ruled out by TestFourGadgets
	}
	return t
}

// fourStart returns a Hamiltonian path of the first fourGadget columns of H from s (in
// one of them) whose last square is next to strand r's square in column fourGadget.
func fourStart(s hv) ([]hv, int) {
	t := fourStarts.get(s, searchFourStart)
	return t.path, t.r
}

func searchFourStart(s hv) fourStartPath {
	g := fourGadget
	for r := 0; r < 2; r++ {
		next := onStrand(r, g)
		if t := hPathIn(g, s, func(v hv) bool { return hAdj(v, next) }); t != nil {
			return fourStartPath{t, r}
		}
	}
	panic("knight: no start gadget for 4×n boards") // ruled out by TestFourGadgets
}

// hWindow lists the squares of the first w columns of H.
func hWindow(w int) []hv {
	var vs []hv
	for k := 0; k < w; k++ {
		vs = append(vs, hv{k: k}, hv{k: k, inner: true})
	}
	return vs
}

// hPathIn searches for a Hamiltonian path of the first w columns of H from first to a
// square where end holds (w is at most fourGadget, so the search is tiny); nil if none.
func hPathIn(w int, first hv, end func(hv) bool) []hv {
	vs := hWindow(w)
	id := func(v hv) int32 {
		i := 2 * v.k
		if v.inner {
			i++
		}
		return int32(i)
	}
	g := &graph{h: 1, w: len(vs), adj: make([][]int32, len(vs))}
	ends := make([]bool, len(vs))
	for _, u := range vs {
		for _, v := range vs {
			if hAdj(u, v) {
				g.adj[id(u)] = append(g.adj[id(u)], id(v))
			}
		}
		ends[id(u)] = end(u)
	}
	s := &search{g: g, ends: ends}
	path, found, _ := s.run(id(first))
	if !found {
		return nil
	}
	out := make([]hv, len(path))
	for i, x := range path {
		out[i] = vs[x]
	}
	return out
}
