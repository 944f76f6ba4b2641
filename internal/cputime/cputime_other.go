//go:build !linux

package cputime

// threadClock is nil where no thread clock is wired in: the caller times by the wall
// clock.
func threadClock() func() float64 { return nil }
