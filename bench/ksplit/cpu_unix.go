//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpu returns the process's CPU time so far, user and system (getrusage).
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
