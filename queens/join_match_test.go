package queens

import (
	"math/rand/v2"
	"testing"
)

// TestTranspose64 checks the block-swap transpose against the bit-by-bit definition.
func TestTranspose64(t *testing.T) {
	var a, want [64]uint64
	for i := range a {
		a[i] = rand.Uint64()
	}
	for i := range 64 {
		for b := range 64 {
			if a[i]>>b&1 != 0 {
				want[b] |= 1 << i
			}
		}
	}
	got := a
	transpose64(&got)
	if got != want {
		t.Fatalf("mismatch")
	}
}
