//go:build unix

package work

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) this process has used, 0 if it cannot
// be read.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
