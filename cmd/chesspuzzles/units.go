// Numbers for people: plurals, durations and byte counts as commands print them.

package main

import (
	"fmt"
	"math"
)

// plural returns "1 solution" or "92 solutions".
func plural(n uint64, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// humanDuration writes seconds in the largest unit that keeps the number at least 1.
func humanDuration(secs float64) string {
	units := []struct {
		name string
		size float64
	}{{"years", 365.25 * 86400}, {"days", 86400}, {"hours", 3600}, {"minutes", 60}}
	for _, u := range units {
		if secs >= 2*u.size {
			return fmt.Sprintf("%.3g %s", secs/u.size, u.name)
		}
	}
	if math.IsInf(secs, 0) || math.IsNaN(secs) {
		return "unknown"
	}
	return fmt.Sprintf("%.3g s", secs)
}

// humanBytes writes a byte count in binary units.
func humanBytes(b uint64) string {
	units := []string{"KiB", "MiB", "GiB"}
	for i := len(units) - 1; i >= 0; i-- {
		if shift := 10 * (i + 1); b >= 1<<shift {
			return fmt.Sprintf("%.3g %s", float64(b)/float64(uint64(1)<<shift), units[i])
		}
	}
	return fmt.Sprintf("%d B", b)
}

// roundSeconds keeps four significant digits: timings are not more precise than that.
func roundSeconds(s float64) float64 {
	var r float64
	fmt.Sscanf(fmt.Sprintf("%.4g", s), "%g", &r)
	return r
}
