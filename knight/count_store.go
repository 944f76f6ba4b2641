package knight

import (
	"cmp"
	"context"
	"encoding/binary"
	"math/big"
	"math/bits"
	"slices"
)

// The dp method's state store: sorted runs of compact records (see the top of count_dp.go).
//
// A layer (the states after one cell) is one run: records of states sorted by key, keys
// unique, as a byte stream in chunks of at most dpStoreConfig.chunkBytes bytes, each given
// back the moment it is read. A record is a header byte, the difference from the previous
// key of the run (the first: from 0; at least 1, as keys are unique) in 1–8 bytes, the low
// 64 bits of the count in 0–8 bytes and, with 128-bit counts when the high bits are not
// zero, a byte giving their length and the high bits in 1–8 bytes; all little-endian
// without leading zero bytes. The header holds the key difference's length less one (bits
// 0–2), the low count's length (bits 3–6) and whether high bits follow (bit 7). A record is
// never split between chunks, and a chunk keeps dpRecMax bytes past the start of its last
// record, so that fields are read and written as whole 8-byte words.
//
// A step reads the layer chunk by chunk, collects the made states in a buffer of bufRecs
// records (24 bytes each), sorts the full buffer by key (radix sort), adds up equal keys
// and writes it as a run; when fanIn runs of one level exist they are merged (adding equal
// keys, by a tournament tree) into one run of the next level, and at the end of the step
// all runs are merged into the next layer. Full chunks given back are kept for reuse (up to
// dpPoolChunks of them, counted as held), which spares the system's zeroing of new pages.
// The bytes counted are those of the chunks held (the unused tail of a run's last chunk
// is given back to the system and not counted), the two sort buffers and the radix counts.
// Measured on 7×8 closed: 3.8–4.7 bytes a state of a layer, a peak of chunks of 5.1 bytes
// a state of the largest layer (dpRunPeakPerState), 231 MB of buffers (count_dp.go).

// dpStoreConfig sizes the store; dpStoreDefault is what counts use, tests shrink it.
type dpStoreConfig struct {
	chunkBytes int // bytes of a chunk (at least dpRecMax)
	bufRecs    int // records of the sort buffer
	fanIn      int // runs of one level merged together (at least 2)
	cacheBits  int // log of the slots of the sweep's cache of made states (0: none)
}

var dpStoreDefault = dpStoreConfig{chunkBytes: 4 << 20, bufRecs: 4 << 20, fanIn: 8, cacheBits: 14}

// dpRunPeakPerState is the run store's peak of chunk bytes over a step, per state of the
// largest layer. Measured on 7×8 closed: 115 MB of chunks at the step after cell 39, whose
// 22.5 M states take 3.9 bytes each (the layer being read and the runs being written
// overlap); counts of larger boards take a byte or two more, hence the margin.
const dpRunPeakPerState = 6

// peakBytes is the memory the store of cfg is expected to need for a sweep whose largest
// layer holds states states: its chunks and its buffers (the sort buffer, its copy, each of
// 24 bytes a record and grown by at most a quarter past bufRecs, and the radix counts).
func (cfg dpStoreConfig) peakBytes(states float64) int64 {
	recs := min(float64(cfg.bufRecs), 2*states+1024)
	return int64(states*dpRunPeakPerState + 2*1.25*24*recs + 8*(64+dpRadixBits-1)/dpRadixBits<<dpRadixBits)
}

// dpRadixBits is the bits of a digit of the radix sort: 2^11 buckets keep the places
// written in one pass within the second-level cache.
const dpRadixBits = 11

// dpRecMax is the most bytes a record can take.
const dpRecMax = 1 + 8 + 8 + 1 + 8

// dpPoolChunks is the most full chunks kept for reuse.
const dpPoolChunks = 8

// dpMask[n] keeps the low n bytes of a word.
var dpMask = [9]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff, ^uint64(0)}

type dpChunk struct {
	b    []byte // the bytes usable (len) and written (n)
	mem  []byte // the mapping (see dpChunkAlloc), nil for heap memory
	held int    // bytes counted for it
	n    int    // bytes written
}

type dpRun struct {
	chunks []*dpChunk
	n      int   // records
	bytes  int64 // bytes of the records
	level  int
}

type dpStore struct {
	cfg      dpStoreConfig
	wide     bool
	limit    int64 // bytes, 0: none
	held     int64 // bytes of the live chunks (and the pool)
	bufBytes int64 // bytes of the caller's buffer
	peak     int64
	live     map[*dpChunk]struct{}
	pool     []*dpChunk // full chunks given back, kept for reuse
	pending  []*dpRun   // runs of the layer being written
	scratch  []dpOut
	cnt      []int
	carry    bool
	done     <-chan struct{}
	ctx      context.Context
}

func newDPStore(ctx context.Context, cfg dpStoreConfig, wide bool, limit int64) *dpStore {
	cfg.chunkBytes = max(cfg.chunkBytes, dpRecMax)
	cfg.fanIn = max(cfg.fanIn, 2)
	return &dpStore{cfg: cfg, wide: wide, limit: limit, live: map[*dpChunk]struct{}{}, ctx: ctx, done: ctx.Done()}
}

func (s *dpStore) bytes() int64 {
	return s.held + s.bufBytes + int64(cap(s.scratch))*24 + int64(len(s.cnt))*8
}

func (s *dpStore) note() {
	s.peak = max(s.peak, s.bytes())
}

// alloc returns an empty chunk of room for at least want bytes of records (at most a full
// chunk), or a *MemoryError if the store would pass its limit.
func (s *dpStore) alloc(want int64) (*dpChunk, error) {
	n := int(min(max(want, 0)+dpRecMax, int64(s.cfg.chunkBytes)))
	if n == s.cfg.chunkBytes && len(s.pool) > 0 {
		c := s.pool[len(s.pool)-1]
		s.pool = s.pool[:len(s.pool)-1]
		c.n = 0
		s.live[c] = struct{}{}
		return c, nil
	}
	if s.limit > 0 && s.bytes()+int64(n) > s.limit {
		return nil, &MemoryError{Need: s.bytes() + int64(n), Limit: s.limit}
	}
	c := &dpChunk{held: n}
	c.b, c.mem = dpChunkAlloc(n)
	s.held += int64(n)
	s.live[c] = struct{}{}
	s.note()
	return c, nil
}

// trim gives back the room of c past its last record (c takes no more records).
func (s *dpStore) trim(c *dpChunk) {
	keep := min(c.n+dpRecMax, len(c.b))
	if keep == len(c.b) {
		return
	}
	var h int
	c.b, h = dpChunkTrim(c.b, c.mem, keep)
	s.held -= int64(c.held - h)
	c.held = h
}

// release gives c back (to the pool when it is a full chunk and the pool has room).
func (s *dpStore) release(c *dpChunk) {
	if c == nil || c.b == nil {
		return
	}
	delete(s.live, c)
	if len(c.b) == s.cfg.chunkBytes && c.held == len(c.b) && len(s.pool) < dpPoolChunks {
		s.pool = append(s.pool, c)
		return
	}
	s.held -= int64(c.held)
	dpRelease(c.mem)
	c.b, c.mem, c.held = nil, nil, 0
}

// releaseAll gives back every chunk still held, and the pool.
func (s *dpStore) releaseAll() {
	for c := range s.live {
		s.release(c)
	}
	for _, c := range s.pool {
		s.held -= int64(c.held)
		dpRelease(c.mem)
		c.b, c.mem, c.held = nil, nil, 0
	}
	s.pool = nil
	s.pending = nil
}

// add adds (lo, hi) into (*lo, *hi), noting a carry out of the count's bits.
func (s *dpStore) add(dlo, dhi *uint64, lo, hi uint64) {
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
func (s *dpStore) sortDedup(buf []dpOut) ([]dpOut, error) {
	if len(buf) == 0 {
		return buf, nil
	}
	a := buf
	if len(a) < 256 {
		slices.SortFunc(a, func(x, y dpOut) int { return cmp.Compare(x.k, y.k) })
	} else {
		var or uint64
		for i := range a {
			or |= a[i].k
		}
		const rb = dpRadixBits
		const rn = 1 << rb
		passes := (bits.Len64(or) + rb - 1) / rb
		if cap(s.scratch) < len(a) {
			s.scratch = make([]dpOut, len(a), len(a)+len(a)/4)
		}
		if len(s.cnt) < passes*rn {
			s.cnt = make([]int, (64+rb-1)/rb*rn)
		}
		s.note()
		cnt := s.cnt
		clear(cnt)
		for i := range a {
			if i&0xffff == 0 && s.ctx.Err() != nil {
				return nil, s.ctx.Err()
			}
			k := a[i].k
			for p := range passes {
				cnt[p*rn+int(k>>(rb*p)&(rn-1))]++
			}
		}
		b := s.scratch[:len(a)]
		for p := range passes {
			c := cnt[p*rn : (p+1)*rn]
			sh := rb * p
			if c[a[0].k>>sh&(rn-1)] == len(a) {
				continue // every key has this digit
			}
			sum := 0
			for d := range c {
				c[d], sum = sum, sum+c[d]
			}
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

// dpRecLen is the bytes of the record of a key difference d ≥ 1 and count (lo, hi).
func dpRecLen(d, lo, hi uint64) int {
	n := 1 + (bits.Len64(d)+7)>>3 + (bits.Len64(lo)+7)>>3
	if hi != 0 {
		n += 1 + (bits.Len64(hi)+7)>>3
	}
	return n
}

// dpPut writes the record of key difference d ≥ 1 and count (lo, hi) at the start of b,
// which must have dpRecMax bytes, and returns its length.
func dpPut(b []byte, d, lo, hi uint64) int {
	_ = b[dpRecMax-1]
	kl := (bits.Len64(d) + 7) >> 3
	ll := (bits.Len64(lo) + 7) >> 3
	binary.LittleEndian.PutUint64(b[1:9], d)
	binary.LittleEndian.PutUint64(b[1+kl:9+kl], lo)
	p := 1 + kl + ll
	h := byte(kl-1) | byte(ll)<<3
	if hi != 0 {
		h |= 0x80
		hl := (bits.Len64(hi) + 7) >> 3
		b[p] = byte(hl)
		binary.LittleEndian.PutUint64(b[p+1:p+9], hi)
		p += 1 + hl
	}
	b[0] = h
	return p
}

// dpGet reads the record at the start of b (which must have dpRecMax bytes): its key
// difference, count and length.
func dpGet(b []byte) (d, lo, hi uint64, n int) {
	_ = b[dpRecMax-1]
	h := b[0]
	kl := int(h&7) + 1
	ll := int(h>>3) & 15
	d = binary.LittleEndian.Uint64(b[1:9]) & dpMask[kl]
	lo = binary.LittleEndian.Uint64(b[1+kl:9+kl]) & dpMask[ll&15%9]
	n = 1 + kl + ll
	if h&0x80 != 0 {
		hl := int(b[n]) % 9
		hi = binary.LittleEndian.Uint64(b[n+1:n+9]) & dpMask[hl]
		n += 1 + hl
	}
	return d, lo, hi, n
}

// dpWriter appends records to a run being written, taking chunks as needed; bound is the
// most bytes of records still to come (it sizes the chunks taken).
type dpWriter struct {
	s     *dpStore
	r     *dpRun
	c     *dpChunk
	prev  uint64
	bound int64
}

// put appends the record of key k (greater than the run's last) and count (lo, hi).
func (wr *dpWriter) put(k, lo, hi uint64) error {
	c := wr.c
	if c == nil || c.n+dpRecMax > len(c.b) {
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
	n := dpPut(c.b[c.n:], k-wr.prev, lo, hi)
	wr.prev = k
	c.n += n
	wr.r.n++
	wr.r.bytes += int64(n)
	wr.bound -= int64(n)
	return nil
}

// close gives back the room of the run's last chunk past its records.
func (wr *dpWriter) close() {
	if wr.c != nil {
		wr.s.trim(wr.c)
		wr.c = nil
	}
}

// dpReader reads a run record by record, giving each chunk back once read.
type dpReader struct {
	s    *dpStore
	r    *dpRun
	ci   int
	p    int
	k    uint64 // key of the last record read
	lo   uint64
	hi   uint64
	left int // records not yet read
}

func (s *dpStore) reader(r *dpRun) dpReader {
	return dpReader{s: s, r: r, left: r.n}
}

// next reads the next record into rd.k, rd.lo, rd.hi; false at the end of the run.
func (rd *dpReader) next() bool {
	if rd.left == 0 {
		return false
	}
	c := rd.r.chunks[rd.ci]
	if rd.p >= c.n {
		rd.s.release(c)
		rd.r.chunks[rd.ci] = nil
		rd.ci++
		rd.p = 0
		c = rd.r.chunks[rd.ci]
	}
	d, lo, hi, n := dpGet(c.b[rd.p:])
	rd.p += n
	rd.k += d
	rd.lo, rd.hi = lo, hi
	rd.left--
	if rd.left == 0 {
		rd.s.release(c)
		rd.r.chunks[rd.ci] = nil
	}
	return true
}

// flush sorts buf (the made states), adds up equal keys, writes it as a run of the layer
// being written and merges runs as needed. buf may be reused after.
func (s *dpStore) flush(buf []dpOut) error {
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
		size += int64(dpRecLen(a[i].k-prev, a[i].lo, a[i].hi))
		prev = a[i].k
	}
	r := &dpRun{}
	wr := &dpWriter{s: s, r: r, bound: size}
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
		var same []*dpRun
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
func (s *dpStore) finish(buf []dpOut) (*dpRun, error) {
	if err := s.flush(buf); err != nil {
		return nil, err
	}
	runs := s.pending
	s.pending = nil
	switch len(runs) {
	case 0:
		return &dpRun{}, nil
	case 1:
		return runs[0], nil
	}
	return s.merge(runs)
}

// merge merges runs into one, adding the counts of equal keys, and releases each input chunk
// once read. A tournament tree of losers picks the least key: about log2(len(runs))
// comparisons a record.
func (s *dpStore) merge(runs []*dpRun) (*dpRun, error) {
	var bound int64
	rds := make([]dpReader, 0, len(runs))
	for _, r := range runs {
		if r.n > 0 {
			rds = append(rds, s.reader(r))
			bound += r.bytes
		}
	}
	out := &dpRun{}
	// The merged run is never longer than its inputs: a key's difference from the key
	// before it in the merge is at most that in its own run, and a sum of two counts is
	// at most one byte longer than the longer of them.
	wr := &dpWriter{s: s, r: out, bound: bound}
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

// countRuns runs the sweep with the run store. It returns errDPWide if 64-bit counts
// carried (and wide is false).
func (p *dpPlan) countRuns(ctx context.Context, cfg dpStoreConfig, wide bool, maxMemory int64, status func(CountStatus)) (*big.Int, error) {
	s := newDPStore(ctx, cfg, wide, maxMemory)
	defer s.releaseAll()
	W := p.W
	w := &dpSweep{p: p, out: make([]dpOut, 0, min(1024, cfg.bufRecs+64)), wide: wide}
	var a0 [dpMaxW + 1]uint8
	for i := range a0 {
		a0[i] = dpFull
	}
	w.out = append(w.out, dpOut{dpEncode(&a0, W) + 1, 1, 0})
	cur, err := s.finish(w.out)
	if err != nil {
		return nil, err
	}
	w.out = w.out[:0]
	// the cache holds at most a quarter of the buffer (it is drained into it)
	for cfg.cacheBits > 0 && 4<<cfg.cacheBits > cfg.bufRecs {
		cfg.cacheBits--
	}
	if cfg.cacheBits > 0 {
		w.cache = make([]dpOut, 1<<cfg.cacheBits)
		w.cacheShift = uint(64 - cfg.cacheBits)
	}
	var eta *sweepETA
	if status != nil {
		eta = newSweepETA(p, MethodDP, p.n)
	}
	done := ctx.Done()
	for v := 0; v < p.n; v++ {
		step := &p.steps[v]
		w.final = v == p.n-1
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s.peak = s.bytes()
		rd := s.reader(cur)
		for seen := 1; rd.next(); seen++ {
			if seen&4095 == 0 && done != nil {
				select {
				case <-done:
					return nil, ctx.Err()
				default:
				}
			}
			var a [dpMaxW + 1]uint8
			dpDecode(&a, rd.k-1, W)
			p.expand(step, &a, w, rd.lo, rd.hi)
			if len(w.out) >= cfg.bufRecs-len(w.cache) {
				w.drain()
				s.bufBytes = int64(cap(w.out)) * 24
				if err := s.flush(w.out); err != nil {
					return nil, err
				}
				w.out = w.out[:0]
			}
		}
		w.drain()
		s.bufBytes = int64(cap(w.out)) * 24
		next, err := s.finish(w.out)
		if err != nil {
			return nil, err
		}
		w.out = w.out[:0]
		if s.carry || w.totalCarry {
			if !wide {
				return nil, errDPWide
			}
			return nil, errCountOverflow
		}
		if status != nil {
			status(CountStatus{Method: MethodDP, Done: v + 1, Total: p.n, States: next.n, Bytes: s.peak, ETA: eta.after(v, next.n)})
		}
		cur = next
	}
	r := new(big.Int).SetUint64(w.total[0])
	r.Lsh(r, 64)
	return r.Add(r, new(big.Int).SetUint64(w.total[1])), nil
}

// pooled is the bytes of the chunks kept for reuse.
func (s *dpStore) pooled() int64 {
	var n int64
	for _, c := range s.pool {
		n += int64(c.held)
	}
	return n
}
