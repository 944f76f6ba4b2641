package knight

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"time"
)

// Counting by frontier dynamic programming.
//
// The board is turned so that it has R ≤ C rows, and its cells are taken column by column,
// top to bottom: cell v = c·R + r. A knight's move from v back to an earlier cell lands on
// v−R∓2 (one column back) or v−2R∓1 (two columns back), so the cells that can still get an
// edge are among the last W = 2R+1 placed: that window is the frontier. When cell v is placed,
// each subset of at most two of its edges to earlier cells is chosen (none of them joining a
// cell that already has two edges), and the rest rejected, so every edge set is built exactly
// once, cell by cell.
//
// A state is the picture of the window: for each of its W cells one value of
//
//	dpFree  no edge yet
//	dpFull  two edges (or finished: it can get no more)
//	dpLoose one edge, and the other end of its path is a finished end of an open tour
//	3, 4, … one edge; the two cells of the window with the same value are the two ends
//	        of one path fragment (labelled 3, 4, … in order of first appearance, so that
//	        equal pictures have equal codes)
//
// packed as a number in base 11 (17 cells of 11 values fit in 64 bits, since at most R ≤ 8
// fragments have both ends in the window). The dp method keeps the states of a step as
// sorted runs (count_store.go): a layer is one run of compact records (a header byte, the
// key's difference from the key before it and the count, both without leading zero bytes),
// in chunks mapped from the system and given back the moment they are read. A step reads
// the layer in key order; the states it makes from neighbouring states often meet, so they
// are first added up in a direct-mapped cache of 2^14 states, then collected in a buffer of
// 4 M records; each full buffer is radix-sorted (11-bit digits), equal keys are added up
// and it is written as a run; 8 runs of a level are merged (a tournament tree) into one of
// the next, and all runs into the next layer at the end of the step, adding the counts of
// states that meet and checking every addition for carry. Measured on 7×8 closed: 3.8–4.7
// bytes a state of a layer (3.9 on the largest, 22.5 M states after cell 39), a store peak
// of 115 MB of chunks (5.1 bytes a state of the largest layer: the layer being read and
// the runs being written overlap) plus 231 MB of buffers; 62.7 s of CPU (61.8 user + 0.9
// sys) and 602 MiB peak RSS against 83.3 s and 1.17 GiB with runs of fixed 16-byte records
// and no cache (CPU s user+sys, peak RSS from /usr/bin/time, alternated, on 2 cores under
// a load of about 6); a profile puts a third of the time in the radix sort, a third in
// expanding and packing states. The mirror join and the estimate still use the tables:
// open-addressing, 16 bytes a slot, a power of two of them filled to at most 70%, each
// step reading one and writing the other, made states added in batches so that the
// processor waits for many cache misses at once, big tables mapped on huge pages
// (dpalloc_linux.go).
//
// A cell is finished at the step of its last neighbour. For closed tours it must then have
// two edges (and a cell with d edges and fewer than 2−d neighbours still to come is given up
// at once); joining the two ends of one fragment closes a cycle, allowed only at the last
// cell, where every cell must have two edges. For open tours (Hamiltonian paths) a finished
// cell with one edge is an end of the tour: its fragment's other end becomes dpLoose, and at
// most two ends may exist (one of them reserved for the start square if one is given, which
// may have only one edge). Each path is built once as an edge set, so the number of directed
// tours is twice the number of paths (once from the start square when one is given).
//
// Counts are kept in uint64 and checked for carry; if one ever carries the count is redone
// with 128-bit counts, which are checked too, so a count is never silently wrapped.

const (
	dpFree  = 0
	dpFull  = 1
	dpLoose = 2
	dpLabel = 3
	dpBase  = 11
	// DPMaxRows is the largest short side the frontier count handles: its window holds
	// 2·DPMaxRows+1 cells, packed in 64 bits.
	DPMaxRows = 8
	dpMaxW    = 2*DPMaxRows + 1
)

// errDPWide asks for a rerun with 128-bit counts.
var errDPWide = errors.New("count needs 128-bit weights")

// MemoryError is returned when a count would need more memory than allowed.
type MemoryError struct {
	Need, Limit int64 // bytes
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("needs more than %s of memory, limit %s", FormatBytes(e.Need), FormatBytes(e.Limit))
}

// FormatBytes formats a byte count with a binary unit (KiB, MiB, GiB).
func FormatBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

// CountStatus is the state of a running count, as passed to CountOptions.Status.
type CountStatus struct {
	Method string // "dp", "join" or "search"
	Done   int    // cells placed (dp, join; for join the last step is the join) or shares counted (search)
	Total  int    // cells (dp), cells of both sweeps and one for the join (join) or shares (search) in all
	States int    // distinct states in the frontier after the last cell (dp only)
	Bytes  int64  // memory held by the state tables (dp only)
	// ETA is the expected time left for the sweeps (dp, join; the join's last step is not
	// included): Estimate's model refitted to the states after each cell so far, at the rate
	// measured so far. It is a forecast, not a bound (checked on 8×8 closed: bench/README.md).
	ETA time.Duration
}

// dpStep is what the sweep needs to know about placing one cell. Slots index the extended
// window: 0..W-1 the cells v-W..v-1, W the new cell v.
type dpStep struct {
	back  []int8 // slots of the earlier neighbours of v
	rem   [dpMaxW + 1]int8
	dying []int8 // slots whose cell has no neighbour after v (finished at this step)
	// startSlot is the slot of the start square while it is in the window, else -1;
	// startPending tells whether it is not yet finished after this step.
	startSlot    int8
	startPending bool
	// beyond marks a cell past the cut of the mirror join (count_join.go): it takes edges
	// only to cells before the cut and gets the rest later, so it is not checked here.
	beyond bool
}

type dpPlan struct {
	R, C, n, W int
	closed     bool
	steps      []dpStep
}

// newDPPlan prepares the sweep of a rows×cols board; start is a square index r*cols+c of the
// original board or -1.
func newDPPlan(rows, cols int, closed bool, start int) *dpPlan {
	R, C := rows, cols
	transposed := rows > cols
	if transposed {
		R, C = cols, rows
	}
	n := R * C
	W := 2*R + 1
	p := &dpPlan{R: R, C: C, n: n, W: W, closed: closed}
	sv := -1
	if start >= 0 && !closed {
		r, c := start/cols, start%cols
		if transposed {
			r, c = c, r
		}
		sv = c*R + r
	}
	// nb[v]: neighbours of cell v in sweep order; last[v]: the step at which v is finished.
	nb := make([][]int, n)
	last := make([]int, n)
	for v := range n {
		r, c := v%R, v/R
		last[v] = v
		for _, m := range moves {
			rr, cc := r+m[0], c+m[1]
			if rr >= 0 && rr < R && cc >= 0 && cc < C {
				u := cc*R + rr
				nb[v] = append(nb[v], u)
				last[v] = max(last[v], u)
			}
		}
	}
	p.steps = make([]dpStep, n)
	for v := range n {
		st := &p.steps[v]
		st.startSlot = -1
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
			if last[u] == v {
				st.dying = append(st.dying, int8(s))
			}
			if u == sv {
				st.startSlot = int8(s)
			}
		}
		st.startPending = sv >= 0 && last[sv] > v
	}
	return p
}

// dpTable is an open-addressing table (linear probing) of states. e holds pairs (packed
// state+1, low 64 bits of its count) side by side, so that a probe touches one cache line;
// 0 marks an empty slot. hi holds the high 64 bits of the counts, nil while counts are 64-bit.
type dpTable struct {
	e      []uint64
	hi     []uint64
	eMem   []byte // the mappings of e and hi (see dpAlloc), nil for heap slices
	hiMem  []byte
	n      int
	shift  uint
	carry  bool // a count carried out of its bits
	wide   bool
	limit  int64 // bytes allowed for this table, 0: none
	tooBig bool  // it would have had to grow past limit
	// touched sums the slots flush reads ahead, so that those reads are not optimized away
	touched uint64
}

func newDPTable(logCap uint, wide bool) *dpTable {
	t := &dpTable{wide: wide}
	t.alloc(logCap)
	return t
}

func (t *dpTable) alloc(logCap uint) {
	c := 1 << logCap
	t.e, t.eMem = dpAlloc(2 * c)
	t.hi, t.hiMem = nil, nil
	if t.wide {
		t.hi, t.hiMem = dpAlloc(c)
	}
	t.shift = 64 - logCap
	t.n = 0
}

func (t *dpTable) slotBytes() int64 {
	if t.wide {
		return 24
	}
	return 16
}

// release gives the table's memory back; the table is unusable after.
func (t *dpTable) release() {
	dpRelease(t.eMem)
	dpRelease(t.hiMem)
	t.e, t.hi, t.eMem, t.hiMem = nil, nil, nil, nil
}

func (t *dpTable) cap() int { return len(t.e) / 2 }

func (t *dpTable) bytes() int64 { return int64(t.cap()) * t.slotBytes() }

func (t *dpTable) reset() {
	clear(t.e)
	t.n = 0
	t.tooBig = false
}

// home is the slot where the search for k starts: the top bits of a full mix of k's bits
// (splitmix64's finalizer). A single multiplication, whose top bits depend little on
// the low bits of k, made clusters of thousands of slots on the states of the mirror join.
func (t *dpTable) home(k uint64) uint64 {
	k = (k ^ k>>30) * 0xBF58476D1CE4E5B9
	k = (k ^ k>>27) * 0x94D049BB133111EB
	return (k ^ k>>31) >> t.shift
}

// add adds the count (hi, lo) to the state whose packed form+1 is k.
func (t *dpTable) add(k, lo, hi uint64) {
	mask := uint64(t.cap() - 1)
	i := t.home(k)
	for {
		switch t.e[2*i] {
		case 0:
			t.e[2*i] = k
			t.e[2*i+1] = lo
			if t.wide {
				t.hi[i] = hi
			}
			t.n++
			if 10*t.n > 7*t.cap() {
				t.grow()
			}
			return
		case k:
			var c uint64
			t.e[2*i+1], c = bits.Add64(t.e[2*i+1], lo, 0)
			if t.wide {
				t.hi[i], c = bits.Add64(t.hi[i], hi, c)
			}
			if c != 0 {
				t.carry = true
			}
			return
		}
		i = (i + 1) & mask
	}
}

func (t *dpTable) grow() {
	logCap := 64 - t.shift + 1
	if t.limit > 0 && int64(1)<<logCap*t.slotBytes() > t.limit {
		t.tooBig = true
		// go on at a higher load until the step ends and reports it
		if 20*t.n < 19*t.cap() {
			return
		}
	}
	e, hi := t.e, t.hi
	eMem, hiMem := t.eMem, t.hiMem
	t.alloc(logCap)
	defer dpRelease(eMem)
	defer dpRelease(hiMem)
	for i := 0; i < len(e); i += 2 {
		if k := e[i]; k != 0 {
			var h uint64
			if hi != nil {
				h = hi[i/2]
			}
			t.insertNew(k, e[i+1], h)
		}
	}
}

func (t *dpTable) insertNew(k, lo, hi uint64) {
	mask := uint64(t.cap() - 1)
	i := t.home(k)
	for t.e[2*i] != 0 {
		i = (i + 1) & mask
	}
	t.e[2*i] = k
	t.e[2*i+1] = lo
	if t.wide {
		t.hi[i] = hi
	}
	t.n++
}

// dpOut is a state made by a step, waiting in a batch to be added to the next table.
type dpOut struct{ k, lo, hi uint64 }

// dpBatch is the number of made states added to the table together: their slots are first
// all read (so that the processor fetches those cache lines in parallel), then updated.
const dpBatch = 512

// flush adds the batch to t.
func (t *dpTable) flush(out []dpOut) {
	var x uint64
	for _, o := range out {
		x += t.e[2*t.home(o.k)]
	}
	t.touched += x
	for _, o := range out {
		t.add(o.k, o.lo, o.hi)
	}
}

// dpSweep holds the state of one run of the sweep.
type dpSweep struct {
	p          *dpPlan
	out        []dpOut
	final      bool
	total      [2]uint64 // hi, lo of the tours counted at the last cell
	totalCarry bool      // a count carried (in the total, or in the cache)
	cache      []dpOut   // made states not yet in out (the run store only; nil: none)
	cacheShift uint      // 64 less the log of len(cache)
	wide       bool      // counts of 128 bits (else a carry into hi is one)
}

func (w *dpSweep) emit(b *[dpMaxW + 1]uint8, lo, hi uint64) {
	if w.final {
		var c uint64
		w.total[1], c = bits.Add64(w.total[1], lo, 0)
		w.total[0], c = bits.Add64(w.total[0], hi, c)
		if c != 0 {
			w.totalCarry = true
		}
		return
	}
	k := dpEncodeShift(b, w.p.W) + 1
	if w.cache == nil {
		w.out = append(w.out, dpOut{k, lo, hi})
		return
	}
	// States made from states next to each other in the sorted layer (differing in the
	// cells about to leave the window) often meet: a small direct-mapped cache adds them
	// up before they reach the sort buffer.
	e := &w.cache[(k*0x9E3779B97F4A7C15)>>w.cacheShift]
	if e.k == k {
		var c uint64
		e.lo, c = bits.Add64(e.lo, lo, 0)
		e.hi, c = bits.Add64(e.hi, hi, c)
		if c != 0 || e.hi != 0 && !w.wide {
			w.totalCarry = true
		}
		return
	}
	if e.k != 0 {
		w.out = append(w.out, *e)
	}
	*e = dpOut{k, lo, hi}
}

// drain moves the states in the cache to the buffer.
func (w *dpSweep) drain() {
	for i := range w.cache {
		if e := &w.cache[i]; e.k != 0 {
			w.out = append(w.out, *e)
			e.k = 0
		}
	}
}

// count runs the sweep with the run store (count_store.go). It returns errDPWide if 64-bit
// counts carried (and wide is false).
func (p *dpPlan) count(ctx context.Context, wide bool, maxMemory int64, status func(CountStatus)) (*big.Int, error) {
	return p.countRuns(ctx, dpStoreDefault, wide, maxMemory, status)
}

// countTables runs the sweep with two hash tables (the store of the mirror join and the
// estimate, kept as the dp method's former store). It returns errDPWide if 64-bit counts
// carried (and wide is false).
func (p *dpPlan) countTables(ctx context.Context, wide bool, maxMemory int64, status func(CountStatus)) (*big.Int, error) {
	w := &dpSweep{p: p, out: make([]dpOut, 0, dpBatch+64)}
	cur, err := p.run(ctx, p.steps, 0, p.n, p.startTable(wide, maxMemory), w, maxMemory, func(v, states int, b int64) {
		if status != nil {
			status(CountStatus{Method: MethodDP, Done: v + 1, Total: p.n, States: states, Bytes: b})
		}
	})
	if err != nil {
		return nil, err
	}
	cur.release()
	r := new(big.Int).SetUint64(w.total[0])
	r.Lsh(r, 64)
	return r.Add(r, new(big.Int).SetUint64(w.total[1])), nil
}

// startTable returns a table holding the state before the first cell.
func (p *dpPlan) startTable(wide bool, maxMemory int64) *dpTable {
	cur := newDPTable(10, wide)
	if maxMemory > 0 {
		cur.limit = maxMemory / 2
	}
	var a0 [dpMaxW + 1]uint8
	for i := range a0 {
		a0[i] = dpFull
	}
	cur.add(dpEncode(&a0, p.W)+1, 1, 0)
	return cur
}

// run places the cells from..to-1 by steps on the states of cur, which it takes over, and
// returns the table of the states after them (the caller releases it; after the board's
// last cell it is empty and w.total holds the count). report, if not nil, is called after
// each cell with its index, the states made and the bytes of both tables. On an error both
// tables are released.
func (p *dpPlan) run(ctx context.Context, steps []dpStep, from, to int, cur *dpTable, w *dpSweep, maxMemory int64, report func(v, states int, bytes int64)) (*dpTable, error) {
	W := p.W
	next := newDPTable(10, cur.wide)
	if maxMemory > 0 {
		cur.limit, next.limit = maxMemory/2, maxMemory/2
	}
	fail := func(err error) (*dpTable, error) {
		cur.release()
		next.release()
		return nil, err
	}
	done := ctx.Done()
	for v := from; v < to; v++ {
		st := &steps[v]
		w.final = v == p.n-1
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		seen := 0
		for i := 0; i < len(cur.e); i += 2 {
			k := cur.e[i]
			if k == 0 {
				continue
			}
			seen++
			if seen&4095 == 0 && done != nil {
				select {
				case <-done:
					return fail(ctx.Err())
				default:
				}
			}
			var hi uint64
			if cur.wide {
				hi = cur.hi[i/2]
			}
			var a [dpMaxW + 1]uint8
			dpDecode(&a, k-1, W)
			p.expand(st, &a, w, cur.e[i+1], hi)
			if len(w.out) >= dpBatch {
				next.flush(w.out)
				w.out = w.out[:0]
			}
		}
		next.flush(w.out)
		w.out = w.out[:0]
		if cur.carry || next.carry || w.totalCarry {
			if !cur.wide {
				return fail(errDPWide)
			}
			return fail(errCountOverflow)
		}
		if next.tooBig {
			// the next table must double, and the step after reads it while writing one
			// at least as large
			need := max(cur.bytes()+2*next.bytes(), 4*next.bytes())
			return fail(&MemoryError{Need: need, Limit: maxMemory})
		}
		if report != nil {
			report(v, next.n, cur.bytes()+next.bytes())
		}
		cur, next = next, cur
		next.reset()
	}
	next.release()
	return cur, nil
}

// expand places the new cell on state a (extended window, slot W empty) in every allowed way.
func (p *dpPlan) expand(st *dpStep, a *[dpMaxW + 1]uint8, w *dpSweep, lo, hi uint64) {
	W := p.W
	capV := uint8(2)
	if int(st.startSlot) == W {
		capV = 1
	}
	// usable back neighbours: those that can take one more edge
	var nbs [4]int8
	k := 0
	for _, s := range st.back {
		x := a[s]
		if x == dpFull {
			continue
		}
		if s == st.startSlot && x != dpFree {
			continue
		}
		nbs[k] = s
		k++
	}
	// no edge
	b := *a
	b[W] = dpFree
	p.finish(st, &b, w, false, lo, hi)
	for i := 0; i < k; i++ {
		b = *a
		u := nbs[i]
		switch x := b[u]; x {
		case dpFree:
			b[u], b[W] = 15, 15
		default: // loose or label: v takes over the end
			b[u], b[W] = dpFull, x
		}
		p.finish(st, &b, w, false, lo, hi)
	}
	if capV < 2 {
		return
	}
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			b = *a
			u1, u2 := nbs[i], nbs[j]
			x1, x2 := b[u1], b[u2]
			b[W] = dpFull
			closes := false
			switch {
			case x1 == dpFree && x2 == dpFree:
				b[u1], b[u2] = 15, 15
			case x1 == dpFree:
				b[u1], b[u2] = x2, dpFull
			case x2 == dpFree:
				b[u2], b[u1] = x1, dpFull
			case x1 == dpLoose && x2 == dpLoose:
				if p.closed || !w.final {
					continue
				}
				b[u1], b[u2] = dpFull, dpFull
				closes = true
			case x1 == dpLoose || x2 == dpLoose:
				// the labelled end's partner becomes loose
				lab := x1
				if x1 == dpLoose {
					lab = x2
				}
				b[u1], b[u2] = dpFull, dpFull
				for s := 0; s <= W; s++ {
					if b[s] == lab {
						b[s] = dpLoose
					}
				}
			case x1 == x2:
				if !p.closed || !w.final {
					continue
				}
				b[u1], b[u2] = dpFull, dpFull
				closes = true
			default:
				b[u1], b[u2] = dpFull, dpFull
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

func dpDeg(x uint8) int8 {
	switch x {
	case dpFree:
		return 0
	case dpFull:
		return 2
	}
	return 1
}

// finish checks and finishes the cells of b after the edges of the new cell were chosen,
// and emits the state if it can still become a tour.
func (p *dpPlan) finish(st *dpStep, b *[dpMaxW + 1]uint8, w *dpSweep, closes bool, lo, hi uint64) {
	W := p.W
	if w.final {
		if p.closed {
			if !closes {
				return
			}
			for s := 0; s <= W; s++ {
				if b[s] != dpFull {
					return
				}
			}
			w.emit(b, lo, hi)
			return
		}
		// open: one path: every cell full but the two ends of one fragment, or one loose
		// end, or none when the last cell joined two loose ends.
		loose, labels := 0, 0
		var lab uint8
		for s := 0; s <= W; s++ {
			switch x := b[s]; x {
			case dpFree:
				return
			case dpFull:
			case dpLoose:
				loose++
			default:
				if labels > 0 && x != lab {
					return
				}
				lab = x
				labels++
			}
		}
		if closes && (loose > 0 || labels > 0) {
			return
		}
		if !closes && !(loose == 1 && labels == 0 || loose == 0 && labels == 2) {
			return
		}
		w.emit(b, lo, hi)
		return
	}
	if p.closed {
		// a cell with d edges and fewer than 2-d neighbours to come cannot be finished;
		// only the new cell and its neighbours changed.
		if !st.beyond && dpDeg(b[W])+st.rem[W] < 2 {
			return
		}
		for _, s := range st.back {
			if dpDeg(b[s])+st.rem[s] < 2 {
				return
			}
		}
		w.emit(b, lo, hi)
		return
	}
	for _, s := range st.dying {
		switch x := b[s]; x {
		case dpFree:
			return
		case dpFull:
		case dpLoose:
			// both ends of a path finished before the last cell
			return
		default:
			b[s] = dpFull
			for t := 0; t <= W; t++ {
				if b[t] == x {
					b[t] = dpLoose
				}
			}
		}
	}
	loose := 0
	if st.startPending {
		loose++
	}
	// ends: the loose ones, the start square's, and the cells that can get at most one edge
	for s := 1; s <= W; s++ {
		switch b[s] {
		case dpLoose:
			loose++
		case dpFree:
			if st.rem[s] == 1 && int8(s) != st.startSlot {
				loose++
			}
		}
	}
	if loose > 2 {
		return
	}
	w.emit(b, lo, hi)
}

// dpEncodeShift packs slots 1..W of a (the window after the step), relabelling fragments
// in order of first appearance. Digits go in two at a time (W is odd), which halves the
// chain of dependent multiplications.
func dpEncodeShift(a *[dpMaxW + 1]uint8, W int) uint64 {
	var m [16]uint8
	next := uint8(dpLabel)
	// relabel from the new end so that labels are canonical for the packed order
	label := func(x uint8) uint8 {
		if x >= dpLabel {
			if m[x&15] == 0 {
				m[x&15] = next
				next++
			}
			x = m[x&15]
		}
		return x
	}
	key := uint64(label(a[W]))
	for s := W - 1; s >= 2; s -= 2 {
		x := label(a[s])
		y := label(a[s-1])
		key = key*(dpBase*dpBase) + uint64(x)*dpBase + uint64(y)
	}
	return key
}

// dpEncode packs slots 0..W-1 of a (the initial state; no labels).
func dpEncode(a *[dpMaxW + 1]uint8, W int) uint64 {
	var key uint64
	for s := W - 1; s >= 0; s-- {
		key = key*dpBase + uint64(a[s])
	}
	return key
}

// dpDecode unpacks key into slots 0..W-1 of a: the digit of slot 0 is the least significant
// (slot s of the window after a step is slot s+1 of the extended window encoded above).
// Digits come out two at a time (W is odd).
func dpDecode(a *[dpMaxW + 1]uint8, key uint64, W int) {
	s := 0
	for ; s+1 < W; s += 2 {
		r := key % (dpBase * dpBase)
		key /= dpBase * dpBase
		a[s] = dpLow[r]
		a[s+1] = dpHigh[r]
	}
	if s < W {
		a[s] = uint8(key)
	}
}

// dpLow[r] and dpHigh[r] are the two base-11 digits of r < 121.
var dpLow, dpHigh = func() (lo, hi [dpBase * dpBase]uint8) {
	for r := range lo {
		lo[r], hi[r] = uint8(r%dpBase), uint8(r/dpBase)
	}
	return lo, hi
}()

// countDP counts tours of a rows×cols board by the frontier sweep (see the comment at the
// top of count_dp.go). start is a square index of the board or -1.
func countDP(ctx context.Context, rows, cols int, closed bool, start int, maxMemory int64, status func(CountStatus)) (*big.Int, error) {
	n := rows * cols
	if n == 1 {
		if closed {
			return new(big.Int), nil
		}
		return big.NewInt(1), nil
	}
	p := newDPPlan(rows, cols, closed, start)
	// Boards of more than 64 squares keep 128-bit counts from the start; smaller ones start
	// with 64-bit counts and are redone (rarely, if ever) when one carries.
	wide := n > 64
	r, err := p.count(ctx, wide, maxMemory, status)
	if !wide && errors.Is(err, errDPWide) {
		r, err = p.count(ctx, true, maxMemory, status)
	}
	if err != nil {
		return nil, err
	}
	if !closed && start < 0 {
		r.Lsh(r, 1)
	}
	return r, nil
}
