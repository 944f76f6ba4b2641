package main

import (
	"testing"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		i, k int
		ok   bool
	}{
		{"first", "0/3", 0, 3, true},
		{"last", "2/3", 2, 3, true},
		{"whole", "0/1", 0, 1, true},
		{"index too big", "3/3", 0, 0, false},
		{"negative", "-1/3", 0, 0, false},
		{"zero slices", "0/0", 0, 0, false},
		{"no slash", "3", 0, 0, false},
		{"empty", "", 0, 0, false},
		{"words", "a/b", 0, 0, false},
		{"two slashes", "1/2/3", 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i, k, err := parseShard(tc.in)
			if (err == nil) != tc.ok || i != tc.i || k != tc.k {
				t.Errorf("parseShard(%q) = %d, %d, %v; want %d, %d, ok=%v", tc.in, i, k, err, tc.i, tc.k, tc.ok)
			}
		})
	}
}

// FuzzParseShard: parseShard never panics and accepts only 0 ≤ I < K.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/3", "2/3", "3/3", "-1/2", "0/0", "x", "1/2/3", "+1/+2", " 1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i, k, err := parseShard(s)
		if err == nil && (k < 1 || i < 0 || i >= k) {
			t.Fatalf("parseShard(%q) = %d, %d, want 0 ≤ I < K", s, i, k)
		}
	})
}
