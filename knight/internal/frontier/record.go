package frontier

import (
	"encoding/binary"
	"math/bits"
)

// A record of a run (runs.go) is a header byte, the difference from the previous key of
// the run (the first: from 0; at least 1, as keys are unique) in 1–8 bytes, the low 64 bits
// of the count in 0–8 bytes and, with 128-bit counts when the high bits are not zero, a
// byte giving their length and the high bits in 1–8 bytes; all little-endian without
// leading zero bytes. The header holds the key difference's length less one (bits 0–2),
// the low count's length (bits 3–6) and whether high bits follow (bit 7). A record is never
// split between chunks, and a chunk keeps recMax bytes past the start of its last record,
// so that fields are read and written as whole 8-byte words. Neighbouring keys of a sorted
// layer are close and most counts small: 3.8–4.7 bytes a record on 7×8 closed.

// recMax is the most bytes a record can take.
const recMax = 1 + 8 + 8 + 1 + 8

// byteMask[n] keeps the low n bytes of a word.
var byteMask = [9]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff, ^uint64(0)}

// recLen is the bytes of the record of a key difference d ≥ 1 and count (lo, hi).
func recLen(d, lo, hi uint64) int {
	n := 1 + (bits.Len64(d)+7)>>3 + (bits.Len64(lo)+7)>>3
	if hi != 0 {
		n += 1 + (bits.Len64(hi)+7)>>3
	}
	return n
}

// putRec writes the record of key difference d ≥ 1 and count (lo, hi) at the start of b,
// which must have recMax bytes, and returns its length.
func putRec(b []byte, d, lo, hi uint64) int {
	_ = b[recMax-1]
	kl := (bits.Len64(d) + 7) >> 3
	ll := (bits.Len64(lo) + 7) >> 3
	binary.LittleEndian.PutUint64(b[1:9], d)
	binary.LittleEndian.PutUint64(b[1+kl:9+kl], lo)
	p := 1 + kl + ll
	h := byte(kl-1) | byte(ll)<<3
	if hi != 0 {
		h |= 0x80
		hl := (bits.Len64(hi) + 7) >> 3
		b[p] = byte(hl)
		binary.LittleEndian.PutUint64(b[p+1:p+9], hi)
		p += 1 + hl
	}
	b[0] = h
	return p
}

// getRec reads the record at the start of b (which must have recMax bytes): its key
// difference, count and length.
func getRec(b []byte) (d, lo, hi uint64, n int) {
	_ = b[recMax-1]
	h := b[0]
	kl := int(h&7) + 1
	ll := int(h>>3) & 15
	d = binary.LittleEndian.Uint64(b[1:9]) & byteMask[kl]
	lo = binary.LittleEndian.Uint64(b[1+kl:9+kl]) & byteMask[ll&15%9]
	n = 1 + kl + ll
	if h&0x80 != 0 {
		hl := int(b[n]) % 9
		hi = binary.LittleEndian.Uint64(b[n+1:n+9]) & byteMask[hl]
		n += 1 + hl
	}
	return d, lo, hi, n
}
