package queens

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
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

// buildQuarterTable builds the table for the h×h square, 1 ≤ h ≤ 13. It takes about 25 ns a
// piece (0.2 s at h = 10, the table of N = 20 and 21).
func buildQuarterTable(h int) (*quarterTable, error) {
	if h < 1 || h > 13 {
		return nil, fmt.Errorf("quarter table: h must be from 1 to 13, got %d", h)
	}
	if p := quarterPieceCount(h); p >= math.MaxUint32 {
		return nil, fmt.Errorf("quarter table: %d pieces outgrow 32-bit offsets", p)
	}
	t := &quarterTable{h: h, off: make([]uint32, 4<<(2*h)+1)}
	cnt := t.off[1:]
	total := t.fill(0, 0, 0, 0, 0)
	// Prefix sums: off[k] = start of run k.
	var sum uint32
	for k := range cnt {
		c := cnt[k]
		cnt[k] = sum
		sum += c
	}
	// Now off[k+1] = start of run k; scattering advances it to the end of run k, which is
	// the start of run k+1: the layout comes out right without a second offset array.
	t.pieces = make([]uint64, total)
	t.fill(0, 0, 0, 0, 0)
	t.off[0] = 0
	t.colsByPop = make([][]uint32, h+1)
	for c := range uint32(1) << h {
		k := bits.OnesCount32(c)
		t.colsByPop[k] = append(t.colsByPop[k], c)
	}
	return t, nil
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
	byH map[int]*quarterTable
}

// sharedQuarterTable returns the table for h, building it on first use. The table is
// read-only once built, so every goroutine of a process shares one (one table per machine,
// not per core). The last two sizes used are kept.
func sharedQuarterTable(h int) (*quarterTable, error) {
	quarterTables.Lock()
	defer quarterTables.Unlock()
	if t, ok := quarterTables.byH[h]; ok {
		return t, nil
	}
	t, err := buildQuarterTable(h)
	if err != nil {
		return nil, err
	}
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
	return t, nil
}
