package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time the process has used so far, user and kernel
// (GetProcessTimes, whose times count 100 ns ticks).
func Process() time.Duration {
	var created, exited, kernel, user syscall.Filetime
	self, _ := syscall.GetCurrentProcess() // a pseudo-handle: it cannot fail
	syscall.GetProcessTimes(self, &created, &exited, &kernel, &user)
	ticks := func(f syscall.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration(ticks(kernel)+ticks(user)) * 100
}
