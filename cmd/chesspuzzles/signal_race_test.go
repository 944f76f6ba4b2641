//go:build race

package main

import "time"

// signalSetup is how long a test waits before it interrupts a command that shows nothing
// when it is ready: long enough for a race-built binary on a loaded machine to have set up
// its signal handling (a SIGINT before that kills it with no exit code; 1 s once did).
const signalSetup = 3 * time.Second
