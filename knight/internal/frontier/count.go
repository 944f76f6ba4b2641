package frontier

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// Options are the choices of Count and Join.
type Options struct {
	// Closed counts undirected closed tours, else directed open ones (Join: closed only).
	Closed bool
	// Start is the square r·cols+c the open tours must begin on, or -1 for every square
	// (0 is the square in the corner, not "none").
	Start int
	// Ends, if not nil, are the squares (indices like Start) the open tours from Start may
	// end on: a plan's tasks split the tours of one start by their other end. It needs
	// Start; nil leaves the end free.
	Ends []int
	// Splits, if not nil, keep only one part of the states at their cells (split.go):
	// open tours only; the counts of the parts of a split sum to the count without it.
	Splits []Split
	// MaxMemory, if positive, bounds the bytes of the store; past it the count stops with
	// a *MemoryError.
	MaxMemory int64
	// Spill, if not nil, keeps the count's layers on this disk (spill.go): the layer after
	// each cell is sealed in a file, the sorted runs a cell makes spill to files once they
	// pass MaxMemory (less the sort buffers), and a count stopped anywhere resumes from
	// its last sealed layer, or from the cut after it (cut.go: see CutEvery), when run
	// again with the same Spill. Open tours and closed, not Join.
	Spill Disk
	// CutEvery, with Spill, if positive, is the longest time a step goes on without a cut
	// (cut.go): the runs in memory spill and the point reached is sealed, so that a count
	// stopped inside a step resumes there. Steps also take a cut whenever their runs spill.
	CutEvery time.Duration
	// Workers, with Spill, is the goroutines that place the cells of a step (workers.go):
	// each expands its share of the layer read into its own sorted runs, merged as one at
	// spills and at the step's end; 0 or 1 places them in the calling goroutine. The
	// layers, the cuts and the count are the same for any number.
	Workers int
	// ResumedCut, if not nil, is called with Spill after Resumed when the count resumes
	// inside the step after the layer of cells cells placed, from a cut: with the states of
	// that layer already placed and the sorted runs kept (runs: how many; each a chain of files).
	ResumedCut func(cells, done, runs int)
	// DiskReport, if not nil, is called with Spill after each cell with its index and what
	// the count holds on disk.
	DiskReport func(cell int, use DiskUse)
	// Resumed, if not nil, is called with Spill when the count resumes from a sealed
	// layer, with the cells placed in it and the states after each of those cells as the
	// count recorded them on Spill (states[i] after cell i, -1 where not recorded: layers
	// sealed by builds before main 054676b's successors record none).
	Resumed func(cells int, states []int)
	// Reading, if not nil, is called by Count during a step, about once a second (the clock
	// is looked at every 4096 states read), with the cell being placed (from 0) and the
	// states of the layer before it read so far by this process (a count resumed from a
	// cut does not read those the cut placed: see ResumedCut). A step of the middle
	// cells of 8×8 reads billions of states over an hour; Report alone says nothing then.
	Reading func(cell, read int)
	// Merging, if not nil, is called with Spill while a step merges its runs on disk (at
	// its end into the next layer, or at a cut into one run: job.go), about once a second
	// and at the end, with the cell being placed (from 0) and the ranges of keys merged so
	// far and in all. It is called from the merging goroutines, one call at a time.
	Merging func(cell, merged, ranges int)
	// Report, if not nil, is called after each cell with its index (from 0; Join reports
	// the cells of both its sweeps, then JoinCells for the join itself), the states it left
	// and the store's memory over the step.
	Report func(cell, states int, bytes int64)
}

// Count returns the number of tours of a rows×cols board whose short side is at most
// MaxRows: directed open tours (each start and each direction; with opts.Start, those
// beginning there) or, with opts.Closed, undirected closed tours. It sweeps the whole
// board once over sorted runs (runs.go), starting with 64-bit counts (128-bit ones past 64
// squares) and redoing the sweep with 128-bit counts if one carries.
//
// Its time and memory follow the states at the widest cell, about 5^R on a board of R ≤ C
// rows: about 0.27 µs (closed; 0.53 µs for open tours, swept forward) and 4–6 bytes a
// state once they outgrow the caches (see the package comment; bench/README.md has the measured figures). It stops with ctx.Err() within a
// few milliseconds of ctx being done.
func Count(ctx context.Context, rows, cols int, opts Options) (*big.Int, error) {
	n := rows * cols
	if n == 1 {
		if opts.Closed {
			return new(big.Int), nil
		}
		return big.NewInt(1), nil
	}
	if opts.Ends != nil && (opts.Closed || opts.Start < 0) {
		return nil, errors.New("frontier: Ends needs open tours from a Start")
	}
	for _, e := range opts.Ends {
		if e < 0 || e >= n {
			return nil, fmt.Errorf("frontier: end square %d is off the %d×%d board", e, rows, cols)
		}
	}
	p := newPlanEnds(rows, cols, opts.Closed, opts.Start, opts.Ends)
	if opts.Splits != nil {
		if opts.Closed {
			return nil, errors.New("frontier: Splits are of open tours")
		}
		if err := checkSplits(opts.Splits, p.n, p.W); err != nil {
			return nil, err
		}
		p.splits = opts.Splits
	}
	p.reading = opts.Reading
	if opts.Spill != nil {
		r, err := p.countSpill(ctx, opts)
		if err == nil && !opts.Closed && opts.Start < 0 {
			r.Lsh(r, 1)
		}
		return r, err
	}
	wide := n > 64
	r, err := p.count(ctx, newRuns(ctx, defaultRuns, wide, opts.MaxMemory), wide, opts.Report)
	if !wide && errors.Is(err, errWide) {
		wide = true
		r, err = p.count(ctx, newRuns(ctx, defaultRuns, wide, opts.MaxMemory), wide, opts.Report)
	}
	if err != nil {
		return nil, err
	}
	if !opts.Closed && opts.Start < 0 {
		r.Lsh(r, 1) // each path is two directed tours
	}
	return r, nil
}

// count sweeps the whole board over st, which it releases: the number of paths (open) or
// cycles (closed).
func (p *plan) count(ctx context.Context, st store, wide bool, report func(cell, states int, bytes int64)) (*big.Int, error) {
	defer st.release()
	w, err := newSweep(p, st, wide)
	if err != nil {
		return nil, err
	}
	w.splits = p.splits
	if err := w.run(ctx, p.steps, 0, p.n, report); err != nil {
		return nil, err
	}
	return w.result(), nil
}

// SpillStates is the most states a layer written by a step of Count with Spill and
// MaxMemory maxMemory (positive) is expected to hold before the step's runs spill to
// disk: the bytes its runs in memory may hold (the budget countSpill gives them:
// maxMemory less the sort buffers) at runsPeakPerState bytes a state.
func SpillStates(maxMemory int64) float64 {
	_, budget := spillRunsConfig(maxMemory)
	return float64(budget) / runsPeakPerState
}

// PeakBytes is the memory a count of a rows×cols board is expected to need when its
// largest layer holds states states: Count's runs, or Join's when join is true (the
// same runs; the right half's records, 40 bytes a state of its first sweep, come on top).
func PeakBytes(join bool, rows, cols int, states float64) int64 {
	return defaultRuns.peakBytes(states)
}
