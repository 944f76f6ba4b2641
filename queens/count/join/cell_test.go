package join

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestJoinCell holds cellPairs (the AVX-512 kernel where the processor has one, else the
// AVX2 one and cellPairsGo for the last south pieces) to cellPairsGo, the same signatures
// after what out held (in some order), on random pieces: every
// length of the south list from 0 to 40 (whole steps of eight and a partial one), north
// lists with and without forbidden masks, the frames of half A and half B, and a
// capacity that leaves only the slack appendPairs promises.
func TestJoinCell(t *testing.T) {
	if !haveCellAVX512 && !haveCellAVX2 {
		t.Log("no AVX-512 or AVX2: cellPairs is cellPairsGo")
	}
	rng := rand.New(rand.NewPCG(5, 33))
	for h := 5; h <= 13; h += 4 {
		s, W := uint(h), uint(2*h-1)
		m := uint64(1)<<W - 1
		sparse := func() uint64 { // about one bit in eight, so that some pairs are compatible
			x, y, z := rng.Uint64(), rng.Uint64(), rng.Uint64()
			return x & y & z & m
		}
		piece := func() uint64 { return sparse() | sparse()<<32 }
		for ns := 0; ns <= 40; ns++ {
			for _, isB := range []bool{false, true} {
				var fd, fu uint32
				if ns%3 == 1 {
					fd, fu = 1<<(h-1), uint32(1)<<uint(rng.IntN(h))
				}
				f := newPairFrame(fd, fu, s, W, isB)
				north := make([]uint64, rng.IntN(20))
				for i := range north {
					north[i] = piece()
				}
				south := prepareSouth(pieceList{}, nil, 0, 0, s, W, isB)
				for len(south.clash) < ns {
					south = prepareSouth(south, []uint64{piece()}, 0, 0, s, W, isB)
				}
				prefix := []uint64{7, 8, 9}
				room := len(prefix) + len(north)*ns + cellSlack
				want := cellPairsGo(append(make([]uint64, 0, room), prefix...), north, south.clash, south.sig, &f)
				got := cellPairs(append(make([]uint64, 0, room), prefix...), north, south.clash, south.sig, &f)
				// The same signatures after the prefix; the kernel may make a block's
				// pairs south piece by south piece (see cellPairsAVX512).
				slices.Sort(got[len(prefix):])
				slices.Sort(want[len(prefix):])
				if !slices.Equal(got, want) {
					t.Fatalf("h %d, %d north, %d south, half B %v, forbidden %#x %#x: cellPairs gives %d signatures %x, cellPairsGo %d %x", h, len(north), ns, isB, fd, fu, len(got), got, len(want), want)
				}
			}
		}
	}
}
