//go:build !race

package join

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = false
