package queens

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
)

// quarterTable holds every quarter piece of the h×h square: a set of 0 to h mutually
// non-attacking queens, at most one per row and per column (rows and columns may stay
// empty: their queen lives in another quarter of the board). All four quarters of a board
// are translations of that square, so one table serves them all.
//
// A piece is stored as one uint64: its down-diagonal mask (bit col−row+h−1) in the low 32
// bits and its up-diagonal mask (bit col+row) in the high 32 bits, each 2h−1 bits wide. Its
// rows and columns are implied by where it is stored: pieces are laid out by cell (rows mask,
// columns mask; equal popcounts) in one flat array, compressed-sparse-row style, and inside
// a cell in four runs by the two long-diagonal bits of the square (bit h−1 of each mask):
//
//	class 0: down only   class 1: neither   class 2: up only   class 3: both
//
// so that "avoids the down long diagonal" is classes 1–2, "avoids the up one" classes 0–1,
// "has the up one" classes 2–3 and "avoids both" class 1: each one contiguous range (only
// "has the down one", 0 and 3, is not, and the join needs it only for south pieces, which
// it prepares a table row at a time). off[(cell<<2)|class] is the start of that run; off
// has 4·4^h+1 entries.
//
// The layout is built by a counting sort (count, prefix sum, scatter: the pieces are
// enumerated twice), so the table never holds more than its final 8·P(h) + 4·(4·4^h+1)
// bytes: no comparison sort, no hashing, no per-cell slices.
type quarterTable struct {
	h      int
	pieces []uint64
	off    []uint32
	// colsByPop[k] lists the column masks of k columns, increasing (2^h entries in all).
	colsByPop [][]uint32
}

// knownQuarterPieces holds P(h), the number of quarter pieces, for h = 8…12 (counted by
// this package's enumeration, see TestQuarterTable for h = 8, 9), so that the table's size is known
// before anything is allocated; smaller h are counted on demand (milliseconds).
var knownQuarterPieces = map[int]uint64{8: 118969, 9: 915442, 10: 7535369, 11: 66807234, 12: 633443407}

// quarterPieceCount returns P(h), exact for h ≤ 12, and an extrapolation (×9.5 a step, the
// growth between h = 11 and 12) beyond, where the table cannot be built anyway.
func quarterPieceCount(h int) uint64 {
	if v, ok := knownQuarterPieces[h]; ok {
		return v
	}
	if h < 8 {
		var t quarterTable
		t.h = h
		return t.count(nil)
	}
	p := float64(knownQuarterPieces[12])
	for i := 12; i < h; i++ {
		p *= 9.5
	}
	if p > math.MaxUint64/2 {
		return math.MaxUint64 / 2
	}
	return uint64(p)
}

// joinTableBytes returns the memory the quarter table for n takes: 8 bytes a piece and 16
// bytes per (rows, columns) cell, 4^h cells.
func joinTableBytes(n int) uint64 {
	h := n / 2
	return 8*quarterPieceCount(h) + 4*(4<<(2*h)+1)
}

// count enumerates the pieces; with cnt non-nil it adds one to cnt[key] for each, where
// key = (rows<<h|cols)<<2 | class. It returns the number of pieces.
func (t *quarterTable) count(cnt []uint32) uint64 {
	var n uint64
	t.walk(0, 0, 0, 0, 0, func(key uint32, _ uint64) {
		n++
		if cnt != nil {
			cnt[key]++
		}
	})
	return n
}

// walk places a queen or nothing on row r and on, calling emit for every piece. Only the
// table's construction uses it (a few hundred milliseconds at h = 10), so a closure is fine.
func (t *quarterTable) walk(r int, rows, cols uint32, down, up uint32, emit func(key uint32, piece uint64)) {
	h := t.h
	if r == h {
		dl, ul := down>>(h-1)&1, up>>(h-1)&1
		class := [2][2]uint32{{1, 2}, {0, 3}}[dl][ul]
		emit((rows<<h|cols)<<2|class, uint64(down)|uint64(up)<<32)
		return
	}
	t.walk(r+1, rows, cols, down, up, emit)
	for c := range h {
		d := uint32(1) << (c - r + h - 1)
		u := uint32(1) << (c + r)
		if cols&(1<<c) != 0 || down&d != 0 || up&u != 0 {
			continue
		}
		t.walk(r+1, rows|1<<r, cols|1<<c, down|d, up|u, emit)
	}
}

// fill is walk without the closure, for the table's two passes: at each piece it advances
// off[key+1] (first pass: a count; second: the scatter position, writing the piece to
// pieces if they are allocated). It finds a row's open columns with bit masks. It returns
// the number of pieces.
func (t *quarterTable) fill(r int, rows, cols uint32, down, up uint32) uint64 {
	h := t.h
	if r == h {
		dl, ul := down>>(h-1)&1, up>>(h-1)&1
		class := [2][2]uint32{{1, 2}, {0, 3}}[dl][ul]
		key := (rows<<h|cols)<<2 | class
		i := t.off[key+1]
		if t.pieces != nil {
			t.pieces[i] = uint64(down) | uint64(up)<<32
		}
		t.off[key+1] = i + 1
		return 1
	}
	n := t.fill(r+1, rows, cols, down, up)
	// Column c of row r is open unless its column, down diagonal (c−r+h−1) or up
	// diagonal (c+r) is taken.
	open := (uint32(1)<<h - 1) &^ (cols | down>>(h-1-r) | up>>r)
	for ; open != 0; open &= open - 1 {
		c := bits.TrailingZeros32(open)
		n += t.fill(r+1, rows|1<<r, cols|1<<c, down|1<<(c-r+h-1), up|1<<(c+r))
	}
	return n
}

// fillPart is fill for one part of the table: the pieces whose first d rows are occupied
// as the bits of pat say (bit r set: row r holds a queen). Parts own disjoint sets of
// cells (a cell's rows mask fixes its part), so goroutines may fill different parts of one
// table at once; inside a cell the pieces come in the order fill gives them, since a part
// only prunes fill's recursion.
func (t *quarterTable) fillPart(r int, pat uint32, d int, rows, cols uint32, down, up uint32) uint64 {
	if r == d {
		return t.fill(r, rows, cols, down, up)
	}
	if pat>>r&1 == 0 {
		return t.fillPart(r+1, pat, d, rows, cols, down, up)
	}
	h := t.h
	var n uint64
	open := (uint32(1)<<h - 1) &^ (cols | down>>(h-1-r) | up>>r)
	for ; open != 0; open &= open - 1 {
		c := bits.TrailingZeros32(open)
		n += t.fillPart(r+1, pat, d, rows|1<<r, cols|1<<c, down|1<<(c-r+h-1), up|1<<(c+r))
	}
	return n
}

// tableSplitRows returns the number of leading rows whose occupancy cuts the build of the
// h×h table into 2^d parts: 32 parts up to h = 9 balance two to eight goroutines (no part
// has more than 5 % of the pieces at h = 8…10), and from h = 10 on one more row a size keeps
// a part short (a part is what a goroutine finishes before it looks at its context;
// measured at h = 11: 128 parts, 1.5 s in all, the longest 20 ms). The rows above the cut
// are walked once per part, which costs nothing next to the pieces below it.
func tableSplitRows(h int) int {
	return min(h, max(5, h-4))
}

// A tableBuild is a quarter table under construction by every goroutine that calls help:
// the two passes of the counting sort (count, then scatter) run part by part (see
// fillPart), each part claimed by one goroutine, with the prefix sum between them done by
// the goroutine that finishes the last counting part. The table comes out byte for byte
// the same whatever the number of goroutines and the order their parts finish in.
type tableBuild struct {
	t     *quarterTable
	d     int
	parts []uint32 // occupancy patterns of the first d rows, most occupied first
	next  [2]atomic.Int32
	left  [2]atomic.Int32
	// counted is closed when the count pass and the prefix sum are done, done when the
	// table is complete.
	counted, done chan struct{}
}

// newTableBuild starts the build of the table for the h×h square, 1 ≤ h ≤ 13, allocating
// its offsets (16 bytes a cell, 4^h cells); the pieces are allocated after the count.
func newTableBuild(h int) (*tableBuild, error) {
	if h < 1 || h > 13 {
		return nil, fmt.Errorf("quarter table: h must be from 1 to 13, got %d", h)
	}
	if p := quarterPieceCount(h); p >= math.MaxUint32 {
		return nil, fmt.Errorf("quarter table: %d pieces outgrow 32-bit offsets", p)
	}
	b := &tableBuild{
		t:       &quarterTable{h: h, off: make([]uint32, 4<<(2*h)+1)},
		d:       tableSplitRows(h),
		counted: make(chan struct{}),
		done:    make(chan struct{}),
	}
	for pat := range uint32(1) << b.d {
		b.parts = append(b.parts, pat)
	}
	// Most occupied first: those parts hold the most pieces (3–5 % each at h = 9, against
	// 0.2–1 % for one or no occupied row), so the last parts to be claimed are small and
	// the goroutines finish close together.
	slices.SortStableFunc(b.parts, func(x, y uint32) int { return bits.OnesCount32(y) - bits.OnesCount32(x) })
	for pass := range b.left {
		b.left[pass].Store(int32(len(b.parts)))
	}
	return b, nil
}

// help fills parts of the table until no part is left to claim in either pass, and
// returns the table once every part is done (waiting for the other goroutines' parts).
// Any number of goroutines may call it at once. It looks at ctx before it claims a part
// and while it waits, and returns ctx's error once ctx is done: the parts it finished stay
// done and the ones not claimed are left for the next caller, so the build stays whole.
func (b *tableBuild) help(ctx context.Context) (*quarterTable, error) {
	for pass := range 2 {
		for {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			i := int(b.next[pass].Add(1)) - 1
			if i >= len(b.parts) {
				break
			}
			b.runPart(pass, i)
		}
		if pass == 0 {
			select {
			case <-b.counted:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	select {
	case <-b.done:
		return b.t, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// runPart runs part i of pass 0 (count) or 1 (scatter); the goroutine that finishes a
// pass's last part finishes the pass.
func (b *tableBuild) runPart(pass, i int) {
	b.t.fillPart(0, b.parts[i], b.d, 0, 0, 0, 0)
	if b.left[pass].Add(-1) != 0 {
		return
	}
	if pass == 0 {
		b.t.finishCount()
		close(b.counted)
		return
	}
	b.t.finishScatter()
	close(b.done)
}

// finishCount turns the counts in off[k+1] into starts, off[k+1] = start of run k, and
// allocates the pieces: scattering then advances off[k+1] to the end of run k, which is
// the start of run k+1, so the layout comes out right without a second offset array.
func (t *quarterTable) finishCount() {
	cnt := t.off[1:]
	var sum uint32
	for k, c := range cnt {
		cnt[k] = sum
		sum += c
	}
	t.pieces = make([]uint64, sum)
}

// finishScatter completes the table after the scatter pass.
func (t *quarterTable) finishScatter() {
	t.off[0] = 0
	t.colsByPop = make([][]uint32, t.h+1)
	for c := range uint32(1) << t.h {
		k := bits.OnesCount32(c)
		t.colsByPop[k] = append(t.colsByPop[k], c)
	}
}

// buildQuarterTable builds the table for the h×h square, 1 ≤ h ≤ 13, on the calling
// goroutine. It takes about 25 ns a piece (0.2 s at h = 10, the table of N = 20 and 21);
// sharedQuarterTable shares the work among the goroutines that need the table.
func buildQuarterTable(h int) (*quarterTable, error) {
	b, err := newTableBuild(h)
	if err != nil {
		return nil, err
	}
	return b.help(context.Background())
}

// emptyCell reports whether cell (rows, cols) holds no piece.
func (t *quarterTable) emptyCell(rows, cols uint32) bool {
	k := int(rows<<t.h|cols) << 2
	return t.off[k] == t.off[k+4]
}

// run returns the pieces of cell (rows, cols) whose class is in [from, to).
func (t *quarterTable) run(rows, cols uint32, from, to int) []uint64 {
	k := int(rows<<t.h|cols) << 2
	return t.pieces[t.off[k+from]:t.off[k+to]]
}

var quarterTables struct {
	sync.Mutex
	byH      map[int]*quarterTable
	building map[int]*tableBuild
}

// sharedQuarterTable returns the table for h, building it on first use. The table is
// read-only once built, so every goroutine of a process shares one (one table per machine,
// not per core). Goroutines that ask for a table while it is being built help build it
// (see tableBuild), so a pool's workers build it together instead of waiting for the first
// one. The last two sizes built are kept. A caller whose ctx ends gets ctx's error at once
// (between parts of the build, see help); the build goes on with the next caller.
func sharedQuarterTable(ctx context.Context, h int) (*quarterTable, error) {
	quarterTables.Lock()
	if t, ok := quarterTables.byH[h]; ok {
		quarterTables.Unlock()
		return t, nil
	}
	b, ok := quarterTables.building[h]
	if !ok {
		var err error
		if b, err = newTableBuild(h); err != nil {
			quarterTables.Unlock()
			return nil, err
		}
		if quarterTables.building == nil {
			quarterTables.building = map[int]*tableBuild{}
		}
		quarterTables.building[h] = b
	}
	quarterTables.Unlock()
	t, err := b.help(ctx)
	if err != nil {
		return nil, err
	}
	quarterTables.Lock()
	defer quarterTables.Unlock()
	if quarterTables.building[h] == b {
		delete(quarterTables.building, h)
		if quarterTables.byH == nil {
			quarterTables.byH = map[int]*quarterTable{}
		}
		if len(quarterTables.byH) >= 2 {
			for k := range quarterTables.byH {
				if k != h-1 && k != h+1 {
					delete(quarterTables.byH, k)
				}
			}
		}
		quarterTables.byH[h] = t
	}
	return t, nil
}
