package join

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// cellKernel is one way of making a cell's pairs with cellPairs' contract (out has room for
// the whole product and cellSlack more words); cellKernels lists cellPairs and the
// processor's kernels that can run here, each on the cells it accepts.
type cellKernel struct {
	name string
	// fits reports whether the kernel takes a cell of nn north and ns south pieces.
	fits func(nn, ns int) bool
	run  func(out []uint64, north []uint64, sc, ss []uint64, f *pairFrame) []uint64
}

// randomCell returns nn north pieces, ns south pieces prepared for half B or A and the
// frame of half-boards of h rows, with a forbidden mask where forbid says: pieces with
// about one bit in eight set, so that some pairs are compatible and some not.
func randomCell(rng *rand.Rand, h, nn, ns int, isB, forbid bool) ([]uint64, pieceList, pairFrame) {
	s, W := uint(h), uint(2*h-1)
	m := uint64(1)<<W - 1
	sparse := func() uint64 {
		x, y, z := rng.Uint64(), rng.Uint64(), rng.Uint64()
		return x & y & z & m
	}
	piece := func() uint64 { return sparse() | sparse()<<32 }
	var fd, fu uint32
	if forbid {
		fd, fu = 1<<(h-1), uint32(1)<<uint(rng.IntN(h))
	}
	f := newPairFrame(fd, fu, s, W, isB)
	north := make([]uint64, nn)
	for i := range north {
		north[i] = piece()
	}
	south := prepareSouth(pieceList{}, nil, 0, 0, s, W, isB)
	for len(south.clash) < ns {
		south = prepareSouth(south, []uint64{piece()}, 0, 0, s, W, isB)
	}
	return north, south, f
}

// checkCell runs every kernel that takes the cell against cellPairsGo: the same signatures
// after what out held, in some order (a kernel may make the pairs south piece by south
// piece), and nothing stored past the slack cellPairs may use.
func checkCell(t *testing.T, north []uint64, south pieceList, f *pairFrame, what string) {
	t.Helper()
	prefix := []uint64{7, 8, 9}
	room := len(prefix) + len(north)*len(south.clash) + cellSlack
	want := cellPairsGo(append(make([]uint64, 0, room), prefix...), north, south.clash, south.sig, f)
	slices.Sort(want[len(prefix):])
	for _, k := range cellKernels() {
		if !k.fits(len(north), len(south.clash)) {
			continue
		}
		buf := make([]uint64, room+4)
		for i := range buf {
			buf[i] = 0xdead
		}
		got := k.run(append(buf[:0:room], prefix...), north, south.clash, south.sig, f)
		if tail := buf[room:]; !slices.Equal(tail, []uint64{0xdead, 0xdead, 0xdead, 0xdead}) {
			t.Fatalf("%s, %d north, %d south: %s stored past the room: %x", what, len(north), len(south.clash), k.name, tail)
		}
		slices.Sort(got[len(prefix):])
		if !slices.Equal(got, want) {
			t.Fatalf("%s, %d north, %d south: %s gives %d signatures %x, cellPairsGo %d %x", what, len(north), len(south.clash), k.name, len(got), got, len(want), want)
		}
	}
}

// TestJoinCell holds cellPairs (the AVX-512 kernel where the processor has one, else
// the AVX2 ones in the order that takes fewer steps) and each AVX2 kernel on its own to
// cellPairsGo on random pieces: every length of the south list from 0 to 40, north lists
// of 0 to 9 pieces (whole blocks of four and partial ones) and longer, with and without
// forbidden masks, the frames of half A and half B, and a capacity that leaves only the
// slack appendPairs promises.
func TestJoinCell(t *testing.T) {
	if !haveCellAVX512 && len(cellKernels()) == 1 {
		t.Log("no AVX-512 or AVX2: cellPairs is cellPairsGo")
	}
	rng := rand.New(rand.NewPCG(5, 33))
	for h := 5; h <= 13; h += 4 {
		for ns := 0; ns <= 40; ns++ {
			for _, isB := range []bool{false, true} {
				for _, nn := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16 + rng.IntN(20)} {
					north, south, f := randomCell(rng, h, nn, ns, isB, (ns+nn)%3 == 1)
					checkCell(t, north, south, &f, fmt.Sprintf("h %d, half B %v, forbidden %#x", h, isB, f.forbid))
				}
			}
		}
	}
}

// FuzzJoinCell holds cellPairs and each kernel to cellPairsGo (as TestJoinCell) on cells
// drawn from the fuzzer's seed: 0 to 63 north and south pieces, half-boards of 4 to 15 rows.
func FuzzJoinCell(f *testing.F) {
	f.Add(uint64(1), uint8(5), uint8(3), uint8(8), false, false)
	f.Add(uint64(2), uint8(13), uint8(17), uint8(2), true, true)
	f.Add(uint64(3), uint8(9), uint8(4), uint8(41), true, false)
	f.Fuzz(func(t *testing.T, seed uint64, h, nn, ns uint8, isB, forbid bool) {
		rng := rand.New(rand.NewPCG(seed, 17))
		hh := int(h)%12 + 4
		north, south, fr := randomCell(rng, hh, int(nn)%64, int(ns)%64, isB, forbid)
		checkCell(t, north, south, &fr, fmt.Sprintf("seed %d, h %d, half B %v, forbidden %#x", seed, hh, isB, fr.forbid))
	})
}
