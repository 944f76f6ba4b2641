package main

import (
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestChooseMethod checks which method auto takes and when join is refused.
func TestChooseMethod(t *testing.T) {
	tests := []struct {
		name           string
		method, memory string
		n, workers     int
		want           string // "" for an error
	}{
		{"auto small", "auto", "64MiB", 12, 2, count.MethodJoin},
		{"auto fits", "auto", "1GiB", 21, 2, count.MethodJoin},
		{"auto too big", "auto", "16MiB", 22, 2, count.MethodFrames},
		{"auto below join", "auto", "64MiB", 3, 2, count.MethodFrames},
		{"auto above join", "auto", "1TiB", 30, 2, count.MethodFrames},
		// bench/cost.sh on the AMD EPYC: join 338 against frames 4,066 core-hours at
		// N = 24, 2,478 against 40,324 at 25; frames 3.6·10⁵ at 26, where the join
		// extrapolates to about 2.5·10⁴.
		{"auto join faster", "auto", "1TiB", 24, 2, count.MethodJoin},
		{"auto join faster in 2GiB", "auto", "2GiB", 25, 2, count.MethodJoin},
		{"auto join faster by its model", "auto", "1TiB", 26, 2, count.MethodJoin},
		{"auto frames where the join does not fit", "auto", "16MiB", 22, 2, count.MethodFrames},
		{"join past auto", "join", "1TiB", 26, 2, count.MethodJoin},
		{"join 27 in 2GiB", "join", "2GiB", 27, 1, count.MethodJoin}, {"join 28 in 2GiB", "join", "2GiB", 28, 1, count.MethodJoin},
		{"join 27 in 2GiB on 2", "join", "2GiB", 27, 2, ""},
		{"frames", "frames", "16MiB", 25, 2, count.MethodFrames},
		{"join fits", "join", "100MB", 20, 1, count.MethodJoin},
		{"join too big", "join", "16MiB", 22, 1, ""},
		{"join too small N", "join", "64MiB", 2, 1, ""},
		{"bad method", "fastest", "64MiB", 12, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := methodOptions{method: tt.method, maxMemory: tt.memory}
			c, err := o.plan(tt.n, tt.workers)
			got := ""
			if err == nil {
				got = c.Plan.Method()
			}
			if (err != nil) != (tt.want == "") || got != tt.want {
				t.Errorf("plan(%d) with --method %s --max-memory %s = %q, %v; want %q", tt.n, tt.method, tt.memory, got, err, tt.want)
			}
		})
	}
}

// TestParseMemory checks sizes and the one-line refusals.
func TestParseMemory(t *testing.T) {
	good := map[string]uint64{"16MiB": 16 << 20, "512M": 512 << 20, "8GB": 8e9, "1g": 1 << 30, "20000000": 20000000, "2 GiB": 2 << 30}
	for s, want := range good {
		if got, err := parseMemory(s); err != nil || got != want {
			t.Errorf("parseMemory(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"0", "1KB", "15MiB", "lots", "", "-1G", "1.5G", "99999999999999999999G"} {
		if _, err := parseMemory(s); err == nil {
			t.Errorf("parseMemory(%q) accepted", s)
		}
	}
}

// TestSizeOneReading: --max-memory reads the same text as the same size in every command
// (queens count, queens estimate, knight count): "8GB" is 8·10⁹ bytes and "8G" 8 GiB for all.
func TestSizeOneReading(t *testing.T) {
	for s, want := range map[string]uint64{"8GB": 8e9, "8G": 8 << 30, "8GiB": 8 << 30, "1MiB": 1 << 20, "1M": 1 << 20, "1MB": 1e6} {
		got, err := parseSize(s)
		if err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
		if want >= minMaxMemory {
			if q, err := parseMemory(s); err != nil || q != want {
				t.Errorf("parseMemory(%q) = %d, %v; want %d as parseSize reads it", s, q, err, want)
			}
		}
	}
	for _, s := range []string{"0", "1.5G", "-3G", "12X", "", "lots"} {
		if _, err := parseSize(s); err == nil {
			t.Errorf("parseSize(%q) accepted", s)
		}
	}
}
