package join

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// quarterTable holds every quarter piece of the h×h square: a set of 0 to h mutually
// non-attacking queens, at most one per row and per column (rows and columns may stay
// empty: their queen lives in another quarter of the board). All four quarters of a board
// are translations of that square, so one table serves them all.
//
// A piece is stored as one uint64: its down-diagonal mask (bit col−row+h−1) in the low 32
// bits and its up-diagonal mask (bit col+row) in the high 32 bits, each 2h−1 bits wide. Its
// rows and columns are implied by where it is stored: pieces are laid out by row mask
// (rows[m], 2^h of them), inside a row by columns mask, compressed-sparse-row style, and
// inside a cell (rows, columns; equal popcounts) in four runs by the two long-diagonal bits
// of the square (bit h−1 of each mask):
//
//	class 0: down only   class 1: neither   class 2: up only   class 3: both
//
// so that "avoids the down long diagonal" is classes 1–2, "avoids the up one" classes 0–1,
// "has the up one" classes 2–3 and "avoids both" class 1: each one contiguous range (only
// "has the down one", 0 and 3, is not, and the join needs it only for south pieces, which
// it prepares a table row at a time). A row m of k queens has pieces only in the cells of
// k columns, so its offsets index those alone: rows[m].off[(rank[cols]<<2)|class] is the
// start of that run in rows[m].pieces, where rank[cols] is the place of cols among the
// column masks of k columns in increasing order (its index in colsByPop[k]); off has
// 4·C(h, k)+1 entries. So the offsets of a row the join walks cell by cell in increasing
// order of cols are read in order, a fifth of the 4·2^h+1 entries a row (h = 8) that an
// index by cols would take, and the whole table's offsets take 16·C(2h, h) bytes, not 16·4^h.
//
// A whole table (newTableBuild) has every row, built by one enumeration that decides the
// rows' occupancy one row after another and lays out each finished row mask by a counting
// sort (buildPart): no comparison sort, no hashing, no per-cell slices, and nothing held
// but the table and one scratch list a row deep. Its 8·P(h) + 4·(4·C(2h, h) + 2^h) bytes
// are the pieces and the offsets.
//
// A table may instead be partial (newRowTable): rows[r] is built when a row set needs it
// and dropped, least recently used first, when the rows built outgrow the table's memory
// budget (see rowTable); a row not built has off == nil. A join task needs only the four
// rows of each of its row sets (see subproblem.tableRows), so a partial table holds the join
// of any N ≤ 27 in a few hundred MiB where the whole one takes 5 GiB (N = 24–25) or 48 GiB
// (26–27).
type quarterTable struct {
	h    int
	rows []tableRow
	// colsByPop[k] lists the column masks of k columns, increasing (2^h entries in all),
	// and rank[cols] is the index of cols in its list.
	colsByPop [][]uint32
	rank      []uint32
	// cache is set for a partial table only.
	cache *rowCache
}

// knownQuarterPieces holds P(h), the number of quarter pieces, for h = 8…13 (counted by
// this package's enumeration, see TestQuarterTable for h = 8, 9; the sums of
// knownPiecesByQueens), so that the table's size is known
// before anything is allocated; smaller h are counted once on first use (smallPieceCounts).
var knownQuarterPieces = map[int]uint64{8: 118969, 9: 915442, 10: 7535369, 11: 66807234, 12: 633443407, 13: 6354135838}

// smallPieceCounts returns P(h) for h = 1…7 (index h; 0 at index 0, where no table
// exists), counted by enumeration on the first call (about a millisecond for all seven)
// and remembered: every task of N ≤ 15 asks for its table's size (tableFor, memoryOf),
// and an enumeration per task was most of the count of N = 14 and 15.
var smallPieceCounts = sync.OnceValue(func() (p [8]uint64) {
	for h := 1; h < len(p); h++ {
		t := quarterTable{h: h}
		p[h] = t.count(nil)
	}
	return p
})

// quarterPieceCount returns P(h), exact for h ≤ 13, and an extrapolation (×9.5 a step, the
// growth between h = 11 and 12) beyond, where no join needs it. It costs a look-up (the
// first call for an h < 8 a millisecond).
func quarterPieceCount(h int) uint64 {
	if v, ok := knownQuarterPieces[h]; ok {
		return v
	}
	if h < 8 {
		return smallPieceCounts()[max(h, 0)]
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

// quarterPiecesByQueens returns the number of quarter pieces of k queens, k = 0…h: known
// for h = 8…13 (counted by this package's enumeration, 25 minutes of one loaded core at
// h = 13; TestQuarterPiecesByQueens recounts h ≤ 9), counted on demand below (milliseconds).
func quarterPiecesByQueens(h int) []uint64 {
	if v, ok := knownPiecesByQueens[h]; ok {
		return v
	}
	cnt := make([]uint64, h+1)
	if h < 8 {
		t := quarterTable{h: h}
		t.walk(0, 0, 0, 0, 0, func(key uint32, _ uint64) { cnt[bits.OnesCount32(key>>(2+h))]++ })
		return cnt
	}
	// Beyond the known h, each count grows as it did over the last known step of h (that
	// of h−1 queens as the count of one queen fewer did); the pieces of h queens are the
	// solutions of the h×h board, Q(h).
	a, b := quarterPiecesByQueens(h-2), quarterPiecesByQueens(h-1)
	for k := range h - 1 {
		cnt[k] = uint64(float64(b[k]) * float64(b[k]) / float64(max(a[k], 1)))
	}
	cnt[h-1] = uint64(float64(b[h-1]) * float64(b[h-2]) / float64(max(a[h-2], 1)))
	if c, ok := count.Known(h); ok {
		cnt[h] = c.Total.Uint64()
	}
	return cnt
}

// knownPiecesByQueens must not gain h = 14: plan version 102 cuts N = 28–29 by the
// extrapolation of quarterPiecesByQueens (see PlanVersion); a measured row would change
// those tasks and need a new version.
var knownPiecesByQueens = map[int][]uint64{
	8:  {1, 64, 1288, 10320, 34568, 46736, 22708, 3192, 92},
	9:  {1, 81, 2184, 25096, 131248, 310496, 312956, 119180, 13848, 352},
	10: {1, 100, 3480, 54400, 412596, 1535440, 2716096, 2119176, 636524, 56832, 724},
	11: {1, 121, 5280, 107880, 1123832, 6110256, 17117832, 23636352, 14803480, 3634976, 264544, 2680},
	12: {1, 144, 7700, 199400, 2739386, 20609544, 84871680, 186506000, 207667564, 107305664, 22146756, 1375368, 14200},
	13: {1, 169, 10868, 348020, 6106214, 60963094, 349093856, 1131544008, 2008758532, 1845677332, 801778668, 141952580, 7828784, 73712},
}

// maxRowPieces returns the pieces of the largest row of the h×h table (the row masks of
// about 3h/4 queens, north and south ends occupied): measured for h = 8…14 (h = 13:
// 1111100011111, h = 14: 11111000011111, by counting every row mask of 9 to 11 queens
// (h = 14: 10 and 11) with both ends occupied), extrapolated beyond by the last step's
// growth.
func maxRowPieces(h int) uint64 {
	known := []uint64{8: 1174, 9: 5366, 10: 26548, 11: 143140, 12: 788698, 13: 4684690, 14: 29555392}
	if h < 8 {
		return quarterPieceCount(h)
	}
	if h < len(known) {
		return known[h]
	}
	p := float64(known[len(known)-1])
	g := p / float64(known[len(known)-2])
	for i := len(known) - 1; i < h; i++ {
		p *= g
	}
	return uint64(p)
}

// tableBytes returns the memory the quarter table for n takes: 8 bytes a piece, 16
// bytes per (rows, columns) cell of equal popcounts (C(2h, h) cells), a row index of 2^h
// rows and the column lists.
func tableBytes(n int) uint64 {
	h := n / 2
	return 8*quarterPieceCount(h) + 16*choose(2*h, h) + (8+uint64(unsafe.Sizeof(tableRow{})))<<h
}

// choose returns C(n, k) for the small n of a table (n ≤ 28).
func choose(n, k int) uint64 {
	c := uint64(1)
	for i := range k {
		c = c * uint64(n-i) / uint64(i+1)
	}
	return c
}

// setColumnLists fills t.colsByPop and t.rank for t.h.
func (t *quarterTable) setColumnLists() {
	t.colsByPop = make([][]uint32, t.h+1)
	t.rank = make([]uint32, 1<<t.h)
	for c := range uint32(1) << t.h {
		k := bits.OnesCount32(c)
		t.rank[c] = uint32(len(t.colsByPop[k]))
		t.colsByPop[k] = append(t.colsByPop[k], c)
	}
}

// offLen returns the length of the offsets of row mask rows: four runs a cell of
// |rows| columns, and one end.
func (t *quarterTable) offLen(rows uint32) int {
	return 4*len(t.colsByPop[bits.OnesCount32(rows)]) + 1
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

// A frontier is the list of partial pieces of one occupancy pattern of the rows decided
// so far (the build decides rows 0, 1, … in turn): each entry a piece's diagonal masks (as
// in the table) and its columns. Placing a queen on the next row extends each entry by
// each of its open columns, in increasing order; leaving the row empty keeps the list.
type frontierPiece struct {
	piece uint64
	cols  uint32
}

// frontierScratch holds one list per depth, reused from part to part by one goroutine
// (a few MiB at h = 11: the longest list is the largest row, 143,140 pieces).
type frontierScratch struct {
	lists [][]frontierPiece
}

// extend returns the pieces of list with a queen added on row r, in list order and, for
// each, by increasing column, in the scratch list of depth r+1.
func (t *quarterTable) extend(sc *frontierScratch, r int, list []frontierPiece) []frontierPiece {
	h := t.h
	next := sc.lists[r+1][:0]
	full := uint32(1)<<h - 1
	for _, s := range list {
		down, up := uint32(s.piece), uint32(s.piece>>32)
		// Column c of row r is open unless its column, down diagonal (c−r+h−1) or up
		// diagonal (c+r) is taken.
		for open := full &^ (s.cols | down>>(h-1-r) | up>>r); open != 0; open &= open - 1 {
			c := bits.TrailingZeros32(open)
			next = append(next, frontierPiece{
				piece: s.piece | 1<<(c-r+h-1) | 1<<(32+c+r),
				cols:  s.cols | 1<<c,
			})
		}
	}
	sc.lists[r+1] = next
	return next
}

// descend builds every row of the table whose occupancy of rows 0…r−1 is m, from list,
// the pieces of that occupancy: each row mask is decided row by row (empty first, then a
// queen), and a finished mask's list becomes its table row (setRow). Each partial piece
// is made once and every piece is written twice (its count, its place), so the build
// costs one enumeration, where a two-pass counting sort by enumeration costs two. A
// prefix without pieces leaves the rows below it empty.
func (t *quarterTable) descend(sc *frontierScratch, r int, m uint32, list []frontierPiece) {
	if r == t.h {
		t.setRow(m, list)
		return
	}
	t.descend(sc, r+1, m, list)
	if next := t.extend(sc, r, list); len(next) > 0 {
		t.descend(sc, r+1, m|1<<r, next)
	}
}

// setRow lays out the pieces of row mask m, list, in its row by a counting sort on
// (rank of the columns, class): the row's offsets (zero on entry) count, then start, the runs; the
// sort is stable, so inside a cell the pieces keep the enumeration's order.
func (t *quarterTable) setRow(m uint32, list []frontierPiece) {
	h := t.h
	row := &t.rows[m]
	off := row.off
	for _, s := range list {
		off[(t.rank[s.cols]<<2|pieceClass(s.piece, h))+1]++
	}
	row.pieces = make([]uint64, runStarts(off[1:]))
	for _, s := range list {
		k := (t.rank[s.cols]<<2 | pieceClass(s.piece, h)) + 1
		i := off[k]
		row.pieces[i] = s.piece
		off[k] = i + 1
	}
	off[0] = 0
}

// pieceClass returns the class of a piece of the h×h square by its long-diagonal bits (bit
// h−1 of each mask): 0 down only, 1 neither, 2 up only, 3 both.
func pieceClass(piece uint64, h int) uint32 {
	dl, ul := uint32(piece>>(h-1))&1, uint32(piece>>(32+h-1))&1
	return 0xC9 >> (2 * (dl<<1 | ul)) & 3
}

// buildPart builds the rows of one part of the table: those whose first d rows are
// occupied as the bits of pat say (bit r set: row r holds a queen). Parts own disjoint
// sets of rows, so goroutines may build different parts of one table at once; a row comes
// out the same whichever goroutine builds it.
func (t *quarterTable) buildPart(sc *frontierScratch, pat uint32, d int) {
	if len(sc.lists) != t.h+1 {
		sc.lists = make([][]frontierPiece, t.h+1)
	}
	list := append(sc.lists[0][:0], frontierPiece{})
	sc.lists[0] = list
	for r := range d {
		// A list lives at the depth it was made (≤ d); descend makes lists deeper only.
		if pat>>r&1 != 0 {
			if list = t.extend(sc, r, list); len(list) == 0 {
				return
			}
		}
	}
	t.descend(sc, d, pat, list)
}

// tableSplitRows returns the number of leading rows whose occupancy cuts the build of the
// h×h table into 2^d parts: 32 parts up to h = 9 balance two to eight goroutines, and from
// h = 10 on one more row a size keeps a part short (a part is what a goroutine finishes
// before it looks at its context). The lists of the rows above the cut are made once per
// part, a few per cent of the pieces below it.
func tableSplitRows(h int) int {
	return min(h, max(5, h-4))
}

// A tableBuild is a quarter table under construction by every goroutine that calls help:
// its rows are built part by part (see buildPart), each part claimed by one goroutine.
// The table comes out byte for byte the same whatever the number of goroutines and the
// order their parts finish in.
type tableBuild struct {
	t     *quarterTable
	d     int
	parts []uint32 // occupancy patterns of the first d rows, most occupied first
	next  atomic.Int32
	left  atomic.Int32
	// done is closed when the table is complete.
	done chan struct{}
}

// newTableBuild starts the build of the table for the h×h square, 1 ≤ h ≤ 13, allocating
// its row index and offsets (16 bytes a cell, C(2h, h) cells, in one block); each row's
// pieces are allocated when the row is built.
func newTableBuild(h int) (*tableBuild, error) {
	if h < 1 || h > 13 {
		return nil, fmt.Errorf("quarter table: h must be from 1 to 13, got %d", h)
	}
	if p := quarterPieceCount(h); p >= math.MaxUint32 {
		return nil, fmt.Errorf("quarter table: %d pieces outgrow 32-bit offsets", p)
	}
	t := &quarterTable{h: h, rows: make([]tableRow, 1<<h)}
	t.setColumnLists()
	offs := make([]uint32, 4*choose(2*h, h)+1<<h)
	for m := range t.rows {
		n := t.offLen(uint32(m))
		t.rows[m].off, offs = offs[:n:n], offs[n:]
	}
	b := &tableBuild{t: t, d: tableSplitRows(h), done: make(chan struct{})}
	for pat := range uint32(1) << b.d {
		b.parts = append(b.parts, pat)
	}
	// Most occupied first: those parts hold the most pieces, so the last parts to be
	// claimed are small and the goroutines finish close together.
	slices.SortStableFunc(b.parts, func(x, y uint32) int { return bits.OnesCount32(y) - bits.OnesCount32(x) })
	b.left.Store(int32(len(b.parts)))
	return b, nil
}

// help builds parts of the table until no part is left to claim, and returns the table
// once every part is done (waiting for the other goroutines' parts). Any number of
// goroutines may call it at once. It looks at ctx before it claims a part and while it
// waits, and returns ctx's error once ctx is done: the parts it finished stay done and the
// ones not claimed are left for the next caller, so the build stays whole.
func (b *tableBuild) help(ctx context.Context) (*quarterTable, error) {
	var sc frontierScratch
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		i := int(b.next.Add(1)) - 1
		if i >= len(b.parts) {
			break
		}
		b.runPart(&sc, i)
	}
	select {
	case <-b.done:
		return b.t, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// runPart builds part i; the goroutine that finishes the last part finishes the table.
func (b *tableBuild) runPart(sc *frontierScratch, i int) {
	b.t.buildPart(sc, b.parts[i], b.d)
	if b.left.Add(-1) != 0 {
		return
	}
	close(b.done)
}

// runStarts turns the run lengths in cnt into their starts (cnt[k] = the sum of the
// lengths before run k) and returns the sum of them all: the counting sort's prefix sum.
func runStarts(cnt []uint32) uint32 {
	var sum uint32
	for k, c := range cnt {
		cnt[k] = sum
		sum += c
	}
	return sum
}

// buildQuarterTable builds the table for the h×h square, 1 ≤ h ≤ 13, on the calling
// goroutine. It takes about 20 ns of CPU a piece with the page faults of its memory (1.3
// CPU-s at h = 11, the table of N = 22 and 23; bench/README.md);
// sharedQuarterTable shares the work among the goroutines that need the table.
func buildQuarterTable(h int) (*quarterTable, error) {
	b, err := newTableBuild(h)
	if err != nil {
		return nil, err
	}
	return b.help(context.Background())
}

// emptyCell reports whether cell (rows, cols) holds no piece. In a partial table the row
// must be acquired (see rowCache.acquire).
func (t *quarterTable) emptyCell(rows, cols uint32) bool {
	if bits.OnesCount32(rows) != bits.OnesCount32(cols) {
		return true
	}
	return t.emptyAt(rows, int(t.rank[cols]))
}

// emptyAt is emptyCell of the i-th column mask of |rows| columns (colsByPop).
func (t *quarterTable) emptyAt(rows uint32, i int) bool {
	off := t.rows[rows].off
	return off[i<<2] == off[i<<2+4]
}

// run returns the pieces of cell (rows, cols) whose class is in [from, to). In a partial
// table the row must be acquired (see rowCache.acquire).
func (t *quarterTable) run(rows, cols uint32, from, to int) []uint64 {
	if bits.OnesCount32(rows) != bits.OnesCount32(cols) {
		return nil
	}
	return t.runAt(rows, int(t.rank[cols]), from, to)
}

// runAt is run of the i-th column mask of |rows| columns (colsByPop).
func (t *quarterTable) runAt(rows uint32, i, from, to int) []uint64 {
	r := &t.rows[rows]
	return r.pieces[r.off[i<<2+from]:r.off[i<<2+to]]
}

var quarterTables struct {
	sync.Mutex
	byH      map[int]*quarterTable
	building map[int]*tableBuild
	partial  map[int]*quarterTable
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

// tableRow is one row mask of a table: its pieces by (columns, class), off[(rank<<2)|class]
// the start of that run, rank the columns' place among those of as many columns
// (4·C(h, |rows|)+1 entries; see quarterTable). A row not built has off == nil.
type tableRow struct {
	pieces []uint64
	off    []uint32
}

// bytes returns the memory the row holds.
func (r *tableRow) bytes() uint64 { return 8*uint64(len(r.pieces)) + 4*uint64(len(r.off)) }

// buildRow builds the row of row mask rows by the counting sort of the whole table, on the
// pieces whose rows are exactly rows: a count pass, a prefix sum and a scatter pass. Inside
// a cell the pieces come in the order of the whole table's. It takes about 25 ns a piece:
// a few milliseconds for the largest row at h = 11, some 0.1 s at h = 13.
func (t *quarterTable) buildRow(rows uint32) tableRow {
	r := tableRow{off: make([]uint32, t.offLen(rows))}
	t.fillRow(&r, 0, rows, 0, 0, 0)
	r.pieces = make([]uint64, runStarts(r.off[1:]))
	t.fillRow(&r, 0, rows, 0, 0, 0)
	r.off[0] = 0
	return r
}

// fillRow enumerates the pieces of one row mask into a row of its own (by recursion, not
// by the whole table's lists, so that a row of h = 13 needs no scratch of its size): a
// queen on each open column of the rows in pat, none on the others; at each piece it
// advances r.off[key+1] (first pass: a count; second: the scatter position, writing the
// piece once r.pieces is allocated).
func (t *quarterTable) fillRow(r *tableRow, i int, pat uint32, cols uint32, down, up uint32) {
	h := t.h
	if i == h {
		dl, ul := down>>(h-1)&1, up>>(h-1)&1
		class := [2][2]uint32{{1, 2}, {0, 3}}[dl][ul]
		key := t.rank[cols]<<2 | class
		k := r.off[key+1]
		if r.pieces != nil {
			r.pieces[k] = uint64(down) | uint64(up)<<32
		}
		r.off[key+1] = k + 1
		return
	}
	if pat>>i&1 == 0 {
		t.fillRow(r, i+1, pat, cols, down, up)
		return
	}
	open := (uint32(1)<<h - 1) &^ (cols | down>>(h-1-i) | up>>i)
	for ; open != 0; open &= open - 1 {
		c := bits.TrailingZeros32(open)
		t.fillRow(r, i+1, pat, cols|1<<c, down|1<<(c-i+h-1), up|1<<(c+i))
	}
}

// rowCache keeps the rows of a partial table within a memory budget. Goroutines acquire
// the rows a row set needs before counting it and release them after; a row nobody holds
// stays built until the rows outgrow the budget, then the least recently acquired go
// first. Two goroutines that need one row build it once. The rows held at once can exceed
// the budget only if the rows in use alone do (four a worker).
type rowCache struct {
	mu       sync.Mutex
	t        *quarterTable
	budget   uint64
	used     uint64
	clock    uint64
	refs     []int32
	stamp    []uint64
	building []chan struct{}
	// built counts the rows built, a measure of the cache's misses.
	built uint64
}

// newRowTable returns an empty partial table of the h×h square, 1 ≤ h ≤ 14, whose rows
// may take budget bytes (more only while the rows in use need it). Its fixed part is the
// row index: about 96 bytes a row mask, 2^h of them (0.8 MiB at h = 13, 1.6 MiB at 14).
func newRowTable(h int, budget uint64) (*quarterTable, error) {
	if h < 1 || h > 14 {
		return nil, fmt.Errorf("quarter table: h must be from 1 to 14, got %d", h)
	}
	t := &quarterTable{h: h, rows: make([]tableRow, 1<<h)}
	t.setColumnLists()
	n := 1 << h
	t.cache = &rowCache{t: t, budget: budget, refs: make([]int32, n), stamp: make([]uint64, n), building: make([]chan struct{}, n)}
	return t, nil
}

// acquire makes the rows ms of a partial table built and held by the caller, who must
// release them (release) when done with them; on a whole table it does nothing. It
// returns ctx's error, holding nothing, if ctx ends while it waits for another goroutine's
// build of a row.
func (t *quarterTable) acquire(ctx context.Context, ms []uint32) error {
	c := t.cache
	if c == nil {
		return nil
	}
	for i, m := range ms {
		if err := c.acquire(ctx, m); err != nil {
			t.release(ms[:i])
			return err
		}
	}
	return nil
}

// release lets go of rows acquired by acquire.
func (t *quarterTable) release(ms []uint32) {
	c := t.cache
	if c == nil {
		return
	}
	c.mu.Lock()
	for _, m := range ms {
		c.refs[m]--
	}
	c.mu.Unlock()
}

func (c *rowCache) acquire(ctx context.Context, m uint32) error {
	c.mu.Lock()
	for {
		if c.t.rows[m].off != nil {
			c.refs[m]++
			c.clock++
			c.stamp[m] = c.clock
			c.mu.Unlock()
			return nil
		}
		ch := c.building[m]
		if ch == nil {
			break
		}
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		c.mu.Lock()
	}
	ch := make(chan struct{})
	c.building[m] = ch
	c.mu.Unlock()
	row := c.t.buildRow(m) // a fraction of a second: no need to look at ctx inside
	c.mu.Lock()
	c.evict(row.bytes())
	c.t.rows[m] = row
	c.used += row.bytes()
	c.built++
	c.building[m] = nil
	close(ch)
	c.refs[m]++
	c.clock++
	c.stamp[m] = c.clock
	c.mu.Unlock()
	return nil
}

// evict drops rows nobody holds, least recently acquired first, until need more bytes fit
// the budget or no such row is left. It scans the row index once a row dropped (2^h
// entries: microseconds against the milliseconds of building a row).
func (c *rowCache) evict(need uint64) {
	for c.used+need > c.budget {
		best := -1
		for m := range c.t.rows {
			if c.refs[m] == 0 && c.t.rows[m].off != nil && (best < 0 || c.stamp[m] < c.stamp[best]) {
				best = m
			}
		}
		if best < 0 {
			return
		}
		c.used -= c.t.rows[best].bytes()
		c.t.rows[best] = tableRow{}
	}
}

// defaultJoinLimit is the memory a join process plans for when no Go memory limit is set
// (runtime/debug.SetMemoryLimit, GOMEMLIMIT): 2 GiB, which holds the whole table to
// N = 23 and the rows that the tasks read from N = 24 on.
const defaultJoinLimit = 2 << 30

// tableFor returns the quarter table for the join of n: the whole table, shared by the
// goroutines of the process (sharedQuarterTable), where it fits the process's memory
// limit together with a worker's buffers on each of the workers the runner said in ctx
// (count.WithWorkers; every core, runtime.GOMAXPROCS, where it said none; see
// Plan.Memory); else a partial table shared the same way, whose rows are built as the
// row sets need them and take what the limit leaves (newRowTable). The limit is the Go
// runtime's soft memory limit (runtime/debug.SetMemoryLimit or GOMEMLIMIT; the command
// line sets it from --max-memory), or defaultJoinLimit if none is set.
func tableFor(ctx context.Context, n int) (*quarterTable, error) {
	limit := uint64(defaultJoinLimit)
	if l := debug.SetMemoryLimit(-1); l > 0 && l < math.MaxInt64 {
		limit = uint64(l)
	}
	workers := count.Workers(ctx)
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	whole, budget := tableBudget(n, workers, limit)
	if whole {
		return sharedQuarterTable(ctx, n/2)
	}
	return sharedRowTable(n/2, budget)
}

// tableBudget returns whether the whole quarter table of n fits limit bytes beside the
// buffers of workers workers (memoryOf, memorySlack), and else the bytes left to a
// partial table's rows. It costs a look-up.
func tableBudget(n, workers int, limit uint64) (whole bool, budget uint64) {
	table, per := memoryOf(n)
	used := uint64(max(workers, 1))*per + memorySlack
	if table+used <= limit {
		return true, 0
	}
	return false, max(limit, used) - used
}

// sharedRowTable returns the process's partial table for h, made on first use; its
// budget is the one given last. Like the whole tables, the last two are kept.
func sharedRowTable(h int, budget uint64) (*quarterTable, error) {
	quarterTables.Lock()
	defer quarterTables.Unlock()
	t, ok := quarterTables.partial[h]
	if !ok {
		var err error
		if t, err = newRowTable(h, budget); err != nil {
			return nil, err
		}
		if quarterTables.partial == nil {
			quarterTables.partial = map[int]*quarterTable{}
		}
		for k := range quarterTables.partial {
			if k != h-1 && k != h+1 {
				delete(quarterTables.partial, k)
			}
		}
		quarterTables.partial[h] = t
	}
	t.cache.mu.Lock()
	t.cache.budget = budget
	t.cache.mu.Unlock()
	return t, nil
}
