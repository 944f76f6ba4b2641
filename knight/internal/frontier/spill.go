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
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A count with Options.Spill keeps its layers on disk (spillRuns). The layer after each
// cell is a chain (chain.go): files of about a 64th of the memory budget each, its
// segments, in key order, listed in its manifest (layer-NNNNN.km), each segment and then
// the manifest sealed (synced, then renamed to its final name). The step after reads the
// layer back as a stream, segment after segment, and removes each segment once a cut
// (cut.go) sealed past its end says it is placed. The states a step makes go to the sorted
// runs in memory (runs.go) until their chunks reach the memory budget or a cut is due;
// then the runs are merged into a run (a chain of run files, spilled, synced) and the
// memory given back; at a cut that leaves compactRuns runs on disk they are merged into
// one (cut.go: compact), so the runs hold about the distinct states made so far. The
// step's end merges the runs left in memory into the next layer if it spilled nothing;
// else it writes them as one more run, seals the job that merges all the runs into the
// next layer (job.go), removes the layer read, and runs the job: by ranges of keys, in
// parallel, each run's segments removed once merged. So the disk holds, at the widest
// step, the part of the layer read not yet placed and the runs, then the runs not yet
// merged and the layer written: about the bytes of one layer and its runs' overlap, not
// two or three layers. A count stopped anywhere (Ctrl-C, a kill, a machine that goes
// away) starts again from the last sealed layer, or the job that makes the next one,
// which it finishes first, or the last cut inside the step after that layer (and the
// merge of its runs, if one was stopped): the files of an unfinished step past its cut are
// removed, the layer's header must name the same count, and each segment's checksum is
// checked as it is read.
//
// A file (segment of a layer or run; the whole layer or run, of builds before the chains)
// is a header, the records of the run as record.go writes them (key differences from the
// previous key, counts without leading zero bytes) compressed by DEFLATE (compress/flate,
// Huffman codes only; read back by inflate.go's decoder, which reads any DEFLATE stream),
// and a trailer:
//
//	header   "KNTLAYR1", the count's fingerprint (8 bytes), the cells placed (4), 128-bit
//	         counts (1), the tours the sweep finished so far (high and low 64 bits: 16;
//	         open tours end before the last cell), CRC-32C of the 37 bytes before (4)
//	records  DEFLATE stream
//	trailer  "KNTEND01", records (8), CRC-32C of the records' bytes before compression (4)
//
// A manifest is "KNTMANI1", the layer's header, its segments (appendChain) and CRC-32C.
// The files of older builds are read as they were: a layer in one file (layer-NNNNN.kl,
// from main 509f2d5 to 789c30f: a test resumes from one), its runs' list
// (layer-NNNNN.parts, "KNTPART1": merged as a job of one range) and cuts ("KNTCUT01").
//
// Cost, against the same count in memory: each state of a layer is compressed, written,
// read and decompressed once, and each state of a spilled run (and, in a step that
// spilled, of the runs left in memory at its end) once more, and again at each
// compaction; measured on 6×8 and 7×7 open in bench/log/2026-11-29-knight8x8.md. The
// memory held is the sorted runs of the layer being written (at most the budget) and the
// buffers, and a reader of each run for each worker while runs merge on disk; the layer
// being read is a stream.

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
	// A layer written by this build is a chain (chain.go): its manifest and segments.
	manifestMagic  = "KNTMANI1"
	manifestSuffix = ".km"
	// statesName is the file of the states after each cell sealed so far, one decimal
	// line a cell from the first (-1 where not known), so that a resumed count can
	// forecast the time left; it is not checked, as nothing is counted from it.
	statesName = "states"
	// flateLevel is the compression of the files: Huffman codes of the bytes, no search
	// for repeated strings. The records hold few: on a 48 MiB piece of a segment of 8×8's
	// layer after cell 35, flate.BestSpeed (the level before main's successor of 10c9bcc)
	// found too few matches in every block and wrote each with Huffman codes only, 0.7903
	// of the records' bytes against 0.7911 here, for 1.4 times the CPU. Files written at
	// either level read the same.
	flateLevel = flate.HuffmanOnly
	// ioBytes is the size of the buffers of records before compression and after.
	ioBytes = 1 << 20
	// fileBuf is the size of the buffer between a file's compressor and the file. The
	// compressor hands its output on a few hundred bytes at a time; written straight to the
	// file, each was a system call: a tenth of a spilling 7×7 open count's CPU (profile
	// in bench/log/2026-11-29-knight8x8.md, session 9).
	fileBuf = 1 << 18
)

// castagnoli returns the CRC-32C table, made on first use: made at package init it cost
// every process of the command line (a count of N = 16 queens too) its tables, about
// 0.15 ms, whether it spilled or not.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// The buffers and compressors of files are reused: each is a megabyte or so, and a step
// opens a file or two and may spill many.
var (
	bufPool = sync.Pool{New: func() any { b := make([]byte, ioBytes+recMax); return &b }}
	bwPool  = sync.Pool{New: func() any { return bufio.NewWriterSize(io.Discard, fileBuf) }}
	zwPool  = sync.Pool{New: func() any { zw, _ := flate.NewWriter(io.Discard, flateLevel); return zw }}
	zrPool  = sync.Pool{New: func() any { return new(inflater) }}
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
	bw    *bufio.Writer // in front of f
	bytes int64         // written to the file so far (to bw)
	zw    *flate.Writer
	buf   []byte // records not yet compressed (len: in use; cap: ioBytes+recMax)
	bufp  *[]byte
	prev  uint64
	n     int
	raw   int64 // bytes of the records before compression
	crc   uint32
}

func createRun(d Disk, name string, h header) (*fileWriter, error) {
	f, err := d.Create(name)
	if err != nil {
		return nil, err
	}
	w := &fileWriter{name: name, f: f, bufp: bufPool.Get().(*[]byte), bw: bwPool.Get().(*bufio.Writer)}
	w.buf = (*w.bufp)[:0]
	w.bw.Reset(f)
	cw := countWriter{w.bw, &w.bytes}
	if _, err := cw.Write(h.bytes()); err != nil {
		f.Close()
		bufPool.Put(w.bufp)
		w.bw.Reset(io.Discard)
		bwPool.Put(w.bw)
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
	w.raw += int64(m)
	w.prev = k
	w.n++
	return nil
}

func (w *fileWriter) flush() error {
	w.crc = crc32.Update(w.crc, castagnoli(), w.buf)
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
		w.release()
		return err
	}
	err := w.zw.Close()
	if err == nil {
		var t [trailerLen]byte
		copy(t[:], trailMagic)
		binary.LittleEndian.PutUint64(t[8:], uint64(w.n))
		binary.LittleEndian.PutUint32(t[16:], w.crc)
		_, err = countWriter{w.bw, &w.bytes}.Write(t[:])
	}
	if err == nil {
		err = w.bw.Flush()
	}
	if err == nil && sync {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	w.release()
	if err != nil {
		return fmt.Errorf("writing %s: %w", w.name, err)
	}
	return nil
}

// release gives the writer's compressor and buffers back to their pools.
func (w *fileWriter) release() {
	zwPool.Put(w.zw)
	bufPool.Put(w.bufp)
	w.bw.Reset(io.Discard) // drops what a failed write left, and the file
	bwPool.Put(w.bw)
	w.zw, w.bufp, w.buf, w.bw = nil, nil, nil, nil
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
	binary.LittleEndian.PutUint32(b[37:], crc32.Checksum(b[:37], castagnoli()))
	return b
}

func readHeader(r io.Reader, name string) (header, error) {
	var h [headerLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return header{}, fmt.Errorf("%s: reading its header: %w", name, err)
	}
	if string(h[:8]) != layerMagic || crc32.Checksum(h[:37], castagnoli()) != binary.LittleEndian.Uint32(h[37:]) {
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
	zr        *inflater
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
	// The decompressor reads past its stream: the trailer is read from it (tail).
	zr := zrPool.Get().(*inflater)
	zr.Reset(br)
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
		r.crc = crc32.Update(r.crc, castagnoli(), r.buf[r.end:r.end+m])
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
	if err := r.zr.tail(t[:]); err != nil {
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
	// in reads the layer being read, the chain inSegs (chain.go; one segment of the
	// whole file for a layer of an older build) of inBytes bytes in all, whose manifest
	// (or whose file, if of an older build) is inName.
	in      *chainReader
	inSegs  []seg
	inBytes int64
	inName  string
	spilled [][]seg // runs of the layer being written (chains)
	// segRaw is the bytes of records before compression that end a segment of a chain.
	segRaw int
	// merging, if not nil, is Options.Merging.
	merging func(cell, sealed, ranges int)
	// mu guards sizes, held, peak and freed, which the ranges of a job (job.go) change
	// from several goroutines.
	mu     sync.Mutex
	spills int // of this step
	seq    int
	err    error
	sizes  map[string]int64
	held   int64
	peak   int64
	freed  int64
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

// segRawMin is the least bytes of records before compression in a segment of a chain
// (chain.go): a segment is a 64th of the budget of the runs in memory, at least this (a
// variable for the tests, which make many small segments).
var segRawMin = 1 << 12

// newSpill opens the store of a count on d, with runs in memory of cfg and counts of 128
// bits if forceWide. If d holds a sealed layer of the same count (fingerprint fp) it is
// resumed: resumed is its cells placed (-1: none) and wide its counts' width. A layer
// left as the job that merges its runs (a count stopped in the merge: see turn) is merged
// first. The files of an unfinished step, and of the layers before, are removed. Its
// steps are placed by workers goroutines (workers.go). It returns errWide if the layer's
// counts need 128 bits (the caller forces 128).
func newSpill(ctx context.Context, d Disk, fp uint64, last int, budget int64, cfg runsConfig, forceWide bool, workers int) (s *spillRuns, resumed int, wide bool, err error) {
	names, err := d.Names()
	if err != nil {
		return nil, 0, false, err
	}
	s = &spillRuns{disk: d, fp: fp, last: last, budget: budget, sizes: map[string]int64{}, ctx: ctx, workers: max(workers, 1)}
	s.segRaw = int(min(max(budget/64, int64(segRawMin)), 1<<30))
	s.cells = -1 // before the layer of no cell placed
	// top is the last layer sealed: its manifest, its file (an older build's) or the
	// job that merges it (the manifest or file wins: it was sealed from the job).
	top, topJob := -1, false
	for _, name := range names {
		if c, ok := layerCells(name, layerSuffix); ok && c >= top {
			top, topJob = c, false
		}
		if c, ok := layerCells(name, manifestSuffix); ok && c >= top {
			top, topJob = c, false
		}
		if c, ok := layerCells(name, partsSuffix); ok && c > top {
			top, topJob = c, true
		}
	}
	on := map[string]bool{}
	for _, name := range names {
		on[name] = true
	}
	keep := map[string]bool{}
	var h header
	var j *job
	var segs []seg
	fail := func(err error) (*spillRuns, int, bool, error) {
		s.release()
		return nil, 0, false, err
	}
	switch {
	case top < 0:
	case topJob:
		keep[partsName(top)] = true
		if j, err = readJob(d, partsName(top)); err != nil {
			return fail(err)
		}
		h = j.h
		for _, c := range j.srcs {
			for _, sg := range c {
				keep[sg.name] = true
			}
		}
		for i := range j.ranges() {
			keep[segName(j.base, i)] = true
		}
	case on[manifestName(top)]:
		keep[manifestName(top)] = true
		if h, segs, err = readManifest(d, manifestName(top)); err != nil {
			return fail(err)
		}
		for _, sg := range segs {
			keep[sg.name] = true
		}
	default:
		name := layerName(top)
		keep[name] = true
		size, err := d.Size(name)
		if err != nil {
			return fail(err)
		}
		segs = []seg{oldSeg(name, size)}
		r, hh, err := openRun(d, name)
		if err != nil {
			return fail(err)
		}
		r.close()
		h = hh
	}
	if top >= 0 && (h.fp != fp || h.cells != top) {
		return fail(fmt.Errorf("%w (layer %d)", ErrOtherCount, top))
	}
	// A cut of the step after the top layer (not of one left as a job: no step after it
	// began) is resumed from, with its runs.
	var c *cut
	var compacting *job
	if name := cutName(top + 1); top >= 0 && !topJob && on[name] {
		if c, err = readCut(d, name); err != nil {
			return fail(err)
		}
		keep[name] = true
		// a compaction of the cut's runs (cut.go) that was not finished: its runs may be
		// merged in part; it is finished before the cut is resumed from
		for _, n := range names {
			if strings.HasPrefix(n, fmt.Sprintf("%s%05d-", runPrefix, top+1)) && strings.HasSuffix(n, partsSuffix) {
				if compacting, err = readJob(d, n); err != nil {
					return fail(err)
				}
				keep[n] = true
				for _, r := range compacting.srcs {
					for _, sg := range r {
						keep[sg.name] = true
					}
				}
				for i := range compacting.ranges() {
					keep[segName(compacting.base, i)] = true
				}
			}
		}
		for _, r := range c.runs {
			if compacting != nil {
				for _, sg := range r {
					keep[sg.name] = true
				}
				continue
			}
			for _, sg := range r {
				if !on[sg.name] {
					return fail(fmt.Errorf("%s %w: its run file %s is not there; remove it to count cell %d from its start", name, ErrCutRefused, sg.name, top+1))
				}
				keep[sg.name] = true
			}
		}
	}
	// The top layer is there and of this count: every other file of a count goes.
	for _, name := range names {
		if keep[name] || !on[name] {
			continue
		}
		if strings.HasPrefix(name, layerPrefix) || strings.HasSuffix(name, tmpSuffix) || strings.HasPrefix(name, runPrefix) || strings.HasPrefix(name, cutPrefix) {
			if err := d.Remove(name); err != nil {
				return fail(err)
			}
		}
	}
	for name := range keep {
		if !on[name] {
			continue // a segment already removed (a layer's read, a job's merged)
		}
		size, err := d.Size(name)
		if err != nil {
			return fail(err)
		}
		s.noteSize(name, size)
	}
	s.start(cfg, forceWide || h.wide || c != nil && c.wide)
	if top < 0 {
		if on[statesName] {
			if err := d.Remove(statesName); err != nil {
				return fail(err)
			}
		}
		return s, -1, s.mem.wide, nil
	}
	s.cells, s.resumed = top, h
	s.history = readStates(d, top)
	if on[statesName] {
		size, err := d.Size(statesName)
		if err != nil {
			return fail(err)
		}
		s.noteSize(statesName, size)
	}
	if topJob {
		n, err := s.finishJob(j)
		if err == nil {
			err = s.noteStates(n)
		}
		if err != nil {
			return fail(err)
		}
		return s, top, s.mem.wide, nil
	}
	s.openLayer(top, segs)
	if len(segs) > 0 && segs[0].n < 0 {
		s.inName = layerName(top)
	}
	if compacting != nil {
		s.cells = top
		if err := s.finishCompact(c, compacting); err != nil {
			return fail(err)
		}
	}
	if c != nil {
		if err := s.resumeCut(cutName(top+1), c); err != nil {
			return fail(err)
		}
	} else {
		for _, sg := range segs {
			if !on[sg.name] {
				return fail(fmt.Errorf("%s: its segment %s is not there, and no cut says it was read", manifestName(top), sg.name))
			}
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
	if n < len(partsMagic)+headerLen+4 || string(b[:len(partsMagic)]) != partsMagic || crc32.Checksum(b[:n], castagnoli()) != binary.LittleEndian.Uint32(b[n:]) {
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
	r := s.in
	if r == nil || s.err != nil {
		return buf
	}
	n0 := len(buf)
	for len(buf) < cap(buf) && r.next() {
		buf = append(buf, rec{r.k, r.v0, r.v1})
	}
	if len(buf) > n0 {
		s.done += len(buf) - n0
		s.lastKey = buf[len(buf)-1].k
	}
	if len(buf) < cap(buf) {
		s.err = r.err
		r.close()
		s.in = nil
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
	c, err := s.mergeInto(name, s.header(), false)
	if err != nil {
		return err
	}
	s.spilled = append(s.spilled, c)
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

// mergeInto merges the runs in memory into the chain base (chain.go), each segment synced,
// with header h, adding the counts of equal keys, and returns its segments. If seal, each
// segment is written as its name.tmp and renamed, unless a sum carried out of the counts'
// bits: the segments are then removed and the error is errWide (ErrOverflow with 128-bit
// counts). A carry without seal is noted (carried).
func (s *spillRuns) mergeInto(base string, h header, seal bool) ([]seg, error) {
	s.foldCarry()
	n := 0
	for _, m := range s.all {
		n += len(m.pending)
	}
	rds := make([]runReader, 0, n)
	for _, m := range s.all {
		for _, r := range m.pending {
			rds = append(rds, m.reader(r))
		}
		m.pending = nil
	}
	w := s.newChain(base, h, seal)
	carry := s.mem.carry
	err := mergeMem(s.ctx, rds, s.mem.add, w.put)
	if err == nil && seal && s.mem.carry && !carry {
		err = errWide
		if s.mem.wide {
			err = ErrOverflow
		}
	}
	var segs []seg
	if err == nil {
		segs, err = w.close()
	}
	if err != nil {
		w.abandon()
		return nil, err
	}
	return segs, nil
}

func (s *spillRuns) noteSize(name string, n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held += n - s.sizes[name]
	s.sizes[name] = n
	s.peak = max(s.peak, s.held)
}

// size returns the bytes of the file name of the count, and whether it holds it.
func (s *spillRuns) size(name string) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.sizes[name]
	return n, ok
}

// renamed notes that the file from is now to.
func (s *spillRuns) renamed(from, to string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sizes[to] = s.sizes[from]
	delete(s.sizes, from)
}

func (s *spillRuns) remove(name string) error {
	if err := s.disk.Remove(name); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held -= s.sizes[name]
	s.freed += s.sizes[name]
	delete(s.sizes, name)
	return nil
}

// turn ends a step. Without runs spilled, the runs in memory are merged into the next
// layer's chain, its segments sealed, then its manifest sealed, and the layer read is
// removed: the disk holds both layers at the end. With runs spilled, the runs in memory
// are written as one more run, the job that merges the runs into the next layer is sealed
// (job.go), the layer read is removed, and the job is run: it removes each run's segment
// once merged, so the disk holds about the bytes of the runs (with the layer read given
// back at the cuts as it was read: see takeCut). A count stopped after the job is sealed
// resumes it (newSpill).
func (s *spillRuns) turn() (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.in != nil {
		// the sweep reads the whole layer before its turn
		return 0, fmt.Errorf("%s: layer not read to its end", s.inName)
	}
	for _, m := range s.all {
		m.stepPeak = m.peak
		m.peak = m.inUse()
	}
	s.foldCarry()
	defer s.endStep()
	if s.mem.carry || s.sweepCarry != nil && *s.sweepCarry {
		// A layer whose counts carried is not sealed: the count is redone with 128-bit
		// counts from the layer before, or the last cut (the sweep returns errWide).
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
	h := s.header()
	if len(s.spilled) == 0 {
		segs, err := s.mergeInto(layerBase(s.cells+1), h, true)
		if err != nil {
			return 0, err
		}
		if err := s.writeManifest(h, segs); err != nil {
			return 0, err
		}
		if err := s.removeInput(); err != nil {
			return 0, err
		}
		if err := s.removeCut(); err != nil {
			return 0, err
		}
		s.cells++
		s.openLayer(h.cells, segs)
		return int(chainRecs(segs)), s.noteStates(int(chainRecs(segs)))
	}
	rest, err := s.mergeInto(runName(s.cells+1, s.seq), h, false)
	if err != nil {
		return 0, err
	}
	s.seq++
	runs := append(s.spilled, rest)
	s.spilled = nil
	if s.mem.carry || s.sweepCarry != nil && *s.sweepCarry {
		return 0, nil // as above: the runs are removed when the count is redone
	}
	j := newJob(partsName(h.cells), h, layerBase(h.cells), runs)
	if err := s.writeSmall(j.list, j.bytes(), true); err != nil {
		return 0, err
	}
	if err := s.removeInput(); err != nil {
		return 0, err
	}
	if err := s.removeCut(); err != nil {
		return 0, err
	}
	s.cells++
	n, err := s.finishJob(j)
	if err != nil {
		return 0, err
	}
	return n, s.noteStates(n)
}

// finishJob runs the job j that makes the layer read (s.cells cells placed), seals the
// layer's manifest, removes the job's list and opens the layer to be read. It returns the
// layer's states, or errWide if its counts need 128 bits and the count's are 64 (the layer
// is sealed with 128-bit counts: the count goes on from it).
func (s *spillRuns) finishJob(j *job) (int, error) {
	segs, high, err := s.runJob(j)
	if err != nil {
		return 0, err
	}
	h := j.h
	h.wide = h.wide || high
	if err := s.writeManifest(h, segs); err != nil {
		return 0, err
	}
	if err := s.remove(partsName(h.cells)); err != nil {
		return 0, err
	}
	s.openLayer(h.cells, segs)
	if high && !s.mem.wide {
		return 0, errWide
	}
	return int(chainRecs(segs)), nil
}

// openLayer makes the chain segs, the layer of cells cells placed, the layer to be read.
func (s *spillRuns) openLayer(cells int, segs []seg) {
	s.inSegs, s.inName = segs, manifestName(cells)
	s.inBytes = 0
	for _, sg := range segs {
		s.inBytes += sg.bytes
	}
	s.in = readChainFrom(s.disk, segs, 0, 0, math.MaxUint64)
}

// removeInput removes what is left of the layer read: its manifest and segments, or its
// file if of an older build.
func (s *spillRuns) removeInput() error {
	for _, sg := range s.inSegs {
		if err := s.removeLayer(sg.name); err != nil {
			return err
		}
	}
	if s.inName != "" {
		if err := s.removeLayer(s.inName); err != nil {
			return err
		}
	}
	s.inSegs, s.inName, s.inBytes = nil, "", 0
	return nil
}

// removeRead removes the segments of the layer read that the sweep has placed whole (called
// once a cut that says so is sealed); a layer file of an older build is kept to the end.
func (s *spillRuns) removeRead() error {
	if s.in == nil {
		return nil // read to its end: removed at the turn
	}
	for _, sg := range s.inSegs[:s.in.i] {
		if sg.n < 0 {
			continue
		}
		if err := s.removeLayer(sg.name); err != nil {
			return err
		}
	}
	return nil
}

// removeLayer removes the file name if the count holds it (a layer: not the layer before
// the first cell, which is in memory).
func (s *spillRuns) removeLayer(name string) error {
	if _, ok := s.size(name); !ok {
		return nil
	}
	return s.remove(name)
}

// removeCut removes the cut of the step ending (its layer or parts are sealed), if any.
func (s *spillRuns) removeCut() error {
	return s.removeLayer(cutName(s.cells + 1))
}

// manifestName is the manifest of the layer after `cells` cells placed: the list of its
// segments (chain.go).
func manifestName(cells int) string {
	return fmt.Sprintf("%s%05d%s", layerPrefix, cells, manifestSuffix)
}

// layerBase is the base name of the segments of the layer after `cells` cells placed.
func layerBase(cells int) string { return fmt.Sprintf("%s%05d", layerPrefix, cells) }

// writeManifest seals the manifest of the layer of header h, whose segments are segs
// (each sealed before): "KNTMANI1", the header, the segments (appendChain), CRC-32C of
// the bytes before.
func (s *spillRuns) writeManifest(h header, segs []seg) error {
	b := append([]byte(manifestMagic), h.bytes()...)
	b = appendChain(b, segs)
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
	return s.writeSmall(manifestName(h.cells), b, true)
}

// readManifest reads the manifest name: the layer's header and segments.
func readManifest(d Disk, name string) (header, []seg, error) {
	f, err := d.Open(name)
	if err != nil {
		return header{}, nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, 64<<20))
	f.Close()
	if err != nil {
		return header{}, nil, fmt.Errorf("reading %s: %w", name, err)
	}
	bad := fmt.Errorf("%s %w", name, ErrLayerChecksum)
	n := len(b) - 4
	if n < len(manifestMagic)+headerLen+4 || string(b[:len(manifestMagic)]) != manifestMagic || crc32.Checksum(b[:n], castagnoli()) != binary.LittleEndian.Uint32(b[n:]) {
		return header{}, nil, bad
	}
	h, err := readHeader(bytes.NewReader(b[len(manifestMagic):]), name)
	if err != nil {
		return header{}, nil, err
	}
	segs, rest, ok := readChain(b[len(manifestMagic)+headerLen : n])
	if !ok || len(rest) != 0 {
		return header{}, nil, bad
	}
	return h, segs, nil
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
	if s.in != nil {
		s.in.close()
		s.in = nil
	}
	for _, m := range s.all {
		m.release()
	}
}

// countSpill is Count with opts.Spill: the number of paths (open) or cycles (closed).
func (p *plan) countSpill(ctx context.Context, opts Options) (*big.Int, error) {
	cfg, budget := defaultRuns, int64(1)<<62
	if opts.MaxMemory > 0 {
		cfg, budget = spillRunsConfig(opts.MaxMemory)
	}
	return p.countSpillCfg(ctx, opts, cfg, budget)
}

// spillRunsConfig is the runs' configuration of a count with Spill and a positive
// MaxMemory maxMemory, and the budget of their chunks' bytes: the sort buffers take at
// most a quarter of the memory (about 60 bytes a record of the buffer), the chunks the
// rest, at least four of them.
func spillRunsConfig(maxMemory int64) (runsConfig, int64) {
	cfg := defaultRuns
	cfg.bufRecs = int(min(int64(cfg.bufRecs), max(maxMemory/4/60, 1<<14)))
	return cfg, max(maxMemory-cfg.bufferBytes(1<<40), 4*int64(cfg.chunkBytes))
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
		s.merging = opts.Merging
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
