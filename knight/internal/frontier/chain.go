package frontier

import (
	"encoding/binary"
	"fmt"
	"math"
)

// A chain is a sorted run of records (a layer, or a run a step spilled) kept as a list of
// files, its segments, each a file of the format spill.go describes (header, DEFLATE
// records, trailer with its own checksum). A segment ends once its records take segRaw
// bytes before compression; the next takes the records after. So a chain read in order can
// give back each segment's disk as soon as it is read (the layer a step reads: at each
// cut that passed the segment's end), and a merge of chains by key ranges (job.go) can
// remove the segments every range of which is merged. The lists of segments are kept in
// the small sealed files that need them (a layer's manifest, a cut, a merge's list), each
// segment with its records and bytes and the greatest key it holds, so a segment already
// removed is skipped without being read.
//
// Cost: none against one file per run: the records are the same, and a segment's header
// and trailer take 61 bytes.

// seg is a segment of a chain: its file, records (-1: not known, a file of an older build
// that kept a run in one file), bytes, and the greatest key it holds (or a bound on it).
type seg struct {
	name  string
	n     int64
	bytes int64
	last  uint64
}

// oldSeg is the segment that is the whole of a run or layer file of an older build.
func oldSeg(name string, bytes int64) seg {
	return seg{name: name, n: -1, bytes: bytes, last: math.MaxUint64}
}

// segName is the i-th segment of the chain base.
func segName(base string, i int) string { return fmt.Sprintf("%s-%04d", base, i) }

// appendChain appends the list of segments c: their number (4 bytes), then for each its
// name (its length in a byte, then its bytes), records, bytes and last key (8 each).
func appendChain(b []byte, c []seg) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(c)))
	for _, s := range c {
		b = append(b, byte(len(s.name)))
		b = append(b, s.name...)
		b = binary.LittleEndian.AppendUint64(b, uint64(s.n))
		b = binary.LittleEndian.AppendUint64(b, uint64(s.bytes))
		b = binary.LittleEndian.AppendUint64(b, s.last)
	}
	return b
}

// readChain reads a list that appendChain wrote at the start of b: the segments and the
// bytes after them, or ok false if b is too short.
func readChain(b []byte) (c []seg, rest []byte, ok bool) {
	if len(b) < 4 {
		return nil, nil, false
	}
	count := binary.LittleEndian.Uint32(b)
	b = b[4:]
	for range count {
		if len(b) < 1 || len(b) < 1+int(b[0])+24 {
			return nil, nil, false
		}
		l := int(b[0])
		s := seg{name: string(b[1 : 1+l])}
		b = b[1+l:]
		s.n = int64(binary.LittleEndian.Uint64(b))
		s.bytes = int64(binary.LittleEndian.Uint64(b[8:]))
		s.last = binary.LittleEndian.Uint64(b[16:])
		b = b[24:]
		c = append(c, s)
	}
	return c, b, true
}

// chainRecs is the records of chain c, or -1 if a segment's are not known.
func chainRecs(c []seg) int64 {
	var n int64
	for _, s := range c {
		if s.n < 0 {
			return -1
		}
		n += s.n
	}
	return n
}

// chainWriter writes a chain, segment after segment (see the comment at the top).
type chainWriter struct {
	s    *spillRuns
	base string
	h    header
	raw  int  // bytes of records before compression that end a segment
	seal bool // each segment written as its name.tmp and renamed once synced
	w    *fileWriter
	segs []seg
	last uint64
}

func (s *spillRuns) newChain(base string, h header, seal bool) *chainWriter {
	return &chainWriter{s: s, base: base, h: h, raw: s.segRaw, seal: seal}
}

// put appends the record of key k (greater than the last) and count (lo, hi).
func (c *chainWriter) put(k, lo, hi uint64) error {
	if c.w == nil {
		name := segName(c.base, len(c.segs))
		if c.seal {
			name += tmpSuffix
		}
		w, err := createRun(c.s.disk, name, c.h)
		if err != nil {
			return err
		}
		c.s.noteSize(name, w.bytes)
		c.w = w
	}
	if err := c.w.put(k, lo, hi); err != nil {
		return err
	}
	c.last = k
	if c.w.n&0xfffff == 0 {
		c.s.noteSize(c.w.name, c.w.bytes)
	}
	if c.w.raw >= int64(c.raw) {
		return c.end()
	}
	return nil
}

// end ends the segment being written: synced, and renamed if the chain seals them.
func (c *chainWriter) end() error {
	w := c.w
	c.w = nil
	if err := w.close(true); err != nil {
		return err
	}
	c.s.noteSize(w.name, w.bytes)
	name := segName(c.base, len(c.segs))
	if c.seal {
		if err := c.s.disk.Rename(w.name, name); err != nil {
			return err
		}
		c.s.renamed(w.name, name)
	}
	c.segs = append(c.segs, seg{name: name, n: int64(w.n), bytes: w.bytes, last: c.last})
	return nil
}

// close ends the chain and returns its segments.
func (c *chainWriter) close() ([]seg, error) {
	if c.w != nil {
		if err := c.end(); err != nil {
			return nil, err
		}
	}
	return c.segs, nil
}

// abandon closes the segment being written, if any, and removes every segment written.
func (c *chainWriter) abandon() {
	if c.w != nil {
		c.w.close(false)
		c.s.noteSize(c.w.name, c.w.bytes)
		c.s.remove(c.w.name)
		c.w = nil
	}
	for _, sg := range c.segs {
		c.s.remove(sg.name)
	}
	c.segs = nil
}

// chainReader reads the records of a chain in order, segment after segment, from the
// segment i0, keeping the keys from lo to hi (both included): the records before lo are
// skipped, and the reading stops at the first key past hi. Each segment's records are
// checked against its trailer once read to its end.
type chainReader struct {
	d      Disk
	segs   []seg
	i      int // the segment open (or to open)
	r      *fileReader
	lo, hi uint64
	// lim: the reader opens no segment after one whose last key is lim or more; it pauses
	// there (next returns false) and goes on once lim is raised (readers carried from one
	// range of a job to the next, job.go). It is hi unless raised.
	lim       uint64
	k, v0, v1 uint64 // the record read: key and count
	n         int64  // records of the chain read before the segment open
	err       error
	done      bool
}

// readChainFrom returns a reader of the chain segs from its segment i0 (whose records
// before are not read) of the keys lo..hi.
func readChainFrom(d Disk, segs []seg, i0 int, lo, hi uint64) *chainReader {
	return &chainReader{d: d, segs: segs, i: i0, lo: lo, hi: hi, lim: hi}
}

// readRange returns a reader of the keys lo..hi of the chain segs: it starts at the first
// segment that may hold lo.
func readRange(d Disk, segs []seg, lo, hi uint64) *chainReader {
	i := 0
	for i < len(segs) && segs[i].last < lo {
		i++
	}
	return readChainFrom(d, segs, i, lo, hi)
}

func (c *chainReader) next() bool {
	for !c.done {
		if c.r == nil {
			if c.i >= len(c.segs) || c.i > 0 && c.segs[c.i-1].last >= c.hi {
				c.done = true
				return false
			}
			if c.i > 0 && c.segs[c.i-1].last >= c.lim {
				return false // paused
			}
			r, _, err := openRun(c.d, c.segs[c.i].name)
			if err != nil {
				c.err, c.done = err, true
				return false
			}
			c.r = r
		}
		if !c.r.next() {
			if c.r.err != nil {
				c.err, c.done = c.r.err, true
				c.r.close()
				c.r = nil
				return false
			}
			c.n += int64(c.r.n)
			c.r.close()
			c.r = nil
			c.i++
			continue
		}
		if c.r.k < c.lo {
			continue
		}
		if c.r.k > c.hi {
			c.close()
			c.done = true
			return false
		}
		c.k, c.v0, c.v1 = c.r.k, c.r.lo, c.r.hi
		return true
	}
	return false
}

func (c *chainReader) rec() (uint64, uint64, uint64) { return c.k, c.v0, c.v1 }

func (c *chainReader) close() {
	if c.r != nil {
		c.r.close()
		c.r = nil
	}
	c.done = true
}
