package main

import (
	"testing"
	"time"
)

// TestTodaySeed: the default seed of "queens regions" is the date as YYYYMMDD in the
// clock's time zone, as the page numbers today's puzzle.
func TestTodaySeed(t *testing.T) {
	tests := []struct {
		name string
		t    time.Time
		want uint64
	}{
		{"autumn", time.Date(2026, time.November, 27, 15, 0, 0, 0, time.UTC), 20261127},
		{"new year's eve, last second", time.Date(2026, time.December, 31, 23, 59, 59, 0, time.UTC), 20261231},
		{"in another zone", time.Date(2027, time.January, 1, 0, 30, 0, 0, time.FixedZone("UTC+1", 3600)), 20270101},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := todaySeed(tc.t); got != tc.want {
				t.Errorf("todaySeed(%v) = %d, want %d", tc.t, got, tc.want)
			}
		})
	}
}
