package frontier

import (
	"encoding/binary"
	"errors"
	"io"
)

// inflater decodes a DEFLATE stream (RFC 1951: stored, fixed and dynamic Huffman blocks,
// with or without back-references), as compress/flate's reader does, for the files of a
// spilling count (spill.go). It is faster on what those files hold, blocks of Huffman codes
// of literals only: it takes the compressed bytes from its source in large reads, keeps
// the next bits in a 64-bit word, decodes a code of up to huffFast bits by one look-up in
// a table, and writes the literals straight into its window. compress/flate reads a byte
// at a time through io.ByteReader and passes each literal through its window: its symbol
// decoding was a tenth of a spilling 7×7 open count's CPU (bench/log/2026-11-29-knight8x8.md,
// sessions 9 and 10). Codes longer than huffFast bits are decoded a bit at a time.
//
// It reads past the end of the stream (its reads are large); tail hands on the bytes after
// it, the file's trailer.
type inflater struct {
	src      io.Reader
	in       []byte // compressed bytes from src; in[ip:iend] not yet in bits
	ip, iend int
	srcEnd   bool   // src said io.EOF
	bits     uint64 // the next nb bits of the stream from bit 0; the bits above are the next ones too, or zero
	nb       uint
	out      []byte // window: history, then out[r:w] decoded not yet read
	r, w     int
	block    int // what is being decoded: blockHeader, blockStored, blockHuff
	stored   int // bytes of the stored block left
	final    bool
	done     bool // the final block ended
	err      error
	lit      huffman
	dist     huffman
	lens     [maxLit + maxDist]uint8 // code lengths read from a dynamic block's header
}

const (
	blockHeader = iota
	blockStored
	blockHuff

	winSize  = 1 << 15 // the farthest a back-reference reaches
	outChunk = 1 << 18 // decoded before Read hands them on
	maxMatch = 258
	maxLit   = 288
	maxDist  = 32
	maxBits  = 15
	huffFast = 11 // bits looked up at once
)

// errInflate reports a stream that is not valid DEFLATE.
var errInflate = errors.New("DEFLATE stream is damaged")

// huffman is a canonical Huffman code: fast[bits] is sym<<4 | len for codes of at most
// huffFast bits (0 for longer ones or unused bits); count and syms decode the rest a bit
// at a time, as zlib's puff does.
type huffman struct {
	fast  [1 << huffFast]uint16
	count [maxBits + 1]uint16
	syms  [maxLit]uint16
}

var (
	lenBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lenExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	dstBase  = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	dstExtra = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	// clOrder is the order of the code length code's lengths in a dynamic block's header.
	clOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

	fixedLit, fixedDist huffman
)

func init() {
	var l [maxLit]uint8
	for i := range l {
		switch {
		case i < 144:
			l[i] = 8
		case i < 256:
			l[i] = 9
		case i < 280:
			l[i] = 7
		default:
			l[i] = 8
		}
	}
	fixedLit.init(l[:])
	var d [maxDist]uint8
	for i := range d {
		d[i] = 5
	}
	fixedDist.init(d[:])
}

// init builds the code of the lengths (0: symbol not used); false if they are
// over-subscribed. An incomplete code is taken (as zlib does for one distance code); its
// unused codes are refused when met.
func (h *huffman) init(lens []uint8) bool {
	h.count = [maxBits + 1]uint16{}
	for _, l := range lens {
		h.count[l]++
	}
	h.count[0] = 0
	left := 1
	for l := 1; l <= maxBits; l++ {
		left = left<<1 - int(h.count[l])
		if left < 0 {
			return false
		}
	}
	var offs, next [maxBits + 2]int
	code := 0
	for l := 1; l <= maxBits; l++ {
		offs[l+1] = offs[l] + int(h.count[l])
		code = (code + int(h.count[l-1])) << 1
		next[l] = code
	}
	next[1] = 0
	h.fast = [1 << huffFast]uint16{}
	for s, l := range lens {
		if l == 0 {
			continue
		}
		h.syms[offs[l]] = uint16(s)
		offs[l]++
		c := next[l]
		next[l]++
		if l > huffFast {
			continue
		}
		rev := 0
		for i := 0; i < int(l); i++ {
			rev = rev<<1 | c>>i&1
		}
		for i := rev; i < 1<<huffFast; i += 1 << l {
			h.fast[i] = uint16(s)<<4 | uint16(l)
		}
	}
	return true
}

// Reset makes z read a new stream from src.
func (z *inflater) Reset(src io.Reader) {
	if z.in == nil {
		z.in = make([]byte, 1<<16)
		z.out = make([]byte, winSize+outChunk+maxMatch)
	}
	z.src = src
	z.ip, z.iend, z.srcEnd = 0, 0, false
	z.bits, z.nb = 0, 0
	z.r, z.w = 0, 0
	z.block, z.stored, z.final, z.done, z.err = blockHeader, 0, false, false, nil
}

// Read hands on the bytes decoded; io.EOF after the final block.
func (z *inflater) Read(p []byte) (int, error) {
	for z.r == z.w {
		if z.err != nil {
			return 0, z.err
		}
		if z.done {
			return 0, io.EOF
		}
		if z.w >= winSize+outChunk {
			copy(z.out, z.out[z.w-winSize:z.w])
			z.r, z.w = winSize, winSize
		}
		z.decode()
	}
	n := copy(p, z.out[z.r:z.w])
	z.r += n
	return n, nil
}

// Close lets go of the source; an inflater holds no file.
func (z *inflater) Close() error { z.src = nil; return nil }

// more reads from src after the bytes not yet taken; false at its end or on an error.
func (z *inflater) more() bool {
	if z.srcEnd {
		return false
	}
	n := copy(z.in, z.in[z.ip:z.iend])
	z.ip, z.iend = 0, n
	for z.iend < len(z.in) {
		m, err := z.src.Read(z.in[z.iend:])
		z.iend += m
		if err == io.EOF {
			z.srcEnd = true
			break
		}
		if err != nil {
			z.err = err
			z.srcEnd = true
			break
		}
		if m > 0 {
			break
		}
	}
	return z.iend > z.ip
}

// refill takes bytes into bits until it holds at least 56 or the source ends.
func (z *inflater) refill() {
	for z.nb <= 56 {
		if z.iend-z.ip >= 8 {
			z.bits |= binary.LittleEndian.Uint64(z.in[z.ip:]) << z.nb
			n := (63 - z.nb) >> 3
			z.ip += int(n)
			z.nb += n << 3
			return
		}
		if z.ip < z.iend {
			z.bits |= uint64(z.in[z.ip]) << z.nb
			z.ip++
			z.nb += 8
			continue
		}
		if !z.more() {
			return
		}
	}
}

// need makes sure bits holds n ≤ 56 bits; false (with z.err set) if the stream ends first.
func (z *inflater) need(n uint) bool {
	if z.nb < n {
		z.refill()
		if z.nb < n {
			z.fail(io.ErrUnexpectedEOF)
			return false
		}
	}
	return true
}

func (z *inflater) take(n uint) uint64 {
	v := z.bits & (1<<n - 1)
	z.bits >>= n
	z.nb -= n
	return v
}

func (z *inflater) fail(err error) {
	if z.err == nil {
		z.err = err
	}
}

// decode decodes until the window holds outChunk bytes past its history, the stream ends,
// or an error.
func (z *inflater) decode() {
	for z.w < winSize+outChunk && z.err == nil && !z.done {
		switch z.block {
		case blockHeader:
			if z.final {
				z.done = true
				return
			}
			z.header()
		case blockStored:
			z.copyStored()
		case blockHuff:
			z.huff()
		}
	}
}

// header reads a block's header and, for a dynamic block, its codes.
func (z *inflater) header() {
	if !z.need(3) {
		return
	}
	z.final = z.take(1) == 1
	switch z.take(2) {
	case 0:
		z.take(z.nb & 7)
		if !z.need(32) {
			return
		}
		n, nn := z.take(16), z.take(16)
		if n != ^nn&0xffff {
			z.fail(errInflate)
			return
		}
		z.stored, z.block = int(n), blockStored
	case 1:
		z.lit, z.dist = fixedLit, fixedDist
		z.block = blockHuff
	case 2:
		if z.dynamic() {
			z.block = blockHuff
		}
	default:
		z.fail(errInflate)
	}
}

// dynamic reads the codes of a dynamic block.
func (z *inflater) dynamic() bool {
	if !z.need(14) {
		return false
	}
	nlit := int(z.take(5)) + 257
	ndist := int(z.take(5)) + 1
	ncl := int(z.take(4)) + 4
	if nlit > 286 || ndist > 30 {
		z.fail(errInflate)
		return false
	}
	var cl [19]uint8
	for i := 0; i < ncl; i++ {
		if !z.need(3) {
			return false
		}
		cl[clOrder[i]] = uint8(z.take(3))
	}
	var clCode huffman
	if !clCode.init(cl[:]) {
		z.fail(errInflate)
		return false
	}
	lens := z.lens[:nlit+ndist]
	for i := 0; i < len(lens); {
		sym, ok := z.sym(&clCode)
		if !ok {
			return false
		}
		if sym < 16 {
			lens[i] = uint8(sym)
			i++
			continue
		}
		var rep int
		var v uint8
		switch sym {
		case 16:
			if i == 0 || !z.need(2) {
				z.fail(errInflate)
				return false
			}
			rep, v = 3+int(z.take(2)), lens[i-1]
		case 17:
			if !z.need(3) {
				return false
			}
			rep = 3 + int(z.take(3))
		default:
			if !z.need(7) {
				return false
			}
			rep = 11 + int(z.take(7))
		}
		if i+rep > len(lens) {
			z.fail(errInflate)
			return false
		}
		for ; rep > 0; rep-- {
			lens[i] = v
			i++
		}
	}
	if lens[256] == 0 || !z.lit.init(lens[:nlit]) || !z.dist.init(lens[nlit:]) {
		z.fail(errInflate)
		return false
	}
	return true
}

// sym decodes a symbol of code h; false (with z.err set) on an unused code or the stream's end.
func (z *inflater) sym(h *huffman) (int, bool) {
	if z.nb < maxBits {
		z.refill()
	}
	if e := h.fast[z.bits&(1<<huffFast-1)]; e != 0 && uint(e&15) <= z.nb {
		z.take(uint(e & 15))
		return int(e >> 4), true
	}
	return z.slow(h)
}

// slow decodes a symbol of h a bit at a time.
func (z *inflater) slow(h *huffman) (int, bool) {
	code, first, index := 0, 0, 0
	for l := 1; l <= maxBits; l++ {
		if z.nb == 0 {
			z.refill()
			if z.nb == 0 {
				z.fail(io.ErrUnexpectedEOF)
				return 0, false
			}
		}
		code |= int(z.take(1))
		count := int(h.count[l])
		if code-count < first {
			return int(h.syms[index+code-first]), true
		}
		index += count
		first = (first + count) << 1
		code <<= 1
	}
	z.fail(errInflate)
	return 0, false
}

// copyStored copies the stored block's bytes into the window, as many as fit.
func (z *inflater) copyStored() {
	for z.stored > 0 && z.w < winSize+outChunk {
		if z.nb >= 8 {
			z.out[z.w] = byte(z.take(8))
			z.w++
			z.stored--
			continue
		}
		if z.ip == z.iend && !z.more() {
			z.fail(io.ErrUnexpectedEOF)
			return
		}
		// bits holds no whole byte; the bits above nb are zero or the next ones, dropped
		// here, as in[ip:] is taken as it is
		z.bits, z.nb = 0, 0
		n := copy(z.out[z.w:winSize+outChunk], z.in[z.ip:min(z.iend, z.ip+z.stored)])
		z.ip += n
		z.w += n
		z.stored -= n
	}
	if z.stored == 0 {
		z.block = blockHeader
	}
}

// huff decodes a Huffman block's symbols into the window until it is full or the block ends.
// Its loop keeps the bits, the window and the input in local variables, takes 7 more
// bytes at a time when it holds fewer than 48 bits, and decodes up to three literals then.
func (z *inflater) huff() {
	out, w := z.out, z.w
	in, ip, iend := z.in, z.ip, z.iend
	bits, nb := z.bits, z.nb
	fast := &z.lit.fast
	const mask = 1<<huffFast - 1
	for w < winSize+outChunk {
		if nb < 48 {
			if iend-ip >= 8 {
				bits |= binary.LittleEndian.Uint64(in[ip:]) << nb
				n := (63 - nb) >> 3
				ip += int(n)
				nb += n << 3
			} else {
				z.ip, z.bits, z.nb = ip, bits, nb
				z.refill()
				in, ip, iend, bits, nb = z.in, z.ip, z.iend, z.bits, z.nb
			}
		}
		// nb ≥ 48 but at the stream's end: three codes of at most huffFast bits fit
		e := fast[bits&mask]
		if l := uint(e & 15); l != 0 && l <= nb && e < 256<<4 {
			bits >>= l
			nb -= l
			out[w] = byte(e >> 4)
			w++
			e = fast[bits&mask]
			if l := uint(e & 15); l != 0 && l <= nb && e < 256<<4 {
				bits >>= l
				nb -= l
				out[w] = byte(e >> 4)
				w++
				e = fast[bits&mask]
				if l := uint(e & 15); l != 0 && l <= nb && e < 256<<4 {
					bits >>= l
					nb -= l
					out[w] = byte(e >> 4)
					w++
				}
			}
			continue
		}
		// a longer code, the block's end, or a back-reference
		z.ip, z.bits, z.nb, z.w = ip, bits, nb, w
		more := z.symbol()
		in, ip, iend, bits, nb, w = z.in, z.ip, z.iend, z.bits, z.nb, z.w
		if !more {
			break
		}
	}
	z.ip, z.iend, z.bits, z.nb, z.w = ip, iend, bits, nb, w
}

// symbol decodes one symbol of a Huffman block into the window: false at the block's end
// or on an error.
func (z *inflater) symbol() bool {
	s, ok := z.sym(&z.lit)
	if !ok {
		return false
	}
	if s < 256 {
		z.out[z.w] = byte(s)
		z.w++
		return true
	}
	if s == 256 {
		z.block = blockHeader
		return false
	}
	s -= 257
	if s >= len(lenBase) {
		z.fail(errInflate)
		return false
	}
	if !z.need(uint(lenExtra[s])) {
		return false
	}
	length := int(lenBase[s]) + int(z.take(uint(lenExtra[s])))
	d, ok := z.sym(&z.dist)
	if !ok {
		return false
	}
	if d >= len(dstBase) {
		z.fail(errInflate)
		return false
	}
	if !z.need(uint(dstExtra[d])) {
		return false
	}
	dist := int(dstBase[d]) + int(z.take(uint(dstExtra[d])))
	if dist > z.w {
		z.fail(errInflate)
		return false
	}
	out, w := z.out, z.w
	for i := 0; i < length; i++ {
		out[w+i] = out[w-dist+i]
	}
	z.w = w + length
	return true
}

// tail reads the bytes after the end of the stream into b: those read past it, then
// the source's.
func (z *inflater) tail(b []byte) error {
	if !z.done {
		return errInflate
	}
	z.take(z.nb & 7)
	i := 0
	for ; i < len(b) && z.nb >= 8; i++ {
		b[i] = byte(z.take(8))
	}
	c := copy(b[i:], z.in[z.ip:z.iend])
	z.ip += c
	i += c
	if i < len(b) {
		if _, err := io.ReadFull(z.src, b[i:]); err != nil {
			return err
		}
	}
	return nil
}
