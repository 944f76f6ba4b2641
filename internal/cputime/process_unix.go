//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time the process has used so far, user and system
// (getrusage). It exists on Unix and Windows only, for the bench tools.
func Process() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
