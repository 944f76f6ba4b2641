//go:build !unix

package join

import "time"

// start is when the test binary began: where there is no getrusage, cpuTime falls back to
// the wall clock since then, which the sampling figures then report instead of CPU time.
var start = time.Now()

// cpuTime returns the time since the test binary began (no process CPU clock here).
func cpuTime() time.Duration { return time.Since(start) }
