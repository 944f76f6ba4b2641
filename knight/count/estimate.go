package count

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"time"

	"github.com/chesspuzzles/chesspuzzles/knight/internal/frontier"
)

// Forecast is what Estimate expects a count to cost.
type Forecast struct {
	Method string // the method Tours would use
	// Cells is the number of cells (steps) of the sweep (of both sweeps, for join);
	// Measured how many of them were run; Exact tells whether the whole count was run
	// (the figures are then measured).
	Cells, Measured int
	Exact           bool
	// PeakStates is the largest number of states after a cell, PeakBytes the memory the
	// count's store needs then: for dp, the sorted runs' (about 6 bytes a state of the
	// largest layer, measured, and their buffers); for join the same, its sweeps run over
	// the sorted runs too.
	PeakStates float64
	PeakBytes  int64
	// CPU is the expected time on one core of this machine.
	CPU time.Duration
	// With Options.Spill: Spills tells whether the count's widest steps pass MaxMemory, so
	// that their runs spill to disk (CPU counts those steps at the spilling rate,
	// spillCost times the rate in memory), and DiskBytes is the most its files are
	// expected to hold on the disk (spillDiskState bytes a state of the layer a step reads
	// and of the layer it writes, at the step where the two hold the most).
	Spills    bool
	DiskBytes int64
	// MemoryCPU, with Options.Spill, is what CPU would be for the count in memory.
	MemoryCPU time.Duration
	// How says in words how the figures were found.
	How string
}

// estimateBudget bounds the part of the sweep that Estimate runs.
const (
	estimateTime   = 3 * time.Second
	estimateStates = 4 << 20
)

// enough reports whether the first v+1 cells of a sweep of shape p, the last of which left n
// states, are enough for Estimate's model: budget of time spent (the thread's CPU time
// where it can be read, else the wall clock), or a layer of more than estimateStates;
// budget 0 is no budget of time. For open tours also openColumns columns measured whole
// (the model's growth comes from them), unless 20 times the budget is spent once two
// columns are (7×7 open measures its first three columns in about half a minute of CPU,
// 8×8 its first two in about two minutes: fed fewer, expectOpen grows the
// start-up column's shape) or a layer passes 16 times estimateStates. The wall clock
// bounds either only at wallGuard times the budget, against a thread that hardly runs at
// all: a bound of 200 times cut 7×7's third column short at load 12–17 (39 CPU-s in
// 764 s), and its forecast of two columns was 2.1 times the peak (1.36 times since the
// model fed two columns flattens column 1's shape).
func (p sweepShape) enough(v, n int, spent, wall, budget time.Duration) bool {
	done := budget > 0 && (spent > budget || wall > wallGuard*budget) || n > estimateStates
	if !done || !p.open || v+1 >= openColumns*p.R {
		return done
	}
	if guard := budget > 0 && wall > wallGuard*budget || n > 16*estimateStates; guard || v+1 >= 2*p.R {
		return guard || budget > 0 && spent > 20*budget
	}
	return false // two whole columns at the least
}

// wallGuard times the time budget is the most wall-clock time Estimate measures cells for
// (50 minutes at its 3 s: a minute of CPU at a thirtieth of a core).
const wallGuard = 1000

// largeMeasured is the fewest states that Estimate's cells must read past the caches
// (cells that read more than cacheStates) for their own rate to time the cells past the
// caches it forecasts: 7×7 open's first three columns read about 80 million such states,
// 8×8 open's first two about 100 million; a closed board's cells, which Estimate stops at
// a layer of estimateStates, hardly any.
const largeMeasured = 16e6

// Estimate runs the first cells of the count Tours would do for a rows×cols board with
// opts, with the same sweep and state store (for a few seconds and a few million states;
// for open tours until three columns are measured whole, at least two, and past two at
// most a minute and 64 million states: 7×7 open takes about half a minute, 8×8 about two
// minutes), and extrapolates its peak states, memory and time. For the search method it
// reports no figures (that method's time grows with the number of tours, which is not
// known before; it is chosen only for boards of sides 5 to 7 that it was measured to count
// faster than dp, in seconds).
// Errors are those of ChooseMethod.
//
// The extrapolation (expectStates; for open tours expectOpen, which works by whole
// columns): the states grow by the factor of the last column
// measured (at most 1.6 a cell) up to the middle of the sweep (the join's second sweep,
// over the two middle columns, is taken to grow like the plain sweep there, as measured on
// 8×8; the join of the two halves itself is not estimated), the level reached is held up
// to the last column, and there the states fall. On long boards the growth slows (the
// frontier reaches a steady state after about 2R columns), so the figures are an upper
// guess there; they are capped by growing no further than column 2R. Time is the measured
// seconds per state read times the states the sweep is expected to read. Checked against
// whole counts (bench/README.md): 8×8 closed, 7×7 open, 7×8 closed.
//
// With opts.Spill (only asked whether it is set: nothing is written there) the forecast
// is of a count whose layers go to disk: past opts.MaxMemory its steps spill their runs
// rather than stop (Forecast.Spills), those steps cost spillCost times the rate past the
// caches and the others spillLayers times (Forecast.MemoryCPU keeps the time in memory),
// and Forecast.DiskBytes is the disk its files need at their widest. The spilling rate
// moves with the machine's load more than the rate in memory: on the 8×8 open count it
// was 1.5 to 3 times Estimate's rate in memory (bench/log/2026-11-29-knight8x8.md,
// session 12), so that forecast is good to about a half.
func Estimate(ctx context.Context, rows, cols int, opts Options) (*Forecast, error) {
	return estimate(ctx, rows, cols, opts, estimateTime)
}

// estimate is Estimate with a time budget for the measured cells (0: none, only the budget
// of states; the tests use it so that their figures do not depend on the machine's speed).
func estimate(ctx context.Context, rows, cols int, opts Options, budget time.Duration) (*Forecast, error) {
	m, err := ChooseMethod(rows, cols, opts)
	if err != nil {
		return nil, err
	}
	est := &Forecast{Method: m}
	if m == MethodSearch {
		est.How = "the search method's time grows with the number of tours, not known beforehand; it is chosen only on 5×5, 5×6, 6×6 and from a start on 5×7, where it was measured faster than dp (seconds)"
		return est, nil
	}
	if opts.Closed && noClosedTour(rows, cols) {
		est.Exact = true
		est.How = "no closed tour exists on this board (Schwenk's theorem): nothing to sweep"
		return est, nil
	}
	start := -1
	if opts.Start != nil {
		start = opts.Start.Row*cols + opts.Start.Col
	}
	sh := shapeOf(rows, cols, opts.Closed)
	cells, count := sh.n, frontier.Count
	if m == MethodJoin {
		cells, count = frontier.JoinCells(rows, cols), frontier.Join
	}
	est.Cells = cells
	ctx2, cancel := context.WithCancel(ctx)
	defer cancel()
	states := make([]float64, 0, cells)
	var read float64 // states read by the cells measured
	t0 := time.Now()
	restarted := false
	// The rate is of the CPU time of this thread (the sweep runs in it), so that a loaded
	// machine does not inflate the forecast: at load 30 the wall clock put 8×8 closed at
	// 2.4 hours against 42 CPU-minutes measured.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, haveCPU := threadCPU()
	// spent is the time the measured cells took: the thread's CPU time where it can be
	// read (the budget too, so that a loaded machine does not cut the cells measured
	// short), else the wall clock.
	spent := func() time.Duration {
		if c, ok := threadCPU(); haveCPU && ok && !restarted {
			return c - cpu0
		}
		return time.Since(t0)
	}
	// the states read and the time spent by the cells that read more than cacheStates
	largeRead, largeSecs, lastSpent := 0.0, 0.0, time.Duration(0)
	report := func(v, n int, _ int64) {
		if v >= cells {
			return // the join of the two halves
		}
		if v < len(states) { // the sweep begun again with 128-bit counts
			states, read, t0, restarted = states[:0], 0, time.Now(), true
			largeRead, largeSecs, lastSpent = 0, 0, 0
		}
		prev := 1.0
		if v > 0 {
			prev = states[v-1]
		}
		read += prev
		now := spent()
		if prev > cacheStates {
			largeRead += prev
			largeSecs += (now - lastSpent).Seconds()
		}
		lastSpent = now
		states = append(states, float64(n))
		if sh.enough(v, n, now, time.Since(t0), budget) {
			cancel()
		}
	}
	_, err = count(ctx2, rows, cols, frontier.Options{Closed: opts.Closed, Start: start, Report: report})
	el := spent()
	switch {
	case err == nil:
	case ctx.Err() == nil && errors.Is(err, context.Canceled):
	default:
		return nil, err
	}
	perState := el.Seconds() / max(read, 1)
	est.Measured = len(states)
	full := err == nil
	exp := sh.expectStates(m, cells, states)
	if full {
		est.Exact = true
		est.How = "measured: the whole count ran"
	} else {
		est.How = "extrapolated: the first " + strconv.Itoa(len(states)) + " of " + strconv.Itoa(cells) + " cells ran; their last column's growth (at most 1.6 a cell) is assumed up to the middle of the sweep, the level reached then held to the last column, where the states fall (an upper guess on long boards); time at the measured rate, and at least 0.27 µs a state read (dp) or 1 µs (join) once the states outgrow the caches"
		if m == MethodJoin {
			est.How += "; the join of the two halves is not included"
		}
		if !opts.Closed {
			est.How = "extrapolated: the first " + strconv.Itoa(len(states)) + " of " + strconv.Itoa(cells) + " cells ran; the growth of the last column measured whole (its states summed, over the column before's), slowing column by column, is assumed up to the middle of the board (or column R-1 of a long one), that level held to the mirror column, then falling; time at the measured rate: past the caches, that of the measured cells that read past them, or 0.53 µs a state read (7×7 open, counted) where they read too few"
			if len(states) < openColumns*sh.R {
				// measured against the counted sweeps (bench/log/2026-11-29-knight8x8.md)
				est.How += "; with fewer than three columns measured whole, as here, the model is rougher: fed the first two columns of 8×8 open it put each of the cells counted after them (17–36) at 0.79 to 1.21 times, and fed 7×7's it put the peak at 1.36 times the counted one (with three columns: 0.93–1.06 times on 6×7, 6×8 and 7×7)"
			}
		}
	}
	// Past the caches the rate measured on the sorted runs' large layers is used, not the
	// small layers' measured here (8×8 closed: the first cells' rate gave 1 h 30 min), or
	// the measured cells' own past the caches where it is slower (largeRate).
	large, measured := largeRate(m, sh.open, perState, largeRead, largeSecs)
	if measured && !full {
		est.How += fmt.Sprintf("; past the caches at %.2f µs a state read, as the cells measured that read more than %.0f million states", large*1e6, cacheStates/1e6)
	}
	rates := cellRates{small: perState, large: large}
	est.PeakStates, est.PeakBytes = forecastPeak(sh, m, rows, cols, cells, states)
	cpu := func(r cellRates) time.Duration {
		if full {
			return el
		}
		total := el.Seconds() + expectSeconds(exp, len(states), r)
		return time.Duration(min(total, 1e9) * float64(time.Second)) // at most 31 years
	}
	est.CPU = cpu(rates)
	if opts.Spill != nil {
		est.MemoryCPU = est.CPU
		rates.large *= spillLayers
		rates.spilled = large * spillCost
		rates.spillStates = spillStates(opts.MaxMemory)
		est.Spills = rates.spillStates > 0 && est.PeakStates > rates.spillStates
		est.DiskBytes = spillDisk(exp)
		est.CPU = cpu(rates)
		if !full {
			est.How += fmt.Sprintf("; with its layers on disk (--spill) %.1f times that rate past the caches where a step's runs fit in memory (6×8 open at 184 MiB)", spillLayers)
			if est.Spills {
				est.How += fmt.Sprintf(", %.1f times for the steps whose runs spill (those that leave more than %.3g states): fitted to 7×7 open spilling at 220 MiB (378–468 CPU-s counted, forecast 0.8–1.15 times) and to the 8×8 open count's cells 29–31, which read 0.65 to 0.97 µs a state as the load rose, 1.5 to 3 times the rate Estimate measures in memory (0.32–0.44 µs): the spilling forecast is good to about a half, not 30 %%", spillCost, rates.spillStates)
			}
			est.How += fmt.Sprintf("; disk: %.1f bytes a state of the layer a step reads and the one it writes, at the widest step (8×8 open, cells 28–31: 1.83–1.98)", spillDiskState)
		}
	}
	return est, nil
}

// spillLayers is the CPU of a dp count with Options.Spill whose runs all fit in memory
// over that of the same count in memory, past the caches: each layer is compressed,
// written, read back and decompressed (6×8 open at 184 MiB, which spills no run: 1.19,
// 1.20 and 1.21 times at load 3–5, bench/log/2026-11-29-knight8x8.md, session 10).
const spillLayers = 1.2

// spillCost is the CPU of a step of a dp count with Options.Spill whose runs spill to
// disk (the layer it writes passes what MaxMemory holds) over the rate Estimate measures
// in memory past the caches: the runs are cut, compacted, merged from disk and written as
// the next layer, and the layers are far larger than the ones Estimate times (7×7 open in
// memory reads its cells past 2·10⁷ states 1.4 times slower than its first 21). Fitted
// (bench/log/2026-11-29-knight8x8.md, session 12) to 7×7 open spilling at 220 MiB (378–468
// CPU-s counted; forecast with 2.0 0.80–1.15 times, with 1.5 0.65–0.93, with 2.5
// 0.95–1.37) and to the 8×8 open count's cells 29, 30 and 31, which took 0.86, 0.97 and
// 0.65 µs a state read, merges included, the first two on a loaded machine: 1.5 to 3 times
// Estimate's 0.32–0.44 µs, which moves with the load too.
const spillCost = 2.0

// spillDiskState is the bytes a spilling count's files hold on its disk a state of the
// layer a step reads and of the layer it writes, at the step's widest (its runs spilled
// beside the layer it reads, the next layer's segments written as they are merged): 1.98,
// 1.95, 1.83 and 1.87 on the 8×8 open count's cells 28 to 31 (9.73, 14.16, 19.45 and 25.03
// GB at the most sampled once a minute, bench/log/2026-11-29-knight8x8.md, session 12).
const spillDiskState = 2.0

// spillDisk returns the most bytes a spilling count's files are expected to hold on its
// disk, for a sweep whose states after each cell are exp (spillDiskState).
func spillDisk(exp []float64) int64 {
	var most float64
	for v := 1; v < len(exp); v++ {
		most = max(most, exp[v-1]+exp[v])
	}
	return int64(min(most*spillDiskState, 1<<62))
}

// spillStates returns the most states a layer of a spilling count holds while its runs
// fit in maxMemory bytes (frontier.SpillStates); 0 for no limit.
func spillStates(maxMemory int64) float64 {
	if maxMemory <= 0 {
		return 0
	}
	return frontier.SpillStates(maxMemory)
}

// largeRate returns the seconds a state read that Estimate expects of the cells of method
// m's sweep (of open tours, if open) that read more than cacheStates states, given the
// measured cells' rate overall (perState) and the states read and seconds spent by those
// of them that read more than cacheStates; and whether it is their own rate. That is
// their own rate where they read at least largeMeasured states, faster or slower than
// slowState's: the machine and its load set it (7×7 open's first three columns took 26
// CPU-s at load 4, 66 at load 17: the CPU clock of a virtual machine runs on while the
// host takes the core; on a 2-core AMD EPYC with AVX-512 a 7×7 count read 0.38 µs a
// state where slowState says 0.53, and with slowState Estimate forecast 1.34 times its
// CPU). Else slowState's, at least half the rate overall.
func largeRate(m string, open bool, perState, largeRead, largeSecs float64) (float64, bool) {
	rate, measured := max(slowState(m, open, cacheStates+1), perState/2), false
	if largeRead >= largeMeasured {
		rate, measured = largeSecs/largeRead, true
	}
	return rate, measured
}

// forecastPeak returns the most states the model (expectStates) expects after a cell of
// the sweep by method m of a rows×cols board of shape sh and cells cells, from the states
// measured after its first cells, and the memory the count's store needs for them.
func forecastPeak(sh sweepShape, m string, rows, cols, cells int, measured []float64) (float64, int64) {
	var peak float64
	for _, s := range sh.expectStates(m, cells, measured) {
		peak = max(peak, s)
	}
	return peak, frontier.PeakBytes(m == MethodJoin, rows, cols, peak)
}

// sweepShape is what the model of a sweep needs of its board: the short side R, the number
// of cells n, and whether the tours are open (the forward sweep).
type sweepShape struct {
	R, n int
	open bool
}

// shapeOf returns the shape of the sweep of a rows×cols board for tours closed or not.
func shapeOf(rows, cols int, closed bool) sweepShape {
	return sweepShape{min(rows, cols), rows * cols, !closed}
}

// openLate is how the growth of the forward sweep's states slows from column to column once
// the start-up columns are past: the growth of a column (its states summed, over those of
// the column before) is that of the column before raised to openLate. Measured on the open
// boards counted whole (bench/log/2026-11-27.md, "Issue 35 items 2 and 4"): from column 2 to 3,
// 0.86 on 5×10, 0.75 on 6×7, 0.83 on 7×7.
const openLate = 0.8

// openEarly is the same for the start-up, column 1 to 2: 0.51 on 5×10, 0.52 on 6×7, 0.45 on
// 7×7. Estimate measures three columns whole where it can, so that only boards too large for
// that (8×8) use it.
const openEarly = 0.5

// openFlat is how much of column 1's shape (the log of each cell's states over the
// column's) column 2 keeps, in the model fed two columns: on 8×8 open column 1's first
// seven cells spread over a factor of 149, column 2's over 9.9 (0.46 of the log).
const openFlat = 0.5

// openLast is how much of its column's log growth a column's last cell keeps, in the
// model fed two columns (the start-up column's last cell grows far more: 241 times on 8×8
// open, whose column 1 grew 364 times): 8×8 open's cells 24 and 32 kept 0.69 and 0.79.
const openLast = 0.7

// openColumns is how many columns of an open board Estimate measures whole when it can:
// the growth of columns 1 and 2 is the start-up's (column 1 grows 23 to 221 times, column
// 2 5 to 11 times on the boards counted), from column 3 on it slows by openLate.
const openColumns = 3

// openFallEnd is where the forward sweep's states fall once past the columns that grow and
// the level held: the log of a cell's states over those of the cell a column before falls
// cell by cell, evenly, from its value at the cell before the fall to openFallEnd at the
// first falling column's last cell, and on by the same step. On the open boards counted
// whole that column's last cell held 0.12–0.21 of the cell a column before (5×7, 5×8, 6×7,
// 6×8: e^−2.0, e^−2.15, e^−1.6, e^−1.8), and its first cells far more (0.6–2.0: on 8×8 cell
// 41 held 0.82 of cell 33); −2.2 puts the states of the falling cells, summed, at 0.86–1.18
// times the counted on those four boards, fed three columns, four, or every cell up to the
// fall (testdata/known-cells-open.txt); a cell alone may be twice off where a 5-row board's
// states collapse within a cell. A rule of 0.3 a column from the first falling cell on put
// 8×8's cell 41 at 0.33 times the counted.
const openFallEnd = -2.2

// halfFirst is how much of a whole column's log growth the half column (openGrowth) keeps
// at its first cell, and halfFall how much less each cell after it keeps: its first cells
// grow nearly as a whole column, its last ones not at all (they lose states). Fitted cell
// by cell on the half columns counted (bench/log/2026-11-29-knight8x8.md, "Session 6" and
// "Session 8"): 5×8 open kept 0.84, 0.62, 0.59, 0.52 and −0.08 of the model's growth, 6×8
// 0.79, 0.66, 0.46, 0.37, 0.29 and 0.02, 8×8 (cells 33–36) 0.85, 0.74, 0.54 and 0.39; the
// model 0.8, 0.67, 0.54, 0.41, 0.28, 0.15, … A fall by a fraction of the column instead
// (from 0.8 to 0.3 at its last cell, fitted on 5×8 and 6×8) kept 0.66 at 8×8's cell 36,
// whose states it put at 1.43 times the counted.
const (
	halfFirst = 0.8
	halfFall  = 0.13
)

// openGrowth returns where the model of the forward sweep of an R×C board (R ≤ C) stops
// growing: the first cell past the columns that grow, and whether the last of them is a
// half column, whose log growth falls from halfFirst of a whole column's at its first cell
// by halfFall a cell. The columns grow up to the middle, column (C−1)/2, and no
// further than column R−1 on long boards (the frontier's steady state); on a board with an
// even C the column C/2, just past the middle, grows too, but by about half: 5×8 and 6×8
// open peak in column 4, column 4 holding 1.7 times the states of column 3 where column 3
// held 4.0 and 5.4 times those of column 2.
func openGrowth(R, C int) (stop int, half bool) {
	last := min((C-1)/2, R-1)
	if C%2 == 0 && C/2 <= R-1 {
		last, half = C/2, true
	}
	return (last + 1) * R, half
}

// openFall returns the first cell of an open sweep's fall (openFallEnd): the growth stops
// at openGrowth's cell, and the level reached is held up to the mirror of it.
func (p sweepShape) openFall() int {
	stop, _ := openGrowth(p.R, p.n/p.R)
	return max(stop, p.n-stop)
}

// expectOpen is expectStates for open tours, swept forward (knight/internal/frontier's
// ahead.go), whose states peak near the middle of the board, or once the frontier is in
// its steady state on long boards (5×10 and 5×14 open peak in column 4, 6×6 in column 2,
// 6×7 and 7×7 in 3, 5×8 and 6×8 in 4). The model works by whole columns, so that it does
// not swing with the cells of a column measured: each cell after the measured ones holds
// the states of the cell a column before times the growth of its column, the last growth
// measured whole (of the states summed over a column) raised to openLate once a column,
// up to the columns openGrowth gives (the half column's growth falling along it); a
// column's last cell, where the states fall on every board (8×8 open: cell 32 held 0.39 of
// cell 31), grows by its own growth instead, the last cell's of the last column measured
// over the one a column before, raised to openLate once a column (cell 32 of 8×8 forecast
// 1.51 times the counted by the column's growth, 0.82 times by its own); the level
// reached is held up to the mirror column, from where the states fall (openFallEnd). With
// only two columns measured whole the first growth is column 1's raised to openEarly; with
// fewer, that of the last R cells measured, at most 1.6 a cell, slowing by openLate a column.
func (p sweepShape) expectOpen(cells int, measured []float64) []float64 {
	R := p.R
	C := p.n / R
	exp := make([]float64, cells)
	k := copy(exp, measured)
	if k == 0 || k == cells {
		return exp
	}
	stop, half := openGrowth(R, C)
	fall := p.openFall()
	colSum := func(c int) float64 {
		var s float64
		for _, x := range exp[c*R : (c+1)*R] {
			s += x
		}
		return max(s, 1)
	}
	whole := k / R // columns measured whole
	var lg float64 // the log of the growth of the column after the last measured whole
	switch {
	case whole >= 3:
		lg = math.Log(colSum(whole-1)/colSum(whole-2)) * openLate
	case whole == 2:
		lg = math.Log(colSum(1)/colSum(0)) * openEarly
	default:
		lg = float64(R) * math.Log(1.6)
		if k >= R+1 {
			lg = math.Log(exp[k-1] / max(exp[k-1-R], 1))
		}
		lg = min(lg, float64(R)*math.Log(1.6))
	}
	lg = max(lg, 0)
	lastLg := lg // the same for a column's last cell, by its own growth
	switch {
	case whole >= 3:
		lastLg = math.Log(exp[whole*R-1]/max(exp[(whole-1)*R-1], 1)) * openLate
	case whole == 2:
		lastLg = math.Log(exp[2*R-1]/max(exp[R-1], 1)) * openEarly
	}
	lastLg = max(lastLg, 0)
	// With two columns measured whole, column 2's cells but its last hold column 1's
	// states but its last's, grown by the column's growth, shared in column 1's shape
	// flattened by openFlat, and its last cell grows by openLast of that growth (grown
	// from column 1 cell by cell, 8×8 open's column 2 held 0.1–0.5 of the counted in its
	// first cells, 1.6–3 times in its last).
	var flat []float64
	if whole == 2 && 3*R <= stop && !(half && 2*R >= stop-R) {
		flat = make([]float64, R-1)
		var sum, weights float64
		for i := range flat {
			flat[i] = math.Pow(max(exp[R+i], 1), openFlat)
			weights += flat[i]
			sum += exp[R+i]
		}
		for i := range flat {
			flat[i] *= sum * math.Exp(lg) / weights
		}
		lastLg = lg * openLast
	}
	level := 0.0
	var r0, step float64 // the fall's: the log share of the cell before it, and its step a cell
	falling := false
	for v := k; v < cells; v++ {
		switch {
		case v < stop:
			if v < R {
				exp[v] = exp[v-1] * 1.6 // no column before yet
				continue
			}
			if flat != nil && v/R == 2 && v%R < R-1 {
				exp[v] = flat[v%R]
				continue
			}
			cols := v/R - whole // columns past the one after the last measured whole
			g := lg
			if v%R == R-1 {
				g = lastLg
			}
			g *= math.Pow(openLate, float64(cols))
			if half && v >= stop-R {
				g *= halfFirst - halfFall*float64(v%R)
			}
			exp[v] = max(exp[v-R], 1) * math.Exp(g)
		case v < fall:
			if level == 0 {
				for _, x := range exp[max(0, v-R):v] {
					level = max(level, x)
				}
			}
			exp[v] = level
		case v < R:
			exp[v] = exp[v-1] * 0.3
		default:
			if !falling {
				falling = true
				if fall > R {
					r0 = math.Log(max(exp[fall-1], 1) / max(exp[fall-1-R], 1))
				}
				step = (openFallEnd - r0) / float64(R)
			}
			r := r0 + step*float64(v-fall+1)
			exp[v] = max(exp[v-R]*math.Exp(r), 1)
		}
	}
	return exp
}

// expectStates returns the states expected after each of the first cells cells of p's
// sweep by method m, given the states measured after the first len(measured) of them
// (at least one): the measured ones, then Estimate's model. The model: the states grow by
// the factor of the last measured column (at most 1.6 a cell, the most measured in the
// middle columns: 8×8 closed cells 29–37 1.58 a cell, 7×7 open cells 20–30 1.54) up to
// the middle of the sweep (the window after cell v holds cells v−2R..v, and the sweep from
// the far end sees the same cut after cell n−1−v+2R, so the states peak near the middle of
// those, but on long boards growth stops once the frontier is in its steady state, taken
// as 2R columns); from there the largest level of the last column measured or reached is
// held up to the board's last column (dp: 8×8 closed peaks at cell 45 of 64 and is still
// at 5.9·10⁸ states at cell 53; 7×7 open peaks at cell 40 of 49), where the tours close
// and the states fall about four times a cell from the last cell of the column before
// (8×8 closed: 4.8·10⁸ after cell 54, 1.3·10⁸ after 55, … 6.9·10⁶ after 58; 7×8 closed
// reads its last 8 cells in 3 s of 58). The join's sweeps end at the middle of the
// board: they only grow.
func (p sweepShape) expectStates(m string, cells int, measured []float64) []float64 {
	if p.open {
		return p.expectOpen(cells, measured)
	}
	R := p.R
	exp := make([]float64, cells)
	k := copy(exp, measured)
	if k == 0 || k == cells {
		return exp
	}
	lg := math.Log(1.6)
	if k >= R+1 {
		lg = math.Log(exp[k-1]/max(exp[k-1-R], 1)) / float64(R)
	}
	lg = min(max(lg, 0), math.Log(1.6))
	mid := min((p.n-1+2*R)/2, 2*R*R, cells)
	level := -1.0
	for v := k; v < cells; v++ {
		switch {
		case v < mid:
			exp[v] = exp[v-1] * math.Exp(lg)
		case m == MethodDP && v >= p.n-R-1:
			exp[v] = max(exp[v-1]/4, 1)
		default:
			if level < 0 {
				for _, x := range exp[max(0, v-R):v] {
					level = max(level, x)
				}
			}
			exp[v] = level
		}
	}
	return exp
}

// cellRates are the seconds a state read that the cells of a sweep take: small for the
// cells that read at most cacheStates states (in the caches), large for the others, and
// spilled for those of a spilling count whose own layer passes spillStates (their runs
// spill to disk; spillStates 0: none do).
type cellRates struct {
	small, large, spilled, spillStates float64
}

// of returns the rate of the cell that reads prev states and leaves n.
func (r cellRates) of(prev, n float64) float64 {
	switch {
	case prev <= cacheStates:
		return r.small
	case r.spillStates > 0 && n > r.spillStates:
		return r.spilled
	}
	return r.large
}

// expectSeconds returns the CPU seconds expected for the cells from..len(exp)-1 of a sweep
// whose states after each cell are exp: each cell reads the states of the one before, at
// its rate of r.
func expectSeconds(exp []float64, from int, r cellRates) float64 {
	var total float64
	for v := max(from, 0); v < len(exp); v++ {
		prev := 1.0
		if v > 0 {
			prev = exp[v-1]
		}
		total += prev * r.of(prev, exp[v])
	}
	return total
}

// sweepETA gives a sweep's expected time left after each cell: Estimate's model refitted
// to the states measured so far, at the rates measured so far (of the cells that read at
// most cacheStates states, and of those that read more: until one has, Estimate's
// slowState). It costs O(cells) a cell.
type sweepETA struct {
	p      sweepShape
	m      string
	cells  int
	t0     time.Time
	last   time.Time
	states []float64
	// states read and seconds spent by the cells that read at most cacheStates states, and
	// by those that read more
	smallRead, smallSecs, largeRead, largeSecs float64
	// the cell whose reading rate is measured (reading: -1 none), and its states read and
	// the time at the first call of it
	readCell int
	read0    int
	readT0   time.Time
	// cutCell is the cell the count resumed inside from a cut (resumeCut; -1: none).
	cutCell int
	// spill tells that the count's layers go to disk (Options.Spill); spillStates is the
	// most states a layer holds with its runs in memory (0: any, none spills); spillRead
	// and spillSecs are the states read and seconds spent by the cells measured whose
	// layers pass it.
	spill                             bool
	spillStates, spillRead, spillSecs float64
}

func newSweepETA(p sweepShape, m string, cells int) *sweepETA {
	now := time.Now()
	return &sweepETA{p: p, m: m, cells: cells, t0: now, last: now, states: make([]float64, 0, cells), readCell: -1, cutCell: -1}
}

// spilling sets e for a count whose layers go to disk and whose runs spill past a layer of
// states states (0: never).
func (e *sweepETA) spilling(states float64) {
	e.spill, e.spillStates = true, states
}

// after records that cell v (the next one, counting from 0) left n states and returns the
// expected time left for the rest of the sweep; 0 once it is done.
func (e *sweepETA) after(v, n int) time.Duration {
	if v == 0 && len(e.states) > 0 { // the sweep begun again with 128-bit counts
		spill, spillStates := e.spill, e.spillStates
		*e = *newSweepETA(e.p, e.m, e.cells)
		e.spill, e.spillStates = spill, spillStates
	}
	if v != len(e.states) { // not the next cell: no model
		return 0
	}
	now := time.Now()
	secs := now.Sub(e.last).Seconds()
	if v == 0 {
		secs = now.Sub(e.t0).Seconds()
	}
	e.last = now
	prev := 1.0
	if v > 0 {
		prev = e.states[v-1]
	}
	switch {
	case math.IsNaN(prev): // resumed from a layer of unknown size: no rate
	case v == e.cutCell:
		// resumed inside this cell from a cut: its time is the rest of its layer read and
		// the merge of the whole step's runs, not a rate of its layer (8×8 open, resumed
		// in cell 30 from a cut at 90.8 %: its layer over its time put the count's rate at
		// ten times the cells' before)
	case prev <= cacheStates:
		e.smallRead += prev
		e.smallSecs += secs
	case e.spillStates > 0 && float64(n) > e.spillStates:
		e.spillRead += prev
		e.spillSecs += secs
	default:
		e.largeRead += prev
		e.largeSecs += secs
	}
	e.states = append(e.states, float64(n))
	if len(e.states) >= e.cells || e.smallRead+e.largeRead+e.spillRead == 0 {
		return 0 // done, or no cell timed (the cell being read gives the forecast: reading)
	}
	left := expectSeconds(e.p.expectStates(e.m, e.cells, e.states), len(e.states), e.rates())
	if math.IsNaN(left) { // the model needs states of cells not recorded
		return 0
	}
	return time.Duration(min(left, 1e9) * float64(time.Second))
}

// rates returns the rates of the cells measured: the cells that read at most cacheStates
// states at their own; the others at those of the cells measured past the caches
// (slowState's until one is), and in a spilling count the cells whose layers pass
// spillStates at their own, or until one is measured the others' times spillCost over
// spillLayers (the others' layers went to disk too); where
// no cell in the caches was timed (since a resume), those at the rate of the others.
func (e *sweepETA) rates() cellRates {
	r := cellRates{small: e.smallSecs / max(e.smallRead, 1), spillStates: e.spillStates}
	r.large = max(r.small, slowState(e.m, e.p.open, cacheStates+1))
	if e.largeRead > 0 {
		r.large = e.largeSecs / e.largeRead
	}
	// the cells timed past the caches with their layers on disk already (spillLayers)
	r.spilled = r.large * spillCost / spillLayers
	if e.spillRead > 0 {
		r.spilled = e.spillSecs / e.spillRead
		if e.largeRead == 0 {
			r.large = r.spilled * spillLayers / spillCost
		}
	}
	if e.smallRead == 0 { // none timed since a resume: the last cells' at the others' rate
		r.small = r.large
	}
	return r
}

// resumeCut notes that the count, resumed after cells cells (resume), resumes inside the
// next one from a cut: that cell then reads only the part of its layer after the cut, and
// merges the runs of the whole step, so after takes no rate from it.
func (e *sweepETA) resumeCut(cells int) {
	e.cutCell = cells
}

// resume starts e again at a count resumed after cells cells, whose states after each
// cell were recorded as states (-1: not recorded). The model is refitted to those. A cell
// not recorded between two that are (a layer sealed by an older build: cell 27 of the 8×8
// count) is taken as their geometric mean, for the model only: on 8×8 open the cells
// 16–30 recorded between two recorded are 0.74–1.38 times that mean of their neighbours,
// about the model's own error. Where the model needs a cell not recorded otherwise, it
// gives no forecast until the cells counted since hold what it needs (for open boards,
// two whole columns after the first whole one counted).
func (e *sweepETA) resume(cells int, states []int) {
	now := time.Now()
	e.t0, e.last = now, now
	e.smallRead, e.smallSecs, e.largeRead, e.largeSecs = 0, 0, 0, 0
	e.spillRead, e.spillSecs, e.cutCell = 0, 0, -1
	e.states = e.states[:0]
	known := func(i int) bool { return i >= 0 && i < min(cells, len(states)) && states[i] >= 0 }
	for i := range cells {
		x := math.NaN()
		switch {
		case known(i):
			x = float64(states[i])
		case known(i-1) && known(i+1):
			x = math.Sqrt(float64(states[i-1]) * float64(states[i+1]))
		}
		e.states = append(e.states, x)
	}
}

// reading returns the expected time left for the sweep at now, while cell v (the next
// one, from 0) has read read of the of states of its layer, where no cell was timed since
// the sweep began or resumed: after a resume, the Status after each cell has no forecast
// until the first cell ends (an hour at 8×8's cell 30), nor after a cell resumed inside
// from a cut (after). It takes the rate at which this cell reads its layer (the states
// read since the first call for it, over the time since, once readingMin has passed) for
// the rest of the layer and for the states the model expects the cells after it to read
// (refitted to the states recorded, as after). In a spilling count (spilling) that rate
// leaves out the merge of the step's runs at its end, a share spillMerge of a step past
// the caches: the forecast adds this step's merge and takes the cells after it at the
// rate with their merges. It returns 0 where it cannot tell: a cell timed since the
// resume (the Status's forecast holds), a cell out of order, a layer of unknown size, too
// little reading seen, or a model that needs states not recorded.
func (e *sweepETA) reading(v, read, of int, now time.Time) time.Duration {
	if e.smallRead+e.largeRead+e.spillRead > 0 || v != len(e.states) || v >= e.cells || of <= 0 {
		return 0
	}
	if v != e.readCell {
		e.readCell, e.read0, e.readT0 = v, read, now
		return 0
	}
	secs, n := now.Sub(e.readT0).Seconds(), float64(read-e.read0)
	if secs < readingMin.Seconds() || n <= 0 {
		return 0
	}
	rate := secs / n // seconds a state read
	step, merge := rate, 0.0
	if e.spill && float64(of) > cacheStates {
		step = rate / (1 - spillMerge)
		merge = float64(of) * (step - rate)
	}
	exp := e.p.expectStates(e.m, e.cells, e.states)
	left := float64(max(of-read, 0))*rate + merge + expectSeconds(exp, v+1, cellRates{small: step, large: step, spilled: step})
	if math.IsNaN(left) {
		return 0
	}
	return time.Duration(min(left, 1e9) * float64(time.Second))
}

// spillMerge is the share of a spilling step's time (past the caches) that the merge of
// its runs into the next layer takes at the step's end, after its layer is read (the
// compactions of its run files inside the step fall within the reading). Measured on the
// 8×8 open count (bench/log/2026-11-29-knight8x8.md, session 12): cell 31 read its layer
// in about 3,790 CPU-s and merged its runs in 396 (0.095; 4.5 of its 58 minutes of wall
// clock), cell 30 merged in about 420 of about 4,030.
const spillMerge = 0.1

// readingMin is the least time a cell's reading is watched before its rate is taken
// (sweepETA.reading).
const readingMin = 10 * time.Second

// cacheStates is the most states a layer holds while its steps run in the caches.
const cacheStates = 4e6

// slowState is the expected seconds per state read by a step of method m (of open tours,
// if open: the forward sweep) that reads n states: the sorted runs of both methods are
// read and written in order and sorted in the caches (0.27 µs a state measured on 7×8
// closed: 62 s of CPU for 234 million states read). The forward sweep of open tours
// places a cell in more ways and makes more states a state read: 0.53 µs (7×7 open,
// counted whole at load 2–5: 419 CPU-s for 798 million states summed over its cells, 27
// Nov; with 0.27 µs Estimate forecast 4 min 8 s of it, 0.59 of the count's 7.0 min). (The
// hash tables the join used before issue 35 missed the caches on nearly every probe:
// about 1 µs a state.)
func slowState(m string, open bool, n float64) float64 {
	switch {
	case n <= cacheStates:
		return 0
	case m == MethodDP && open:
		return 0.53e-6
	case m == MethodDP || m == MethodJoin:
		return 0.27e-6
	}
	return 1e-6
}
