//go:build race

package join

// raceEnabled is true when the tests run under the race detector, which makes memory-bound
// loops ten times slower: the largest boards then shrink to fit CI's time budget.
const raceEnabled = true
