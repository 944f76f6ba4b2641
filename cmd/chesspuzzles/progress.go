package main

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"

	"github.com/chesspuzzles/chesspuzzles/internal/progress"
	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// countMeter shows the progress of a queens count, local or distributed, from the plain
// work.Status values the run reports: "N=17: 1247/4319 tasks, 28.9%, 2.31e+08 nodes/s,
// ETA 14s, 27598576 solutions so far" (see internal/progress). Unless quiet, a run that
// resumes says so first, in one line.
type countMeter struct {
	*progress.Meter
	w       io.Writer
	what    string
	quiet   bool
	started bool
	// waiting, if not empty, is said instead of the rate and the time left until the run
	// has done a task (a distributed count: "waiting for workers").
	waiting string
}

func newCountMeter(stderr io.Writer, what string, quiet bool) *countMeter {
	m := progress.New(stderr, progress.Options{What: what, Unit: "tasks", RateUnit: "nodes", Quiet: quiet})
	return &countMeter{Meter: m, w: stderr, what: what, quiet: quiet}
}

// logger returns the logger of a coordinator that shows its progress on m, as --log-format
// says. Text lines go through the meter, so that they do not tear its bar. With json every
// line on stderr must be one JSON object, for log collectors: the meter then draws no bar
// and its plain lines (every 5 s, and the line of a resumed run) become records of their
// own ("msg" the line, "progress" true) beside the logger's.
func (m *countMeter) logger(format, component string) (*slog.Logger, error) {
	if format != "json" {
		return newLogger(m, format, component)
	}
	l, err := newLogger(m.w, format, component)
	if err != nil {
		return nil, err
	}
	m.Finish()
	plain := false
	m.Meter = progress.New(lineRecords{l}, progress.Options{What: m.what, Unit: "tasks", RateUnit: "nodes", Quiet: m.quiet, Terminal: &plain})
	return l, nil
}

// lineRecords writes each line written to it as one INFO record of l.
type lineRecords struct{ l *slog.Logger }

func (r lineRecords) Write(p []byte) (int, error) {
	for line := range bytes.Lines(p) {
		if line = bytes.TrimSpace(line); len(line) > 0 {
			r.l.Info(string(line), "progress", true)
		}
	}
	return len(p), nil
}

// update is a work.Options.Progress function; it must be called from one goroutine.
func (m *countMeter) update(s work.Status) {
	if !m.started {
		m.started = true
		if s.Resumed > 0 && !m.quiet {
			fmt.Fprintf(m, "N=%d: resuming from the checkpoint: %d of %d tasks done, %s solutions so far\n", s.N, s.Resumed, s.Tasks, s.Solutions)
		}
	}
	p := countStatus(s)
	if m.waiting != "" && s.Done == s.Resumed && s.Done < s.Tasks {
		p.Waiting = m.waiting
	}
	m.Update(p)
}

// countStatus is s as a progress.Status: tasks done, the share of the work by estimated
// cost, nodes per second of this run, the time left, and the solutions so far.
func countStatus(s work.Status) progress.Status {
	p := progress.Status{Done: int64(s.Done), Total: int64(s.Tasks), Fraction: s.Fraction(), Rate: s.Rate()}
	if s.Done == s.Resumed {
		p.Rate = 0 // nothing computed yet: no rate
	}
	if eta, ok := s.ETA(); ok {
		p.ETA = eta
	}
	if s.Solutions != nil {
		p.Note = s.Solutions.String() + " solutions so far"
	}
	return p
}
