package main

import (
	"fmt"
	"io"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/progress"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// countProgress shows the progress of a knight count through internal/progress, as every
// long command does: a bar on a terminal, a plain line every 5 seconds otherwise:
// "knight count: 20/36 cells, 55.6%, 4.5 cells/s, ETA 3s, 10433 states, 1.2 MiB".
type countProgress struct {
	w   io.Writer
	tty bool
	t0  time.Time
	m   *progress.Meter // made at the first status, which names the method's unit
	// disk, if not "", is the --spill directory: the lines then give the bytes of the
	// count's files there, those freed over the last cell, and the bytes free.
	disk spillDir
	// from is the cells placed in the layer a count resumed from (the rate is of the cells
	// placed since, from t0). cut is set while the count, resumed inside cell from+1 from
	// its cut, has not sealed that cell: a part of a cell is not a cell, so the rate starts
	// again (from and t0) once it seals.
	from int
	cut  bool
	// total is the cells of the sweep (dp), for the lines inside a cell (reading) that may
	// come before any Status; last is the last Status shown and lastAt when.
	total  int
	last   progress.Status
	lastAt time.Time
	// every is the time between plain lines (0: progress.Every).
	every time.Duration
	// readETA is the last forecast from a cell being read (kcount.Reading.ETA; none
	// before the first cell after a resume ends) and readAt when it came.
	readETA time.Duration
	readAt  time.Time
}

// resumed notes that the count resumed from the layer after cells cells; p may be nil.
func (p *countProgress) resumed(cells int) {
	if p != nil {
		p.from, p.t0 = cells, time.Now()
	}
}

// resumedCut notes that the count resumed inside the cell after the layer it resumed
// from, from a cut; p may be nil.
func (p *countProgress) resumedCut() {
	if p != nil {
		p.cut = true
	}
}

func newCountProgress(w io.Writer, tty bool) *countProgress {
	return &countProgress{w: w, tty: tty, t0: time.Now()}
}

func (p *countProgress) update(s kcount.Status) {
	if p.m == nil {
		unit := "shares"
		if s.Method == kcount.MethodDP || s.Method == kcount.MethodJoin {
			unit = "cells"
		}
		p.meter(unit)
	}
	if p.cut && s.Done > p.from {
		p.cut, p.from, p.t0 = false, s.Done, time.Now()
	}
	el := time.Since(p.t0)
	st := progress.Status{Done: int64(s.Done), Total: int64(s.Total), Rate: float64(s.Done-p.from) / el.Seconds()}
	// The cells of a sweep differ in cost by orders of magnitude (the states of the middle
	// columns dwarf those of the first ones), so dp and join take the engine's forecast,
	// refitted after each cell (CountStatus.ETA); the shares of the search are alike enough
	// for an average.
	switch {
	case s.Done <= 0 || s.Done >= s.Total:
	case s.Method == kcount.MethodSearch:
		st.ETA = time.Duration(float64(el) / float64(s.Done) * float64(s.Total-s.Done))
	default:
		st.ETA = s.ETA
	}
	if s.Method == kcount.MethodDP || s.Method == kcount.MethodJoin {
		st.Note = fmt.Sprintf("%d states, %s", s.States, kcount.FormatBytes(s.Bytes))
		if p.disk != "" {
			st.Note += fmt.Sprintf(", disk %s (peak %s, freed %s, %d runs spilled)", kcount.FormatBytes(s.Disk), kcount.FormatBytes(s.DiskPeak), kcount.FormatBytes(s.DiskFreed), s.Spills)
			if free := p.disk.free(); free >= 0 {
				st.Note += fmt.Sprintf(", %s free", kcount.FormatBytes(free))
			}
		}
	}
	p.m.Update(st)
	p.last, p.lastAt = st, time.Now()
	p.readETA = 0
}

func (p *countProgress) meter(unit string) {
	p.m = progress.New(p.w, progress.Options{What: "knight count", Unit: unit, RateUnit: unit, Terminal: &p.tty, Every: p.every})
}

// reading shows how far a dp count's step has read the layer before its cell
// (kcount.Options.Reading), between the Status calls that come once a cell: the cells
// done, rate and time left stay the last Status's (the time left less the time since),
// and the note names the cell and the share of its layer read:
// "knight count: 28/64 cells, 43.8%, ? cells/s, ETA ?, cell 29: 12.5% of 3118991777 states read".
// Before any Status (a count resumed, until its first cell ends) the time left is the
// forecast from the cell's own reading rate (kcount.Reading.ETA), once there is one.
func (p *countProgress) reading(r kcount.Reading) {
	if p.m == nil {
		p.meter("cells")
	}
	st := p.last
	st.Done, st.Total = int64(r.Cell-1), int64(max(p.total, r.Cell))
	if r.ETA > 0 {
		p.readETA, p.readAt = r.ETA, time.Now()
	}
	switch {
	case st.ETA > 0:
		st.ETA = max(st.ETA-time.Since(p.lastAt), time.Second)
	case p.readETA > 0:
		// no cell ended since the resume: the forecast from the cell's own reading rate
		// (kept, less the time since, while its runs merge)
		st.ETA = max(p.readETA-time.Since(p.readAt), time.Second)
	}
	switch {
	case r.Ranges > 0:
		st.Note = fmt.Sprintf("cell %d: runs merged, %d of %d key ranges", r.Cell, r.Merged, r.Ranges)
	case r.Of > 0:
		st.Note = fmt.Sprintf("cell %d: %.1f%% of %d states read", r.Cell, 100*float64(r.Read)/float64(r.Of), r.Of)
	default:
		st.Note = fmt.Sprintf("cell %d: %d states read", r.Cell, r.Read)
	}
	if p.disk != "" {
		if free := p.disk.free(); free >= 0 {
			st.Note += fmt.Sprintf(", %s free", kcount.FormatBytes(free))
		}
	}
	p.m.Update(st)
}

// finish erases the bar, if any; p may be nil (a quiet count).
func (p *countProgress) finish() {
	if p != nil && p.m != nil {
		p.m.Finish()
	}
}
