package count

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight/internal/frontier"
)

// Options are the choices for Tours.
type Options struct {
	// Start, if not nil, counts only the open tours that begin on this square; it must be
	// nil when Closed is set (a closed tour passes every square).
	Start *board.Square
	// Closed counts closed tours, undirected (each cycle once, wherever it starts).
	Closed bool
	// Method is MethodAuto (""), MethodDP, MethodJoin (closed tours only) or MethodSearch.
	Method string
	// MaxMemory, if positive, bounds the bytes the state store of the dp and join methods
	// may hold (the sorted runs and their buffers of either); past it the count stops with a *MemoryError. (The join's sorted records of
	// the right half, 40 bytes a state of its first sweep, come on top.) On a board of more
	// than MaxQuickSquares squares the count also stops, with an Estimated *MemoryError,
	// once it has swept the cells Estimate would measure (about 3 CPU-seconds) if
	// Estimate's model, fitted to them, forecasts a peak past the bound; the error of a
	// store that passes the bound before then is Estimated too, with that forecast.
	MaxMemory int64
	// Spill, if not nil, keeps the layers of a dp count on this disk: the layer after each
	// cell is sealed in a file (checksummed), the sorted runs a cell makes spill to files
	// there once they pass MaxMemory less the sort buffers (about 240 MB), and a count
	// stopped anywhere resumes from its last sealed layer, or from the last cut inside the
	// cell after it (see CutEvery), when run again with the same board, options and Spill. It needs the dp method (MethodAuto takes it); MaxMemory
	// then bounds the memory instead of refusing the count. Its cost: each state of a
	// layer is compressed, written, read back and decompressed once more than in memory.
	Spill SpillDisk
	// Resumed, if not nil, is called with Spill when the count resumes from a sealed
	// layer, with the cells placed in it.
	Resumed func(cells int)
	// CutEvery, with Spill, if positive, is the longest time a step of the sweep goes on
	// without a cut: its sorted runs spill and the point reached is sealed on Spill, so
	// that a count stopped inside a step (the widest cells of 8×8 take hours each)
	// resumes there, not at the step's start. Steps take a cut whenever their runs spill
	// past MaxMemory too.
	CutEvery time.Duration
	// ResumedCut, if not nil, is called with Spill after Resumed when the count resumes
	// inside the step after the layer of cells cells placed, from its cut: with the states
	// of that layer already placed and the sorted runs kept (runs: how many; each a chain of files).
	ResumedCut func(cells, done, runs int)
	// Workers, with Spill, is the goroutines that place each cell of the sweep: each
	// expands its share of the layer read into its own sorted runs, merged as one when
	// they spill and at the cell's end (reading the layer and those merges stay in one
	// goroutine). 0 or 1: one. Layers, cuts and the count are the same for any number, so
	// a count stopped with one number resumes with another.
	Workers int
	// Progress, if not nil, is called after each share of the work is done, with the
	// number of shares done and in all (cells placed, for the dp method).
	Progress func(done, total int)
	// Status, if not nil, is called like Progress with more detail: for the dp method the
	// states in the frontier and the memory held.
	Status func(Status)
	// Reading, if not nil, is called by the dp method during each cell's step, about once
	// a second, with how far the step has read the layer before it: the steps of the
	// widest cells of 8×8 take an hour or more, in which Progress and Status are silent.
	Reading func(Reading)
}

// Reading is how far one step of a dp count has got, as passed to Options.Reading.
type Reading struct {
	Cell int // the cell being placed, from 1 (the Done of the Status after it)
	// Read is the states of the layer before the cell placed so far, those a count resumed
	// from a cut (Options.ResumedCut) had placed before it stopped included.
	Read int
	// Of is the states in that layer, or 0 where the count does not know it (the first
	// cell after resuming from a layer sealed by a build that recorded no states).
	Of int
	// Ranges, if positive, says that the step has read its layer and merges its runs on
	// disk (with Spill), Merged of Ranges ranges of keys done; Read and Of are then 0.
	Merged, Ranges int
	// ETA, if positive, is the expected time left for the count where no cell was timed
	// since it began or resumed (Status.ETA has none then: after a resume, until its first
	// cell ends): at the rate this cell reads its layer, for the rest of it and the states
	// the model expects the cells after it to read; short by the time of the merges of
	// runs on disk, which the rate leaves out. 0 otherwise, and in its first 10 s.
	ETA time.Duration
}

// SpillDisk is the directory a count with Options.Spill keeps its files in: create, open,
// rename (atomic and durable), remove, list and size files by name.
type SpillDisk = frontier.Disk

// SpillFile is a file of a SpillDisk being written.
type SpillFile = frontier.DiskFile

// ErrLayerChecksum reports a sealed layer of Options.Spill whose records do not match
// their checksum: the count refuses it (remove the directory's files to start over).
var ErrLayerChecksum = frontier.ErrLayerChecksum

// ErrCutRefused reports a cut of Options.Spill (the point a step reached, see CutEvery)
// that does not match its checksum, its count or its layer: the count refuses it (its
// message says which file to remove to count that cell from its start).
var ErrCutRefused = frontier.ErrCutRefused

// ErrOtherCount reports an Options.Spill directory that holds the layers of another count.
var ErrOtherCount = frontier.ErrOtherCount

// The counting methods of Options.Method.
const (
	MethodAuto   = "auto"   // the faster of the two for the board (see ChooseMethod)
	MethodDP     = "dp"     // frontier dynamic programming (internal/frontier)
	MethodSearch = "search" // backtracking that meets in the middle (search.go)
	MethodJoin   = "join"   // closed tours: frontier sweeps of two mirror halves, joined (internal/frontier/join.go)
)

// MaxCountSquares is the largest board the search method accepts. The dp method takes any
// board whose short side is at most DPMaxRows and whose long side is at most MaxCountLong,
// as memory allows.
const MaxCountSquares = 64

// MaxCountLong is the longest side Tours accepts (with the short side at most DPMaxRows).
const MaxCountLong = 1000

// DPMaxRows, 8, is the largest short side the dp and join methods handle: their frontier
// holds 2·DPMaxRows+1 cells, packed in 64 bits.
const DPMaxRows = frontier.MaxRows

// errCountOverflow reports a count too large for an int64.
var errCountOverflow = errors.New("count overflows a 64-bit integer")

// ChooseMethod returns the method Tours uses for a rows×cols board with opts: opts.Method
// if it names one, otherwise MethodDP, except on boards whose sides are both 5 or 6 (5×5,
// 5×6, 6×6), open or closed, and 5×7 from a start, which the search takes, and closed
// tours of oblong boards (long side even and at least 4, and longer than the short side),
// which the join takes, where it was measured about three times faster than the dp method;
// not square ones: on 8×8 the join's second sweep, through the middle columns, is the plain
// sweep where it is widest (in the hash tables it then used it would have needed more than
// 12 GiB; not measured since its sweeps run over the sorted runs), where dp counts it in
// 3.2 GiB. Boards the dp method cannot take (a short side over DPMaxRows) go
// to the search.
//
// The search's time grows with the number of tours, the dp's with the width of its
// frontier, about 5^R for a short side R. Measured by bench/kcount-auto.sh (CPU seconds,
// medians of 3 alternated runs, 27 Nov, 2-core AMD EPYC at load 3.1–4.5):
//
//	board         dp      search   search÷dp  auto
//	4×10 open     0.04    2.14     54         dp
//	5×6 open      0.10    0.02     0.20       search
//	5×7 open      0.32    0.40     1.25       dp
//	6×6 open      3.85    0.81     0.21       search
//	5×8 open      0.85    8.18     9.6        dp
//	6×7 open      19.2    minutes             dp
//	6×6 from a1   1.58    0.31     0.20       search
//	5×7 from a1   0.23    0.12     0.52       search
//	5×8 from a1   0.53    2.38     4.5        dp
//	6×6 closed    0.11    0.02     0.18       search
//	5×8 closed    0.04    0.07     1.75       join (0.01)
//	6×7 closed    0.77    0.75     0.97       dp (a tie; 109 MiB against 32)
//
// The search wins where the frontier is wide for its few tours; dp wins on every board
// with a short side of 3 or 4 that either method takes more than a few hundredths of a
// second on (the search counts their tours one by one: 3×14 open 0.58 s against 0.00),
// and on 5×7 open and larger. The full table is in bench/log/2026-11-27.md ("Issue 35 follow-up: auto
// by measurement").
func ChooseMethod(rows, cols int, opts Options) (string, error) {
	sz := board.Size{Rows: rows, Cols: cols}
	if rows < 1 || cols < 1 {
		return "", fmt.Errorf("board %d×%d: counting needs a board of at least 1×1", rows, cols)
	}
	if opts.Start != nil && !sz.Contains(*opts.Start) {
		return "", fmt.Errorf("start %s is off the %s board", sz.Numeric(*opts.Start), sz)
	}
	if opts.Start != nil && opts.Closed {
		return "", errors.New("a start square counts open tours; a closed tour passes every square")
	}
	m := opts.Method
	switch m {
	case "", MethodAuto:
		m = MethodDP
		if opts.Spill != nil {
			break // only dp spills
		}
		if searchFaster(rows, cols, opts.Start != nil) {
			m = MethodSearch
		}
		if rows*cols <= MaxCountSquares && min(rows, cols) > DPMaxRows {
			m = MethodSearch
		}
		if m == MethodDP && opts.Closed && rows != cols && frontier.JoinPossible(rows, cols) {
			m = MethodJoin
		}
	case MethodDP, MethodSearch:
	case MethodJoin:
		if !opts.Closed {
			return "", fmt.Errorf("method join counts closed tours only (add --closed, or use dp or search)")
		}
		if !frontier.JoinPossible(rows, cols) {
			return "", fmt.Errorf("board %d×%d: the join method needs a long side that is even and at least 4 and a short side of at most %d", rows, cols, DPMaxRows)
		}
	default:
		return "", fmt.Errorf("method %q: the methods are auto, dp, join and search", m)
	}
	switch {
	case opts.Spill != nil && m != MethodDP:
		return "", fmt.Errorf("method %s: only the dp method spills its layers to disk", m)
	case m == MethodSearch && rows*cols > MaxCountSquares:
		return "", fmt.Errorf("board %d×%d: the search method counts boards of at most %d squares", rows, cols, MaxCountSquares)
	case m == MethodDP && (min(rows, cols) > DPMaxRows || max(rows, cols) > MaxCountLong):
		return "", fmt.Errorf("board %d×%d: the dp method counts boards with a short side of at most %d and a long side of at most %d", rows, cols, DPMaxRows, MaxCountLong)
	}
	return m, nil
}

// searchFaster reports whether the search was measured faster than the dp method on a
// rows×cols board, counting from one start square or not (ChooseMethod's table): both
// sides 5 or 6, or 5×7 from a start.
func searchFaster(rows, cols int, start bool) bool {
	short, long := min(rows, cols), max(rows, cols)
	return short >= 5 && (long <= 6 || start && short == 5 && long == 7)
}

// Tours64 returns the exact number of knight's tours of a rows×cols board: directed open tours
// (each start and each direction counted; with opts.Start, those beginning there) or, with
// opts.Closed, undirected closed tours. A count beyond an int64 is an error; Tours returns
// it exactly.
//
// Tours uses the method ChooseMethod names. The dp method sweeps the board cell by cell,
// keeping the distinct pictures of the frontier (package internal/frontier): its time and
// memory grow with the number of those states, about 5^R for a board of R ≤ C rows, and
// hardly with the number of tours: about 0.27 µs (closed; 0.53 µs for open tours) and 4–6
// bytes a state once they outgrow the caches, so 6×8 closed (55,488,142 tours) takes a few
// seconds of CPU, 7×8 closed about a minute, 8×8 closed (13,267,364,410,532 tours;
// 7.4·10⁸ states at the widest cell) 42 minutes and 3.2 GiB, and open tours leave more states than closed ones though they are
// swept forward (ahead.go; 5×10 open about 1.6 s, 6×8 open about 35 s; 6×6 open is faster
// by the search). The join method (closed tours, long side even;
// internal/frontier/join.go) sweeps only the first half and the two middle columns and
// joins the half with its own mirror image: about a third of the dp method's time on 6×8
// and 7×8 closed. The search method enumerates the tours by backtracking on bitboards with
// dead-end pruning, meeting in the middle: the number of ways to finish a half-made path is
// stored by its visited squares and last square (search.go). Only one start square of
// each symmetry class is searched. Its time grows with the number of tours, about 0.3 µs a
// tour on 6×6: 6×6 open takes about 2 s and closed 0.03 s, 6×7 closed 1.5 s; its memory is
// at most 384 MiB. The measured figures are in bench/README.md. All run in one goroutine
// and stop with ctx.Err() when ctx is done, checked at least every few milliseconds.
// Estimate tells what a count will cost before it starts.
func Tours64(ctx context.Context, rows, cols int, opts Options) (int64, error) {
	k, err := Tours(ctx, rows, cols, opts)
	if err != nil {
		return 0, err
	}
	if !k.IsInt64() {
		return 0, errCountOverflow
	}
	return k.Int64(), nil
}

// Tours is Tours64 with a result of any size: counts of boards of more than 64 squares can
// pass 2^64 (the dp method then keeps 128-bit counts, checked for overflow).
func Tours(ctx context.Context, rows, cols int, opts Options) (*big.Int, error) {
	m, err := ChooseMethod(rows, cols, opts)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Closed && noClosedTour(rows, cols) {
		return new(big.Int), nil
	}
	start := -1
	if opts.Start != nil {
		start = opts.Start.Row*cols + opts.Start.Col
	}
	if m == MethodDP || m == MethodJoin {
		status := opts.Status
		if opts.Progress != nil {
			status = func(s Status) {
				opts.Progress(s.Done, s.Total)
				if opts.Status != nil {
					opts.Status(s)
				}
			}
		}
		if m == MethodJoin {
			return countJoin(ctx, rows, cols, opts.MaxMemory, status)
		}
		fo := frontier.Options{Closed: opts.Closed, Start: start, MaxMemory: opts.MaxMemory}
		if opts.Spill != nil {
			fo.Spill, fo.CutEvery, fo.ResumedCut, fo.Workers = opts.Spill, opts.CutEvery, opts.ResumedCut, opts.Workers
			if opts.Resumed != nil {
				fo.Resumed = func(cells int, _ []int) { opts.Resumed(cells) }
			}
		}
		var rd *readings
		if opts.Reading != nil {
			rd = newReadings(opts.Reading)
			rd.wrap(&fo)
		}
		return sweepCount(ctx, MethodDP, rows, cols, fo, status, rd)
	}
	progress := opts.Progress
	if opts.Status != nil {
		progress = func(done, total int) {
			if opts.Progress != nil {
				opts.Progress(done, total)
			}
			opts.Status(Status{Method: MethodSearch, Done: done, Total: total})
		}
	}
	k, err := countMITM(ctx, rows, cols, opts.Closed, start, progress)
	if err != nil {
		return nil, err
	}
	return big.NewInt(k), nil
}

// countDP counts tours by the dp method: the frontier sweep of the whole board over sorted
// runs (frontier.Tours). start is a square index r·cols+c or -1.
func countDP(ctx context.Context, rows, cols int, closed bool, start int, maxMemory int64, status func(Status)) (*big.Int, error) {
	return sweepCount(ctx, MethodDP, rows, cols, frontier.Options{Closed: closed, Start: start, MaxMemory: maxMemory}, status, nil)
}

// countJoin counts closed tours by the join method: the mirror join over sorted runs
// (frontier.Join).
func countJoin(ctx context.Context, rows, cols int, maxMemory int64, status func(Status)) (*big.Int, error) {
	return sweepCount(ctx, MethodJoin, rows, cols, frontier.Options{Closed: true, Start: -1, MaxMemory: maxMemory}, status, nil)
}

// sweepCount runs the frontier count of method m (MethodDP or MethodJoin), passing each
// cell's states to status with Estimate's forecast of the time left. With fo.MaxMemory set
// on a board of more than MaxQuickSquares squares it checks the memory on the way
// (memoryCheck): a count whose forecast peak passes the bound stops once Estimate would
// have measured its cells, and one whose store passes it stops then, both with an
// Estimated *MemoryError. rd, if not nil, is the readings fo's Reading passes on: it is
// given the forecast from the cell being read (sweepETA.reading) where status is given one.
func sweepCount(ctx context.Context, m string, rows, cols int, fo frontier.Options, status func(Status), rd *readings) (*big.Int, error) {
	count, cells := frontier.Count, rows*cols
	total := cells
	if m == MethodJoin {
		count, cells = frontier.Join, frontier.JoinCells(rows, cols)
		total = cells + 1 // and the join
	}
	sh := shapeOf(rows, cols, fo.Closed)
	var eta *sweepETA
	if status != nil {
		eta = newSweepETA(sh, m, cells)
		if rd != nil {
			rd.eta = func(cell, read, of int) time.Duration { return eta.reading(cell, read, of, time.Now()) }
		}
	}
	var chk *memoryCheck
	if fo.MaxMemory > 0 && rows*cols > MaxQuickSquares && fo.Spill == nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		chk = newMemoryCheck(sh, m, rows, cols, cells, fo.MaxMemory, cancel)
		defer chk.stop()
	}
	var disk frontier.DiskUse
	if fo.Spill != nil {
		fo.DiskReport = func(_ int, u frontier.DiskUse) { disk = u }
		if resumed, resumedCut := fo.Resumed, fo.ResumedCut; eta != nil {
			eta.spilling(spillStates(fo.MaxMemory))
			fo.Resumed = func(cells int, states []int) {
				eta.resume(cells, states)
				if resumed != nil {
					resumed(cells, states)
				}
			}
			fo.ResumedCut = func(cells, done, runs int) {
				eta.resumeCut(cells)
				if resumedCut != nil {
					resumedCut(cells, done, runs)
				}
			}
		}
	}
	if eta != nil || chk != nil {
		report := fo.Report // Options.Reading's, if any
		fo.Report = func(cell, states int, bytes int64) {
			if report != nil {
				report(cell, states, bytes)
			}
			if chk != nil {
				chk.after(cell, states)
			}
			if status != nil {
				status(Status{Method: m, Done: cell + 1, Total: total, States: states, Bytes: bytes, ETA: eta.after(cell, states),
					Disk: disk.Held, DiskPeak: disk.Peak, DiskFreed: disk.Freed, Spills: disk.Spills})
			}
		}
	}
	r, err := count(ctx, rows, cols, fo)
	if chk != nil && chk.over != nil {
		return nil, chk.over
	}
	var me *frontier.MemoryError
	if errors.As(err, &me) {
		if chk != nil {
			return nil, chk.stoppedAt(me)
		}
		return nil, &MemoryError{Need: me.Need, Limit: me.Limit}
	}
	return r, err
}

// memoryCheck is CheckMemory done by the count itself, so that the first cells are not
// swept twice (CheckMemory's estimate, then the count: 5×10 open took 1.8 CPU-s of
// estimate, the whole count, before its 1.9 s count; 6×12 closed 3 s before its 7). It
// keeps the states after each cell and, once the cells swept reach Estimate's budget
// (sweepShape.enough), fits Estimate's model to them once: if the peak it forecasts needs more
// than the limit, the count is cancelled and over says so. A count whose store passes the
// limit before that is refused by the same model (stoppedAt).
type memoryCheck struct {
	sh         sweepShape
	m          string
	rows, cols int
	cells      int
	limit      int64
	cancel     context.CancelFunc
	states     []float64
	t0         time.Time
	cpu0       time.Duration
	haveCPU    bool
	done       bool         // the forecast was checked
	over       *MemoryError // the forecast passed the limit
}

func newMemoryCheck(sh sweepShape, m string, rows, cols, cells int, limit int64, cancel context.CancelFunc) *memoryCheck {
	// The sweep runs in this goroutine: the thread's CPU clock times it.
	runtime.LockOSThread()
	c := &memoryCheck{sh: sh, m: m, rows: rows, cols: cols, cells: cells, limit: limit, cancel: cancel, t0: time.Now()}
	c.cpu0, c.haveCPU = threadCPU()
	return c
}

// stop unlocks the goroutine from its thread.
func (c *memoryCheck) stop() { runtime.UnlockOSThread() }

// after records that cell v left n states, and checks the forecast once the budget is spent.
func (c *memoryCheck) after(v, n int) {
	if v >= c.cells {
		return // the join of the two halves
	}
	if v < len(c.states) { // the sweep begun again with 128-bit counts
		c.states = c.states[:0]
	}
	c.states = append(c.states, float64(n))
	if c.done {
		return
	}
	spent := time.Since(c.t0)
	if cpu, ok := threadCPU(); c.haveCPU && ok {
		spent = cpu - c.cpu0
	}
	if c.sh.enough(v, n, spent, time.Since(c.t0), estimateTime) {
		c.done = true
		if need := c.need(); need > c.limit {
			c.over = &MemoryError{Need: need, Limit: c.limit, Estimated: true}
			c.cancel()
		}
	}
}

// need is the memory Estimate's model forecasts from the states so far.
func (c *memoryCheck) need() int64 {
	if len(c.states) == 0 {
		return 0
	}
	_, bytes := forecastPeak(c.sh, c.m, c.rows, c.cols, c.cells, c.states)
	return bytes
}

// stoppedAt is the error of a count whose store passed the limit (me): Estimated, with the
// forecast from the cells swept if it says more.
func (c *memoryCheck) stoppedAt(me *frontier.MemoryError) *MemoryError {
	return &MemoryError{Need: max(me.Need, c.need()), Limit: me.Limit, Estimated: true}
}

// Status is the state of a running count, as passed to Options.Status.
type Status struct {
	Method string // "dp", "join" or "search"
	Done   int    // cells placed (dp, join; for join the last step is the join) or shares counted (search)
	Total  int    // cells (dp), cells of both sweeps and one for the join (join) or shares (search) in all
	States int    // distinct states in the frontier after the last cell (dp, join)
	Bytes  int64  // memory held by the state store over the last cell (dp, join)
	// ETA is the expected time left for the sweeps (dp, join; the join's last step is not
	// included): Estimate's model refitted to the states after each cell so far, at the rate
	// measured so far. It is a forecast, not a bound (checked on 8×8 closed: bench/README.md).
	ETA time.Duration
	// With Options.Spill (dp): the bytes of the count's files on disk after the last cell,
	// the most during it, and those freed during it, and the sorted runs it spilled.
	Disk, DiskPeak, DiskFreed int64
	Spills                    int
}

// MemoryError is returned when a count would need more memory than allowed: by
// CheckMemory before it starts (Estimated, Need the estimate's peak), or by Tours when its
// store outgrows the limit (Need what it would have needed at least).
type MemoryError struct {
	Need, Limit int64 // bytes
	Estimated   bool
}

func (e *MemoryError) Error() string {
	if e.Estimated {
		return fmt.Sprintf("needs about %s of memory by its estimate, limit %s", FormatBytes(e.Need), FormatBytes(e.Limit))
	}
	return fmt.Sprintf("needs more than %s of memory, limit %s", FormatBytes(e.Need), FormatBytes(e.Limit))
}

// MaxQuickSquares is the largest board CheckMemory passes without estimating: counts of up
// to 42 squares take seconds (the longest, 6×7 open by dp, about 20 CPU-s and 608 MiB), and
// a dp or join count that outgrows opts.MaxMemory stops as soon as its store does.
const MaxQuickSquares = 42

// CheckMemory returns a *MemoryError (Estimated) if the count Tours would do for a
// rows×cols board with opts needs more than opts.MaxMemory by Estimate's forecast, so that
// a count that cannot fit is refused before it starts instead of sweeping until its store
// outgrows the bound (7 minutes for 8×8 closed). Tours makes the same check itself on the
// way, from the cells it sweeps (the same model at the same budget), so a caller that
// counts anyway need not call it first: that sweeps the first cells twice. It estimates only dp and join counts of
// more than MaxQuickSquares squares with a positive MaxMemory, running their first cells for
// at most about 3 seconds; others pass at once. Errors are those of ChooseMethod and
// ctx.Err().
func CheckMemory(ctx context.Context, rows, cols int, opts Options) error {
	m, err := ChooseMethod(rows, cols, opts)
	if err != nil {
		return err
	}
	if m == MethodSearch || rows*cols <= MaxQuickSquares || opts.MaxMemory <= 0 {
		return nil
	}
	est, err := Estimate(ctx, rows, cols, opts)
	if err != nil {
		return err
	}
	if est.PeakBytes > opts.MaxMemory {
		return &MemoryError{Need: est.PeakBytes, Limit: opts.MaxMemory, Estimated: true}
	}
	return nil
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

// StateFigures are the states a dp or join count held, summed from its Status calls: the
// figures to compare with other frontier programs (Knuth's DYNAHAM and DYNAHAMP report
// their classes the same way, summed over the vertices and at the peak).
type StateFigures struct {
	Cells    int   // cells reported (of both sweeps, for join)
	Sum      int64 // states after each cell, summed over the cells
	Peak     int   // the most states after one cell
	PeakCell int   // that cell, counting from 1 (the Done of its Status)
}

// Add takes in the figures of one Status call; calls of the search method and the join's
// last step (which reports no states) are ignored, and a sweep begun again (with 128-bit
// counts, Done back to 1) starts the figures over.
func (f *StateFigures) Add(s Status) {
	if s.Method == MethodSearch || s.Done > s.Total-1 && s.Method == MethodJoin {
		return
	}
	if s.Done == 1 {
		*f = StateFigures{}
	}
	f.Cells++
	f.Sum += int64(s.States)
	if s.States > f.Peak {
		f.Peak, f.PeakCell = s.States, s.Done
	}
}
