package knight

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"strconv"
	"time"
)

// CountEstimate is what Estimate expects a count to cost.
type CountEstimate struct {
	Method string // the method Count would use
	// Cells is the number of cells (steps) of the sweep; Measured how many of them were
	// run; Exact tells whether the whole sweep was run (the figures are then measured).
	Cells, Measured int
	Exact           bool
	// PeakStates is the largest number of states after a cell, PeakBytes the memory the
	// count needs then: for dp, the run store's (dpRunPeakPerState bytes a state of the
	// largest layer, measured, and its buffers); for join, the state tables' (two tables
	// of 16 bytes a slot, 24 with 128-bit counts).
	PeakStates float64
	PeakBytes  int64
	// CPU is the expected time on one core of this machine.
	CPU time.Duration
	// How says in words how the figures were found.
	How string
}

// estimateBudget bounds the part of the sweep that Estimate runs.
const (
	estimateTime   = 3 * time.Second
	estimateStates = 4 << 20
)

// Estimate runs the first cells of the count Count would do for a rows×cols board with
// opts (for at most a few seconds and a few million states) and extrapolates its peak
// states, memory and time. For the search method it reports no figures (that method's time
// grows with the number of tours, which is not known before; it is chosen only for boards
// of at most 42 squares, counted in seconds). Errors are those of ChooseMethod.
//
// The extrapolation: the states after each column grow by a roughly constant factor on
// the way to the middle of the board, then fall as the sweep nears the far edge. Estimate
// takes the growth factor g of the last column it measured (at most 1.6 a cell, the most
// measured in the middle columns of 8×8 closed and 7×7 open) and assumes it holds up to the
// middle of the sweep (the join's second sweep, over the two middle columns, is taken to
// hold as many states as the plain sweep there, as measured on 8×8; the join of the two
// tables itself is not estimated), then assumes the second half mirrors the first. On long boards the growth slows (the frontier reaches a
// steady state after about 2R columns), so the figures are an upper guess there; they are
// capped by growing no further than column 2R. Time is the measured seconds per state read
// times the states the sweep is expected to read.
func Estimate(ctx context.Context, rows, cols int, opts CountOptions) (*CountEstimate, error) {
	return estimate(ctx, rows, cols, opts, estimateTime)
}

// estimate is Estimate with a time budget for the measured cells (0: none, only the budget
// of states; the tests use it so that their figures do not depend on the machine's speed).
func estimate(ctx context.Context, rows, cols int, opts CountOptions, budget time.Duration) (*CountEstimate, error) {
	m, err := ChooseMethod(rows, cols, opts)
	if err != nil {
		return nil, err
	}
	est := &CountEstimate{Method: m}
	if m == MethodSearch {
		est.How = "the search method's time grows with the number of tours, not known beforehand; it is chosen only on boards of at most 42 squares (seconds)"
		return est, nil
	}
	if opts.Closed && closedExists(rows, cols) != "" {
		est.Exact = true
		est.How = "no closed tour exists on this board (Schwenk's theorem): nothing to sweep"
		return est, nil
	}
	start := -1
	if opts.Start != nil {
		start = opts.Start.Row*cols + opts.Start.Col
	}
	p := newDPPlan(rows, cols, opts.Closed, start)
	R, C := p.R, p.C
	cells := p.n
	if m == MethodJoin {
		cells = R * (C/2 + 2)
	}
	est.Cells = cells
	wide := p.n > 64
	slot := int64(16)
	if wide {
		slot = 24
	}
	ctx2, cancel := context.WithCancel(ctx)
	defer cancel()
	states := make([]float64, 0, cells)
	var read float64
	t0 := time.Now()
	w := &dpSweep{p: p, out: make([]dpOut, 0, dpBatch+64)}
	prev := 1.0
	cur, err := p.run(ctx2, p.steps, 0, min(cells, p.n), p.startTable(wide, 0), w, 0, func(v, n int, _ int64) {
		states = append(states, float64(n))
		read += prev
		prev = float64(n)
		if budget > 0 && time.Since(t0) > budget || n > estimateStates {
			cancel()
		}
	})
	el := time.Since(t0)
	switch {
	case err == nil:
		cur.release()
	case errors.Is(err, errDPWide):
	case ctx.Err() == nil && errors.Is(err, context.Canceled):
	default:
		return nil, err
	}
	perState := el.Seconds() / max(read, 1)
	est.Measured = len(states)
	full := len(states) == min(cells, p.n) && err == nil
	// the expected states after each cell
	exp := make([]float64, cells)
	copy(exp, states)
	if full && m == MethodDP {
		est.Exact = true
		est.How = "measured: the whole sweep ran"
	} else {
		k := len(states)
		// per-cell growth (logarithm) over the last measured column, assumed to hold up to
		// the middle of the sweep
		lg1 := math.Log(1.6)
		if k >= R+1 {
			lg1 = math.Log(states[k-1]/max(states[k-1-R], 1)) / float64(R)
		}
		// Early columns grow much faster than the middle ones: the growth is capped at
		// 1.6 a cell, the most measured in the middle columns (8×8 closed, cells 29–37:
		// 1.58 a cell; 7×7 open, cells 20–30: 1.54).
		lg1 = min(max(lg1, 0), math.Log(1.6))
		// The window after cell v holds cells v-2R..v; the sweep from the far end sees
		// the same cut after cell n-1-v+2R, so the states peak near the middle of those.
		mid := min((p.n-1+2*R)/2, 2*R*R, cells)
		for v := k; v < cells; v++ {
			exp[v] = exp[v-1]
			if v < mid {
				exp[v] *= math.Exp(lg1)
			} else if back := p.n - 1 + 2*R - v; m == MethodDP && back < v && back >= 0 {
				exp[v] = exp[back]
			}
		}
		est.How = "extrapolated: the first " + strconv.Itoa(k) + " of " + strconv.Itoa(cells) + " cells ran; their last column's growth (at most 1.6 a cell) is assumed up to the middle of the sweep, the rest mirrored (an upper guess on long boards); time at the measured rate, and at least 0.27 µs a state read (dp) or 1 µs (join) once the states outgrow the caches"
		if m == MethodJoin {
			est.How += "; the join of the two halves is not included"
		}
	}
	var total float64
	prev = 1
	for v, s := range exp {
		if v < len(states) {
			total += prev * perState
		} else {
			// measured on 8×8 closed: about 1 µs of CPU a state read once the tables
			// are hundreds of megabytes
			total += prev * max(perState, slowState(m, prev))
		}
		prev = s
		est.PeakStates = max(est.PeakStates, s)
	}
	if full {
		est.CPU = el
	} else {
		est.CPU = time.Duration(min(total, 1e9) * float64(time.Second)) // at most 31 years
	}
	if m == MethodDP {
		est.PeakBytes = dpStoreDefault.peakBytes(est.PeakStates)
		return est, nil
	}
	need := est.PeakStates / 0.7
	if need < 1024 {
		need = 1024
	}
	slots := uint64(1) << bits.Len64(uint64(need)-1)
	est.PeakBytes = 2 * int64(slots) * slot
	return est, nil
}

// slowState is the expected seconds per state read by a step of method m that reads n
// states: the tables of the join's large steps miss the caches on nearly every probe
// (about 1 µs a state, measured on 8×8 closed); the dp method's run store reads and writes
// its runs in order and sorts in the caches (0.27 µs a state measured on 7×8 closed: 62 s
// of CPU for 234 million states read).
func slowState(m string, n float64) float64 {
	switch {
	case n <= 4e6:
		return 0
	case m == MethodDP:
		return 0.27e-6
	}
	return 1e-6
}
