package frontier

import (
	"encoding/binary"
	"math/bits"
)

// The values of a cell of the window (see the package comment) and their packing.
const (
	free       = 0
	full       = 1
	loose      = 2
	firstLabel = 3
	base       = 11
	// MaxRows is the largest short side the sweep handles: its window holds 2·MaxRows+1
	// cells, packed in 64 bits.
	MaxRows = 8
	maxW    = 2*MaxRows + 1
)

// picture is the extended window of a step: slots 0..W-1 the cells v-W..v-1, W the new
// cell v.
type picture = [maxW + 1]uint8

// degree returns the edges a cell of value x has.
func degree(x uint8) int8 {
	switch x {
	case free:
		return 0
	case full:
		return 2
	}
	return 1
}

// encodeShift packs slots 1..W of a (the window after the step), relabelling fragments
// in order of first appearance from slot W down. The slots are packed as they are, eight
// base-11 digits of a word at a time (pairs, then quads, then the eight: three
// multiplications, no chain over the slots), and then the labelled slots, found by a mask
// as slotMasks finds its values, are corrected by the difference of their new label times
// their digit's weight: a loop over the few labelled slots, not a branch on every slot
// (the loop over all 17 slots of 8 rows was 15 % of the 8×8 count's CPU). Every slot
// holds a value below 16. The former loop is the tests' reference (encodeShiftLoop).
func encodeShift(a *picture, W int) uint64 {
	const ones = 0x0101010101010101
	// slot s is byte s-1 of lo (s ≤ 8), of hi (9 ≤ s ≤ 16), or top (s = 17); past W, 0
	lo := binary.LittleEndian.Uint64(a[1:9]) & byteMask[min(W, 8)]
	hi := binary.LittleEndian.Uint64(a[9:17]) & byteMask[min(max(W-8, 0), 8)]
	top := uint64(0)
	if W >= maxW {
		top = uint64(a[maxW])
	}
	const p8 = base * base * base * base * base * base * base * base
	key := pack8(lo) + pack8(hi)*p8 + top*(p8*p8)
	// labelled slots (values 3 to 15): bit s-1 for slot s; x ≥ 3 exactly when x + 0x7d
	// has its top bit set (x < 0x80)
	gather := func(w uint64) uint32 {
		z := (w + 0x7d*ones) & (0x80 * ones)
		return uint32((z >> 7) * 0x0102040810204080 >> 56)
	}
	labs := gather(lo) | gather(hi)<<8
	if top >= firstLabel {
		labs |= 1 << 16
	}
	// m maps each label met to its new one, a nibble a label (0: not met yet), and next is
	// the next new label: without a branch on whether a label is new (which the 8-row
	// profile found mispredicted).
	var m uint64
	next := uint64(firstLabel)
	for labs != 0 {
		i := bits.Len32(labs) - 1
		labs &^= 1 << i
		x := uint64(a[i+1] & 15)
		y := (m >> (4 * x)) & 15
		fresh := (y - 1) >> 63 // 1 when y is 0
		y |= next & -fresh
		m |= y << (4 * x)
		next += fresh
		key += (y - x) * pow11[i]
	}
	return key
}

// pack8 is the base-11 number of the eight digits of w, its low byte the least
// significant (each digit below 16).
func pack8(w uint64) uint64 {
	w = w&0x00ff00ff00ff00ff + (w>>8&0x00ff00ff00ff00ff)*base
	w = w&0x0000ffff0000ffff + (w>>16&0x0000ffff0000ffff)*(base*base)
	return w&0xffffffff + (w>>32)*(base*base*base*base)
}

// pow11[i] is 11^i.
var pow11 = func() (p [maxW]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * base
	}
	return p
}()

// encode packs slots 0..W-1 of a (the initial state; no labels).
func encode(a *picture, W int) uint64 {
	var key uint64
	for s := W - 1; s >= 0; s-- {
		key = key*base + uint64(a[s])
	}
	return key
}

// decode unpacks key (below 11^W) into slots 0..W-1 of a: the digit of slot 0 is the
// least significant (slot s of the window after a step is slot s+1 of the extended window
// encoded above); slots W..maxW-1 get 0 (their digits). Two divisions split the key into
// eight digits, eight and the top one, and each eight are split by unpack8 as lanes of a
// word: not a chain of a division a digit or two.
func decode(a *picture, key uint64, W int) {
	_ = W // every digit past W-1 is 0
	const p8 = base * base * base * base * base * base * base * base
	q := key / p8
	top := q / p8
	binary.LittleEndian.PutUint64(a[0:8], unpack8(key-q*p8))
	binary.LittleEndian.PutUint64(a[8:16], unpack8(q-top*p8))
	a[16] = uint8(top)
}

// unpack8 returns the eight base-11 digits of x < 11^8 as the bytes of a word, the least
// significant first. x is split into two halves of four digits (32-bit lanes), each lane
// into two pairs (16-bit lanes), each pair into two digits (bytes), by multiplications
// that divide every lane at once: ⌊v/121⌋ = v·8666 >> 20 for v < 11^4, ⌊v/11⌋ = v·187 >>
// 11 for v < 121 (exact in those ranges, and no lane's product reaches the next lane's
// quotient bits).
func unpack8(x uint64) uint64 {
	h := x / (base * base * base * base)
	w := (x - h*(base*base*base*base)) | h<<32
	q := (w * 8666 >> 20) & 0x000000ff000000ff
	w = (w - q*(base*base)) | q<<16
	q = (w * 187 >> 11) & 0x000f000f000f000f
	return (w - q*base) | q<<8
}
