//go:build amd64 && !purego

package join

// buildAVX2 reports whether buildBatch builds batches of 4-word rows in assembly
// (transposeNot4AVX2, fillChunks4AVX2): wherever AVX2 runs. Tests turn it off to hold the
// assembly to the Go build.
var buildAVX2 = haveMatchAVX2

// buildAVX512 reports whether buildBatch builds batches of 8-word rows in assembly
// (transposeNot8AVX512, fillChunks8AVX512): wherever the AVX-512 kernel runs (AVX-512 F
// is all they need). The Go build's 64×64 transposes, a word at a time, were 11 % of
// N = 18's CPU on an AVX-512 machine (perf, 30 Nov), the fill 3 %. Tests turn it off to
// hold the assembly to the Go build.
var buildAVX512 = haveMatchAVX512

// transposeNot4AVX2 runs four complemented transpose64s side by side (batch_amd64.s):
// afterwards bit i of word w of rows[b] (w < 4, b < 64) is NOT what bit b of word w of
// rows[i] was; words 4–7 and rows 64 on are left as they were. About 1,300 instructions,
// against some 8,000 for four transpose64 calls.
//
//go:noescape
func transposeNot4AVX2(rows *[64 + wideChunkBits][8]uint64)

// fillChunks4AVX2 is buildBatch's four-Russians fill of nch chunks of cb bits in a batch
// of 4-word rows at t (batch_amd64.s), the rows of the chunks' bits in rows (words 0–3),
// entry 0 of each chunk set by the caller: one load-AND and one store an entry.
//
//go:noescape
func fillChunks4AVX2(t *uint64, rows *[64 + wideChunkBits][8]uint64, nch, cb int)

// transposeNot8AVX512 is transposeNot4AVX2 on all eight words of rows (batch_amd64.s):
// afterwards bit i of word w of rows[b] (w < 8, b < 64) is NOT what bit b of word w of
// rows[i] was; rows 64 on are left as they were.
//
//go:noescape
func transposeNot8AVX512(rows *[64 + wideChunkBits][8]uint64)

// fillChunks8AVX512 is fillChunks4AVX2 for a batch of 8-word rows (batch_amd64.s).
//
//go:noescape
func fillChunks8AVX512(t *uint64, rows *[8]uint64, nch, cb int)

// buildBatchFast is buildBatch in assembly for batches of 4-word rows where buildAVX2
// and of 8-word rows where buildAVX512 (valid the batch's valid-lanes mask, m.rows' rows
// 64 on all ones): it fills t and reports true, or reports false and leaves t to the Go
// build. The store's signatures are copied into m.rows in buildBatch's lanes (stale rows
// past the store: their lanes are cleared by valid), transposed and complemented four or eight at a time
// (transposeNot4AVX2, transposeNot8AVX512), and each chunk's entry 0 set before the fill
// (fillChunks4AVX2, fillChunks8AVX512); the same table as the Go build (TestBuildBatch).
func (m *matcher) buildBatchFast(t []uint64, sigs []uint64, valid *[8]uint64) bool {
	bw := m.bw
	switch {
	case bw == 4 && buildAVX2, bw == 8 && buildAVX512:
	default:
		return false
	}
	if m.wvalid == nil {
		// A plain store, interleaved (buildBatch): row k's words 4h…4h+3 are
		// signatures 256h + 4k … 256h + 4k + 3. Lanes past the store keep stale
		// rows, cleared by valid.
		for h := range bw / 4 {
			src := sigs[min(256*h, len(sigs)):min(256*h+256, len(sigs))]
			full := len(src) / 4
			// Word by word: the compiler made each 32-byte copy a call of memmove.
			for k := range full {
				s, r := src[4*k:4*k+4], m.rows[k][4*h:4*h+4]
				r[0], r[1], r[2], r[3] = s[0], s[1], s[2], s[3]
			}
			copy(m.rows[full&63][4*h:4*h+4], src[4*full:])
		}
	} else {
		for w := range bw {
			lo := w * 64
			if lo >= len(sigs) {
				break // words past the store keep stale rows, cleared by valid
			}
			for k, s := range sigs[lo:min(lo+64, len(sigs))] {
				m.rows[k][w] = s
			}
		}
	}
	cb := m.cb
	if bw == 8 {
		transposeNot8AVX512(&m.rows)
		kn, kc := m.kernelChunks()
		for j := range m.nch {
			_, r0, _ := chunkSpan(kn, kc, j)
			e := (*[8]uint64)(t[r0*8:])
			if j == 0 {
				*e = *valid
			} else {
				*e = [8]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
			}
		}
		if m.mix == 0 {
			fillChunks8AVX512(&t[0], &m.rows[0], m.nch, cb)
			return true
		}
		// The mixed layout: its 7-bit chunks, then its 6-bit ones, each run filled from
		// its first row on.
		fillChunks8AVX512(&t[0], &m.rows[0], m.mix, mixedChunkBits)
		if m.mix < mixedChunks {
			bit, r0, _ := chunkSpan(m.mix, mixedChunkBits, m.mix)
			fillChunks8AVX512(&t[r0*8], &m.rows[bit], mixedChunks-m.mix, wideChunkBits)
		}
		return true
	}
	transposeNot4AVX2(&m.rows)
	for j := range m.nch {
		e := (*[4]uint64)(t[j<<cb*4:])
		if j == 0 {
			*e = [4]uint64{valid[0], valid[1], valid[2], valid[3]}
		} else {
			*e = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		}
	}
	fillChunks4AVX2(&t[0], &m.rows, m.nch, cb)
	return true
}
