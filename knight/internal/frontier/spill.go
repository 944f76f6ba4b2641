package frontier

import (
	"bufio"
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A count with Options.Spill keeps its layers on disk (spillRuns): the layer after each
// cell is written to one file, sealed (synced, then renamed to its final name), and the
// layer before it removed; the step after reads it back as a stream. The states a step
// makes go to the sorted runs in memory (runs.go) until their chunks reach the memory
// budget; then the runs are merged into one run file (spilled, synced) and the memory
// given back. The step's end merges the runs left in memory into the next layer's file;
// if the step spilled, it first writes them as one more run file and seals the list of
// the run files (the layer's parts), removes the layer read, and only then merges the
// parts into the layer's file, so that the disk holds about two layers at the widest step
// (the layer read and the parts, then the parts and the layer written), not three. A
// count stopped anywhere (Ctrl-C, a kill, a machine that goes away) starts again from the
// last sealed layer, or the last sealed list of parts, which it merges first, or the last
// cut inside the step after that layer (cut.go: the runs spill at cuts, so that all the
// states made from the layer's states read so far are in the run files): the files of
// an unfinished step past its cut are removed, the layer's header must name the same
// count, and its checksum is checked as it is read.
//
// A file (layer or run) is a header, the records of the run as record.go writes them (key
// differences from the previous key, counts without leading zero bytes) compressed by
// DEFLATE (compress/flate at its fastest level), and a trailer:
//
//	header   "KNTLAYR1", the count's fingerprint (8 bytes), the cells placed (4), 128-bit
//	         counts (1), the tours the sweep finished so far (high and low 64 bits: 16;
//	         open tours end before the last cell), CRC-32C of the 37 bytes before (4)
//	records  DEFLATE stream
//	trailer  "KNTEND01", records (8), CRC-32C of the records' bytes before compression (4)
//
// A list of parts (layer-NNNNN.parts) is "KNTPART1", the layer's header, the number of
// parts and their names, and CRC-32C (writeParts). Layer files are the same as those of
// the first build that spilled (main 509f2d5); a test resumes from one it wrote.
//
// Cost, against the same count in memory: each state of a layer is compressed, written,
// read and decompressed once, and each state of a spilled run (and, in a step that
// spilled, of the runs left in memory at its end) once more; measured on 6×8 and 7×7 open
// in bench/log/2026-11-29-knight8x8.md. The memory held is the sorted runs of the layer
// being written (at most the budget) and the buffers; the layer being read is a stream.

// Disk is the directory where a count with Options.Spill keeps its files. Package frontier
// touches no file itself: the caller gives the directory (the command line gives one of
// the operating system's).
type Disk interface {
	// Create makes (or empties) the file name for writing.
	Create(name string) (DiskFile, error)
	// Open opens the file name for reading.
	Open(name string) (io.ReadCloser, error)
	// Rename renames from to to, replacing to, atomically and durably: once it returns,
	// to is there with from's contents after any crash.
	Rename(from, to string) error
	// Remove removes the file name.
	Remove(name string) error
	// Names lists the names of the files.
	Names() ([]string, error)
	// Size returns the bytes of the file name.
	Size(name string) (int64, error)
}

// DiskFile is a file of a Disk being written.
type DiskFile interface {
	io.Writer
	// Sync makes what was written durable.
	Sync() error
	Close() error
}

// DiskUse is what a spilling count holds on disk, passed to Options.DiskReport after each
// cell: bytes of its files now, the most during the step, and those freed (files removed)
// during the step, the run files the step spilled and the cuts it took.
type DiskUse struct {
	Held, Peak, Freed int64
	Spills            int
	Cuts              int // cuts taken in the step (cut.go)
}

// ErrLayerChecksum reports a layer file whose records do not match its trailer.
var ErrLayerChecksum = errors.New("fails its checksum")

// ErrOtherCount reports a spill directory that holds the layers of another count.
var ErrOtherCount = errors.New("holds the layers of another count")

const (
	layerMagic  = "KNTLAYR1"
	trailMagic  = "KNTEND01"
	headerLen   = 8 + 8 + 4 + 1 + 16 + 4
	trailerLen  = 8 + 8 + 4
	layerPrefix = "layer-"
	layerSuffix = ".kl"
	runPrefix   = "run-"
	tmpSuffix   = ".tmp"
	partsMagic  = "KNTPART1"
	partsSuffix = ".parts"
	// statesName is the file of the states after each cell sealed so far, one decimal
	// line a cell from the first (-1 where not known), so that a resumed count can
	// forecast the time left; it is not checked, as nothing is counted from it.
	statesName = "states"
	// flateLevel is the compression of the files: the fastest level of DEFLATE, which
	// still finds the repeated bytes of neighbouring records.
	flateLevel = flate.BestSpeed
	// ioBytes is the size of the buffers of records before compression and after.
	ioBytes = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// The buffers and compressors of files are reused: each is a megabyte or so, and a step
// opens a file or two and may spill many.
var (
	bufPool = sync.Pool{New: func() any { b := make([]byte, ioBytes+recMax); return &b }}
	zwPool  = sync.Pool{New: func() any { zw, _ := flate.NewWriter(io.Discard, flateLevel); return zw }}
	zrPool  = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}
)

// layerName is the file of the layer after `cells` cells placed.
func layerName(cells int) string { return fmt.Sprintf("%s%05d%s", layerPrefix, cells, layerSuffix) }

// partsName is the list of the run files that hold the layer after `cells` cells placed
// while they are merged into its file (see turn).
func partsName(cells int) string { return fmt.Sprintf("%s%05d%s", layerPrefix, cells, partsSuffix) }

// runName is the seq-th run file spilled by the step that makes the layer of `cells`
// cells placed.
func runName(cells, seq int) string { return fmt.Sprintf("%s%05d-%04d", runPrefix, cells, seq) }

// fingerprint names the count of plan p for the headers of its files: its board, kind,
// start, ends and splits.
func fingerprint(p *plan, start int, ends []int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "frontier 1 %dx%d closed=%t start=%d ends=%v", p.R, p.C, p.closed, start, ends)
	for _, s := range p.splits {
		fmt.Fprintf(h, " split=%+v", s)
	}
	return h.Sum64()
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n *int64
}

func (c countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	*c.n += int64(n)
	return n, err
}

// fileWriter writes a run to a file of the disk.
type fileWriter struct {
	name  string
	f     DiskFile
	bytes int64 // written to the file so far
	zw    *flate.Writer
	buf   []byte // records not yet compressed (len: in use; cap: ioBytes+recMax)
	bufp  *[]byte
	prev  uint64
	n     int
	crc   uint32
}

func createRun(d Disk, name string, h header) (*fileWriter, error) {
	f, err := d.Create(name)
	if err != nil {
		return nil, err
	}
	w := &fileWriter{name: name, f: f, bufp: bufPool.Get().(*[]byte)}
	w.buf = (*w.bufp)[:0]
	cw := countWriter{f, &w.bytes}
	if _, err := cw.Write(h.bytes()); err != nil {
		f.Close()
		bufPool.Put(w.bufp)
		return nil, fmt.Errorf("writing %s: %w", name, err)
	}
	w.zw = zwPool.Get().(*flate.Writer)
	w.zw.Reset(cw)
	return w, nil
}

// put appends the record of key k (greater than the last) and count (lo, hi).
func (w *fileWriter) put(k, lo, hi uint64) error {
	if len(w.buf) > ioBytes {
		if err := w.flush(); err != nil {
			return err
		}
	}
	n := len(w.buf)
	b := w.buf[n : n+recMax]
	m := putRec(b, k-w.prev, lo, hi)
	w.buf = w.buf[:n+m]
	w.prev = k
	w.n++
	return nil
}

func (w *fileWriter) flush() error {
	w.crc = crc32.Update(w.crc, castagnoli, w.buf)
	_, err := w.zw.Write(w.buf)
	w.buf = w.buf[:0]
	if err != nil {
		return fmt.Errorf("writing %s: %w", w.name, err)
	}
	return nil
}

// close ends the file: the rest of the records, the trailer, and (if sync) a sync.
func (w *fileWriter) close(sync bool) error {
	if err := w.flush(); err != nil {
		w.f.Close()
		zwPool.Put(w.zw)
		bufPool.Put(w.bufp)
		w.zw, w.bufp, w.buf = nil, nil, nil
		return err
	}
	err := w.zw.Close()
	if err == nil {
		var t [trailerLen]byte
		copy(t[:], trailMagic)
		binary.LittleEndian.PutUint64(t[8:], uint64(w.n))
		binary.LittleEndian.PutUint32(t[16:], w.crc)
		_, err = countWriter{w.f, &w.bytes}.Write(t[:])
	}
	if err == nil && sync {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	zwPool.Put(w.zw)
	bufPool.Put(w.bufp)
	w.zw, w.bufp, w.buf = nil, nil, nil
	if err != nil {
		return fmt.Errorf("writing %s: %w", w.name, err)
	}
	return nil
}

// header is what the header of a file says.
type header struct {
	fp    uint64
	cells int
	wide  bool
	total [2]uint64 // hi, lo
}

func (h header) bytes() []byte {
	b := make([]byte, headerLen)
	copy(b, layerMagic)
	binary.LittleEndian.PutUint64(b[8:], h.fp)
	binary.LittleEndian.PutUint32(b[16:], uint32(h.cells))
	if h.wide {
		b[20] = 1
	}
	binary.LittleEndian.PutUint64(b[21:], h.total[0])
	binary.LittleEndian.PutUint64(b[29:], h.total[1])
	binary.LittleEndian.PutUint32(b[37:], crc32.Checksum(b[:37], castagnoli))
	return b
}

func readHeader(r io.Reader, name string) (header, error) {
	var h [headerLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return header{}, fmt.Errorf("%s: reading its header: %w", name, err)
	}
	if string(h[:8]) != layerMagic || crc32.Checksum(h[:37], castagnoli) != binary.LittleEndian.Uint32(h[37:]) {
		return header{}, fmt.Errorf("%s: not a layer of a knight count, or its header is damaged", name)
	}
	return header{
		fp:    binary.LittleEndian.Uint64(h[8:]),
		cells: int(binary.LittleEndian.Uint32(h[16:])),
		wide:  h[20] == 1,
		total: [2]uint64{binary.LittleEndian.Uint64(h[21:]), binary.LittleEndian.Uint64(h[29:])},
	}, nil
}

// fileReader reads the records of a file in order, checking the trailer at the end.
type fileReader struct {
	name      string
	f         io.ReadCloser
	br        *bufio.Reader
	zr        io.ReadCloser
	buf       []byte // decompressed bytes; [p, end) not yet decoded, recMax zero bytes of slack
	bufp      *[]byte
	p, end    int
	eof       bool
	crc       uint32
	n         int // records decoded
	want      int // records the trailer gives (-1: not read yet)
	k, lo, hi uint64
	err       error
}

func openRun(d Disk, name string) (*fileReader, header, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, header{}, err
	}
	br := bufio.NewReaderSize(f, 1<<16)
	h, err := readHeader(br, name)
	if err != nil {
		f.Close()
		return nil, h, err
	}
	// br is an io.ByteReader, so the decompressor reads no byte past its stream: the
	// trailer is read from br after it.
	zr := zrPool.Get().(io.ReadCloser)
	zr.(flate.Resetter).Reset(br, nil)
	bp := bufPool.Get().(*[]byte)
	r := &fileReader{name: name, f: f, br: br, zr: zr, bufp: bp, buf: *bp, want: -1}
	return r, h, nil
}

// fill moves the bytes not yet decoded to the front of buf and reads more after them.
func (r *fileReader) fill() {
	n := copy(r.buf, r.buf[r.p:r.end])
	r.p, r.end = 0, n
	for r.end < ioBytes && !r.eof {
		m, err := r.zr.Read(r.buf[r.end:ioBytes])
		r.crc = crc32.Update(r.crc, castagnoli, r.buf[r.end:r.end+m])
		r.end += m
		if err == io.EOF {
			r.eof = true
			r.checkTrailer()
		} else if err != nil {
			r.eof = true
			r.err = fmt.Errorf("reading %s: %w", r.name, err)
		}
	}
	clear(r.buf[r.end:min(r.end+recMax, len(r.buf))])
}

func (r *fileReader) checkTrailer() {
	var t [trailerLen]byte
	if _, err := io.ReadFull(r.br, t[:]); err != nil {
		r.err = fmt.Errorf("%s: reading its trailer: %w", r.name, err)
		return
	}
	if string(t[:8]) != trailMagic || binary.LittleEndian.Uint32(t[16:]) != r.crc {
		r.err = fmt.Errorf("%s %w", r.name, ErrLayerChecksum)
		return
	}
	r.want = int(binary.LittleEndian.Uint64(t[8:]))
}

// next reads the next record into r.k, r.lo, r.hi; false at the end of the file or on an
// error (r.err), which a file whose records do not match its trailer is.
func (r *fileReader) next() bool {
	if r.end-r.p < recMax && !r.eof {
		r.fill()
	}
	if r.p >= r.end || r.err != nil {
		if r.err == nil && r.n != r.want {
			r.err = fmt.Errorf("%s %w", r.name, ErrLayerChecksum)
		}
		return false
	}
	d, lo, hi, n := getRec(r.buf[r.p:])
	r.p += n
	if r.p > r.end || d == 0 {
		r.err = fmt.Errorf("%s %w", r.name, ErrLayerChecksum)
		return false
	}
	r.k += d
	r.lo, r.hi = lo, hi
	r.n++
	return true
}

func (r *fileReader) close() {
	if r.f == nil {
		return
	}
	r.zr.Close()
	r.f.Close()
	zrPool.Put(r.zr)
	bufPool.Put(r.bufp)
	r.f, r.zr, r.bufp, r.buf = nil, nil, nil, nil
}

// source is a sorted run being merged: in memory or in a file.
type source interface {
	next() bool
	rec() (k, lo, hi uint64)
}

func (rd *runReader) rec() (uint64, uint64, uint64) { return rd.k, rd.lo, rd.hi }
func (r *fileReader) rec() (uint64, uint64, uint64) { return r.k, r.lo, r.hi }

// spillRuns is the store of a count with Options.Spill (see the comment at the top).
type spillRuns struct {
	mem *runs // the runs in memory of the layer being written (of worker 0)
	// all is mem and the runs of the other workers of a step placed by several
	// goroutines (workers.go), each writing its own; they are merged together at spills
	// and turns as the runs of one.
	all     []*runs
	workers int // the goroutines that place a step's cells (Options.Workers, at least 1)
	disk    Disk
	fp      uint64
	budget  int64 // bytes of chunks the runs in memory may hold before they spill
	last    int   // the board's cells: the layer after the last one is not kept
	cells   int   // cells placed in the layer being read
	rd      *fileReader
	spilled []string // run files of the layer being written
	spills  int      // of this step
	seq     int
	err     error
	sizes   map[string]int64
	held    int64
	peak    int64
	freed   int64
	// sweepCarry, if not nil, tells whether the sweep's cache carried (sweep.totalCarry):
	// a layer is then not sealed, so the count redone with 128-bit counts resumes before it.
	sweepCarry *bool
	// sweepTotal, if not nil, is the sweep's count of the tours finished so far
	// (sweep.total), kept in the header of each layer sealed.
	sweepTotal *[2]uint64
	resumed    header // of the layer resumed from
	// history is the states after each cell (history[i] after cell i, -1: not known), as
	// recorded in the file statesName beside the layers.
	history []int
	use     DiskUse // of the last step
	ctx     context.Context

	// Cuts (cut.go): every is Options.CutEvery, lastCut the time of the step's start or
	// its last cut, tick the batches read since the clock was read, due whether the runs
	// in memory passed the budget (a cut is taken after the batch being placed), done
	// and lastKey the states of the layer read handed to the sweep in this step and the
	// key of the last, cuts the cuts taken, and cutTotal the finished tours of the cut
	// resumed from (nil: none).
	every    time.Duration
	lastCut  time.Time
	tick     int
	due      bool
	done     int
	lastKey  uint64
	cuts     int
	cutTotal *[2]uint64
}

// newSpill opens the store of a count on d, with runs in memory of cfg and counts of 128
// bits if forceWide. If d holds a sealed layer of the same count (fingerprint fp) it is
// resumed: resumed is its cells placed (-1: none) and wide its counts' width. A layer
// left as the list of its parts (a count stopped while it merged them: see turn) is
// merged first. The files of an unfinished step, and of the layers before, are removed.
// Its steps are placed by workers goroutines (workers.go). It returns errWide if the
// parts' counts carry out of 64 bits (the caller forces 128).
func newSpill(ctx context.Context, d Disk, fp uint64, last int, budget int64, cfg runsConfig, forceWide bool, workers int) (s *spillRuns, resumed int, wide bool, err error) {
	names, err := d.Names()
	if err != nil {
		return nil, 0, false, err
	}
	s = &spillRuns{disk: d, fp: fp, last: last, budget: budget, sizes: map[string]int64{}, ctx: ctx, workers: max(workers, 1)}
	s.cells = -1 // before the layer of no cell placed
	// top is the last layer sealed, as its file or as the list of its parts (the file
	// wins: it was sealed from them).
	top, topParts := -1, false
	for _, name := range names {
		if c, ok := layerCells(name, layerSuffix); ok && c >= top {
			top, topParts = c, false
		}
		if c, ok := layerCells(name, partsSuffix); ok && c > top {
			top, topParts = c, true
		}
	}
	keep := map[string]bool{}
	var h header
	var parts []string
	switch {
	case top < 0:
	case topParts:
		keep[partsName(top)] = true
		if h, parts, err = readParts(d, partsName(top)); err != nil {
			return nil, 0, false, err
		}
		for _, p := range parts {
			keep[p] = true
		}
	default:
		keep[layerName(top)] = true
		if s.rd, h, err = openRun(d, layerName(top)); err != nil {
			return nil, 0, false, err
		}
	}
	if top >= 0 && (h.fp != fp || h.cells != top) {
		s.release()
		return nil, 0, false, fmt.Errorf("%w (%s)", ErrOtherCount, layerName(top))
	}
	// A cut of the step after the top layer file (not of one left as parts: no step after
	// it began) is resumed from, with its run files.
	var c *cut
	if name := cutName(top + 1); top >= 0 && !topParts && slices.Contains(names, name) {
		if c, err = readCut(d, name); err != nil {
			s.release()
			return nil, 0, false, err
		}
		keep[name] = true
		for _, r := range c.runs {
			if !slices.Contains(names, r) {
				s.release()
				return nil, 0, false, fmt.Errorf("%s %w: its run file %s is not there; remove it to count cell %d from its start", name, ErrCutRefused, r, top+1)
			}
			keep[r] = true
		}
	}
	// The top layer is there and of this count: every other file goes.
	for _, name := range names {
		if keep[name] {
			continue
		}
		_, isLayer := layerCells(name, layerSuffix)
		_, isParts := layerCells(name, partsSuffix)
		if isLayer || isParts || strings.HasSuffix(name, tmpSuffix) || strings.HasPrefix(name, runPrefix) || strings.HasPrefix(name, cutPrefix) {
			if err := d.Remove(name); err != nil {
				s.release()
				return nil, 0, false, err
			}
		}
	}
	for name := range keep {
		size, err := d.Size(name)
		if err != nil {
			s.release()
			return nil, 0, false, err
		}
		s.noteSize(name, size)
	}
	s.start(cfg, forceWide || h.wide || c != nil && c.wide)
	if top < 0 {
		if slices.Contains(names, statesName) {
			if err := d.Remove(statesName); err != nil {
				s.release()
				return nil, 0, false, err
			}
		}
		return s, -1, s.mem.wide, nil
	}
	s.cells, s.resumed = top, h
	s.history = readStates(d, top)
	if slices.Contains(names, statesName) {
		size, err := d.Size(statesName)
		if err != nil {
			s.release()
			return nil, 0, false, err
		}
		s.noteSize(statesName, size)
	}
	if topParts {
		n, err := s.finishParts(h, parts)
		if err == nil {
			err = s.noteStates(n)
		}
		if err != nil {
			s.release()
			return nil, 0, false, err
		}
	}
	if c != nil {
		if err := s.resumeCut(cutName(top+1), c); err != nil {
			s.release()
			return nil, 0, false, err
		}
	}
	return s, top, s.mem.wide, nil
}

// layerCells returns the cells placed of the layer file (suffix layerSuffix) or list of
// parts (partsSuffix) name, and whether name is one.
func layerCells(name, suffix string) (int, bool) {
	if !strings.HasPrefix(name, layerPrefix) || !strings.HasSuffix(name, suffix) {
		return 0, false
	}
	c, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, layerPrefix), suffix))
	return c, err == nil && c >= 0
}

// readStates returns the states after cells 0..cells-1 recorded in statesName on d, -1
// for those not recorded (all, if the file is not there or not readable).
func readStates(d Disk, cells int) []int {
	states := make([]int, cells)
	for i := range states {
		states[i] = -1
	}
	f, err := d.Open(statesName)
	if err != nil {
		return states
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return states
	}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if n, err := strconv.Atoi(line); err == nil && i < cells && n >= 0 {
			states[i] = n
		}
	}
	return states
}

// noteStates records that the cell just placed (cell s.cells-1) left n states: in the
// history, and in statesName, written anew and renamed.
func (s *spillRuns) noteStates(n int) error {
	if s.cells < 1 {
		return nil // the layer before the first cell
	}
	for len(s.history) < s.cells {
		s.history = append(s.history, -1)
	}
	s.history = s.history[:s.cells]
	s.history[s.cells-1] = n
	var b []byte
	for _, x := range s.history {
		b = strconv.AppendInt(b, int64(x), 10)
		b = append(b, '\n')
	}
	return s.writeSmall(statesName, b, false)
}

// writeSmall writes the small file name with the bytes b: as name.tmp, synced if sync,
// then renamed to name.
func (s *spillRuns) writeSmall(name string, b []byte, sync bool) error {
	tmp := name + tmpSuffix
	f, err := s.disk.Create(tmp)
	if err != nil {
		return err
	}
	if _, err = f.Write(b); err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		s.disk.Remove(tmp)
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err := s.disk.Rename(tmp, name); err != nil {
		return err
	}
	s.noteSize(name, int64(len(b)))
	return nil
}

// writeParts seals the list of the run files that together hold the layer of h.cells cells
// placed: partsName(h.cells), synced and renamed like a layer. Its bytes are "KNTPART1",
// the layer's header, the number of parts (4 bytes), each part's name (its length in a
// byte, then its bytes), and CRC-32C of all the bytes before (4).
func (s *spillRuns) writeParts(h header, parts []string) error {
	b := append([]byte(partsMagic), h.bytes()...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(parts)))
	for _, p := range parts {
		b = append(b, byte(len(p)))
		b = append(b, p...)
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	return s.writeSmall(partsName(h.cells), b, true)
}

// readParts reads the list of parts name that writeParts wrote: the layer's header and
// the parts' names.
func readParts(d Disk, name string) (header, []string, error) {
	f, err := d.Open(name)
	if err != nil {
		return header{}, nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	f.Close()
	if err != nil {
		return header{}, nil, fmt.Errorf("reading %s: %w", name, err)
	}
	bad := fmt.Errorf("%s %w", name, ErrLayerChecksum)
	n := len(b) - 4
	if n < len(partsMagic)+headerLen+4 || string(b[:len(partsMagic)]) != partsMagic || crc32.Checksum(b[:n], castagnoli) != binary.LittleEndian.Uint32(b[n:]) {
		return header{}, nil, bad
	}
	h, err := readHeader(bytes.NewReader(b[len(partsMagic):]), name)
	if err != nil {
		return header{}, nil, err
	}
	rest := b[len(partsMagic)+headerLen : n]
	count := binary.LittleEndian.Uint32(rest)
	rest = rest[4:]
	var parts []string
	for range count {
		if len(rest) < 1 || len(rest) < 1+int(rest[0]) {
			return header{}, nil, bad
		}
		p := string(rest[1 : 1+int(rest[0])])
		if !strings.HasPrefix(p, runPrefix) {
			return header{}, nil, bad
		}
		parts = append(parts, p)
		rest = rest[1+int(rest[0]):]
	}
	if len(rest) != 0 || len(parts) == 0 {
		return header{}, nil, bad
	}
	return h, parts, nil
}

// finishParts merges the parts of the layer of h.cells cells placed (already the layer
// read: s.cells is h.cells) into its file, sealed, removes the parts and their list, and
// opens the file to be read. It returns the layer's states, or errWide (ErrOverflow with
// 128-bit counts) if a sum of counts carried: the list stays, to be merged again with
// 128-bit counts.
func (s *spillRuns) finishParts(h header, parts []string) (int, error) {
	h.wide = s.mem.wide
	name := layerName(h.cells)
	n, err := s.mergeInto(name, h, parts, true)
	if err != nil {
		return 0, err
	}
	if err := s.remove(partsName(h.cells)); err != nil {
		return 0, err
	}
	if s.rd, _, err = openRun(s.disk, name); err != nil {
		return 0, err
	}
	return n, nil
}

// start gives the store its runs in memory (once the counts' width is known): one set
// for each of its workers, which share cfg's sort buffer (each has its share of bufRecs),
// so that the memory of the buffers does not grow with the workers.
func (s *spillRuns) start(cfg runsConfig, wide bool) {
	k := max(s.workers, 1)
	cfg.bufRecs = max(cfg.bufRecs/k, 16)
	s.all = make([]*runs, k)
	for i := range s.all {
		s.all[i] = newRuns(s.ctx, cfg, wide, 0)
	}
	s.mem = s.all[0]
}

// pending reports whether the runs in memory hold any run of the layer being written.
func (s *spillRuns) pending() bool {
	for _, m := range s.all {
		if len(m.pending) > 0 {
			return true
		}
	}
	return false
}

// foldCarry notes in mem a carry out of the counts' bits in the runs of any worker.
func (s *spillRuns) foldCarry() {
	for _, m := range s.all {
		s.mem.carry = s.mem.carry || m.carry
	}
}

func (s *spillRuns) batch() (int, int) { return s.mem.batch() }

func (s *spillRuns) read(buf []rec) []rec {
	r := s.rd
	if r == nil || s.err != nil {
		return buf
	}
	n0 := len(buf)
	for len(buf) < cap(buf) && r.next() {
		buf = append(buf, rec{r.k, r.lo, r.hi})
	}
	if len(buf) > n0 {
		s.done += len(buf) - n0
		s.lastKey = buf[len(buf)-1].k
	}
	if len(buf) < cap(buf) {
		s.err = r.err
		r.close()
		s.rd = nil
	}
	return buf
}

func (s *spillRuns) write(buf []rec) error {
	if s.err != nil {
		return s.err
	}
	if len(s.mem.pending) > 0 && s.mem.held+int64(len(buf))*recMax > s.budget {
		// The runs spill at the cut the sweep takes after the batch it is placing.
		s.due = true
	}
	return s.mem.write(buf)
}

// spill merges the runs in memory into a run file (synced: it may become a part of the
// layer, see turn) and gives their memory back.
func (s *spillRuns) spill() error {
	name := runName(s.cells+1, s.seq)
	s.seq++
	if _, err := s.mergeInto(name, s.header(), nil, false); err != nil {
		return err
	}
	s.spilled = append(s.spilled, name)
	s.spills++
	return nil
}

// header is the header of the files of the layer being written.
func (s *spillRuns) header() header {
	h := header{fp: s.fp, cells: s.cells + 1, wide: s.mem.wide}
	if s.sweepTotal != nil {
		h.total = *s.sweepTotal
	}
	return h
}

// mergeInto merges the runs in memory and the files named into the file name, which it
// syncs, with header h, adding the counts of equal keys; it removes the files merged. If
// seal, the file is written as name.tmp and renamed to name, unless a sum carried out of
// the counts' bits: the file is then removed and the files merged kept, and the error is
// errWide (ErrOverflow with 128-bit counts). A carry without seal is noted (carried).
func (s *spillRuns) mergeInto(name string, h header, files []string, seal bool) (int, error) {
	s.foldCarry()
	n := 0
	for _, m := range s.all {
		n += len(m.pending)
	}
	srcs := make([]source, 0, n+len(files))
	rds := make([]runReader, 0, n)
	for _, m := range s.all {
		for _, r := range m.pending {
			rds = append(rds, m.reader(r))
			srcs = append(srcs, &rds[len(rds)-1])
		}
		m.pending = nil
	}
	var frs []*fileReader
	defer func() {
		for _, r := range frs {
			r.close()
		}
	}()
	for _, f := range files {
		r, _, err := openRun(s.disk, f)
		if err != nil {
			return 0, err
		}
		frs = append(frs, r)
		srcs = append(srcs, r)
	}
	tmp := name
	if seal {
		tmp += tmpSuffix
	}
	w, err := createRun(s.disk, tmp, h)
	if err != nil {
		return 0, err
	}
	s.sizes[tmp] = 0
	carry := s.mem.carry
	err = s.merge(srcs, w)
	for _, r := range frs {
		if err == nil && r.err != nil {
			err = r.err
		}
	}
	if err == nil && seal && s.mem.carry && !carry {
		err = errWide
		if s.mem.wide {
			err = ErrOverflow
		}
	}
	if err == nil {
		err = w.close(true)
	} else {
		w.close(false)
	}
	s.noteSize(tmp, w.bytes)
	if err != nil {
		if seal {
			s.remove(tmp)
		}
		return 0, err
	}
	if seal {
		if err := s.disk.Rename(tmp, name); err != nil {
			return 0, err
		}
		delete(s.sizes, tmp)
		s.sizes[name] = w.bytes
	}
	for _, f := range files {
		if err := s.remove(f); err != nil {
			return 0, err
		}
	}
	return w.n, nil
}

func (s *spillRuns) noteSize(name string, n int64) {
	s.held += n - s.sizes[name]
	s.sizes[name] = n
	s.peak = max(s.peak, s.held)
}

func (s *spillRuns) remove(name string) error {
	if err := s.disk.Remove(name); err != nil {
		return err
	}
	s.held -= s.sizes[name]
	s.freed += s.sizes[name]
	delete(s.sizes, name)
	return nil
}

// merge merges srcs into w by a binary heap of the sources' keys, adding the counts of
// equal keys (a carry is noted by the runs in memory).
func (s *spillRuns) merge(srcs []source, w *fileWriter) error {
	type head struct {
		k uint64
		i int
	}
	h := make([]head, 0, len(srcs))
	less := func(a, b int) bool { return h[a].k < h[b].k }
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			if r := l + 1; r < len(h) && less(r, l) {
				l = r
			}
			if !less(l, i) {
				return
			}
			h[i], h[l] = h[l], h[i]
			i = l
		}
	}
	for i, src := range srcs {
		if src.next() {
			k, _, _ := src.rec()
			h = append(h, head{k, i})
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	var curK, lo, hi uint64
	have := false
	for m := 0; len(h) > 0; m++ {
		if m&0xffff == 0 && s.ctx.Err() != nil {
			return s.ctx.Err()
		}
		src := srcs[h[0].i]
		k, l, hh := src.rec()
		if have && k == curK {
			s.mem.add(&lo, &hi, l, hh)
		} else {
			if have {
				if err := w.put(curK, lo, hi); err != nil {
					return err
				}
				if w.bytes-s.sizes[w.name] > 64<<20 {
					s.noteSize(w.name, w.bytes)
				}
			}
			curK, lo, hi, have = k, l, hh, true
		}
		if src.next() {
			h[0].k, _, _ = src.rec()
		} else {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		down(0)
	}
	if have {
		return w.put(curK, lo, hi)
	}
	return nil
}

// turn ends a step. Without runs spilled, the runs in memory are merged into the next
// layer's file, sealed, and the layer read is removed: the disk holds both layers at the
// end. With runs spilled, those and the runs in memory (written as one more run file)
// are the next layer's parts: their list is sealed first, then the layer read removed,
// then the parts merged into the layer's file and removed. So the disk holds at most the
// layer read and the parts, or the parts and the layer written: about two layers, not the
// three (layer read, parts, layer written) of a merge straight from the parts; a count
// stopped after the list is sealed merges the parts when resumed (newSpill).
func (s *spillRuns) turn() (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.rd != nil {
		// the sweep reads the whole layer before its turn
		return 0, fmt.Errorf("%s: layer not read to its end", s.rd.name)
	}
	for _, m := range s.all {
		m.stepPeak = m.peak
		m.peak = m.inUse()
	}
	s.foldCarry()
	defer s.endStep()
	if s.mem.carry || s.sweepCarry != nil && *s.sweepCarry {
		// A layer whose counts carried is not sealed: the count is redone with 128-bit
		// counts from the layer before (the sweep returns errWide).
		return 0, nil
	}
	if s.cells+1 >= s.last {
		// The last cell makes no states (the sweep counted the tours).
		if s.pending() || len(s.spilled) > 0 {
			return 0, errors.New("frontier: states after the last cell")
		}
		s.cells++
		return 0, nil
	}
	prev := layerName(s.cells)
	name := layerName(s.cells + 1)
	h := s.header()
	if len(s.spilled) == 0 {
		n, err := s.mergeInto(name, h, nil, true)
		if err != nil {
			return 0, err
		}
		if err := s.removeLayer(prev); err != nil {
			return 0, err
		}
		if err := s.removeCut(); err != nil {
			return 0, err
		}
		s.cells++
		if s.rd, _, err = openRun(s.disk, name); err != nil {
			return 0, err
		}
		return n, s.noteStates(n)
	}
	rest := runName(s.cells+1, s.seq)
	s.seq++
	if _, err := s.mergeInto(rest, h, nil, false); err != nil {
		return 0, err
	}
	parts := append(s.spilled, rest)
	s.spilled = nil
	if s.mem.carry || s.sweepCarry != nil && *s.sweepCarry {
		return 0, nil // as above: the parts are removed when the count is redone
	}
	if err := s.writeParts(h, parts); err != nil {
		return 0, err
	}
	if err := s.removeLayer(prev); err != nil {
		return 0, err
	}
	if err := s.removeCut(); err != nil {
		return 0, err
	}
	s.cells++
	n, err := s.finishParts(h, parts)
	if err != nil {
		return 0, err
	}
	return n, s.noteStates(n)
}

// removeLayer removes the file name if the count holds it (a layer: not the layer before
// the first cell, which is in memory).
func (s *spillRuns) removeLayer(name string) error {
	if _, ok := s.sizes[name]; !ok {
		return nil
	}
	return s.remove(name)
}

// removeCut removes the cut of the step ending (its layer or parts are sealed), if any.
func (s *spillRuns) removeCut() error {
	return s.removeLayer(cutName(s.cells + 1))
}

// endStep keeps the disk figures of the step ending and starts those of the next.
func (s *spillRuns) endStep() {
	s.use = DiskUse{Held: s.held, Peak: s.peak, Freed: s.freed, Spills: s.spills, Cuts: s.cuts}
	s.peak, s.freed, s.spills, s.seq, s.cuts = s.held, 0, 0, 0, 0
	s.done, s.lastKey, s.due, s.tick, s.lastCut = 0, 0, false, 0, time.Now()
}

func (s *spillRuns) carried() bool {
	s.foldCarry()
	return s.mem.carry
}

// bytes is the most memory the runs in memory held over the last step: the sum of the
// workers' peaks (which need not come at once).
func (s *spillRuns) bytes() int64 {
	var n int64
	for _, m := range s.all {
		n += m.bytes()
	}
	return n
}

func (s *spillRuns) release() {
	if s.rd != nil {
		s.rd.close()
		s.rd = nil
	}
	for _, m := range s.all {
		m.release()
	}
}

// countSpill is Count with opts.Spill: the number of paths (open) or cycles (closed).
func (p *plan) countSpill(ctx context.Context, opts Options) (*big.Int, error) {
	cfg := defaultRuns
	budget := int64(1) << 62
	if opts.MaxMemory > 0 {
		// The sort buffers take at most a quarter of the memory (about 60 bytes a record
		// of the buffer), the chunks the rest, at least four of them.
		cfg.bufRecs = int(min(int64(cfg.bufRecs), max(opts.MaxMemory/4/60, 1<<14)))
		budget = max(opts.MaxMemory-cfg.bufferBytes(1<<40), 4*int64(cfg.chunkBytes))
	}
	return p.countSpillCfg(ctx, opts, cfg, budget)
}

// countSpillCfg is countSpill with the runs in memory of cfg and a budget of their
// chunks' bytes (tests shrink both to spill small boards).
func (p *plan) countSpillCfg(ctx context.Context, opts Options, cfg runsConfig, budget int64) (*big.Int, error) {
	fp := fingerprint(p, opts.Start, opts.Ends)
	forceWide := p.n > 64
	for {
		s, resumed, wide, err := newSpill(ctx, opts.Spill, fp, p.n, budget, cfg, forceWide, opts.Workers)
		if errors.Is(err, errWide) && !forceWide {
			forceWide = true
			continue
		}
		if err != nil {
			return nil, err
		}
		s.every, s.lastCut = opts.CutEvery, time.Now()
		var w *sweep
		from := resumed
		if resumed >= 0 {
			if opts.Resumed != nil {
				opts.Resumed(resumed, s.history)
			}
			w = makeSweep(p, s, wide)
			w.total = s.resumed.total
			if s.cutTotal != nil {
				w.total = *s.cutTotal
				if opts.ResumedCut != nil {
					opts.ResumedCut(resumed, s.done, len(s.spilled))
				}
			}
		} else {
			from = 0
			if w, err = newSweep(p, s, wide); err != nil {
				s.release()
				return nil, err
			}
		}
		w.splits = p.splits
		s.sweepCarry, s.sweepTotal = &w.totalCarry, &w.total
		report := opts.Report
		if opts.DiskReport != nil {
			report = func(cell, states int, bytes int64) {
				opts.DiskReport(cell, s.use)
				if opts.Report != nil {
					opts.Report(cell, states, bytes)
				}
			}
		}
		if s.workers > 1 {
			err = w.runWorkers(ctx, s, from, p.n, report)
		} else {
			err = w.run(ctx, p.steps, from, p.n, report)
		}
		s.release()
		if errors.Is(err, errWide) && !wide {
			forceWide = true
			continue
		}
		if err != nil {
			return nil, err
		}
		// The count is done: its last layer goes.
		for name := range s.sizes {
			if err := s.remove(name); err != nil {
				return nil, err
			}
		}
		return w.result(), nil
	}
}
