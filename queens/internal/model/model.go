// Package model turns the measured core-hours of a counting method at some N into the
// modelled core-seconds at any N: the one extrapolation both methods of queens/count use,
// so that a plan, an estimate and a choice of method tell one story. It costs a look-up.
package model

import "math"

// Seconds returns the measured (or extrapolated) core-seconds at n of a method whose
// whole counts took coreHours[N] core-hours: beyond the last N measured, the method grows
// as it did over its last two measured steps (two steps back: odd and even N grow
// differently for the join); below the first N measured, the first measured N's time
// scaled down as from its next N (a lower bound: fixed costs dominate there, and both
// methods take well under a second). It returns +Inf for an empty table.
func Seconds(coreHours map[int]float64, n int) float64 {
	t := coreHours
	lo, hi := math.MaxInt, 0
	for k := range t {
		lo, hi = min(lo, k), max(hi, k)
	}
	switch {
	case len(t) == 0:
		return math.Inf(1)
	case n > hi:
		g := math.Sqrt(t[hi] / t[hi-2])
		return 3600 * t[hi] * math.Pow(g, float64(n-hi))
	case n < lo:
		g := t[lo+1] / t[lo]
		return 3600 * t[lo] / math.Pow(g, float64(lo-n))
	}
	return 3600 * t[n]
}
