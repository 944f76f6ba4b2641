package work

import (
	"fmt"
	"io"
	"math/big"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// PlainEvery is how often a Reporter writes a line when its output is not a terminal.
const PlainEvery = 5 * time.Second

// A Reporter shows a run's progress on w: a bar redrawn in place when w is a terminal (mpb
// draws nothing useful elsewhere), otherwise one plain line every PlainEvery. Its Update
// method is an Options.Progress function. Call Finish when the run returns.
type Reporter struct {
	w        io.Writer
	tty      bool
	started  bool
	mu       sync.Mutex
	last     Status
	lastLine time.Time
	p        *mpb.Progress
	bar      *mpb.Bar
}

// barScale is the resolution of the bar: it shows the share of work done, by Cost.
const barScale = 10000

// NewReporter returns a reporter writing to w; tty says whether w is a terminal.
func NewReporter(w io.Writer, tty bool) *Reporter {
	return &Reporter{w: w, tty: tty, lastLine: time.Now()}
}

// start says what a resumed run starts from and, on a terminal, makes the bar.
func (r *Reporter) start(s Status) {
	r.started = true
	if s.Resumed > 0 {
		fmt.Fprintf(r.w, "N=%d: resuming from the checkpoint: %d of %d tasks done, %s solutions so far\n", s.N, s.Resumed, s.Tasks, s.Solutions)
	}
	if !r.tty {
		return
	}
	r.p = mpb.New(mpb.WithOutput(r.w), mpb.WithWidth(32), mpb.WithRefreshRate(200*time.Millisecond))
	r.bar = r.p.New(barScale, mpb.BarStyle(),
		mpb.PrependDecorators(decor.Any(func(decor.Statistics) string {
			r.mu.Lock()
			defer r.mu.Unlock()
			return fmt.Sprintf("N=%d %d/%d tasks", r.last.N, r.last.Done, r.last.Tasks)
		}, decor.WCSyncSpaceR)),
		mpb.AppendDecorators(decor.Any(func(decor.Statistics) string {
			r.mu.Lock()
			defer r.mu.Unlock()
			return r.last.summary()
		})),
	)
}

// Update records s and redraws or, off a terminal, writes a line if PlainEvery has passed.
func (r *Reporter) Update(s Status) {
	if !r.started {
		r.start(s)
	}
	r.mu.Lock()
	r.last = s
	r.mu.Unlock()
	if r.tty {
		r.bar.SetCurrent(int64(s.Fraction() * barScale))
		return
	}
	if time.Since(r.lastLine) >= PlainEvery {
		r.lastLine = time.Now()
		fmt.Fprintf(r.w, "N=%d: %d/%d tasks, %s\n", s.N, s.Done, s.Tasks, s.summary())
	}
}

// Finish ends the bar. It writes nothing more off a terminal.
func (r *Reporter) Finish() {
	if r.bar != nil {
		if r.last.Done == r.last.Tasks {
			r.bar.SetCurrent(barScale)
		}
		r.bar.Abort(false)
		r.p.Wait()
	}
}

// summary is the part of a progress line after the task counts.
func (s Status) summary() string {
	sols := s.Solutions
	if sols == nil {
		sols = new(big.Int)
	}
	out := fmt.Sprintf("%.1f%%, %s solutions", 100*s.Fraction(), sols)
	if secs := s.Elapsed.Seconds(); secs > 0 && s.Done > s.Resumed {
		out += fmt.Sprintf(", %.3g nodes/s", float64(s.nodesHere)/secs)
	}
	if eta, ok := s.ETA(); ok {
		out += ", ETA " + eta.Round(time.Second).String()
	}
	return out
}
