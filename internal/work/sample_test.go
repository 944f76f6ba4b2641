package work

import "testing"

// TestVerifySample: the sample is ⌈f·total⌉, at least one task when f > 0, none for f ≤ 0
// or no task.
func TestVerifySample(t *testing.T) {
	for _, tt := range []struct {
		f           float64
		total, want int
	}{
		{0, 100, 0}, {0.02, 100, 2}, {0.02, 10, 1}, {0.001, 3, 1}, {1, 7, 7}, {0.5, 0, 0}, {0.021, 100, 3}, {-1, 5, 0},
	} {
		if got := VerifySample(tt.f, tt.total); got != tt.want {
			t.Errorf("VerifySample(%v, %d) = %d, want %d", tt.f, tt.total, got, tt.want)
		}
	}
}
