package join

import (
	"context"
	"math/bits"
)

// symSearch is the state of the symmetric-solution search: occupied rows, columns and
// diagonals (down col−row+n−1, up row+col).
type symSearch struct {
	n                  int
	full               uint64
	rows, cols, dn, up uint64
	count, nodes       uint64
	ctx                context.Context
	err                error
}

// symmetricCounts returns P(n), the solutions of the n×n board that a half turn maps onto
// themselves, and R(n), those a quarter turn does, 1 ≤ n ≤ count.MaxN. A symmetric solution
// is fixed by its first queens: the search places a queen in the top free row and with it
// its whole orbit (2 queens for the half turn, 4 for the quarter turn; the centre queen of
// an odd board is its own orbit and must be there), so it places only a half or a quarter
// of the queens itself. It takes well under a second to n = 20 and grows about threefold a
// step of n; it returns ctx.Err() if ctx is done first (checked every 2^16 nodes), and the nodes it visited.
func symmetricCounts(ctx context.Context, n int) (halfTurn, quarterTurn, nodes uint64, err error) {
	if n == 1 {
		return 1, 1, 1, nil
	}
	var s symSearch
	s.n, s.full, s.ctx = n, 1<<n-1, ctx
	// Half turn: orbits {(r, c), (n−1−r, n−1−c)}.
	if s.centre() {
		s.half()
	}
	halfTurn = s.count
	if s.err != nil {
		return 0, 0, s.nodes, s.err
	}
	nodes = s.nodes
	if n%4 == 0 || n%4 == 1 {
		s = symSearch{n: n, full: 1<<n - 1, ctx: ctx}
		if s.centre() {
			s.quarter()
		}
		quarterTurn = s.count
		nodes += s.nodes
		if s.err != nil {
			return 0, 0, nodes, s.err
		}
	}
	return halfTurn, quarterTurn, nodes, nil
}

// centre places the centre queen of an odd board: every symmetric solution has it, since a
// half turn maps the middle row onto itself and its queen must be its own image.
func (s *symSearch) centre() bool {
	if s.n%2 == 0 {
		return true
	}
	h := s.n / 2
	return s.place(h, h)
}

// place puts a queen on (r, c) if nothing attacks it.
func (s *symSearch) place(r, c int) bool {
	d, u := uint64(1)<<(c-r+s.n-1), uint64(1)<<(r+c)
	if s.rows>>r&1 != 0 || s.cols>>c&1 != 0 || s.dn&d != 0 || s.up&u != 0 {
		return false
	}
	s.rows |= 1 << r
	s.cols |= 1 << c
	s.dn |= d
	s.up |= u
	return true
}

// unplace removes the queen on (r, c).
func (s *symSearch) unplace(r, c int) {
	s.rows &^= 1 << r
	s.cols &^= 1 << c
	s.dn &^= uint64(1) << (c - r + s.n - 1)
	s.up &^= uint64(1) << (r + c)
}

// tick counts the n nodes a column-by-column search would try at a search node with free
// rows, and looks at the context each time the count passes a multiple of 2^16; it reports
// false to stop. It is small enough to be inlined: the look at the context is lookCtx.
func (s *symSearch) tick() bool {
	s.nodes += uint64(s.n)
	if s.nodes&(1<<16-1) < uint64(s.n) { // passed a multiple of 2^16 (n < 2^16)
		s.lookCtx()
	}
	return s.err == nil
}

// lookCtx records the context's error, if any and none is recorded yet. Kept out of
// line, once every 2^16 nodes, so that tick stays within the inliner's budget.
//
//go:noinline
func (s *symSearch) lookCtx() {
	if s.err == nil {
		s.err = s.ctx.Err()
	}
}

// half places half-turn orbits in rows 0, 1, … (each with its partner in row n−1−r)
// until every row is full, from the queens placed so far (none, or an odd board's centre
// queen). It counts its nodes as a column-by-column search would (n a node with free
// rows; the counters of the join's plan pin that), but finds the columns with bit masks:
// a column c of row r is open if (r, c) is unattacked and its partner (m−r, m−c) does not
// attack it (only for c = r or c = m−r). The partner is then unattacked too: the queens
// placed are their own image under the half turn, and so is the set of squares they
// attack. The top free row is always the next row: the partners fill the rows from the
// bottom, and an odd board's middle row is the centre queen's.
func (s *symSearch) half() {
	s.halfFrom(0, s.cols, s.dn, s.up)
}

// halfFrom is half from row r with the columns and diagonals cols, dn, up taken, all
// held in registers.
func (s *symSearch) halfFrom(r int, cols, dn, up uint64) {
	if r == s.n/2 {
		s.count++
		return
	}
	if !s.tick() {
		return
	}
	// Every shift count is below 64 (n ≤ 32): the masks by 63 let the compiler shift
	// without testing the count.
	m := s.n - 1
	open := s.full &^ (cols | dn>>((m-r)&63) | up>>(r&63) | 1<<(r&63) | 1<<((m-r)&63))
	for ; open != 0 && s.err == nil; open &= open - 1 {
		c := bits.TrailingZeros64(open)
		// (r, c) and its partner (m−r, m−c): down diagonals c−r+m and r−c+m, up
		// diagonals r+c and 2m−r−c.
		s.halfFrom(r+1, cols|1<<(c&63)|1<<((m-c)&63), dn|1<<((c-r+m)&63)|1<<((r-c+m)&63), up|1<<((r+c)&63)|1<<((2*m-r-c)&63))
	}
}

// nextRow returns the top free row, or false when there is none (every row is full: one
// more solution counted) or the search must stop (tick).
func (s *symSearch) nextRow() (int, bool) {
	if s.rows == s.full {
		s.count++
		return 0, false
	}
	if !s.tick() {
		return 0, false
	}
	return lowestZero(s.rows), true
}

// open returns the columns of row r that no queen attacks, as an n-bit mask.
func (s *symSearch) open(r int) uint64 {
	return s.full &^ (s.cols | s.dn>>(s.n-1-r) | s.up>>r)
}

// quarter places quarter-turn orbits (r, c) → (c, m−r) → (m−r, m−c) → (m−c, r) in the top
// free row until every row is full, trying only the open columns of that row (nodes are
// counted as by half).
func (s *symSearch) quarter() {
	r, ok := s.nextRow()
	if !ok {
		return
	}
	m := s.n - 1
	for open := s.open(r); open != 0 && s.err == nil; open &= open - 1 {
		c := bits.TrailingZeros64(open)
		sq := [4][2]int{{r, c}, {c, m - r}, {m - r, m - c}, {m - c, r}}
		k := 0
		for k < 4 && s.place(sq[k][0], sq[k][1]) {
			k++
		}
		if k == 4 {
			s.quarter()
		}
		for k--; k >= 0; k-- {
			s.unplace(sq[k][0], sq[k][1])
		}
	}
}

// lowestZero returns the index of the lowest 0 bit of x.
func lowestZero(x uint64) int { return bits.TrailingZeros64(^x) }
