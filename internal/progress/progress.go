// Package progress shows how far a long run has got, on standard error, the same way for
// every command: a bar redrawn in place when the output is a terminal, a plain line every
// few seconds otherwise, and nothing at all when the user asked for quiet.
//
// The runs themselves (internal/work, internal/work/cluster, the engines) report plain values;
// a command turns them into a [Status] and hands it to a [Meter], which alone draws. Every
// line has one shape:
//
//	<what>: <done>/<total> <unit>, <pct>%, <rate>, ETA <d>[, <note>]
//
// for example
//
//	N=17: 1247/4319 tasks, 28.9%, 2.31e+08 nodes/s, ETA 14s, 27598576 solutions so far
//
// A rate or time left not known yet is written "?". On a terminal the same text follows a
// bar: "<what>: [=====>------] <done>/<total> …".
//
// Usage:
//
//	m := progress.New(os.Stderr, progress.Options{What: "N=17", Unit: "tasks", RateUnit: "nodes"})
//	defer m.Finish()
//	… m.Update(progress.Status{Done: 12, Total: 4319, Rate: 2.3e8, ETA: 14 * time.Second})
//
// The bar is drawn with github.com/vbauerster/mpb; this package is the only one that
// imports a terminal library.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// Every is how often a Meter writes a plain line when its output is not a terminal.
const Every = 5 * time.Second

// Status is a snapshot of a run, in the unit its Meter names.
type Status struct {
	// Done and Total count the run's units: tasks, cells, columns.
	Done, Total int64
	// Fraction is the share of the work done, from 0 to 1, when the units differ in size
	// (tasks weighted by their estimated cost); 0 means Done/Total.
	Fraction float64
	// Rate is the speed in the Meter's RateUnit per second; 0 when not known yet.
	Rate float64
	// ETA is the estimated time left; 0 when not known yet (or, with Done = Total, none).
	ETA time.Duration
	// Note, if not empty, ends the line: what the unit counts do not say ("2680 solutions
	// so far").
	Note string
	// Waiting, if not empty, is said instead of the rate and the time left, which nothing
	// done yet can tell ("waiting for workers").
	Waiting string
}

// Options say what a Meter shows and how.
type Options struct {
	// What names the run at the start of the line: "N=17", "knight 6x6".
	What string
	// Unit is the plural noun of Done and Total ("tasks"); RateUnit that of Rate
	// ("nodes", written "nodes/s").
	Unit, RateUnit string
	// Quiet shows nothing at all.
	Quiet bool
	// Terminal draws a bar; nil decides by [CanDraw].
	Terminal *bool
	// Every is the time between plain lines (default Every).
	Every time.Duration
}

// A Meter shows one run's progress on its output. Its methods are safe for concurrent
// use; Update costs a mutex and, at most once every Every, a line.
type Meter struct {
	w     io.Writer
	o     Options
	tty   bool
	mu    sync.Mutex
	last  Status
	once  sync.Once // makes the bar
	shown time.Time // when the last plain line was written, or the Meter made
	p     *mpb.Progress
	bar   *mpb.Bar
	done  bool // Finish has been called
}

// barScale is the resolution of the bar: it shows Fraction.
const barScale = 10000

// New returns a Meter writing to w. It draws nothing until the first Update.
func New(w io.Writer, o Options) *Meter {
	if o.Every <= 0 {
		o.Every = Every
	}
	m := &Meter{w: w, o: o, shown: time.Now()}
	if o.Terminal != nil {
		m.tty = *o.Terminal
	} else {
		m.tty = CanDraw(w)
	}
	return m
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// CanDraw reports whether a bar drawn on w can be seen: w is a terminal that reports a
// size of at least one column and one row. A terminal that reports 0×0 (a serial console,
// some containers' pseudo-terminals before anyone sets their size) would get a bar drawn
// in no rows at all, so it gets the plain lines instead. It costs a system call or two.
func CanDraw(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false
	}
	width, height, err := term.GetSize(int(f.Fd()))
	return err == nil && width > 0 && height > 0
}

// Update records s: on a terminal the bar shows it at its next redraw (five a second);
// otherwise a line is written if Every has passed since the last one.
func (m *Meter) Update(s Status) {
	if m.o.Quiet {
		return
	}
	m.mu.Lock()
	if m.done {
		m.mu.Unlock()
		return
	}
	m.last = s
	if m.tty {
		m.mu.Unlock()
		// mpb calls the bar's decorators, which take m.mu, from its own goroutine while
		// it serves New: make the bar without holding m.mu.
		m.once.Do(m.start)
		m.mu.Lock()
		bar := m.bar
		m.mu.Unlock()
		if bar != nil {
			bar.SetCurrent(int64(fraction(s) * barScale))
		}
		return
	}
	due := time.Since(m.shown) >= m.o.Every
	if due {
		m.shown = time.Now()
	}
	m.mu.Unlock()
	if due {
		fmt.Fprintln(m.w, Line(m.o, s))
	}
}

// start makes the bar; m.mu is not held.
func (m *Meter) start() {
	// A terminal's width is its own; elsewhere (Terminal forced) the line is not cut.
	// WithAutoRefresh draws even where mpb sees no terminal, as Terminal said to.
	p := mpb.New(mpb.WithOutput(m.w), mpb.WithWidth(200), mpb.WithRefreshRate(200*time.Millisecond), mpb.WithAutoRefresh())
	bar := p.New(barScale, mpb.BarStyle(), mpb.BarWidth(24), mpb.BarRemoveOnComplete(),
		mpb.PrependDecorators(decor.Name(m.o.What+":", decor.WCSyncSpaceR)),
		mpb.AppendDecorators(decor.Any(func(decor.Statistics) string {
			m.mu.Lock()
			defer m.mu.Unlock()
			return body(m.o, m.last)
		})),
	)
	m.mu.Lock()
	done := m.done
	if !done {
		m.p, m.bar = p, bar
	}
	m.mu.Unlock()
	if done {
		// Finish came first: end the bar at once.
		bar.Abort(true)
		p.Wait()
	}
}

// Follow calls get four times a second and shows what it returns, until the returned
// function is called: for runs that keep counters rather than report.
func (m *Meter) Follow(get func() Status) (stop func()) {
	if m.o.Quiet {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				m.Update(get())
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// Write writes log lines p so that they do not tear the bar: above it while it is drawn,
// straight to the output otherwise. A Meter is the writer a command gives its logger
// while a run shows progress.
func (m *Meter) Write(p []byte) (int, error) {
	m.mu.Lock()
	pr := m.p
	if m.done {
		pr = nil
	}
	m.mu.Unlock()
	if pr != nil {
		if n, err := pr.Write(p); err == nil {
			return n, nil
		}
	}
	return m.w.Write(p)
}

// Finish ends the bar and erases it from the terminal, and returns only once the bar is
// gone and will never be drawn again: the command prints its result next, and a bar
// redrawn after it (a cursor moved up, a line erased) would wipe the answer off the
// screen, or cut a table into pieces. Off a terminal it writes nothing. Later Updates
// are ignored. Every long command calls Finish before it writes its answer.
func (m *Meter) Finish() {
	m.mu.Lock()
	if m.done {
		m.mu.Unlock()
		return
	}
	m.done = true
	p, bar := m.p, m.bar
	m.mu.Unlock()
	if bar != nil {
		// Abort(true) drops the bar: mpb's last redraw, which Wait waits for, moves the
		// cursor up over the bar's line and erases it, and draws nothing in its place.
		bar.Abort(true)
		p.Wait()
	}
}

// Line returns the plain progress line of s: "<what>: <done>/<total> <unit>, <pct>%,
// <rate>, ETA <d>" and ", <note>" if s has one.
func Line(o Options, s Status) string {
	return o.What + ": " + body(o, s)
}

// body is Line after "<what>: ", the text a bar is followed by.
func body(o Options, s Status) string {
	rate := "?"
	if s.Rate > 0 {
		rate = fmt.Sprintf("%.3g", s.Rate)
	}
	eta := "?"
	switch {
	case s.Total > 0 && s.Done >= s.Total:
		eta = "0s"
	case s.ETA > 0:
		eta = roundETA(s.ETA).String()
	}
	out := fmt.Sprintf("%d/%d %s, %.1f%%, %s %s/s, ETA %s", s.Done, s.Total, o.Unit, 100*fraction(s), rate, o.RateUnit, eta)
	if s.Waiting != "" {
		out = fmt.Sprintf("%d/%d %s, %.1f%%, %s", s.Done, s.Total, o.Unit, 100*fraction(s), s.Waiting)
	}
	if s.Note != "" {
		out += ", " + s.Note
	}
	return out
}

// fraction is the share of s's work done, from 0 to 1.
func fraction(s Status) float64 {
	f := s.Fraction
	if f <= 0 && s.Total > 0 {
		f = float64(s.Done) / float64(s.Total)
	}
	return min(max(f, 0), 1)
}

// roundETA keeps an estimate to the precision it has: seconds under an hour, minutes
// beyond.
func roundETA(d time.Duration) time.Duration {
	if d >= time.Hour {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}
