//go:build !unix

package queens

import "time"

// processCPU reports false: no process clock is wired in here, and callers time by the
// wall clock.
func processCPU() (time.Duration, bool) { return 0, false }
