package frontier

import (
	"context"
	"math/big"
	"math/bits"
	"time"
)

// sweep places cells on the states of a store, one step a cell: it reads each state of the
// layer, places the cell on it in every allowed way (place.go) and writes the states made
// into the next layer; at the board's last cell it adds up the counts of the tours instead.
// Count, Join and, through them, package knight's Estimate all run it.
type sweep struct {
	p          *plan
	st         store
	out        []rec // made states not yet written
	batch      int   // write out once it holds this many
	final      bool
	total      [2]uint64            // hi, lo of the tours counted at the last cell
	totalCarry bool                 // a count carried (in the total, or in the cache)
	cache      []rec                // made states not yet in out (nil: none)
	cacheShift uint                 // 64 less the log of len(cache)
	wide       bool                 // counts of 128 bits (else a carry into hi is one)
	splits     []Split              // the states each keeps of a layer (split.go)
	noTotals   bool                 // tours finished at this cell belong to another part (split.go)
	reading    func(cell, read int) // plan.reading
}

// cutter is a store that can take a cut inside a step (spillRuns: cut.go). The sweep asks
// it after each batch read and placed.
type cutter interface {
	// cutDue reports whether a cut should be taken now.
	cutDue() bool
	// takeCut records that every state read so far is placed and its states made written.
	takeCut() error
}

// readingEvery is the least time between two calls of a sweep's reading (a variable for
// the tests).
var readingEvery = time.Second

// readBatch is the number of states read from the store at a time.
const readBatch = 256

// newSweep returns a sweep of p over st, which it starts with the one state before the
// first cell (no cell placed, the window all full).
func newSweep(p *plan, st store, wide bool) (*sweep, error) {
	w := makeSweep(p, st, wide)
	var a0 picture
	for i := range a0 {
		a0[i] = full
	}
	if p.ahead != nil {
		a0 = picture{} // the forward sweep's window: the first cells, free
	}
	if err := st.write([]rec{{encode(&a0, p.W) + 1, 1, 0}}); err != nil {
		return nil, err
	}
	if _, err := st.turn(); err != nil {
		return nil, err
	}
	return w, nil
}

// makeSweep returns a sweep of p over st, whose layer is read as it is (a layer resumed
// from disk: spill.go).
func makeSweep(p *plan, st store, wide bool) *sweep {
	batch, cacheBits := st.batch()
	// the cache holds at most a quarter of the buffer (it is drained into it)
	for cacheBits > 0 && 4<<cacheBits > batch {
		cacheBits--
	}
	w := &sweep{p: p, st: st, wide: wide, batch: batch, out: make([]rec, 0, min(1024, batch+64)), reading: p.reading}
	if cacheBits > 0 {
		w.cache = make([]rec, 1<<cacheBits)
		w.cacheShift = uint(64 - cacheBits)
		w.batch -= len(w.cache)
	}
	return w
}

// run places the cells from..to-1 by steps (p.steps, or the join's) on the layer of the
// store. report, if not nil, is called after each cell with its index, the states it left
// and the store's memory. At the board's last cell the tours are counted into w.total. It
// returns errWide if 64-bit counts carried, ErrOverflow if 128-bit ones did, the store's
// *MemoryError, or ctx.Err(): the context is checked every 4096 states read, about a
// millisecond of work, and inside the store's long merges.
func (w *sweep) run(ctx context.Context, steps []step, from, to int, report func(cell, states int, bytes int64)) error {
	p, st := w.p, w.st
	in := make([]rec, 0, readBatch)
	done := ctx.Done()
	seen := 0
	shown := time.Now() // when w.reading was last told
	ct, _ := st.(cutter)
	for v := from; v < to; v++ {
		w.final = v == p.n-1
		w.noTotals = !totalsKept(w.splits, v)
		if err := ctx.Err(); err != nil {
			return err
		}
		read := 0 // states of the layer read in this step
		for {
			in = st.read(in[:0])
			if len(in) == 0 {
				break
			}
			if err := w.place(steps, v, in); err != nil {
				return err
			}
			if ct != nil && ct.cutDue() {
				// every state read is placed: the states made go to the store before the cut
				if err := w.flush(); err != nil {
					return err
				}
				if err := ct.takeCut(); err != nil {
					return err
				}
			}
			read += len(in)
			if seen += len(in); seen >= 4096 {
				seen = 0
				if done != nil {
					select {
					case <-done:
						return ctx.Err()
					default:
					}
				}
				if w.reading != nil && time.Since(shown) >= readingEvery {
					shown = time.Now()
					w.reading(v, read)
				}
			}
		}
		if err := w.flush(); err != nil {
			return err
		}
		n, err := st.turn()
		if err != nil {
			return err
		}
		if st.carried() || w.totalCarry {
			if !w.wide {
				return errWide
			}
			return ErrOverflow
		}
		if report != nil {
			report(v, n, st.bytes())
		}
	}
	return nil
}

// place places cell v (by steps[v], or the forward sweep's step) on the states in of the
// layer read (keeping those of its part, with splits), writing the states made to the
// store whenever the buffer is full. in may be changed.
func (w *sweep) place(steps []step, v int, in []rec) error {
	p := w.p
	if w.splits != nil {
		in = keepPart(in, w.splits, v, p.W)
	}
	var s *step
	var ah *aheadStep
	if p.ahead != nil {
		ah = &p.ahead[v] // open tours: the forward sweep (the join's steps are of closed ones)
	} else {
		s = &steps[v]
	}
	for i := range in {
		var a picture
		decode(&a, in[i].k-1, p.W)
		if ah != nil {
			p.expandAhead(ah, &a, w, in[i].lo, in[i].hi)
		} else {
			p.expand(s, &a, w, in[i].lo, in[i].hi)
		}
		if len(w.out) >= w.batch {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// flush writes the made states to the store.
func (w *sweep) flush() error {
	w.drain()
	err := w.st.write(w.out)
	w.out = w.out[:0]
	return err
}

// emit records a state made by the step (or, at the last cell, a finished tour).
func (w *sweep) emit(b *picture, lo, hi uint64) {
	if w.final {
		w.addTotal(lo, hi)
		return
	}
	k := encodeShift(b, w.p.W) + 1
	if w.cache == nil {
		w.out = append(w.out, rec{k, lo, hi})
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
	*e = rec{k, lo, hi}
}

// addTotal adds the count (hi, lo) of finished tours to the total.
func (w *sweep) addTotal(lo, hi uint64) {
	if w.noTotals {
		return
	}
	var c uint64
	w.total[1], c = bits.Add64(w.total[1], lo, 0)
	w.total[0], c = bits.Add64(w.total[0], hi, c)
	if c != 0 {
		w.totalCarry = true
	}
}

// drain moves the states in the cache to the buffer.
func (w *sweep) drain() {
	for i := range w.cache {
		if e := &w.cache[i]; e.k != 0 {
			w.out = append(w.out, *e)
			e.k = 0
		}
	}
}

// result returns the tours counted at the last cell.
func (w *sweep) result() *big.Int {
	r := new(big.Int).SetUint64(w.total[0])
	r.Lsh(r, 64)
	return r.Add(r, new(big.Int).SetUint64(w.total[1]))
}
