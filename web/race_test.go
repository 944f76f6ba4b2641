//go:build race

package web

// raceEnabled: the race detector slows drawing about tenfold, so tests draw less.
const raceEnabled = true
