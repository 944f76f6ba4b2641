package frames

import (
	"context"
	"math/bits"
	"math/rand/v2"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/turn"
)

// search completes one frame: it fills the free rows (those without a frame queen) with an
// iterative bitboard search, an explicit stack and no allocation.
//
// Invariants. Bit c of cols is set when column c holds a queen. The diagonals are kept in
// board coordinates, so that rows can be filled in any order: bit r+c of d1 is set when the
// anti-diagonal r+c holds a queen, bit c-r+32 of d2 when the diagonal c-r does (both in
// 0…63 for n ≤ 32). The columns open on row k are free &^ (d1>>k | (d2<<k)>>32), with
// free = mask &^ cols: both diagonals shift by the same k, which keeps the scan of the rows
// short. Bit k of rem is set while row k is still empty. The frame's queens are in the
// initial state.
//
// Branching. At every node the search scans the open columns of every empty row (see
// scanRows) and
//  1. backtracks at once if a row has no open column, or if some free column is open on no
//     empty row (forward checking);
//  2. places a forced queen without a stack entry: the only open column of a row, or else a
//     column that only one row can take;
//  3. counts the last two rows in closed form;
//  4. otherwise branches on the most constrained line: the row with the fewest open columns
//     (ties to the row nearest the middle), or a column open on exactly two rows when every
//     row has three or more.
//
// On n = 16 this visits 40.5 million nodes, against 58.8 million when only rows are branched
// on (lowest row first) and only rows force a queen. A node costs a scan of its empty rows,
// about twenty instructions a row in the assembly loop.
type search struct {
	f        frame
	n        int
	mask     uint64
	cols, d1 uint64
	d2, rem  uint64
	freeRows int
	tie      *[maxN]uint16  // tieBreak[n]
	prefix   []board.Square // queens placed after the frame's (see task.initSearch)
}

// tieBreak[n][k] = |2k-(n-1)|<<8 | k orders the rows of an n×n board with equally few open
// columns: rows nearer the middle first, then the lower row. Branching on middle rows first
// visits about a tenth fewer nodes than taking the lowest row.
var tieBreak = func() (t [maxN + 1][maxN]uint16) {
	for n := range t {
		for k := range n {
			t[n][k] = uint16(max(2*k-(n-1), (n-1)-2*k))<<8 | uint16(k)
		}
	}
	return t
}()

// maxN is the largest board a search fills: a row of it fits a uint32 and its diagonals
// a uint64.
const maxN = count.MaxN

// d2Bias is the offset of the diagonal c-r in d2: bit c-r+d2Bias.
const d2Bias = 32

// addQueen returns the state with a queen added at (row, the column of bit).
func addQueen(cols, d1, d2 uint64, row uint, bit uint64) (uint64, uint64, uint64) {
	return cols | bit, d1 | bit<<(row&63), d2 | (bit<<d2Bias)>>(row&63)
}

// openOn returns the open columns of row k.
func openOn(free, d1, d2 uint64, k uint) uint64 {
	return free &^ (d1>>(k&63) | (d2<<(k&63))>>d2Bias)
}

func (s *search) init(f frame) bool {
	n := f.n
	*s = search{f: f, n: n, mask: uint64(1)<<n - 1, tie: &tieBreak[n]}
	var buf [4]board.Square
	var framed uint64
	for _, q := range f.queens(&buf) {
		framed |= 1 << q.Row
		s.cols, s.d1, s.d2 = addQueen(s.cols, s.d1, s.d2, uint(q.Row), 1<<q.Col)
	}
	s.rem = s.mask &^ framed
	s.freeRows = bits.OnesCount64(s.rem)
	return true
}

// scanRowsGo looks at the empty rows (rem, rows below maxN) of a node with free columns
// free. It returns best = m<<16 | tie[k] for the row k with the fewest open columns m (ties
// to the smallest tie[k] = distance from the middle<<8 | k, so best&63 is the row; 1<<24 if
// rem is empty), and the free columns open on at least one, two and three empty rows.
// scanRows is the same on amd64 in assembly (scan_amd64.s), where it is a third of the
// instructions; both are tested against each other.
func scanRowsGo(free, d1, d2, rem uint64, tie *[maxN]uint16) (best uint, once, twice, thrice uint64) {
	best = 1 << 24
	for r := rem; r != 0; r &= r - 1 {
		k := uint(bits.TrailingZeros64(r)) & (maxN - 1)
		o := free &^ (d1>>k | (d2<<k)>>d2Bias)
		thrice |= twice & o
		twice |= once & o
		once |= o
		best = min(best, uint(bits.OnesCount64(o))<<16|uint(tie[k]))
	}
	return best, once, twice, thrice
}

// A move is what the search does at a node (see expand): the node is a dead end, or it
// finishes with count solutions, or it places a forced queen, or it branches on a row (one
// child per open column) or on a column (one child per row open there).
type move struct {
	kind  moveKind
	count uint64 // solutions, for done
	line  uint   // the row (forced, onRow) or the column (onColumn)
	avail uint64 // forced: the column's bit; onRow: the open columns; onColumn: the rows
}

type moveKind uint8

const (
	dead moveKind = iota
	done
	forced
	onRow
	onColumn
)

// expand decides what the search does at the node (cols, d1, d2, rem), rem ≠ 0: the rules of
// the type comment, in the order run applies them. run inlines the same decisions for speed;
// probe and the tests use expand.
func (s *search) expand(cols, d1, d2, rem uint64) move {
	free := s.mask &^ cols
	best, once, twice, thrice := s.scanRows(free, d1, d2, rem)
	c, row := best>>16, best&63
	if once != free || c == 0 {
		return move{kind: dead}
	}
	rest := rem &^ (1 << row)
	open := openOn(free, d1, d2, row)
	switch {
	case rest == 0:
		return move{kind: done, count: uint64(c)}
	case rest&(rest-1) == 0:
		return move{kind: done, count: lastTwo(free, d1, d2, row, open, rest)}
	case c == 1:
		return move{kind: forced, line: row, avail: open}
	}
	if single := free &^ twice; single != 0 {
		b := single & -single
		return move{kind: forced, line: rowOf(b, d1, d2, rem), avail: b}
	}
	if pair := twice &^ thrice; c > 2 && pair != 0 {
		b := pair & -pair
		return move{kind: onColumn, line: uint(bits.TrailingZeros64(b)), avail: rowsOpen(b, d1, d2, rem)}
	}
	return move{kind: onRow, line: row, avail: open}
}

// rowOf returns the first empty row on which the column of bit b is open.
func rowOf(b, d1, d2, rem uint64) uint {
	for r := rem; r != 0; r &= r - 1 {
		k := uint(bits.TrailingZeros64(r)) & 63
		if (d1>>k|(d2<<k)>>d2Bias)&b == 0 {
			return k
		}
	}
	return 0
}

// rowsOpen returns the empty rows on which the column of bit b is open.
func rowsOpen(b, d1, d2, rem uint64) uint64 {
	var rows uint64
	for r := rem; r != 0; r &= r - 1 {
		k := uint(bits.TrailingZeros64(r)) & 63
		if (d1>>k|(d2<<k)>>d2Bias)&b == 0 {
			rows |= 1 << k
		}
	}
	return rows
}

// lastTwo counts the ways to fill the last two empty rows, a (open columns oa) and the row
// of rem, with the last two free columns.
func lastTwo(free, d1, d2 uint64, a uint, oa, rem uint64) uint64 {
	b := uint(bits.TrailingZeros64(rem)) & 63
	ob := openOn(free, d1, d2, b)
	c1 := free & -free
	c2 := free ^ c1
	dr, dc := int(a)-int(b), bits.TrailingZeros64(c2)-bits.TrailingZeros64(c1)
	if dr == dc || dr == -dc {
		return 0 // the two queens would share a diagonal either way
	}
	var k uint64
	if oa&c1 != 0 && ob&c2 != 0 {
		k++
	}
	if oa&c2 != 0 && ob&c1 != 0 {
		k++
	}
	return k
}

// node is a stack entry: a node's state, the line it branches on (a row, or a column when
// onColumnFlag is set) and the choices on it not tried yet (columns of the row, or rows of
// the column). For a row, rem already lacks the row.
type node struct {
	cols, d1, d2, rem, avail uint64
	line                     uint
}

// onColumnFlag marks a node's line as a column.
const onColumnFlag = 64

// ctxMask sets how often the search looks at its context: every 2²⁰ nodes, a few ms.
const ctxMask = 1<<20 - 1

// run counts the solutions of a frame that no half turn fixes. It is expand and a stack,
// written out in one loop: settle places the forced queens, then run counts a node with at
// most two empty rows or pushes its branches.
func (s *search) run(ctx context.Context, res *count.Result) error {
	if s.freeRows == 0 {
		res.Solutions = 1
		return nil
	}
	var (
		stack        [maxN]node
		sp           int
		count, nodes uint64
		mask         = s.mask
		st           = settleState{mask: mask, tie: s.tie, cols: s.cols, d1: s.d1, d2: s.d2, rem: s.rem}
		inner        = true // st holds a node to look at
		fast         = haveSettleAsm
	)
	for {
		if inner {
			st.forced = 0
			if fast {
				settleAsm(&st)
			} else {
				settleGo(&st)
			}
			before := nodes
			nodes += 1 + st.forced // the node, and one per forced queen
			if before>>20 != nodes>>20 && ctx.Err() != nil {
				res.Nodes = nodes
				return ctx.Err()
			}
			cols, d1, d2, rem := st.cols, st.d1, st.d2, st.rem
			free := mask &^ cols
			c, row := st.best>>16, st.best&63
			if st.once == free && c != 0 {
				rest := rem &^ (1 << row)
				switch {
				case rest == 0:
					count += uint64(c)
				case rest&(rest-1) == 0:
					count += lastTwo(free, d1, d2, row, openOn(free, d1, d2, row), rest)
				case c > 2 && st.twice&^st.thrice != 0:
					pair := st.twice &^ st.thrice
					b := pair & -pair
					stack[sp&(maxN-1)] = node{cols, d1, d2, rem, rowsOpen(b, d1, d2, rem), onColumnFlag | uint(bits.TrailingZeros64(b))}
					sp++
				default:
					stack[sp&(maxN-1)] = node{cols, d1, d2, rest, openOn(free, d1, d2, row), row}
					sp++
				}
			}
		}
		// Take the next untried choice of the deepest node that has one.
		for sp > 0 && stack[(sp-1)&(maxN-1)].avail == 0 {
			sp--
		}
		if sp == 0 {
			break
		}
		e := &stack[(sp-1)&(maxN-1)]
		avail := e.avail
		bit := avail & -avail
		e.avail = avail ^ bit
		if e.line&onColumnFlag == 0 {
			st.cols, st.d1, st.d2 = addQueen(e.cols, e.d1, e.d2, e.line, bit)
			st.rem = e.rem
		} else {
			k := uint(bits.TrailingZeros64(bit))
			st.cols, st.d1, st.d2 = addQueen(e.cols, e.d1, e.d2, k, 1<<(e.line&63))
			st.rem = e.rem &^ bit
		}
		inner = true
	}
	res.Solutions, res.Nodes = count, nodes
	return nil
}

// A settleState is the node that settle works on and what it found there. The field order
// is fixed: scan_amd64.s reads and writes the fields at their offsets.
type settleState struct {
	cols, d1, d2, rem uint64 // the node: in, and out after the forced queens
	mask              uint64
	tie               *[maxN]uint16
	best              uint   // out: the final node's scan (see scanRowsGo)
	once, twice       uint64 // out
	thrice            uint64 // out
	forced            uint64 // out: forced queens placed; the caller sets it to 0
}

// settleGo places forced queens from the node in st, the way expand does (the only open
// column of a row; else the lowest free column open on one row only, in the first row
// where it is open), until the node is dead, has at most two empty rows, or has no forced
// queen; it leaves that node and its scan in st and counts the queens in st.forced.
// settleAsm is the same in assembly where the processor allows.
func settleGo(st *settleState) {
	for {
		free := st.mask &^ st.cols
		best, once, twice, thrice := scanRowsFast(free, st.d1, st.d2, st.rem, st.tie)
		st.best, st.once, st.twice, st.thrice = best, once, twice, thrice
		c, row := best>>16, best&63
		rest := st.rem &^ (1 << row)
		if once != free || c == 0 || rest&(rest-1) == 0 {
			return
		}
		var k uint
		var b uint64
		switch single := free &^ twice; {
		case c == 1:
			k, b = row, openOn(free, st.d1, st.d2, row)
		case single != 0:
			b = single & -single
			k = rowOf(b, st.d1, st.d2, st.rem)
		default:
			return
		}
		st.cols, st.d1, st.d2 = addQueen(st.cols, st.d1, st.d2, k, b)
		st.rem &^= 1 << k
		st.forced++
	}
}

// runSymmetric completes a frame that a half turn fixes, keeping the placement so that each
// solution can be tested for half- and quarter-turn symmetry. Such frames are few (about
// n²/4 of n⁴/8), so this plainer loop, which follows expand and descends to the last row,
// costs little overall. It counts the nodes run would visit.
func (s *search) runSymmetric(ctx context.Context, res *count.Result) error {
	var pa [maxN]int32
	p := pa[:s.n]
	var buf [4]board.Square
	for _, q := range s.f.queens(&buf) {
		p[q.Row] = int32(q.Col)
	}
	for _, q := range s.prefix {
		p[q.Row] = int32(q.Col)
	}
	leaf := func() {
		res.Solutions++
		if turn.Half(p) {
			res.HalfTurn++
			if turn.Quarter(p) {
				res.QuarterTurn++
			}
		}
	}
	if s.freeRows == 0 {
		leaf()
		return nil
	}
	// Every row of rem is set on the path to a leaf, so p needs no undoing.
	var stack [maxN]node
	sp := 0
	cols, d1, d2, rem := s.cols, s.d1, s.d2, s.rem
	for inner := true; ; {
		if inner {
			res.Nodes++
			if res.Nodes&ctxMask == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			switch m := s.expand(cols, d1, d2, rem); m.kind {
			case done:
				s.finish(cols, d1, d2, rem, p, leaf)
			case forced:
				p[m.line] = int32(bits.TrailingZeros64(m.avail))
				cols, d1, d2 = addQueen(cols, d1, d2, m.line, m.avail)
				rem &^= 1 << m.line
				continue
			case onRow:
				stack[sp] = node{cols, d1, d2, rem &^ (1 << m.line), m.avail, m.line}
				sp++
			case onColumn:
				stack[sp] = node{cols, d1, d2, rem, m.avail, onColumnFlag | m.line}
				sp++
			}
		}
		for sp > 0 && stack[sp-1].avail == 0 {
			sp--
		}
		if sp == 0 {
			return nil
		}
		e := &stack[sp-1]
		bit := e.avail & -e.avail
		e.avail ^= bit
		if e.line&onColumnFlag == 0 {
			p[e.line] = int32(bits.TrailingZeros64(bit))
			cols, d1, d2 = addQueen(e.cols, e.d1, e.d2, e.line, bit)
			rem = e.rem
		} else {
			k := uint(bits.TrailingZeros64(bit))
			p[k] = int32(e.line &^ onColumnFlag)
			cols, d1, d2 = addQueen(e.cols, e.d1, e.d2, k, 1<<(e.line&63))
			rem = e.rem &^ bit
		}
		inner = true
	}
}

// finish calls leaf once for each way to fill the last one or two empty rows (rem), with
// the queens written into p. Its recursion is at most two deep.
func (s *search) finish(cols, d1, d2, rem uint64, p []int32, leaf func()) {
	if rem == 0 {
		leaf()
		return
	}
	k := uint(bits.TrailingZeros64(rem))
	for o := openOn(s.mask&^cols, d1, d2, k); o != 0; o &= o - 1 {
		b := o & -o
		p[k] = int32(bits.TrailingZeros64(b))
		c, e1, e2 := addQueen(cols, d1, d2, k, b)
		s.finish(c, e1, e2, rem&^(1<<k), p, leaf)
	}
}

// probe walks one random path of the tree run would search and returns Knuth's estimates of
// its nodes and solutions (see task.Probe).
func (s *search) probe(rng *rand.Rand) (nodes, solutions float64) {
	cols, d1, d2, rem := s.cols, s.d1, s.d2, s.rem
	if rem == 0 {
		return 1, 1
	}
	product := 1.0
	for {
		nodes += product // this node is visited, with product-1 others at its depth
		m := s.expand(cols, d1, d2, rem)
		switch m.kind {
		case dead:
			return nodes, 0
		case done:
			return nodes, product * float64(m.count)
		case forced:
			cols, d1, d2 = addQueen(cols, d1, d2, m.line, m.avail)
			rem &^= 1 << m.line
			continue
		}
		c := bits.OnesCount64(m.avail)
		product *= float64(c)
		a := m.avail
		for j := rng.IntN(c); j > 0; j-- {
			a &= a - 1
		}
		bit := a & -a
		if m.kind == onRow {
			cols, d1, d2 = addQueen(cols, d1, d2, m.line, bit)
			rem &^= 1 << m.line
		} else {
			k := uint(bits.TrailingZeros64(bit))
			cols, d1, d2 = addQueen(cols, d1, d2, k, 1<<m.line)
			rem &^= bit
		}
	}
}

// prefixCount counts the nodes at depth k of a search that branches on the most constrained
// row at every node (fewer if the tree is shallower): a cheap measure of a task's size,
// which sets task.Cost. It is kept as it was when PlanVersion 1 was fixed, so that costs, and
// with them Plan.Shard, do not change.
func (s *search) prefixCount(k int) uint64 {
	type st struct{ cols, d1, d2, rem uint64 }
	level := []st{{s.cols, s.d1, s.d2, s.rem}}
	for range k {
		var next []st
		for _, x := range level {
			if x.rem == 0 {
				continue
			}
			free := s.mask &^ x.cols
			row, ok := lowestConstrainedRow(free, x.d1, x.d2, x.rem)
			if !ok {
				continue
			}
			for a := openOn(free, x.d1, x.d2, row); a != 0; a &= a - 1 {
				cols, d1, d2 := addQueen(x.cols, x.d1, x.d2, row, a&-a)
				next = append(next, st{cols, d1, d2, x.rem &^ (1 << row)})
			}
		}
		level = next
	}
	return uint64(len(level))
}

// scanRows is the row scan for this search: scanRowsAsm where it may run, else scanRowsGo.
func (s *search) scanRows(free, d1, d2, rem uint64) (best uint, once, twice, thrice uint64) {
	return scanRowsFast(free, d1, d2, rem, s.tie)
}

// scanRowsFast is scanRowsAsm where it may run, else scanRowsGo.
func scanRowsFast(free, d1, d2, rem uint64, tie *[maxN]uint16) (best uint, once, twice, thrice uint64) {
	if haveScanAsm {
		return scanRowsAsm(free, d1, d2, rem, tie)
	}
	return scanRowsGo(free, d1, d2, rem, tie)
}

// lowestConstrainedRow returns the empty row with the fewest open columns (ties to the lowest
// row), or false if some empty row or some free column has no open square: prefixCount's
// rule.
func lowestConstrainedRow(free, d1, d2, rem uint64) (uint, bool) {
	var once uint64
	row, c := uint(0), 99
	for r := rem; r != 0; r &= r - 1 {
		k := uint(bits.TrailingZeros64(r))
		o := openOn(free, d1, d2, k)
		once |= o
		if m := bits.OnesCount64(o); m < c {
			row, c = k, m
		}
	}
	return row, c > 0 && once == free
}
