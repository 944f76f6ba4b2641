package main

import (
	"fmt"
	"io"
	"time"

	"github.com/chesspuzzles/chesspuzzles/knight"
)

// countProgress shows the progress of a knight count: a line rewritten in place on a
// terminal (at most 10 times a second), a plain line every 5 seconds otherwise.
type countProgress struct {
	w        io.Writer
	tty      bool
	t0, last time.Time
	shown    bool
}

func newCountProgress(w io.Writer, tty bool) *countProgress {
	now := time.Now()
	return &countProgress{w: w, tty: tty, t0: now, last: now}
}

func (p *countProgress) update(s knight.CountStatus) {
	now := time.Now()
	every := 5 * time.Second
	if p.tty {
		every = 100 * time.Millisecond
	}
	if now.Sub(p.last) < every && s.Done < s.Total {
		return
	}
	if !p.tty && s.Done == s.Total && !p.shown {
		return // a count done before the first plain line needs no closing one
	}
	p.last = now
	el := now.Sub(p.t0)
	line := fmt.Sprintf("%d of %d shares, %s", s.Done, s.Total, el.Round(time.Second))
	if s.Method == knight.MethodDP || s.Method == knight.MethodJoin {
		// The time of a cell grows with the states it reads: the ETA assumes the rest of
		// the cells each take as long as the cells so far did on average, so it is rough
		// (the widest columns are in the middle).
		line = fmt.Sprintf("cell %d of %d, %d states, %s, %s", s.Done, s.Total, s.States, knight.FormatBytes(s.Bytes), el.Round(time.Second))
	}
	if s.Done > 0 && s.Done < s.Total {
		eta := time.Duration(float64(el) / float64(s.Done) * float64(s.Total-s.Done))
		line += ", ETA ~" + eta.Round(time.Second).String()
	}
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K%s", line)
		p.shown = true
		return
	}
	fmt.Fprintln(p.w, line)
	p.shown = true
}

func (p *countProgress) finish() {
	if p.tty && p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
