package count

import (
	"time"

	"github.com/chesspuzzles/chesspuzzles/knight/internal/frontier"
)

// readings turns the frontier's Reading calls (cell from 0, states read by this process)
// into Options.Reading's: the cell from 1, the states a resumed cut had placed added, and
// the size of the layer being read, learnt from the cell before it (Report) or from the
// layer a count resumed from (Resumed). The frontier makes every call on the goroutine of
// the sweep, so it holds no lock.
type readings struct {
	f func(Reading)
	// lastCell is the last cell whose states are known (-1: none), lastStates those states.
	lastCell, lastStates int
	// cutCell is the cell whose step resumed from a cut (-1: none), cutDone the states of
	// its layer the cut had placed.
	cutCell, cutDone int
	// eta, if not nil, forecasts the time left from the cell being read (sweepETA.reading):
	// the cell from 0, the states of its layer read and in all.
	eta func(cell, read, of int) time.Duration
}

func newReadings(f func(Reading)) *readings {
	return &readings{f: f, lastCell: -1, cutCell: -1}
}

// wrap sets fo.Reading to r's and chains fo's Report, Resumed and ResumedCut through r, so
// that r learns the layers' sizes. Call it before anything else wraps those.
func (r *readings) wrap(fo *frontier.Options) {
	fo.Reading = r.reading
	report := fo.Report
	fo.Report = func(cell, states int, bytes int64) {
		r.lastCell, r.lastStates = cell, states
		if report != nil {
			report(cell, states, bytes)
		}
	}
	if fo.Spill == nil {
		return
	}
	fo.Merging = func(cell, merged, ranges int) {
		r.f(Reading{Cell: cell + 1, Merged: merged, Ranges: ranges})
	}
	resumed := fo.Resumed
	fo.Resumed = func(cells int, states []int) {
		r.lastCell, r.lastStates = cells-1, 0
		if cells >= 1 && cells <= len(states) && states[cells-1] > 0 {
			r.lastStates = states[cells-1]
		}
		if resumed != nil {
			resumed(cells, states)
		}
	}
	resumedCut := fo.ResumedCut
	fo.ResumedCut = func(cells, done, runs int) {
		r.cutCell, r.cutDone = cells, done
		if resumedCut != nil {
			resumedCut(cells, done, runs)
		}
	}
}

func (r *readings) reading(cell, read int) {
	g := Reading{Cell: cell + 1, Read: read}
	if cell == r.cutCell {
		g.Read += r.cutDone
	}
	switch {
	case cell == 0:
		g.Of = 1 // the one state before the first cell
	case cell == r.lastCell+1:
		g.Of = r.lastStates
	}
	if r.eta != nil && g.Of > 0 {
		g.ETA = r.eta(cell, g.Read, g.Of)
	}
	r.f(g)
}
