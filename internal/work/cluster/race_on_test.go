//go:build race

package cluster

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = true
