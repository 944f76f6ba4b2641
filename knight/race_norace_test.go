//go:build !race

package knight

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = false
