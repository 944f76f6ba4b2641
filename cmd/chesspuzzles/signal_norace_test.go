//go:build !race

package main

import "time"

// signalSetup is how long a test waits before it interrupts a command that shows nothing
// when it is ready: a plain build sets up its signal handling within milliseconds.
const signalSetup = time.Second
