//go:build amd64 && !purego

package join

import "github.com/chesspuzzles/chesspuzzles/queens/internal/cpuid"

// haveOffsetsAVX2 reports whether offsetsAVX2 may run: AVX2 (VPSRLVQ, VPERMD) and an
// operating system that saves the 256-bit registers. AVX-512 processors have it too.
var haveOffsetsAVX2 = cpuid.AVX2

// offsetKeys holds what offsetsAVX2 needs for one chunk width cb and row of 2^rowShift
// bytes, one lane per chunk j < 8: the shift that brings chunk j's bits down (j·cb), the
// chunk's mask, the row shift, chunk j's first row (j·2^cb·2^rowShift bytes) and the
// VPERMD index that gathers the low halves of four quadwords. offsetsAVX2 reads the
// fields by their offsets: they stay in this order.
type offsetKeys struct {
	shift    [8]uint64
	mask     uint64
	rowShift uint64
	base     [8]uint32
	perm     [8]uint32
}

// offsetKeysBy holds offsetKeys for chunks of chunkBits and wideChunkBits (index cb − 5)
// and rows of 32 and 64 bytes (index rowShift − 5): the AVX2 and AVX-512 batches.
var offsetKeysBy = func() (k [2][2]offsetKeys) {
	for c := range 2 {
		for r := range 2 {
			cb, rs := uint64(chunkBits+c), uint64(5+r)
			x := &k[c][r]
			x.mask, x.rowShift = 1<<cb-1, rs
			for j := range 8 {
				x.shift[j] = uint64(j) * cb
				x.base[j] = uint32(j) << cb << rs
			}
			x.perm = [8]uint32{0, 2, 4, 6, 0, 2, 4, 6}
		}
	}
	return k
}()

// offsetsFast writes the chunk offsets of the first queries of qs into dst as offsetsGo
// does (stride slots a query, rows of row bytes, chunks of cb bits) and returns how many
// queries it did: offsetsAVX2 where it runs, for stride ≤ 8, rows of 32 or 64 bytes and
// chunks of chunkBits or wideChunkBits, each query but the last few (whose eight-slot
// store would pass the end of dst); the caller does the rest.
func offsetsFast(dst []uint32, qs []uint64, stride int, row uint32, cb uint) int {
	if !haveOffsetsAVX2 || stride > 8 || stride < 1 || (row != 32 && row != 64) || (cb != chunkBits && cb != wideChunkBits) {
		return 0
	}
	// Query i stores slots i·stride … i·stride+7: every one of them inside dst.
	if len(dst) < 8 || len(qs) == 0 {
		return 0
	}
	n := min(len(qs), (len(dst)-8)/stride+1)
	rs := 5
	if row == 64 {
		rs = 6
	}
	offsetsAVX2(&dst[0], &qs[0], n, stride*4, &offsetKeysBy[cb-chunkBits][rs-5])
	return n
}

// offsetsAVX2 is offsetsGo in assembly (offsets_amd64.s) for n ≥ 1 queries at qs, a
// query's slots strideBytes apart, k the chunk width's and row's keys: a query's eight
// slots at once (two variable shifts of the broadcast query, a mask, a gather of the low
// halves, a shift and an add), stored whole, so that slots past the query's stride are
// written too and rewritten by the next query. Its loop is aligned (PCALIGN), so that its
// speed does not move with its address in the binary, as chunkOffsets's Go loop did.
//
//go:noescape
func offsetsAVX2(dst *uint32, qs *uint64, n, strideBytes int, k *offsetKeys)
