package join

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestChunkOffsets holds chunkOffsets (the assembly of offsetsFast where this machine
// runs it, then offsetsGo) to offsetsGo, the definition, for every stride from 1 to 10, both
// chunk widths, rows of 32 and 64 bytes and 0 to 40 queries, and checks that nothing past
// the queries' slots is written (the assembly stores eight slots a query).
func TestChunkOffsets(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for stride := 1; stride <= 10; stride++ {
		for _, cb := range []uint{chunkBits, wideChunkBits} {
			for _, bw := range []int{4, 8} {
				row := uint32(8 * bw)
				for nq := range 41 {
					qs := make([]uint64, nq)
					for i := range qs {
						qs[i] = rng.Uint64() >> 1 // signatures leave bit 63 clear
					}
					want := make([]uint32, nq*stride)
					offsetsGo(want, qs, stride, row, cb)
					// dst is the front of a longer buffer, as a bucket of the sieve's is.
					buf := make([]uint32, nq*stride+16)
					for i := range buf {
						buf[i] = 0xdeadbeef
					}
					got := chunkOffsets(buf[:0], qs, stride, bw, int(cb))
					if !slices.Equal(got, want) {
						t.Fatalf("stride %d, chunks of %d, rows of %d bytes, %d queries: chunkOffsets = %v, want %v", stride, cb, row, nq, got, want)
					}
					for i, v := range buf[nq*stride:] {
						if v != 0xdeadbeef {
							t.Fatalf("stride %d, chunks of %d, rows of %d bytes, %d queries: slot %d past the end written", stride, cb, row, nq, nq*stride+i)
						}
					}
				}
			}
		}
	}
}

// FuzzChunkOffsets holds chunkOffsets to offsetsGo on queries from the fuzzer.
func FuzzChunkOffsets(f *testing.F) {
	f.Add(uint64(0x1234_5678_9abc), uint64(0x7fff_ffff_ffff_ffff), uint8(6), false, true)
	f.Add(uint64(0), uint64(1), uint8(1), true, false)
	f.Fuzz(func(t *testing.T, a, b uint64, stride uint8, wide, wideRow bool) {
		s := int(stride%10) + 1
		cb, bw := uint(chunkBits), 4
		if wide {
			cb = wideChunkBits
		}
		if wideRow {
			bw = 8
		}
		row := uint32(8 * bw)
		qs := []uint64{a >> 1, b >> 1, (a ^ b) >> 1, a & b >> 1, (a | b) >> 1, a >> 7, b >> 13, 0, 1<<63 - 1}
		want := make([]uint32, len(qs)*s)
		offsetsGo(want, qs, s, row, cb)
		got := chunkOffsets(nil, qs, s, bw, int(cb))
		if !slices.Equal(got, want) {
			t.Fatalf("stride %d, chunks of %d, rows of %d: chunkOffsets = %v, want %v", s, cb, row, got, want)
		}
	})
}
