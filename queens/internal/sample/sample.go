// Package sample holds the arithmetic of the cost estimates of both methods of
// queens/count: Knuth's estimator over probes drawn with known probabilities, and the
// timer that runs probes within a budget. It costs a few operations a probe.
package sample

import (
	"context"
	"fmt"
	"math"
	"time"
)

// Sampler sums the estimates of probes drawn with known probabilities: each probe's
// measure over the probability of having drawn it is an unbiased estimate of the whole
// (Knuth's estimator). The mean of the estimates and its standard error tell the whole.
// Both methods of queens/count estimate with it; the zero Sampler is empty.
type Sampler struct {
	k          int
	sum, sumsq float64
}

// Add records one probe's estimate of the whole.
func (s *Sampler) Add(e float64) {
	s.k++
	s.sum += e
	s.sumsq += e * e
}

// Probes returns the number of estimates added.
func (s *Sampler) Probes() int { return s.k }

// Mean returns the mean of the estimates and its standard error, or an error with fewer
// than two.
func (s *Sampler) Mean() (mean, se float64, err error) {
	if s.k < 2 {
		return 0, 0, fmt.Errorf("%d probes, at least 2 are needed", s.k)
	}
	k := float64(s.k)
	mean = s.sum / k
	return mean, math.Sqrt(math.Max(s.sumsq/k-mean*mean, 0) / (k - 1)), nil
}

// Timer runs probes: while More, each is timed by Clock.
type Timer struct {
	budget    time.Duration
	minProbes int
	clock     func() float64
	start     float64
}

// NewTimer starts timing probes: at least minProbes (and 2), then while budget lasts, by
// clock (seconds of work done; nil: wall time).
func NewTimer(budget time.Duration, minProbes int, clock func() float64) *Timer {
	t := &Timer{budget: budget, minProbes: minProbes, clock: clock}
	t.start = t.Now()
	return t
}

// Now returns the clock's seconds.
func (t *Timer) Now() float64 {
	if t.clock != nil {
		return t.clock()
	}
	return float64(time.Now().UnixNano()) / 1e9
}

// More reports whether to run another probe after k: fewer than MinProbes (at least 2),
// or the budget is not spent, and ctx is not done.
func (t *Timer) More(ctx context.Context, k int) bool {
	if ctx.Err() != nil {
		return false
	}
	return k < max(t.minProbes, 2) || t.Now()-t.start < t.budget.Seconds()
}

// Start returns the clock's seconds when the timer started.
func (t *Timer) Start() float64 { return t.start }
