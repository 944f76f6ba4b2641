package frontier

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"strings"
	"time"
)

// A cut lets a spilling count stopped inside a step resume there, not at the step's start:
// a step of the widest cells of 8×8 takes hours, longer than a sitting. When the runs of a
// step spill (their memory is full, or Options.CutEvery has passed since the step's start
// or its last cut), the sweep first places the cell on every state it has read (the cut
// is taken between two batches it reads), writes the states made to the runs in memory,
// and those are spilled to a run file, synced; then the cut is sealed: the file
// cut-NNNNN (NNNNN: the cells placed in the layer being written), written as cut-NNNNN.tmp,
// synced and renamed. It says
//
//	magic   "KNTCUT01"
//	fp      the count's fingerprint (8 bytes)
//	cells   the cells placed in the layer being read (4)
//	size    the bytes of that layer's file (8)
//	done    the states of the layer read and placed (8): the run files hold every state
//	        they made and none of the later states'
//	last    the key of the last of those (8; 0 if none)
//	total   the tours the sweep finished so far, high and low 64 bits (16)
//	wide    1 if the runs hold 128-bit counts (1)
//	seq     the number of the next run file of the step (4)
//	runs    the number of the run files (4), then each one's name (its length in a byte,
//	        then its bytes)
//	crc     CRC-32C of all the bytes before (4)
//
// A count resumed from the layer read finds the cut of the step after it, keeps the run
// files it names (each checked against its own checksum as it is merged), skips the done
// states of the layer (checking that the last of them has the key the cut gives) and goes
// on from there with the finished tours it gives. A cut that fails its checksum, names
// another count or a layer of another size, a run file not there, or a key not found is
// refused (ErrCutRefused), never counted on. A cut of a step that ended (its layer is
// sealed) is removed.
//
// Cost: a cut is a spill (which, taken when the memory is full, replaces the spill that
// would come anyway) and a small file; resuming reads the done part of the layer once
// more (decompression only, about a tenth of the step's time per state). The runs in
// memory may pass their budget by the states made from one batch read (256 states) and
// the write before it: the spill comes once the batch is placed.

// ErrCutRefused reports a cut (see cut.go) that does not match its checksum, its count or
// its layer: the count refuses it rather than resume from it.
var ErrCutRefused = errors.New("refused")

const (
	cutMagic  = "KNTCUT01" // of main 5d53ac6–789c30f: runs as single files
	cutMagic2 = "KNTCUT02" // runs as chains (chain.go)
	cutPrefix = "cut-"
	// cutCheckEvery is the batches read between two looks at the clock for CutEvery.
	cutCheckEvery = 64
)

// cutName is the cut of the step that makes the layer of `cells` cells placed.
func cutName(cells int) string { return fmt.Sprintf("%s%05d", cutPrefix, cells) }

// cut is what a cut file says.
type cut struct {
	fp    uint64
	cells int
	size  int64
	done  int
	last  uint64
	total [2]uint64
	wide  bool
	seq   int
	runs  [][]seg // chains (chain.go)
}

func (c *cut) bytes() []byte {
	b := []byte(cutMagic2)
	b = binary.LittleEndian.AppendUint64(b, c.fp)
	b = binary.LittleEndian.AppendUint32(b, uint32(c.cells))
	b = binary.LittleEndian.AppendUint64(b, uint64(c.size))
	b = binary.LittleEndian.AppendUint64(b, uint64(c.done))
	b = binary.LittleEndian.AppendUint64(b, c.last)
	b = binary.LittleEndian.AppendUint64(b, c.total[0])
	b = binary.LittleEndian.AppendUint64(b, c.total[1])
	w := byte(0)
	if c.wide {
		w = 1
	}
	b = append(b, w)
	b = binary.LittleEndian.AppendUint32(b, uint32(c.seq))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(c.runs)))
	for _, r := range c.runs {
		b = appendChain(b, r)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
}

// cutFixed is the bytes of a cut file before its run files' names.
const cutFixed = 8 + 8 + 4 + 8 + 8 + 8 + 16 + 1 + 4 + 4

// readCut reads the cut file name.
func readCut(d Disk, name string) (*cut, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	bad := fmt.Errorf("%s %w: it fails its checksum", name, ErrCutRefused)
	n := len(b) - 4
	v2 := n >= 8 && string(b[:8]) == cutMagic2
	if n < cutFixed || string(b[:8]) != cutMagic && !v2 || crc32.Checksum(b[:n], castagnoli()) != binary.LittleEndian.Uint32(b[n:]) {
		return nil, bad
	}
	le := binary.LittleEndian
	c := &cut{
		fp:    le.Uint64(b[8:]),
		cells: int(le.Uint32(b[16:])),
		size:  int64(le.Uint64(b[20:])),
		done:  int(le.Uint64(b[28:])),
		last:  le.Uint64(b[36:]),
		total: [2]uint64{le.Uint64(b[44:]), le.Uint64(b[52:])},
		wide:  b[60] == 1,
		seq:   int(le.Uint32(b[61:])),
	}
	count := le.Uint32(b[65:])
	rest := b[cutFixed:n]
	for range count {
		if v2 {
			r, more, ok := readChain(rest)
			if !ok || len(r) == 0 || !strings.HasPrefix(r[0].name, runPrefix) {
				return nil, bad
			}
			c.runs = append(c.runs, r)
			rest = more
			continue
		}
		if len(rest) < 1 || len(rest) < 1+int(rest[0]) {
			return nil, bad
		}
		r := string(rest[1 : 1+int(rest[0])])
		if !strings.HasPrefix(r, runPrefix) {
			return nil, bad
		}
		size, _ := d.Size(r)
		c.runs = append(c.runs, []seg{oldSeg(r, size)})
		rest = rest[1+int(rest[0]):]
	}
	if len(rest) != 0 || c.done < 0 {
		return nil, bad
	}
	return c, nil
}

// cutDue reports whether the sweep should take a cut now (between two batches read): the
// runs in memory passed their budget, or CutEvery passed since the step began or its last
// cut (the clock is read after the first batch of a step and every cutCheckEvery batches
// after it).
func (s *spillRuns) cutDue() bool {
	if s.due {
		return true
	}
	if s.every <= 0 {
		return false
	}
	if s.tick++; s.tick%cutCheckEvery != 1 {
		return false
	}
	return time.Since(s.lastCut) >= s.every
}

// takeCut spills the runs in memory and seals the cut (see the comment at the top). The
// sweep calls it between two batches read, once every state it has read was placed and
// the states made were written. A step whose counts carried takes no cut: it is redone
// from its start with 128-bit counts.
func (s *spillRuns) takeCut() error {
	s.due, s.lastCut = false, time.Now()
	if s.err != nil {
		return s.err
	}
	s.foldCarry()
	carried := func() bool { return s.mem.carry || s.sweepCarry != nil && *s.sweepCarry }
	if carried() || s.cells < 0 {
		return nil
	}
	if s.pending() {
		if err := s.spill(); err != nil {
			return err
		}
	}
	if carried() {
		return nil
	}
	c := &cut{fp: s.fp, cells: s.cells, size: s.inBytes, done: s.done, last: s.lastKey,
		wide: s.mem.wide, seq: s.seq, runs: s.spilled}
	if s.sweepTotal != nil {
		c.total = *s.sweepTotal
	}
	if err := s.writeSmall(cutName(s.cells+1), c.bytes(), true); err != nil {
		return err
	}
	s.cuts++
	// the segments of the layer read before the cut are not read again
	if err := s.removeRead(); err != nil {
		return err
	}
	if len(s.spilled) >= compactRuns {
		return s.compact(c)
	}
	return nil
}

// compactRuns is the runs a step holds on disk before they are merged into one at a cut.
const compactRuns = 4

// compact merges the runs of the cut c just sealed into one (a job, job.go, whose list is
// the new run's name with partsSuffix: the runs' segments are removed as they are merged),
// then seals the cut again with the one run in their place and removes the job's list. The
// runs of a step then hold about the distinct states it made so far, not each run's own
// (which overlap: the same state made from states read apart). A count stopped in it
// finishes it when resumed (newSpill, finishCompact).
//
// Cost: the runs' records are read, merged and written once more each time; with a run
// spilled at each of k cuts, about k/compactRuns merges of what the step made so far.
func (s *spillRuns) compact(c *cut) error {
	base := runName(s.cells+1, s.seq)
	s.seq++
	j := newJob(base+partsSuffix, c.h(s), base, s.spilled)
	if err := s.writeSmall(j.list, j.bytes(), true); err != nil {
		return err
	}
	return s.finishCompact(c, j)
}

// finishCompact runs the compaction j of the runs of cut c and seals the cut with its run.
func (s *spillRuns) finishCompact(c *cut, j *job) error {
	segs, _, err := s.runJob(j)
	if err != nil {
		return err
	}
	c.runs = [][]seg{segs}
	var seq int
	fmt.Sscanf(strings.TrimPrefix(j.base, runPrefix), "%05d-%04d", new(int), &seq)
	c.seq = max(c.seq, seq+1)
	if err := s.writeSmall(cutName(c.cells+1), c.bytes(), true); err != nil {
		return err
	}
	s.spilled, s.seq = c.runs, c.seq
	return s.remove(j.list)
}

// h is the header of the files of the step after the layer cut c reads.
func (c *cut) h(s *spillRuns) header {
	return header{fp: c.fp, cells: c.cells + 1, wide: c.wide, total: c.total}
}

// resumeCut resumes the step after the layer just opened (s.rd, of s.cells cells placed)
// from the cut c read from its file name: it skips the states done, checking the key of
// the last, and takes the cut's run files as those the step spilled.
func (s *spillRuns) resumeCut(name string, c *cut) error {
	refuse := func(why string, args ...any) error {
		return fmt.Errorf("%s %w: %s; remove it to count cell %d from its start", name, ErrCutRefused, fmt.Sprintf(why, args...), s.cells+1)
	}
	layer := s.inName
	if c.fp != s.fp {
		return refuse("it is of another count")
	}
	if c.cells != s.cells || c.size != s.inBytes {
		return refuse("it is of a layer of %d cells and %d bytes, not %s (%d bytes)", c.cells, c.size, layer, s.inBytes)
	}
	for _, r := range c.runs {
		for _, sg := range r {
			if _, ok := s.size(sg.name); !ok {
				return refuse("its run file %s is not there", sg.name)
			}
		}
	}
	// The segments placed whole are skipped unread (they may be removed), then the
	// states done of the next one.
	segs := s.inSegs
	i, before := 0, int64(0)
	for i < len(segs) && segs[i].n >= 0 && before+segs[i].n <= int64(c.done) {
		before += segs[i].n
		i++
	}
	if c.done > 0 && before == int64(c.done) && segs[i-1].last != c.last {
		return refuse("the last state done is not the one it names")
	}
	for _, sg := range segs[i:] {
		if _, ok := s.size(sg.name); !ok {
			return refuse("%s's segment %s, not read, is not there", layer, sg.name)
		}
	}
	r := readChainFrom(s.disk, segs, i, 0, math.MaxUint64)
	s.in = r
	for k := before; k < int64(c.done); k++ {
		if !r.next() {
			if r.err != nil {
				return r.err
			}
			return refuse("%s holds fewer than its %d states done", layer, c.done)
		}
		if k&0xfffff == 0 && s.ctx.Err() != nil {
			return s.ctx.Err()
		}
	}
	if int64(c.done) > before && r.k != c.last {
		return refuse("the last state done is not the one it names")
	}
	s.done, s.lastKey = c.done, c.last
	s.spilled = c.runs
	s.seq = c.seq
	s.spills = len(c.runs)
	s.cutTotal = &c.total
	return nil
}
