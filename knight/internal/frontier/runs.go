package frontier

import (
	"cmp"
	"context"
	"math/bits"
	"slices"
	"unsafe"
)

// runsConfig sizes the store; defaultRuns is what counts use, tests shrink it.
type runsConfig struct {
	chunkBytes int // bytes of a chunk (at least recMax)
	bufRecs    int // records of the sort buffer
	fanIn      int // runs of one level merged together (at least 2)
	cacheBits  int // log of the slots of the sweep's cache of made states (0: none)
}

var defaultRuns = runsConfig{chunkBytes: 4 << 20, bufRecs: 4 << 20, fanIn: 8, cacheBits: 14}

// runsPeakPerState is the peak of chunk bytes of the sorted runs over a step, per state of the
// largest layer. Measured on 7×8 closed: 115 MB of chunks at the step after cell 39, whose
// 22.5 M states take 3.9 bytes each (the layer being read and the runs being written
// overlap); counts of larger boards take a byte or two more, hence the margin.
const runsPeakPerState = 6

// peakBytes is the memory the store of cfg is expected to need for a sweep whose largest
// layer holds states states: its chunks and its buffers (the sort buffer, its copy, each of
// 24 bytes a record and grown by at most a quarter past bufRecs, and the radix counts).
func (cfg runsConfig) peakBytes(states float64) int64 {
	return int64(states*runsPeakPerState) + cfg.bufferBytes(states)
}

// bufferBytes is the memory of the buffers of the store of cfg for a sweep whose largest
// layer holds states states: the sort buffer and its copy, each of 24 bytes a record and
// grown by at most a quarter past bufRecs, and the radix counts.
func (cfg runsConfig) bufferBytes(states float64) int64 {
	recs := min(float64(cfg.bufRecs), 2*states+1024)
	return int64(2*1.25*24*recs + 8*(64+radixBits-1)/radixBits<<radixBits)
}

// radixBits is the bits of a digit of the radix sort: 2^11 buckets keep the places
// written in one pass within the second-level cache.
const radixBits = 11

// poolChunks is the most full chunks kept for reuse.
const poolChunks = 8

// chunk is a piece of a run's byte stream.
type chunk struct {
	b    []byte // the bytes usable (len) and written (n)
	mem  []byte // the mapping (see mapBytes), nil for heap memory
	held int    // bytes counted for it
	n    int    // bytes written
}

// sortedRun is a run: records sorted by key, keys unique, in chunks; its level counts the
// merges that made it.
type sortedRun struct {
	chunks []*chunk
	n      int   // records
	bytes  int64 // bytes of the records
	level  int
}

// runs is the store of sorted runs of compact records, which Count uses.
//
// A layer (the states after one cell) is one run: records of states sorted by key, keys
// unique, as a byte stream in chunks of at most runsConfig.chunkBytes bytes, each given
// back the moment it is read (record.go gives the record's bytes). A step reads the layer
// in key order, chunk by chunk; the states it makes from neighbouring states often meet, so
// the sweep first adds them up in a direct-mapped cache of 2^cacheBits states, then
// collects them in a buffer of bufRecs records (24 bytes each); write sorts the full buffer
// by key (radix sort, 11-bit digits), adds up equal keys and writes it as a run; when fanIn
// runs of one level exist they are merged (adding equal keys, by a tournament tree) into
// one run of the next level, and turn merges all runs into the next layer. Full chunks
// given back are kept for reuse (up to poolChunks of them, counted as held), which spares
// the system's zeroing of new pages. The bytes counted are those of the chunks held (the
// unused tail of a run's last chunk is given back to the system and not counted), the two
// sort buffers and the radix counts.
//
// Cost: reads and writes are sequential and the sort runs in the caches, so a state read
// costs about 0.27 µs once the layers outgrow the caches (a profile puts a third of the
// time in the radix sort, a third in placing cells and packing states), against about
// 1 µs with the tables; memory is about 4–5 bytes a state of a layer, a peak of chunks of
// about runsPeakPerState bytes a state of the largest layer (the layer being read and the
// runs being written overlap), plus the buffers. Measured figures (7×8 closed: 3.9 bytes a
// state of the largest layer, 602 MiB peak RSS against 1.17 GiB with fixed 16-byte
// records) are in bench/README.md.
type runs struct {
	cfg      runsConfig
	wide     bool
	limit    int64 // bytes, 0: none
	held     int64 // bytes of the live chunks (and the pool)
	bufBytes int64 // bytes of the caller's buffer
	peak     int64 // the most bytes held since the step began
	stepPeak int64 // peak over the last step
	live     map[*chunk]struct{}
	pool     []*chunk     // full chunks given back, kept for reuse
	pending  []*sortedRun // runs of the layer being written
	rd       runReader    // the reader of the layer being read
	scratch  []rec
	cnt      []int
	carry    bool
	done     <-chan struct{}
	ctx      context.Context
}

func newRuns(ctx context.Context, cfg runsConfig, wide bool, limit int64) *runs {
	cfg.chunkBytes = max(cfg.chunkBytes, recMax)
	cfg.fanIn = max(cfg.fanIn, 2)
	return &runs{cfg: cfg, wide: wide, limit: limit, live: map[*chunk]struct{}{}, ctx: ctx, done: ctx.Done()}
}

func (s *runs) batch() (int, int) { return s.cfg.bufRecs, s.cfg.cacheBits }

// read decodes the records of the layer's run straight into buf, a chunk at a time, giving
// each chunk back once read (runReader.next does the same a record at a time, for merges).
func (s *runs) read(buf []rec) []rec {
	rd := &s.rd
	for len(buf) < cap(buf) && rd.left > 0 {
		c := rd.r.chunks[rd.ci]
		if rd.p >= c.n {
			s.giveBack(c)
			rd.r.chunks[rd.ci] = nil
			rd.ci++
			rd.p = 0
			c = rd.r.chunks[rd.ci]
		}
		n0 := len(buf)
		p, k, room := rd.p, rd.k, min(cap(buf)-n0, rd.left)
		for ; room > 0 && p < c.n; room-- {
			d, lo, hi, n := getRec(c.b[p:])
			p += n
			k += d
			buf = append(buf, rec{k, lo, hi})
		}
		rd.p, rd.k = p, k
		if rd.left -= len(buf) - n0; rd.left == 0 {
			s.giveBack(c)
			rd.r.chunks[rd.ci] = nil
		}
	}
	return buf
}

func (s *runs) write(buf []rec) error {
	s.bufBytes = int64(cap(buf)) * 24
	return s.flush(buf)
}

func (s *runs) turn() (int, error) {
	next, err := s.finish(nil)
	if err != nil {
		return 0, err
	}
	s.rd = s.reader(next)
	s.stepPeak = s.peak
	s.peak = s.inUse()
	return next.n, nil
}

func (s *runs) carried() bool { return s.carry }

func (s *runs) bytes() int64 { return s.stepPeak }

// inUse is the bytes the store holds now.
func (s *runs) inUse() int64 {
	return s.held + s.bufBytes + int64(cap(s.scratch))*24 + int64(len(s.cnt))*8
}

func (s *runs) note() {
	s.peak = max(s.peak, s.inUse())
}

// alloc returns an empty chunk of room for at least want bytes of records (at most a full
// chunk), or a *MemoryError if the store would pass its limit.
func (s *runs) alloc(want int64) (*chunk, error) {
	n := int(min(max(want, 0)+recMax, int64(s.cfg.chunkBytes)))
	if n == s.cfg.chunkBytes && len(s.pool) > 0 {
		c := s.pool[len(s.pool)-1]
		s.pool = s.pool[:len(s.pool)-1]
		c.n = 0
		s.live[c] = struct{}{}
		return c, nil
	}
	if s.limit > 0 && s.inUse()+int64(n) > s.limit {
		return nil, &MemoryError{Need: s.inUse() + int64(n), Limit: s.limit}
	}
	c := &chunk{held: n}
	c.b, c.mem = mapBytes(n)
	s.held += int64(n)
	s.live[c] = struct{}{}
	s.note()
	return c, nil
}

// trim gives back the room of c past its last record (c takes no more records).
func (s *runs) trim(c *chunk) {
	keep := min(c.n+recMax, len(c.b))
	if keep == len(c.b) {
		return
	}
	var h int
	c.b, h = trimBytes(c.b, c.mem, keep)
	s.held -= int64(c.held - h)
	c.held = h
}

// giveBack gives c back (to the pool when it is a full chunk and the pool has room).
func (s *runs) giveBack(c *chunk) {
	if c == nil || c.b == nil {
		return
	}
	delete(s.live, c)
	if len(c.b) == s.cfg.chunkBytes && c.held == len(c.b) && len(s.pool) < poolChunks {
		s.pool = append(s.pool, c)
		return
	}
	s.held -= int64(c.held)
	unmap(c.mem)
	c.b, c.mem, c.held = nil, nil, 0
}

// release gives back every chunk still held, and the pool.
func (s *runs) release() {
	for c := range s.live {
		s.giveBack(c)
	}
	for _, c := range s.pool {
		s.held -= int64(c.held)
		unmap(c.mem)
		c.b, c.mem, c.held = nil, nil, 0
	}
	s.pool = nil
	s.pending = nil
}

// add adds (lo, hi) into (*lo, *hi), noting a carry out of the count's bits.
func (s *runs) add(dlo, dhi *uint64, lo, hi uint64) {
	var c uint64
	*dlo, c = bits.Add64(*dlo, lo, 0)
	if s.wide {
		*dhi, c = bits.Add64(*dhi, hi, c)
	}
	if c != 0 {
		s.carry = true
	}
}

// sortDedup sorts buf by key and adds up the counts of equal keys; it returns the distinct
// records (in buf or in the scratch buffer), or the store's ctx.Err() once its ctx is done
// (looked at every 2^16 records of a pass: a full buffer of 4 M records takes up to six
// passes, a second or two in all on a busy machine, too long to go unchecked).
//
// The sort is a radix sort from the low digit of radixBits bits, a pass for each digit
// that is not the same in every key (six for the 59-bit keys of 8 rows). Its passes move
// the records through memory, so their bytes are its cost: with 64-bit counts (hi is 0)
// the passes between the first and the last move narrow records of 16 bytes, not 24 (a
// count of 64 bits whose sum carried into hi has already marked the count to be redone
// with 128-bit counts, so the hi it drops is never counted), kept in the same two buffers (the first pass reads buf whole before any pass writes
// there). Measured on a full buffer of 8×8 open (4.19 M records at cell 12): 0.51 times
// the CPU of moving 24 bytes in every pass.
func (s *runs) sortDedup(buf []rec) ([]rec, error) {
	if len(buf) == 0 {
		return buf, nil
	}
	a := buf
	if len(a) < 256 {
		slices.SortFunc(a, func(x, y rec) int { return cmp.Compare(x.k, y.k) })
	} else {
		var or uint64
		for i := range a {
			or |= a[i].k
		}
		const rb = radixBits
		const rn = 1 << rb
		passes := (bits.Len64(or) + rb - 1) / rb
		if cap(s.scratch) < len(a) {
			s.scratch = make([]rec, len(a), len(a)+len(a)/4)
		}
		// six digits of radixBits bits cover a key (a compile error otherwise)
		const _ = uint((64+rb-1)/rb-6) + uint(6-(64+rb-1)/rb)
		if len(s.cnt) < 6*rn {
			s.cnt = make([]int, 6*rn)
		}
		s.note()
		cnt := s.cnt
		clear(cnt)
		// every pass's digits counted at once: six counts a key whatever the passes
		// (those past the key's bits count 0s), with no loop over the passes
		c0, c1, c2 := cnt[0:rn], cnt[rn:2*rn], cnt[2*rn:3*rn]
		c3, c4, c5 := cnt[3*rn:4*rn], cnt[4*rn:5*rn], cnt[5*rn:6*rn]
		for i := range a {
			if i&0xffff == 0 && s.ctx.Err() != nil {
				return nil, s.ctx.Err()
			}
			k := a[i].k
			c0[k&(rn-1)]++
			c1[k>>rb&(rn-1)]++
			c2[k>>(2*rb)&(rn-1)]++
			c3[k>>(3*rb)&(rn-1)]++
			c4[k>>(4*rb)&(rn-1)]++
			c5[k>>(5*rb)&(rn-1)]++
		}
		// the passes to make: those whose digit is not the same in every key, each
		// with its digits' first places
		var live [(64 + rb - 1) / rb]int
		nl := 0
		for p := range passes {
			c := cnt[p*rn : (p+1)*rn]
			if c[a[0].k>>(rb*p)&(rn-1)] == len(a) {
				continue // every key has this digit
			}
			sum := 0
			for d := range c {
				c[d], sum = sum, sum+c[d]
			}
			live[nl] = p
			nl++
		}
		b := s.scratch[:len(a)]
		if s.wide || nl < 3 {
			for _, p := range live[:nl] {
				c := cnt[p*rn : (p+1)*rn]
				sh := rb * p
				for i := range a {
					if i&0xffff == 0 && s.ctx.Err() != nil {
						return nil, s.ctx.Err()
					}
					d := a[i].k >> sh & (rn - 1)
					b[c[d]] = a[i]
					c[d]++
				}
				a, b = b, a
			}
		} else {
			var err error
			if a, err = s.sortNarrow(a, b, cnt, live[:nl]); err != nil {
				return nil, err
			}
		}
	}
	j := 0
	for i := 1; i < len(a); i++ {
		if a[i].k == a[j].k {
			s.add(&a[j].lo, &a[j].hi, a[i].lo, a[i].hi)
		} else {
			j++
			a[j] = a[i]
		}
	}
	return a[:j+1], nil
}

// narrowRec is a record of a 64-bit count as the middle passes of sortDedup move it.
type narrowRec struct{ k, lo uint64 }

// asNarrow views the memory of a as len(a) narrow records (two thirds of its bytes). Both
// types hold no pointers, so the garbage collector sees the same memory either way.
func asNarrow(a []rec) []narrowRec {
	return unsafe.Slice((*narrowRec)(unsafe.Pointer(unsafe.SliceData(a))), len(a))
}

// sortNarrow makes the radix passes live (at least three, digit places ready in cnt) of
// the records a of 64-bit counts, with b a buffer of as many: the first pass from a to
// narrow records in b, the middle ones between b and a as narrow records, the last back to
// records, in whichever of the two the narrow ones are not. It returns the sorted records
// (in a or b), or the store's ctx.Err().
func (s *runs) sortNarrow(a, b []rec, cnt []int, live []int) ([]rec, error) {
	const rb = radixBits
	const rn = 1 << rb
	n := len(a)
	x, y := asNarrow(b), asNarrow(a) // y is free once the first pass has read a
	xInB := true
	p := live[0]
	c := cnt[p*rn : (p+1)*rn]
	sh := rb * p
	for i := range a {
		if i&0xffff == 0 && s.ctx.Err() != nil {
			return nil, s.ctx.Err()
		}
		d := a[i].k >> sh & (rn - 1)
		x[c[d]] = narrowRec{a[i].k, a[i].lo}
		c[d]++
	}
	for _, p := range live[1 : len(live)-1] {
		c := cnt[p*rn : (p+1)*rn]
		sh := rb * p
		for i := range n {
			if i&0xffff == 0 && s.ctx.Err() != nil {
				return nil, s.ctx.Err()
			}
			d := x[i].k >> sh & (rn - 1)
			y[c[d]] = x[i]
			c[d]++
		}
		x, y, xInB = y, x, !xInB
	}
	out := a
	if !xInB {
		out = b
	}
	p = live[len(live)-1]
	c = cnt[p*rn : (p+1)*rn]
	sh = rb * p
	for i := range n {
		if i&0xffff == 0 && s.ctx.Err() != nil {
			return nil, s.ctx.Err()
		}
		d := x[i].k >> sh & (rn - 1)
		out[c[d]] = rec{x[i].k, x[i].lo, 0}
		c[d]++
	}
	return out, nil
}

// runWriter appends records to a run being written, taking chunks as needed; bound is the
// most bytes of records still to come (it sizes the chunks taken).
type runWriter struct {
	s     *runs
	r     *sortedRun
	c     *chunk
	prev  uint64
	bound int64
}

// put appends the record of key k (greater than the run's last) and count (lo, hi).
func (wr *runWriter) put(k, lo, hi uint64) error {
	c := wr.c
	if c == nil || c.n+recMax > len(c.b) {
		if c != nil {
			wr.s.trim(c)
		}
		var err error
		if c, err = wr.s.alloc(wr.bound); err != nil {
			return err
		}
		wr.c = c
		wr.r.chunks = append(wr.r.chunks, c)
	}
	n := putRec(c.b[c.n:], k-wr.prev, lo, hi)
	wr.prev = k
	c.n += n
	wr.r.n++
	wr.r.bytes += int64(n)
	wr.bound -= int64(n)
	return nil
}

// close gives back the room of the run's last chunk past its records.
func (wr *runWriter) close() {
	if wr.c != nil {
		wr.s.trim(wr.c)
		wr.c = nil
	}
}

// runReader reads a run record by record, giving each chunk back once read.
type runReader struct {
	s    *runs
	r    *sortedRun
	ci   int
	p    int
	k    uint64 // key of the last record read
	lo   uint64
	hi   uint64
	left int // records not yet read
}

func (s *runs) reader(r *sortedRun) runReader {
	return runReader{s: s, r: r, left: r.n}
}

// next reads the next record into rd.k, rd.lo, rd.hi; false at the end of the run.
func (rd *runReader) next() bool {
	if rd.left == 0 {
		return false
	}
	c := rd.r.chunks[rd.ci]
	if rd.p >= c.n {
		rd.s.giveBack(c)
		rd.r.chunks[rd.ci] = nil
		rd.ci++
		rd.p = 0
		c = rd.r.chunks[rd.ci]
	}
	d, lo, hi, n := getRec(c.b[rd.p:])
	rd.p += n
	rd.k += d
	rd.lo, rd.hi = lo, hi
	rd.left--
	if rd.left == 0 {
		rd.s.giveBack(c)
		rd.r.chunks[rd.ci] = nil
	}
	return true
}

// flush sorts buf (the made states), adds up equal keys, writes it as a run of the layer
// being written and merges runs as needed. buf may be reused after.
func (s *runs) flush(buf []rec) error {
	a, err := s.sortDedup(buf)
	if err != nil {
		return err
	}
	if len(a) == 0 {
		return nil
	}
	var size int64
	prev := uint64(0)
	for i := range a {
		size += int64(recLen(a[i].k-prev, a[i].lo, a[i].hi))
		prev = a[i].k
	}
	r := &sortedRun{}
	wr := &runWriter{s: s, r: r, bound: size}
	for i := range a {
		if i&0xffff == 0xffff && s.ctx.Err() != nil {
			return s.ctx.Err()
		}
		if err := wr.put(a[i].k, a[i].lo, a[i].hi); err != nil {
			return err
		}
	}
	wr.close()
	s.pending = append(s.pending, r)
	for {
		L := s.pending[len(s.pending)-1].level
		var same []*sortedRun
		rest := s.pending[:0:0]
		for _, q := range s.pending {
			if q.level == L {
				same = append(same, q)
			} else {
				rest = append(rest, q)
			}
		}
		if len(same) < s.cfg.fanIn {
			return nil
		}
		m, err := s.merge(same)
		if err != nil {
			return err
		}
		m.level = L + 1
		s.pending = append(rest, m)
	}
}

// finish flushes buf and merges every run written into one: the next layer.
func (s *runs) finish(buf []rec) (*sortedRun, error) {
	if err := s.flush(buf); err != nil {
		return nil, err
	}
	runs := s.pending
	s.pending = nil
	switch len(runs) {
	case 0:
		return &sortedRun{}, nil
	case 1:
		return runs[0], nil
	}
	return s.merge(runs)
}

// merge merges runs into one, adding the counts of equal keys, and releases each input chunk
// once read. A tournament tree of losers picks the least key: about log2(len(runs))
// comparisons a record.
func (s *runs) merge(runs []*sortedRun) (*sortedRun, error) {
	var bound int64
	rds := make([]runReader, 0, len(runs))
	for _, r := range runs {
		if r.n > 0 {
			rds = append(rds, s.reader(r))
			bound += r.bytes
		}
	}
	out := &sortedRun{}
	// The merged run is never longer than its inputs: a key's difference from the key
	// before it in the merge is at most that in its own run, and a sum of two counts is
	// at most one byte longer than the longer of them.
	wr := &runWriter{s: s, r: out, bound: bound}
	K := 1
	for K < len(rds) {
		K *= 2
	}
	const end = ^uint64(0) // above every key (keys are below 11^17 + 1)
	keys := make([]uint64, K)
	for i := range keys {
		keys[i] = end
		if i < len(rds) && rds[i].next() {
			keys[i] = rds[i].k
		}
	}
	// tree[1..K-1] hold the losers of the games, tree[0] the winner.
	tree := make([]int32, K)
	win := make([]int32, 2*K)
	for i := range K {
		win[K+i] = int32(i)
	}
	for n := K - 1; n >= 1; n-- {
		l, r := win[2*n], win[2*n+1]
		if keys[r] < keys[l] {
			l, r = r, l
		}
		win[n], tree[n] = l, r
	}
	tree[0] = win[1]
	var curK, lo, hi uint64
	have := false
	for m := 0; ; m++ {
		if m&0xffff == 0 && s.done != nil {
			select {
			case <-s.done:
				return nil, s.ctx.Err()
			default:
			}
		}
		w := tree[0]
		k := keys[w]
		if k == end {
			break
		}
		rd := &rds[w]
		if have && k == curK {
			s.add(&lo, &hi, rd.lo, rd.hi)
		} else {
			if have {
				if err := wr.put(curK, lo, hi); err != nil {
					return nil, err
				}
			}
			curK, lo, hi, have = k, rd.lo, rd.hi, true
		}
		nk := end
		if rd.next() {
			nk = rd.k
		}
		keys[w] = nk
		for n := (int(w) + K) >> 1; n >= 1; n >>= 1 {
			if t := tree[n]; keys[t] < nk {
				tree[n], w, nk = w, t, keys[t]
			}
		}
		tree[0] = w
	}
	if have {
		if err := wr.put(curK, lo, hi); err != nil {
			return nil, err
		}
	}
	wr.close()
	return out, nil
}

// pooled is the bytes of the chunks kept for reuse.
func (s *runs) pooled() int64 {
	var n int64
	for _, c := range s.pool {
		n += int64(c.held)
	}
	return n
}
