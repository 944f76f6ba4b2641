package knight

import (
	"context"
	"errors"
	"math/bits"
)

// Counting by sweeping a frontier across the board.
//
// A tour is a set of knight-move edges in which every square has degree 2 (or degree 1 at
// the two ends of an open tour) and which forms a single path or cycle. The counter decides
// the edges square by square in reading order of a board at most as wide as it is tall (a
// wider board is transposed: counts do not change). When square v is decided, every edge
// to an earlier square is already known, and v chooses which of its (at most four) edges to
// later squares to use. A knight moves at most two rows, so only the next 2w+1 squares can
// hold edges of decided squares: this window, with for each of its squares the degree so far
// and, for a square at the end of a partial path, which window square is the other end, is
// all that the rest of the count depends on. The partial solutions that agree on it are
// merged and counted together, so the work grows with the number of distinct windows (a few
// hundred thousand on 6×6, tens of millions on 7×8), not with the number of tours.
//
// This is a meet in the middle in space rather than in time: at every cut of the sweep the
// ways to fill the part above are summed per state and joined with the part below, so
// 6×6 open (6,637,920 tours) takes a fraction of a second on one core where backtracking
// visits every tour. Joining half-paths in time (both halves of the move sequence, keyed by
// visited squares and the middle square) was measured and rejected: 6×6 has about 2.7·10^9
// pruned half-paths of 18 squares and some 2·10^8 distinct keys, more work than the whole
// backtracking search.

// A window slot holds one of these values, or a label ≥ slotPair shared by the two ends of a
// partial path whose both ends are still open.
const (
	slotEmpty    = 0 // degree 0
	slotFull     = 1 // degree 2: nothing more may touch the square
	slotTerminal = 2 // degree 1, and the other end of its partial path is an end of the tour
	slotPair     = 3 // first label of a pair of open ends
)

// slotBits is the width of a slot in a packed state; the window of 2w+1 slots must fit in
// 64 bits, so the frontier counter takes boards whose narrow side is at most 7.
const (
	slotBits     = 4
	maxSlots     = 64 / slotBits
	maxFrontierW = (maxSlots - 1) / 2
)

// errCountOverflow reports a count too large for an int64.
var errCountOverflow = errors.New("count overflows a 64-bit integer")

// frontier is one count by sweeping: the board as h rows of w squares (w ≤ h), the kind of
// tour, and the start square (internal index) or -1.
type frontier struct {
	h, w   int
	n      int
	slots  int // 2w+1: squares v..v+2w held in a state when square v is next
	closed bool
	start  int
}

// countFrontier returns the number of undirected knight's tours of a rows×cols board (rows·cols
// ≥ 2, min(rows, cols) ≤ maxFrontierW): closed tours when closed is set, otherwise open
// tours, and with start ≥ 0 (an index row*cols+col) only open tours with an end there. It
// calls progress after each square and checks ctx every few thousand states.
func countFrontier(ctx context.Context, rows, cols int, closed bool, start int, progress func(done, total int)) (int64, error) {
	f := &frontier{h: rows, w: cols, n: rows * cols, closed: closed, start: start}
	if cols > rows {
		f.h, f.w = cols, rows
		if start >= 0 {
			r, c := start/cols, start%cols
			f.start = c*rows + r // transposed: row c, column r of a board rows wide
		}
	}
	f.slots = 2*f.w + 1
	return f.run(ctx, progress)
}

// forward returns the window offsets of the knight moves from square v to later squares.
func (f *frontier) forward(v int, out []int) []int {
	out = out[:0]
	r, c := v/f.w, v%f.w
	for _, m := range [4][2]int{{1, -2}, {1, 2}, {2, -1}, {2, 1}} {
		rr, cc := r+m[0], c+m[1]
		if rr < f.h && cc >= 0 && cc < f.w {
			out = append(out, rr*f.w+cc-v)
		}
	}
	return out
}

// run sweeps the squares in order, keeping a table from packed window states to the number
// of partial solutions with that state.
func (f *frontier) run(ctx context.Context, progress func(done, total int)) (int64, error) {
	cur, next := newStateTable(1), newStateTable(1)
	cur.add(0, 1)
	var total uint64
	overflow := false
	var fwd []int
	var val, b [maxSlots + 1]uint8
	checks := f.checks()
	steps := 0
	for v := 0; v < f.n; v++ {
		fwd = f.forward(v, fwd[:0])
		next.reset(cur.n)
		for i, st := range cur.keys {
			if st == emptyState {
				continue
			}
			cnt := cur.vals[i]
			if steps++; steps&(1<<12-1) == 0 && ctx.Err() != nil {
				return 0, ctx.Err()
			}
			for i := 0; i < f.slots; i++ {
				val[i] = uint8(st >> (slotBits * i) & (1<<slotBits - 1))
			}
			val[f.slots] = slotEmpty
			d := degree(val[0])
			for set := 0; set < 1<<len(fwd); set++ {
				k := bits.OnesCount(uint(set))
				if d+k > 2 {
					continue
				}
				b = val
				done, ok := false, true
				for i, off := range fwd {
					if set>>i&1 == 0 {
						continue
					}
					var closes bool
					if closes, ok = f.join(&b, off); !ok {
						break
					}
					done = done || closes
				}
				if !ok {
					continue
				}
				switch d + k {
				case 2:
				case 1:
					if f.closed {
						continue
					}
					// v is an end of the tour.
					if b[0] == slotTerminal {
						done = true
					} else {
						b[f.partner(&b, 0)] = slotTerminal
					}
				default:
					continue
				}
				if f.start == v && d+k != 1 {
					continue
				}
				if done {
					if f.complete(&b, v) {
						var carry uint64
						total, carry = bits.Add64(total, cnt, 0)
						overflow = overflow || carry != 0
					}
					continue
				}
				// At most two ends, and while the start square is still to come, at most
				// one other.
				ends := 0
				for i := 1; i <= f.slots; i++ {
					if b[i] == slotTerminal {
						ends++
					}
				}
				if ends > 2 || (ends == 2 && f.start > v) {
					continue
				}
				if !f.viable(&b, checks[v], ends) {
					continue
				}
				overflow = next.add(f.pack(&b), cnt) || overflow
			}
		}
		if overflow {
			return 0, errCountOverflow
		}
		cur, next = next, cur
		if progress != nil {
			progress(v+1, f.n)
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if total > 1<<63-1 {
		return 0, errCountOverflow
	}
	return int64(total), nil
}

// check is a square whose edges to earlier squares are all decided once square v is: it
// must still be able to reach degree 2 (or 1, as an end) by its edges to later squares.
type check struct {
	at  int   // window offset of the square from v
	fwd []int // window offsets (from v) of its later neighbours
}

// checks returns, for each square v, the squares whose last earlier neighbour is v.
func (f *frontier) checks() [][]check {
	out := make([][]check, f.n)
	var fwd []int
	for u := 0; u < f.n; u++ {
		r, c := u/f.w, u%f.w
		last := -1
		for _, m := range [4][2]int{{-1, -2}, {-1, 2}, {-2, -1}, {-2, 1}} {
			rr, cc := r+m[0], c+m[1]
			if rr >= 0 && cc >= 0 && cc < f.w {
				last = max(last, rr*f.w+cc)
			}
		}
		if last < 0 {
			continue
		}
		fwd = f.forward(u, fwd[:0])
		ck := check{at: u - last}
		for _, off := range fwd {
			ck.fwd = append(ck.fwd, u-last+off)
		}
		out[last] = append(out[last], ck)
	}
	return out
}

// viable reports whether each square of cs can still get the degree a tour needs: its
// degree so far plus its later neighbours that are not full must reach 2, or 1 while the
// tour may have another end (ends counts the ends made so far).
func (f *frontier) viable(b *[maxSlots + 1]uint8, cs []check, ends int) bool {
	for _, ck := range cs {
		s := b[ck.at]
		if s == slotFull {
			continue
		}
		d := degree(s)
		for _, off := range ck.fwd {
			if off > f.slots || b[off] != slotFull {
				d++
			}
		}
		need := 2
		if !f.closed && ends < 2 {
			need = 1
		}
		if d < need {
			return false
		}
	}
	return true
}

// emptyState marks a free entry of a stateTable; no packed state has all 64 bits set,
// since a window holds at most 15 slots of 4 bits.
const emptyState = ^uint64(0)

// stateTable is an open-addressing hash table from packed states to counts, kept at most
// three quarters full; it is much faster than a Go map for this one job.
type stateTable struct {
	keys  []uint64
	vals  []uint64
	n     int
	shift uint
}

func newStateTable(hint int) *stateTable {
	t := &stateTable{}
	t.reset(hint)
	return t
}

// reset empties t, sized for about hint entries.
func (t *stateTable) reset(hint int) {
	size := 1 << 10
	for size*3/4 < hint {
		size *= 2
	}
	if size != len(t.keys) {
		t.keys = make([]uint64, size)
		t.vals = make([]uint64, size)
	}
	for i := range t.keys {
		t.keys[i] = emptyState
	}
	t.n = 0
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

// add adds c to the count of state k and reports whether the count overflowed.
func (t *stateTable) add(k, c uint64) (overflow bool) {
	if (t.n+1)*4 > len(t.keys)*3 {
		t.grow()
	}
	mask := len(t.keys) - 1
	for i := int((k * 0x9E3779B97F4A7C15) >> t.shift); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			var carry uint64
			t.vals[i], carry = bits.Add64(t.vals[i], c, 0)
			return carry != 0
		case emptyState:
			t.keys[i], t.vals[i] = k, c
			t.n++
			return false
		}
	}
}

// grow doubles the table.
func (t *stateTable) grow() {
	keys, vals := t.keys, t.vals
	t.keys = make([]uint64, 2*len(keys))
	t.vals = make([]uint64, 2*len(keys))
	for i := range t.keys {
		t.keys[i] = emptyState
	}
	t.n = 0
	t.shift--
	for i, k := range keys {
		if k != emptyState {
			t.add(k, vals[i])
		}
	}
}

// degree returns the degree a slot value stands for.
func degree(s uint8) int {
	switch s {
	case slotEmpty:
		return 0
	case slotFull:
		return 2
	}
	return 1
}

// partner returns the slot holding the other open end of the partial path ending at slot i
// (whose value is a pair label).
func (f *frontier) partner(b *[maxSlots + 1]uint8, i int) int {
	for j := 0; j <= f.slots; j++ {
		if j != i && b[j] == b[i] {
			return j
		}
	}
	panic("knight: frontier state without the partner of a pair label")
}

// join adds the edge from slot 0 to slot j. ok is false when the edge is not allowed (a
// square would get degree 3, or a cycle or a complete path would close); closes is true when
// the edge completes the whole tour, to be checked by complete.
func (f *frontier) join(b *[maxSlots + 1]uint8, j int) (closes, ok bool) {
	a, c := b[0], b[j]
	if a == slotFull || c == slotFull {
		return false, false
	}
	switch {
	case a == slotEmpty && c == slotEmpty:
		l := f.freeLabel(b)
		b[0], b[j] = l, l
	case a == slotEmpty:
		// v takes over u's place as an end of u's partial path.
		b[0], b[j] = c, slotFull
	case c == slotEmpty:
		b[j], b[0] = a, slotFull
	case a == slotTerminal && c == slotTerminal:
		// The two ends of the tour meet: a complete open tour.
		b[0], b[j] = slotFull, slotFull
		return true, true
	case a == slotTerminal:
		b[f.partner(b, j)] = slotTerminal
		b[0], b[j] = slotFull, slotFull
	case c == slotTerminal:
		b[f.partner(b, 0)] = slotTerminal
		b[0], b[j] = slotFull, slotFull
	case a == c:
		// Both ends of one partial path: a cycle, a tour only if closed ones are counted.
		if !f.closed {
			return false, false
		}
		b[0], b[j] = slotFull, slotFull
		return true, true
	default:
		p := f.partner(b, j)
		b[p] = a
		b[0], b[j] = slotFull, slotFull
	}
	return false, true
}

// freeLabel returns a pair label that no slot holds.
func (f *frontier) freeLabel(b *[maxSlots + 1]uint8) uint8 {
	var used uint32
	for i := 0; i <= f.slots; i++ {
		used |= 1 << b[i]
	}
	for l := uint8(slotPair); ; l++ {
		if used&(1<<l) == 0 {
			return l
		}
	}
}

// complete reports whether the tour that closed while deciding square v covers the board:
// every later square must already have degree 2, and the start square, if any, must be
// decided (it was made an end then).
func (f *frontier) complete(b *[maxSlots + 1]uint8, v int) bool {
	if f.start > v || f.n-1-v > f.slots {
		return false
	}
	for i := 1; v+i < f.n; i++ {
		if b[i] != slotFull {
			return false
		}
	}
	return true
}

// pack drops slot 0 (square v, now decided), renumbers the pair labels in order of first
// appearance so that equal windows pack equally, and packs slots 1..2w+1 into the state for
// square v+1.
func (f *frontier) pack(b *[maxSlots + 1]uint8) uint64 {
	var relabel [1 << slotBits]uint8
	nextLabel := uint8(slotPair)
	var st uint64
	for i := 1; i <= f.slots; i++ {
		s := b[i]
		if s >= slotPair {
			if relabel[s] == 0 {
				relabel[s] = nextLabel
				nextLabel++
			}
			s = relabel[s]
		}
		st |= uint64(s) << (slotBits * (i - 1))
	}
	return st
}
