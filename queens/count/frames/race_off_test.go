//go:build !race

package frames

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = false
