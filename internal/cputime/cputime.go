// Package cputime times work by the CPU time of the thread doing it, so that a sample
// timed on a loaded machine measures the work, not the wait for a core: "queens
// estimate 20" at a load average of 10 predicted 312 s by the wall clock for a count that
// then took 139 CPU-s (issue 37). Where the system gives no thread clock, it falls back to
// the wall clock and says so.
//
// A thread's clock means something only while one goroutine stays on that thread: Run
// locks the calling goroutine to its thread (runtime.LockOSThread) for as long as the
// clock is read, and the work timed must run on that goroutine, not on others it starts.
package cputime

import "runtime"

// Run calls f with a clock of the seconds of CPU time the calling thread has used, the
// goroutine locked to its thread until f returns. threadCPU reports whether the clock is
// the thread's CPU time (Linux: clock_gettime(CLOCK_THREAD_CPUTIME_ID), a vDSO call of
// well under a microsecond); where it is not, clock is nil, which
// count.EstimateOptions.Clock reads as the wall clock.
func Run(f func(clock func() float64) error) (threadCPU bool, err error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	clock := threadClock()
	return clock != nil, f(clock)
}
