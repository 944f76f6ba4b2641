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
)

// A count with Options.Spill keeps its layers on disk (spillRuns): the layer after each
// cell is written to one file, sealed (synced, then renamed to its final name), and the
// layer before it removed; the step after reads it back as a stream. The states a step
// makes go to the sorted runs in memory (runs.go) until their chunks reach the memory
// budget; then the runs are merged into one run file (spilled) and the memory given back.
// The step's end merges the runs left in memory and the run files into the next layer's
// file. A count stopped anywhere (Ctrl-C, a kill, a machine that goes away) starts again
// from the last sealed layer: the files of an unfinished step are removed, the layer's
// header must name the same count, and its checksum is checked as it is read.
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
// Cost, against the same count in memory: each state of a layer is compressed, written,
// read and decompressed once, and each state of a spilled run once more; measured on 6×8
// and 7×7 open in bench/log/2026-11-29-knight8x8.md. The memory held is the sorted runs of
// the layer being written (at most the budget) and the buffers; the layer being read is a
// stream.

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
// during the step, and the run files the step spilled.
type DiskUse struct {
	Held, Peak, Freed int64
	Spills            int
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
	mem     *runs
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
	resumed    header  // of the layer resumed from
	use        DiskUse // of the last step
	ctx        context.Context
}

// newSpill opens the store of a count on d. If d holds a sealed layer of the same count
// (fingerprint fp) it is resumed: resumed is its cells placed (-1: none) and wide its
// counts' width. Files of an unfinished step are removed.
func newSpill(ctx context.Context, d Disk, fp uint64, last int, budget int64) (s *spillRuns, resumed int, wide bool, err error) {
	names, err := d.Names()
	if err != nil {
		return nil, 0, false, err
	}
	s = &spillRuns{disk: d, fp: fp, last: last, budget: budget, sizes: map[string]int64{}, ctx: ctx}
	s.cells = -1 // before the layer of no cell placed
	var layers []int
	for _, name := range names {
		switch {
		case strings.HasSuffix(name, tmpSuffix) || strings.HasPrefix(name, runPrefix):
			if err := d.Remove(name); err != nil {
				return nil, 0, false, err
			}
		case strings.HasPrefix(name, layerPrefix) && strings.HasSuffix(name, layerSuffix):
			c, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, layerPrefix), layerSuffix))
			if err == nil {
				layers = append(layers, c)
			}
		}
	}
	slices.Sort(layers)
	if len(layers) == 0 {
		return s, -1, false, nil
	}
	top := layers[len(layers)-1]
	rd, h, err := openRun(d, layerName(top))
	if err != nil {
		return nil, 0, false, err
	}
	if h.fp != fp || h.cells != top {
		rd.close()
		return nil, 0, false, fmt.Errorf("%w (%s)", ErrOtherCount, layerName(top))
	}
	for _, c := range layers[:len(layers)-1] {
		if err := d.Remove(layerName(c)); err != nil {
			rd.close()
			return nil, 0, false, err
		}
	}
	s.rd, s.cells, s.resumed = rd, top, h
	size, err := d.Size(layerName(top))
	if err != nil {
		rd.close()
		return nil, 0, false, err
	}
	s.noteSize(layerName(top), size)
	return s, top, h.wide, nil
}

// start gives the store its runs in memory (once the counts' width is known).
func (s *spillRuns) start(cfg runsConfig, wide bool) {
	s.mem = newRuns(s.ctx, cfg, wide, 0)
}

func (s *spillRuns) batch() (int, int) { return s.mem.batch() }

func (s *spillRuns) read(buf []rec) []rec {
	r := s.rd
	if r == nil || s.err != nil {
		return buf
	}
	for len(buf) < cap(buf) && r.next() {
		buf = append(buf, rec{r.k, r.lo, r.hi})
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
		if err := s.spill(); err != nil {
			return err
		}
	}
	return s.mem.write(buf)
}

// spill merges the runs in memory into a run file and gives their memory back.
func (s *spillRuns) spill() error {
	name := fmt.Sprintf("%s%05d-%04d", runPrefix, s.cells+1, s.seq)
	s.seq++
	if _, err := s.mergeInto(name, nil, false); err != nil {
		return err
	}
	s.spilled = append(s.spilled, name)
	s.spills++
	return nil
}

// mergeInto merges the runs in memory and the files named into the file name, adding
// the counts of equal keys; it removes the files merged (after sealing, if seal).
func (s *spillRuns) mergeInto(name string, files []string, seal bool) (int, error) {
	srcs := make([]source, 0, len(s.mem.pending)+len(files))
	rds := make([]runReader, len(s.mem.pending))
	for i, r := range s.mem.pending {
		rds[i] = s.mem.reader(r)
		srcs = append(srcs, &rds[i])
	}
	s.mem.pending = nil
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
	h := header{fp: s.fp, cells: s.cells + 1, wide: s.mem.wide}
	if s.sweepTotal != nil {
		h.total = *s.sweepTotal
	}
	w, err := createRun(s.disk, tmp, h)
	if err != nil {
		return 0, err
	}
	s.sizes[tmp] = 0
	err = s.merge(srcs, w)
	for _, r := range frs {
		if err == nil && r.err != nil {
			err = r.err
		}
	}
	if err == nil {
		err = w.close(seal)
	} else {
		w.close(false)
	}
	s.noteSize(tmp, w.bytes)
	if err != nil {
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

func (s *spillRuns) turn() (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.rd != nil {
		// the sweep reads the whole layer before its turn
		return 0, fmt.Errorf("%s: layer not read to its end", s.rd.name)
	}
	s.mem.stepPeak = s.mem.peak
	s.mem.peak = s.mem.inUse()
	defer s.endStep()
	if s.mem.carry || s.sweepCarry != nil && *s.sweepCarry {
		// A layer whose counts carried is not sealed: the count is redone with 128-bit
		// counts from the layer before (the sweep returns errWide).
		return 0, nil
	}
	if s.cells+1 >= s.last {
		// The last cell makes no states (the sweep counted the tours).
		if len(s.mem.pending) > 0 || len(s.spilled) > 0 {
			return 0, errors.New("frontier: states after the last cell")
		}
		s.cells++
		return 0, nil
	}
	prev := layerName(s.cells)
	name := layerName(s.cells + 1)
	n, err := s.mergeInto(name, s.spilled, true)
	if err != nil {
		return 0, err
	}
	s.spilled = nil
	if _, ok := s.sizes[prev]; ok {
		if err := s.remove(prev); err != nil {
			return 0, err
		}
	}
	s.cells++
	rd, _, err := openRun(s.disk, name)
	if err != nil {
		return 0, err
	}
	s.rd = rd
	return n, nil
}

// endStep keeps the disk figures of the step ending and starts those of the next.
func (s *spillRuns) endStep() {
	s.use = DiskUse{Held: s.held, Peak: s.peak, Freed: s.freed, Spills: s.spills}
	s.peak, s.freed, s.spills, s.seq = s.held, 0, 0, 0
}

func (s *spillRuns) carried() bool { return s.mem.carry }

func (s *spillRuns) bytes() int64 { return s.mem.bytes() }

func (s *spillRuns) release() {
	if s.rd != nil {
		s.rd.close()
		s.rd = nil
	}
	if s.mem != nil {
		s.mem.release()
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
		s, resumed, wide, err := newSpill(ctx, opts.Spill, fp, p.n, budget)
		if err != nil {
			return nil, err
		}
		wide = wide || forceWide
		s.start(cfg, wide)
		var w *sweep
		from := resumed
		if resumed >= 0 {
			if opts.Resumed != nil {
				opts.Resumed(resumed)
			}
			w = makeSweep(p, s, wide)
			w.total = s.resumed.total
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
		err = w.run(ctx, p.steps, from, p.n, report)
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
