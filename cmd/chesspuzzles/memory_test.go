package main

import (
	"runtime/debug"
	"testing"
)

// TestSmallCountGC checks that a count needing at most smallCountHeap raises GOGC so that
// the first heap goal holds its memory, that the setting comes back after, and that a
// larger count or a user's GOGC leaves it alone.
func TestSmallCountGC(t *testing.T) {
	t.Setenv("GOGC", "") // os.Getenv reads "" as unset
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	tests := []struct {
		name string
		need uint64
		gogc string
		want int
	}{
		{"N=16 on one worker", 12 << 20, "", 400},
		{"N=18 on one worker", 18<<20 + 200<<10, "", 100},
		{"at the bound", smallCountHeap, "", 100 * (smallCountHeap + 4<<20) / (4 << 20)},
		{"past the bound", smallCountHeap + 1, "", 100},
		{"unknown need", 0, "", 100},
		{"user's GOGC", 10 << 20, "100", 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOGC", tt.gogc)
			restore := smallCountGC(tt.need)
			got := debug.SetGCPercent(100)
			debug.SetGCPercent(got)
			restore()
			if got != tt.want {
				t.Errorf("smallCountGC(%d): GOGC %d, want %d", tt.need, got, tt.want)
			}
			if after := debug.SetGCPercent(100); after != 100 {
				t.Errorf("smallCountGC(%d) then restore: GOGC %d, want 100 back", tt.need, after)
			}
		})
	}
}
