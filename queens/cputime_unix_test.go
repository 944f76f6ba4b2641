//go:build unix

package queens

import (
	"syscall"
	"time"
)

// processCPU returns the user + system CPU time this process has used, and false where
// getrusage fails.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
