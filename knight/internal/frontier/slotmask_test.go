package frontier

import (
	"math/rand/v2"
	"testing"
)

// TestSlotMasks checks slotMasks against a loop over the slots, on random pictures of the
// values a picture holds (0 to 15).
func TestSlotMasks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		var b picture
		for s := range b {
			b[s] = uint8(r.IntN(16))
			if r.IntN(2) == 0 {
				b[s] = uint8(r.IntN(3)) // free, full and loose more often
			}
		}
		var fr, fu, lo uint32
		for s, x := range b {
			switch x {
			case free:
				fr |= 1 << s
			case full:
				fu |= 1 << s
			case loose:
				lo |= 1 << s
			}
		}
		if gfr, gfu, glo := slotMasks(&b); gfr != fr || gfu != fu || glo != lo {
			t.Fatalf("slotMasks(%v) = %b, %b, %b; want %b, %b, %b", b, gfr, gfu, glo, fr, fu, lo)
		}
	}
}
