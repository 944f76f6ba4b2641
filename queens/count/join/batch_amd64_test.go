//go:build amd64 && !purego

package join

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBuildBatch holds the assembly build of 4-word batches (buildBatchFast with
// buildAVX2) and of 8-word batches (with buildAVX512) to the Go build: the same tables,
// word for word, for stores of 1 to 3 batches (whole and partly filled words), signatures
// of 3 to 63 bits (1 to 13 chunks), chunks of chunkBits and wideChunkBits (31 to 35 bits
// of 8-word batches in the mixed layouts), plain and weighted (some lanes not valid). Checked to fail with a swap round's shift off by one
// and with one chunk's entry 0 left unset (each width).
func TestBuildBatch(t *testing.T) {
	for _, bw := range []int{4, 8} {
		fast := buildAVX2
		if bw == 8 {
			fast = buildAVX512
		}
		if !fast {
			t.Logf("batches of %d words: this processor lacks the assembly's instructions (AVX2, AVX-512): buildBatch builds them in Go only", bw)
			continue
		}
		testBuildBatch(t, bw)
	}
}

// testBuildBatch is TestBuildBatch for batches of bw words.
func testBuildBatch(t *testing.T, bw int) {
	defer func(w int, b4, b8 bool) { matchWords, buildAVX2, buildAVX512 = w, b4, b8 }(matchWords, buildAVX2, buildAVX512)
	matchWords = bw
	rng := rand.New(rand.NewPCG(5, 6))
	mixed := 0
	for _, cb := range []int{chunkBits, wideChunkBits} {
		for _, size := range []int{1, 7, 63, 64, 65, 130, 255, 256, 257, 511, 512, 513, 700, 1100} {
			for _, width := range []uint{3, 17, 31, 32, 33, 34, 35, 45, 63} {
				for _, weighted := range []bool{false, true} {
					sigs := sparseSigs(rng, size, width, 1)
					var valid []uint64
					if weighted {
						valid = make([]uint64, (size+63)/64)
						for i := range valid {
							valid[i] = rng.Uint64()
						}
					}
					var tabs [2][]uint64
					bs := 0
					for i, fast := range []bool{false, true} {
						buildAVX2, buildAVX512 = fast, fast
						var m matcher
						m.reset(sigs)
						m.wvalid = valid
						m.cb = cb
						m.build()
						tabs[i], bs = slices.Clone(m.tab), m.bs
						if m.mix > 0 {
							mixed++
						}
					}
					// Lanes past the store are cleared by the valid-lanes mask, chunk 0's
					// first entry (both builds leave stale rows there, not the same):
					// the masks must agree, and every word is compared on its word's.
					for i := range tabs[0] {
						b := i / bs * bs
						if tabs[0][b+i%bw] != tabs[1][b+i%bw] {
							t.Fatalf("batches of %d words, store %d: valid-lanes masks of batch %d differ: assembly %#x, Go %#x", bw, size, i/bs, tabs[1][b+i%bw], tabs[0][b+i%bw])
						}
						mask := tabs[0][b+i%bw]
						tabs[0][i] &= mask
						tabs[1][i] &= mask
					}
					if !slices.Equal(tabs[0], tabs[1]) {
						i := 0
						for tabs[0][i] == tabs[1][i] {
							i++
						}
						t.Errorf("batches of %d words, chunks of %d, store %d, width %d, weighted %v: assembly table word %d = %#x, Go %#x (of %d words)",
							bw, cb, size, width, weighted, i, tabs[1][i], tabs[0][i], len(tabs[0]))
					}
				}
			}
		}
	}
	if bw == 8 && mixed == 0 && matchIndexed(8, mixedChunkBits, 1) {
		t.Errorf("batches of 8 words: no store was built in a mixed layout")
	}
}
