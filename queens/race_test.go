//go:build race

package queens

const raceEnabled = true
