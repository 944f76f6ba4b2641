package frontier

import "testing"

// TestJoinCands checks joinCands against the pairings it stands for.
func TestJoinCands(t *testing.T) {
	for m, want := range []int{1, 1, 2, 8, 48, 384, 3840} {
		if m == 0 {
			continue
		}
		if got := joinCands(m); got != want {
			t.Errorf("joinCands(%d) = %d, want %d", m, got, want)
		}
	}
}
