package join

import "math/bits"

// bitExtract squeezes the bits of a word selected by a mask into the low bits, in order:
// extract(x) = the bits of x at the mask's set positions, packed (x86's PEXT). The pure-Go
// form precomputes the mask's runs of consecutive ones, so one extract is one AND, shift
// and OR per run (a signature's mask has a handful of runs: holes and cut bits are few).
type bitExtract struct {
	mask  uint64
	nr    int
	run   [32]uint64 // run r's bits, in place
	shift [32]uint8  // how far run r moves down
}

// set prepares e for mask.
func (e *bitExtract) set(mask uint64) {
	e.mask, e.nr = mask, 0
	out := 0
	for m := mask; m != 0; {
		lo := bits.TrailingZeros64(m)
		l := bits.TrailingZeros64(^(m >> lo))
		r := (uint64(1)<<l - 1) << lo
		if l == 64 {
			r = ^uint64(0)
		}
		e.run[e.nr], e.shift[e.nr] = r, uint8(lo-out)
		e.nr++
		out += l
		m &^= r
	}
}

// one returns the extract of x.
func (e *bitExtract) one(x uint64) uint64 {
	var r uint64
	for i := range e.nr {
		r |= (x & e.run[i]) >> (e.shift[i] & 63)
	}
	return r
}

// extractGo writes to dst[i] the extract of src[i] by e's mask, for i < len(src); dst
// must be at least as long. It is the pure-Go twin of extractPEXT.
func extractGo(dst, src []uint64, e *bitExtract) {
	dst = dst[:len(src)]
	switch e.nr {
	case 0:
		clear(dst)
	case 1:
		r, s := e.run[0], e.shift[0]&63
		for i, x := range src {
			dst[i] = (x & r) >> s
		}
	default:
		for i, x := range src {
			dst[i] = e.one(x)
		}
	}
}

// extractAll is extractGo, or extractPEXT where the processor has BMI2 (both give the same
// words: TestExtractTwins, FuzzExtract).
func extractAll(dst, src []uint64, e *bitExtract) {
	if havePEXT && len(src) > 0 {
		_ = dst[len(src)-1]
		extractPEXT(&dst[0], &src[0], len(src), e.mask)
		return
	}
	extractGo(dst, src, e)
}
