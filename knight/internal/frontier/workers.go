package frontier

import (
	"context"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"
)

// A spilling count with Options.Workers above one places each step by that many goroutines
// (runWorkers). The layer read comes from its file in rounds of records; the workers take
// pieces of a round as they come free and expand them, each into its own sweep (buffer,
// cache of made states, tours finished) and its own sorted runs in memory (spillRuns.all),
// which it sorts and merges by itself; when every piece of the round is placed, the
// goroutine that reads gathers the workers' tours finished and carries, and looks whether a
// cut is due. A cut (cut.go) is taken only there, at the end of a round that every worker
// has passed: the states made from the records of the layer read before it are all in the
// runs, and none of later ones, as a cut of one worker says. The runs of all the workers
// are merged as the runs of one at each spill and at the step's end, so the run files,
// layers and cuts are those of one worker: a count may be stopped with one number of
// workers and resumed with another.
//
// Rounds hold half a worker's sort buffer of records for each worker (at most 2^18 each):
// a worker that sorts its full buffer in a round leaves the others pieces to take. Pieces are
// of readBatch records. What is not shared: reading and decompressing the layer, and the
// merges of the runs into files at spills and at the step's end (the merges a step
// makes in memory are each worker's own).
//
// Cost: the same work as one worker, and a round's records (24 bytes each) held at once; the
// runs in memory may pass their budget by what the workers make from one round, as the
// budget is looked at between rounds.

// roundRecs returns the records of the layer read in a round of the workers and in a piece.
func (s *spillRuns) roundRecs() (round, piece int) {
	per := min(max(s.mem.cfg.bufRecs/2, 16), 1<<18)
	return per * len(s.all), min(readBatch, per)
}

// runWorkers is run (sweep.go) with the steps placed by one goroutine for each of the
// runs in memory of s (s.all), as described above; w holds the tours finished of the whole
// count and is the sweep the store's cuts and checks of carries read.
func (w *sweep) runWorkers(ctx context.Context, s *spillRuns, from, to int, report func(cell, states int, bytes int64)) error {
	p := w.p
	ws := make([]*sweep, len(s.all))
	for i, m := range s.all {
		ws[i] = makeSweep(p, m, w.wide)
		ws[i].splits = w.splits
	}
	size, piece := s.roundRecs()
	round := make([]rec, 0, size)
	shown := time.Now() // when w.reading was last told
	for v := from; v < to; v++ {
		w.final = v == p.n-1
		w.noTotals = !totalsKept(w.splits, v)
		for _, x := range ws {
			x.final, x.noTotals = w.final, w.noTotals
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		read := 0 // states of the layer read in this step
		for {
			round = s.read(round[:0])
			if len(round) == 0 {
				break
			}
			var next atomic.Int64
			err := together(len(ws), func(i int) error {
				for {
					j := int(next.Add(int64(piece))) - piece
					if j >= len(round) {
						return nil
					}
					if err := ws[i].place(p.steps, v, round[j:min(j+piece, len(round))]); err != nil {
						return err
					}
				}
			})
			if err != nil {
				return err
			}
			w.gather(ws)
			if s.overBudget(ws) {
				s.due = true // as spillRuns.write says for one worker
			}
			if s.cutDue() {
				// every state read is placed: the states made go to the runs before the cut
				if err := together(len(ws), func(i int) error { return ws[i].flush() }); err != nil {
					return err
				}
				if err := s.takeCut(); err != nil {
					return err
				}
			}
			read += len(round)
			if err := ctx.Err(); err != nil {
				return err
			}
			if w.reading != nil && time.Since(shown) >= readingEvery {
				shown = time.Now()
				w.reading(v, read)
			}
		}
		if err := together(len(ws), func(i int) error { return ws[i].flush() }); err != nil {
			return err
		}
		w.gather(ws)
		n, err := s.turn()
		if err != nil {
			return err
		}
		if s.carried() || w.totalCarry {
			if !w.wide {
				return errWide
			}
			return ErrOverflow
		}
		if report != nil {
			report(v, n, s.bytes())
		}
	}
	return nil
}

// gather adds the tours the workers ws finished into w's, and notes their carries; the
// workers' counts start again from zero.
func (w *sweep) gather(ws []*sweep) {
	for _, x := range ws {
		var c uint64
		w.total[1], c = bits.Add64(w.total[1], x.total[1], 0)
		w.total[0], c = bits.Add64(w.total[0], x.total[0], c)
		if c != 0 || x.totalCarry {
			w.totalCarry = true
		}
		x.total, x.totalCarry = [2]uint64{}, false
	}
}

// overBudget reports whether the runs in memory of the workers, with the states they have
// made and not yet written, pass the store's budget (and some runs can spill).
func (s *spillRuns) overBudget(ws []*sweep) bool {
	if !s.pending() {
		return false
	}
	var held int64
	for i, m := range s.all {
		held += m.held + int64(len(ws[i].out)+len(ws[i].cache))*recMax
	}
	return held > s.budget
}

// together runs f(0), …, f(n-1) at once, f(0) in the calling goroutine, and returns the
// first error of them (by index) once all have returned.
func together(n int, f func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 1; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f(i)
		}()
	}
	errs[0] = f(0)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
