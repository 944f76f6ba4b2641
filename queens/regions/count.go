package regions

import (
	"context"
	"errors"
	"math/bits"
)

// ErrNoSolution is returned by [Solve] for a puzzle without a solution.
var ErrNoSolution = errors.New("the puzzle has no solution")

// state is a partly solved puzzle as bitmasks. Invariants: cand[r] holds the columns of row
// r where a queen may still go, given the queens placed so far (not in a used row, column or
// region, not touching a queen); rows, cols and regs have bit i set when row, column or
// region i holds a queen; queen[r] is the column of row r's queen, −1 while it has none.
type state struct {
	cand             [MaxN]uint32
	rows, cols, regs uint32
	queen            [MaxN]int8
}

// start returns the state with no queens: every cell free.
func (p *Puzzle) start() state {
	var s state
	all := uint32(1)<<p.n - 1
	for r := range p.n {
		s.cand[r] = all
		s.queen[r] = -1
	}
	return s
}

// full is the mask of all N rows (columns, regions).
func (p *Puzzle) full() uint32 { return uint32(1)<<p.n - 1 }

// place puts a queen on row r, column c and rules out its row, column, region and the (up
// to) eight cells around it. It takes time proportional to N.
func (p *Puzzle) place(s *state, r, c int) {
	k := p.region[r*p.n+c]
	bit := uint32(1) << c
	reg := &p.cells[k]
	for i := range p.n {
		s.cand[i] &^= bit | reg[i]
	}
	s.cand[r] = 0
	near := bit | bit<<1 | bit>>1
	if r > 0 {
		s.cand[r-1] &^= near
	}
	if r+1 < p.n {
		s.cand[r+1] &^= near
	}
	s.rows |= 1 << r
	s.cols |= bit
	s.regs |= 1 << k
	s.queen[r] = int8(c)
}

// unit kinds: a row, a column or a region.
const (
	unitRow = iota
	unitCol
	unitRegion
)

// counts returns, for each column and region, how many free cells it has.
func (p *Puzzle) counts(s *state) (col, reg [MaxN]int) {
	for r := range p.n {
		m := s.cand[r]
		for m != 0 {
			c := bits.TrailingZeros32(m)
			m &= m - 1
			col[c]++
			reg[p.region[r*p.n+c]]++
		}
	}
	return col, reg
}

// searcher counts solutions by depth-first search. At every node it branches on the unit
// (row, column or region without a queen) that has the fewest free cells: a unit with none
// ends the branch, a unit with one places its queen without a choice. This is what makes
// the search small: a unique puzzle is mostly forced, and a wrong branch fails within a few
// queens.
type searcher struct {
	p     *Puzzle
	limit int
	found int
	keep  int     // how many solutions to record
	sols  [][]int // the first keep solutions found
	// nodes counts the search nodes; when budget > 0 and nodes passes it, the search
	// stops and sets aborted: its answer is then unknown.
	nodes, budget int
	aborted       bool
	// ctx, when not nil, is looked at every 1024 nodes; once it is done the search stops,
	// sets aborted and keeps its error in err.
	ctx context.Context
	err error
}

// stop reports whether the search should end: the limit reached or the budget spent.
func (sv *searcher) stop() bool { return sv.found >= sv.limit || sv.aborted }

// try searches below s with a queen on row r, column c; it reports whether to stop.
func (sv *searcher) try(s *state, r, c int) bool {
	t := *s
	sv.p.place(&t, r, c)
	sv.search(&t)
	return sv.stop()
}

func (sv *searcher) search(s *state) {
	p := sv.p
	n := p.n
	sv.nodes++
	if sv.budget > 0 && sv.nodes > sv.budget {
		sv.aborted = true
		return
	}
	if sv.ctx != nil && sv.nodes&1023 == 0 {
		if sv.err = sv.ctx.Err(); sv.err != nil {
			sv.aborted = true
			return
		}
	}
	if s.rows == p.full() {
		sv.found++
		if len(sv.sols) < sv.keep {
			sol := make([]int, n)
			for r := range n {
				sol[r] = int(s.queen[r])
			}
			sv.sols = append(sv.sols, sol)
		}
		return
	}
	col, reg := p.counts(s)
	best, kind, idx := MaxN+1, 0, 0
	for r := range n {
		if s.rows&(1<<r) == 0 {
			if k := bits.OnesCount32(s.cand[r]); k < best {
				best, kind, idx = k, unitRow, r
			}
		}
	}
	for c := range n {
		if s.cols&(1<<c) == 0 && col[c] < best {
			best, kind, idx = col[c], unitCol, c
		}
	}
	for k := range n {
		if s.regs&(1<<k) == 0 && reg[k] < best {
			best, kind, idx = reg[k], unitRegion, k
		}
	}
	if best == 0 || (best > 1 && !p.matchable(s)) {
		return
	}
	switch kind {
	case unitRow:
		for m := s.cand[idx]; m != 0; m &= m - 1 {
			if sv.try(s, idx, bits.TrailingZeros32(m)) {
				return
			}
		}
	case unitCol:
		for r := range n {
			if s.cand[r]&(1<<idx) != 0 && sv.try(s, r, idx) {
				return
			}
		}
	case unitRegion:
		for r := range n {
			for m := s.cand[r] & p.cells[idx][r]; m != 0; m &= m - 1 {
				if sv.try(s, r, bits.TrailingZeros32(m)) {
					return
				}
			}
		}
	}
}

// solutions returns the number of solutions of p, counted up to limit, and the first keep
// of them; or ctx.Err() once ctx is done.
func (p *Puzzle) solutions(ctx context.Context, limit, keep int) (int, [][]int, error) {
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	if limit <= 0 {
		return 0, nil, nil
	}
	sv := &searcher{p: p, limit: limit, keep: keep, ctx: ctx}
	s := p.start()
	sv.search(&s)
	if sv.err != nil {
		return 0, nil, sv.err
	}
	return sv.found, sv.sols, nil
}

// Count returns the number of solutions of p, counting no further than limit: Count(p, 2)
// is 0, 1 or 2, and 2 means "more than one". A limit of 0 or less returns 0.
//
// Count searches by bitmasks (one word per row), always branching on the row, column or
// region with the fewest free cells. Its cost is the size of that search tree: a unique
// puzzle of N = 20 takes about a millisecond, and each further solution counted adds a
// short walk.
func Count(p *Puzzle, limit int) int {
	n, _ := CountContext(context.Background(), p, limit)
	return n
}

// CountContext is [Count], stopping with ctx.Err() once ctx is done: it looks at ctx before
// it starts and every 1024 nodes of its search (well under a millisecond).
func CountContext(ctx context.Context, p *Puzzle, limit int) (int, error) {
	n, _, err := p.solutions(ctx, limit, 0)
	return n, err
}

// Solve returns a solution of p: sol[row] is the column (0-based) of the queen in that row.
// It returns [ErrNoSolution] when there is none. Its cost is that of [Count] with limit 1.
func Solve(p *Puzzle) ([]int, error) {
	return SolveContext(context.Background(), p)
}

// SolveContext is [Solve], stopping with ctx.Err() once ctx is done, as [CountContext] does.
func SolveContext(ctx context.Context, p *Puzzle) ([]int, error) {
	_, sols, err := p.solutions(ctx, 1, 1)
	if err != nil {
		return nil, err
	}
	if len(sols) == 0 {
		return nil, ErrNoSolution
	}
	return sols[0], nil
}

// IsSolution reports whether sol (sol[row] = column) is a solution of p: one queen in each
// row, column and region, no two touching. It takes time proportional to N.
func IsSolution(p *Puzzle, sol []int) bool {
	if len(sol) != p.n {
		return false
	}
	var cols, regs uint32
	for r, c := range sol {
		if c < 0 || c >= p.n {
			return false
		}
		if r > 0 && sol[r-1]-c <= 1 && c-sol[r-1] <= 1 {
			return false
		}
		cols |= 1 << c
		regs |= 1 << p.region[r*p.n+c]
	}
	return cols == p.full() && regs == p.full()
}

// matchable reports whether the open units can still be paired off as a solution needs:
// each open row with its own open column, each open row with its own open region and each
// open column with its own open region, through free cells (Hall's condition, checked by
// finding the three perfect matchings). A failure proves the state has no solution; it is
// what keeps the search small on grids with few free cells, where choosing the smallest
// unit alone still wanders. It takes about N² word operations per matching.
func (p *Puzzle) matchable(s *state) bool {
	n := p.n
	var rowReg, colReg [MaxN]uint32
	for r := range n {
		for m := s.cand[r]; m != 0; m &= m - 1 {
			c := bits.TrailingZeros32(m)
			k := uint32(1) << p.region[r*n+c]
			rowReg[r] |= k
			colReg[c] |= k
		}
	}
	openRows := p.full() &^ s.rows
	return perfect(&s.cand, openRows) && perfect(&rowReg, openRows) && perfect(&colReg, p.full()&^s.cols)
}

// perfect reports whether every unit a in the mask from can be matched to a distinct unit b
// with bit b of adj[a] set (Kuhn's augmenting paths on bitmasks).
func perfect(adj *[MaxN]uint32, from uint32) bool {
	var match [MaxN]int8
	for i := range match {
		match[i] = -1
	}
	var seen uint32
	var augment func(a int) bool
	augment = func(a int) bool {
		for m := adj[a] &^ seen; m != 0; m &= m - 1 {
			b := bits.TrailingZeros32(m)
			seen |= 1 << b
			if match[b] < 0 || augment(int(match[b])) {
				match[b] = int8(a)
				return true
			}
		}
		return false
	}
	for m := from; m != 0; m &= m - 1 {
		seen = 0
		if !augment(bits.TrailingZeros32(m)) {
			return false
		}
	}
	return true
}
