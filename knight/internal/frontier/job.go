package frontier

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// A step that spilled ends by merging its runs (chains, chain.go) into the next layer. The
// merge is a job: the runs' key space is cut into ranges (about as many as a run has
// segments, at the runs' segment ends, so that the ranges hold about the same bytes), and
// each range is merged from the runs into a file of its own, the range's segment of the
// layer, sealed (written as its name.tmp, synced, renamed). The ranges are merged in key
// order by the step's workers (Options.Workers) at once, each as its own k-way merge, and a
// run's segment is removed as soon as every range that reads it is sealed: the disk holds
// the runs not yet merged and the layer's segments sealed, about the bytes of the runs,
// never both whole. Once every range is sealed the layer's manifest (the list of its
// segments) is sealed, and the job's list removed.
//
// The job's list, layer-NNNNN.parts, is sealed before the merge begins (and before the
// layer read is removed): "KNTPART2", the layer's header, the base name of its segments,
// the ranges' bounds (their number, 4 bytes, then 8 bytes each), the runs (their number,
// 4 bytes, then each as appendChain writes it), and CRC-32C of all the bytes before. A
// count stopped in the merge resumes it: the ranges whose segment is sealed are kept, the
// others merged again from the runs' segments, which are all there for them. A list of
// the older build ("KNTPART1": the run files, each merged whole) is resumed as one range.
//
// The counts of equal keys are added in 128 bits; a layer of 64-bit counts that gets a sum
// past 64 bits is sealed as a layer of 128-bit counts, and the count goes on from it with
// 128-bit counts (turn returns errWide).
//
// Cost: the runs' records are read, merged and written once, as in one merge of all the
// runs. The ranges are merged in blocks of consecutive ranges (runJob), whose readers of
// the runs go on from one range to the next, so a run's segment is decompressed once,
// except one that two blocks share, read from its start by both (at most one segment of
// each run and block), not once by each range that reads it, from its start.

const partsMagic2 = "KNTPART2"

// job is a merge of chains into a layer's segments, by ranges of keys.
type job struct {
	list  string // the job's list
	h     header
	base  string   // range i is merged into segName(base, i)
	split []uint64 // range i holds the keys k with split[i-1] ≤ k < split[i]
	srcs  [][]seg
}

// ranges is the number of ranges of j.
func (j *job) ranges() int { return len(j.split) + 1 }

// bounds returns the least and greatest key of range i.
func (j *job) bounds(i int) (lo, hi uint64) {
	lo, hi = 0, math.MaxUint64
	if i > 0 {
		lo = j.split[i-1]
	}
	if i < len(j.split) {
		hi = j.split[i] - 1
	}
	return lo, hi
}

// rangeOf returns the range of key k.
func (j *job) rangeOf(k uint64) int {
	return sort.Search(len(j.split), func(i int) bool { return j.split[i] > k })
}

// newJob returns the job that merges srcs into the segments of base, of header h, listed
// in list: ranges about as many as the runs' segments each (at most 1024), bounded at the
// segments' last keys so that each range holds about the same bytes of the runs; one range
// if a run is a file of an older build (its keys not listed).
func newJob(list string, h header, base string, srcs [][]seg) *job {
	type end struct {
		k uint64
		w int64
	}
	var ends []end
	var total int64
	segs := 0
	for _, c := range srcs {
		for _, s := range c {
			total += s.bytes
			segs++
			if s.last != math.MaxUint64 {
				ends = append(ends, end{s.last, s.bytes})
			}
		}
	}
	ranges := min(max((segs+len(srcs)/2)/max(len(srcs), 1), 1), 1024)
	if len(ends) < segs {
		// a run in one file of an older build: each range would read it from its start
		ranges = 1
	}
	slices.SortFunc(ends, func(a, b end) int {
		if a.k < b.k {
			return -1
		} else if a.k > b.k {
			return 1
		}
		return 0
	})
	j := &job{list: list, h: h, base: base, srcs: srcs}
	var acc int64
	for _, e := range ends {
		acc += e.w
		if len(j.split) < ranges-1 && acc*int64(ranges) >= total*int64(len(j.split)+1) {
			k := e.k + 1
			if len(j.split) == 0 || k > j.split[len(j.split)-1] {
				j.split = append(j.split, k)
			}
		}
	}
	return j
}

func (j *job) bytes() []byte {
	b := append([]byte(partsMagic2), j.h.bytes()...)
	b = append(b, byte(len(j.base)))
	b = append(b, j.base...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(j.split)))
	for _, k := range j.split {
		b = binary.LittleEndian.AppendUint64(b, k)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(j.srcs)))
	for _, c := range j.srcs {
		b = appendChain(b, c)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
}

// readJob reads the job's list name (of either build: see the comment at the top); the
// segments' bytes of a list of the older build are those on d.
func readJob(d Disk, name string) (*job, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, 64<<20))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	bad := fmt.Errorf("%s %w", name, ErrLayerChecksum)
	n := len(b) - 4
	if n < len(partsMagic)+headerLen+4 || crc32.Checksum(b[:n], castagnoli()) != binary.LittleEndian.Uint32(b[n:]) {
		return nil, bad
	}
	magic := string(b[:len(partsMagic)])
	if magic == partsMagic {
		h, parts, err := readParts(d, name)
		if err != nil {
			return nil, err
		}
		j := &job{list: name, h: h, base: layerBase(h.cells)}
		for _, p := range parts {
			size, _ := d.Size(p)
			j.srcs = append(j.srcs, []seg{oldSeg(p, size)})
		}
		return j, nil
	}
	if magic != partsMagic2 {
		return nil, bad
	}
	h, err := readHeader(bytes.NewReader(b[len(partsMagic2):]), name)
	if err != nil {
		return nil, err
	}
	rest := b[len(partsMagic2)+headerLen : n]
	if len(rest) < 1 || len(rest) < 1+int(rest[0])+4 {
		return nil, bad
	}
	j := &job{h: h, base: string(rest[1 : 1+int(rest[0])])}
	rest = rest[1+int(rest[0]):]
	ns := int(binary.LittleEndian.Uint32(rest))
	rest = rest[4:]
	if len(rest) < 8*ns+4 {
		return nil, bad
	}
	for i := range ns {
		j.split = append(j.split, binary.LittleEndian.Uint64(rest[8*i:]))
	}
	rest = rest[8*ns:]
	nc := int(binary.LittleEndian.Uint32(rest))
	rest = rest[4:]
	for range nc {
		c, r, ok := readChain(rest)
		if !ok {
			return nil, bad
		}
		j.srcs = append(j.srcs, c)
		rest = r
	}
	if len(rest) != 0 || !strings.HasPrefix(j.base, layerPrefix) && !strings.HasPrefix(j.base, runPrefix) {
		return nil, bad
	}
	j.list = name
	return j, nil
}

// segRanges returns the ranges of j that read segment k of chain c: from a to b.
func (j *job) segRanges(c []seg, k int) (a, b int) {
	first := uint64(0)
	if k > 0 {
		first = c[k-1].last + 1
		if c[k-1].last == math.MaxUint64 {
			first = math.MaxUint64
		}
	}
	return j.rangeOf(first), j.rangeOf(c[k].last)
}

// runJob merges the job j (its list sealed) into its segments, by s.workers goroutines,
// removing each run segment once the ranges that read it are sealed, and returns the
// segments and whether a count needs more than 64 bits.
func (s *spillRuns) runJob(j *job) ([]seg, bool, error) {
	nr := j.ranges()
	m := &merge{j: j, out: make([]seg, nr), sealed: make([]bool, nr), shown: time.Now()}
	for i := range nr {
		name := segName(j.base, i)
		if _, ok := s.size(name); !ok {
			continue
		}
		n, err := segRecords(s.disk, name)
		if err != nil {
			return nil, false, err
		}
		size, _ := s.size(name)
		_, hi := j.bounds(i)
		m.out[i], m.sealed[i] = seg{name: name, n: n, bytes: size, last: hi}, true
		m.done++
	}
	for c, ch := range j.srcs {
		for k := range ch {
			a, b := j.segRanges(ch, k)
			if _, ok := s.size(ch[k].name); ok {
				m.spans = append(m.spans, span{c, k, a, b})
				continue
			}
			for r := a; r <= b; r++ {
				if !m.sealed[r] {
					return nil, false, fmt.Errorf("%s: run segment %s is not there", j.list, ch[k].name)
				}
			}
		}
	}
	// The ranges are taken in blocks of consecutive ranges, each merged in key order by
	// one worker with the same readers of the runs, which go on from one range to the
	// next: a run's segment that two ranges of a block share is decompressed once, not
	// once from its start for each.
	block := max(nr/(jobBlocks*s.workers), 1)
	var next atomic.Int64
	err := together(s.workers, func(int) error {
		var rds []*carried
		defer func() { closeCarried(rds) }()
		for {
			b := int(next.Add(1)) - 1
			if b*block >= nr {
				return nil
			}
			closeCarried(rds)
			rds = nil
			end := min((b+1)*block, nr)
			for i := b * block; i < end; i++ {
				if m.sealed[i] {
					// sealed before a stop: the readers start again after it
					closeCarried(rds)
					rds = nil
					continue
				}
				if rds == nil {
					_, hi := j.bounds(end - 1)
					rds = j.carriedReaders(s.disk, i, hi)
				}
				if i == end-1 {
					// the readers are closed before the block's last range is sealed,
					// which may remove the segments they have open
					err := s.sealRange(m, i, rds, true)
					rds = nil
					if err != nil {
						return err
					}
					continue
				}
				if err := s.sealRange(m, i, rds, false); err != nil {
					return err
				}
			}
		}
	})
	if err != nil {
		return nil, false, err
	}
	return m.out, m.high.Load(), nil
}

// jobBlocks is the blocks of ranges of a job for each worker (runJob): more balance the
// workers' shares, fewer read less twice.
const jobBlocks = 4

// merge is a job being run (runJob): its ranges' segments (out) and which are sealed, the
// run segments not yet removed (spans), the ranges sealed (done), whether a count has high
// bits, and when Options.Merging was last called. s.mu guards what the workers change.
type merge struct {
	j      *job
	out    []seg
	sealed []bool
	spans  []span
	done   int
	high   atomic.Bool
	shown  time.Time
}

// sealRange merges range i of m's job from the readers rds into its segment (mergeRange),
// notes it sealed, and removes the run segments whose ranges are all sealed now; if
// last, it closes the readers first (within a block, a reader's open segment holds keys of
// a later range of the block, so it is not removed).
func (s *spillRuns) sealRange(m *merge, i int, rds []*carried, last bool) error {
	j := m.j
	nr := j.ranges()
	sg, hi, err := s.mergeRange(j, i, rds)
	if last {
		closeCarried(rds)
	}
	if err != nil {
		return err
	}
	if hi {
		m.high.Store(true)
	}
	s.mu.Lock()
	m.out[i], m.sealed[i] = sg, true
	m.done++
	kept := m.spans[:0]
	var gone []string
	for _, sp := range m.spans {
		all := true
		for r := sp.a; r <= sp.b && all; r++ {
			all = m.sealed[r]
		}
		if all {
			gone = append(gone, j.srcs[sp.c][sp.k].name)
		} else {
			kept = append(kept, sp)
		}
	}
	m.spans = kept
	s.mu.Unlock()
	for _, name := range gone {
		if err := s.remove(name); err != nil {
			return err
		}
	}
	if s.merging != nil {
		s.mu.Lock()
		if m.done == nr || time.Since(m.shown) >= readingEvery {
			m.shown = time.Now()
			s.merging(j.h.cells-1, m.done, nr)
		}
		s.mu.Unlock()
	}
	return nil
}

// span is segment k of run c of a job, read by its ranges a to b.
type span struct{ c, k, a, b int }

// carried reads the keys of one run for consecutive ranges of a job: it stops at the first
// key past the range's last (hi), which it holds for the next range, or before it opens a
// segment all of whose keys are past hi (which a range sealed before a stop, between this
// one and the next, may have removed: runJob starts its readers again after such a range).
type carried struct {
	c    *chainReader
	hi   uint64
	held bool // c's record is past the last range's hi: the next range's first
}

// carriedReaders returns a reader of each run of j for the ranges from i on, up to the key hi.
func (j *job) carriedReaders(d Disk, i int, hi uint64) []*carried {
	lo, _ := j.bounds(i)
	rds := make([]*carried, len(j.srcs))
	for c, ch := range j.srcs {
		rds[c] = &carried{c: readRange(d, ch, lo, hi)}
	}
	return rds
}

func (r *carried) next() bool {
	if !r.held && !r.c.next() {
		return false
	}
	r.held = r.c.k > r.hi
	return !r.held
}

func (r *carried) rec() (uint64, uint64, uint64) { return r.c.rec() }

// closeCarried closes the readers rds.
func closeCarried(rds []*carried) {
	for _, r := range rds {
		r.c.close()
	}
}

// mergeRange merges range i of j into its segment, sealed, and returns it and whether a
// count of it has high bits.
func (s *spillRuns) mergeRange(j *job, i int, rds []*carried) (seg, bool, error) {
	_, hi := j.bounds(i)
	for _, r := range rds {
		r.hi, r.c.lim = hi, hi
	}
	name := segName(j.base, i)
	tmp := name + tmpSuffix
	w, err := createRun(s.disk, tmp, j.h)
	if err != nil {
		return seg{}, false, err
	}
	s.noteSize(tmp, w.bytes)
	var last uint64
	high := false
	carry, err := mergeCarried(s.ctx, rds, func(k, l, h uint64) error {
		if h != 0 {
			high = true
		}
		last = k
		if err := w.put(k, l, h); err != nil {
			return err
		}
		if w.n&0xfffff == 0 {
			s.noteSize(tmp, w.bytes)
		}
		return nil
	})
	if err == nil && carry {
		err = ErrOverflow
	}
	for _, r := range rds {
		if err == nil && r.c.err != nil {
			err = r.c.err
		}
	}
	if err == nil {
		err = w.close(true)
	} else {
		w.close(false)
	}
	s.noteSize(tmp, w.bytes)
	if err != nil {
		s.remove(tmp)
		return seg{}, false, err
	}
	if err := s.disk.Rename(tmp, name); err != nil {
		return seg{}, false, err
	}
	s.renamed(tmp, name)
	if w.n == 0 {
		last = 0
	}
	return seg{name: name, n: int64(w.n), bytes: w.bytes, last: last}, high, nil
}

// segRecords returns the records of the segment name on d, from its trailer (it reads the
// file through, not decompressing it).
func segRecords(d Disk, name string) (int64, error) {
	f, err := d.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var tail [trailerLen]byte
	var buf [1 << 16]byte
	have := 0
	for {
		m, err := f.Read(buf[:])
		if m > 0 {
			b := buf[:m]
			if m >= trailerLen {
				copy(tail[:], b[m-trailerLen:])
			} else {
				copy(tail[:], tail[m:])
				copy(tail[trailerLen-m:], b)
			}
			have += m
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("reading %s: %w", name, err)
		}
	}
	if have < headerLen+trailerLen || string(tail[:8]) != trailMagic {
		return 0, fmt.Errorf("%s %w", name, ErrLayerChecksum)
	}
	return int64(binary.LittleEndian.Uint64(tail[8:])), nil
}
