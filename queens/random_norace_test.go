//go:build !race

package queens

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = false
