package knight

import (
	"cmp"
	"context"
	"math/big"
	"math/bits"
	"slices"
)

// The dp method's state store: sorted runs (see the top of count_dp.go).
//
// A layer (the states after one cell) is one run: records (key, lo[, hi]) sorted by key,
// keys unique, kept in chunks of at most dpStoreConfig.chunkWords words taken with dpAlloc
// and given back with dpRelease the moment they are read. A step reads the layer chunk by
// chunk, collects the made states in a buffer of bufRecs records, sorts the full buffer by
// key (radix sort), adds up equal keys and writes it as a run; when fanIn runs of one level
// exist they are merged (adding equal keys) into one run of the next level, and at the end of
// the step all runs are merged into the next layer. Memory is thus about 16 bytes (24 with
// 128-bit counts) a state of the layer read but not yet released plus the runs written, plus
// the two buffers of 24 bytes a record.

// dpStoreConfig sizes the store; dpStoreDefault is what counts use, tests shrink it.
type dpStoreConfig struct {
	chunkWords int // words of a chunk (mapped, not heap, from dpMapMin bytes on)
	bufRecs    int // records of the sort buffer
	fanIn      int // runs of one level merged together
}

var dpStoreDefault = dpStoreConfig{chunkWords: dpMapMin / 8, bufRecs: 4 << 20, fanIn: 8}

type dpChunk struct {
	w   []uint64
	mem []byte
	n   int // records held
}

type dpRun struct {
	chunks []*dpChunk
	n      int // records
	level  int
}

type dpStore struct {
	cfg      dpStoreConfig
	wide     bool
	stride   int
	limit    int64 // bytes, 0: none
	held     int64 // bytes of the live chunks
	bufBytes int64 // bytes of the caller's buffer
	peak     int64
	live     map[*dpChunk]struct{}
	pending  []*dpRun // runs of the layer being written
	scratch  []dpOut
	cnt      []int
	carry    bool
	done     <-chan struct{}
	ctx      context.Context
}

func newDPStore(ctx context.Context, cfg dpStoreConfig, wide bool, limit int64) *dpStore {
	s := &dpStore{cfg: cfg, wide: wide, stride: 2, limit: limit, live: map[*dpChunk]struct{}{}, ctx: ctx, done: ctx.Done()}
	if wide {
		s.stride = 3
	}
	return s
}

func (s *dpStore) bytes() int64 {
	return s.held + s.bufBytes + int64(cap(s.scratch))*24 + int64(len(s.cnt))*8
}

func (s *dpStore) note() {
	s.peak = max(s.peak, s.bytes())
}

// alloc returns a chunk of room for recs records (at most a full chunk's), or a
// *MemoryError if the store would pass its limit.
func (s *dpStore) alloc(recs int) (*dpChunk, error) {
	recs = min(recs, s.cfg.chunkWords/s.stride)
	words := recs * s.stride
	if s.limit > 0 && s.bytes()+int64(words)*8 > s.limit {
		return nil, &MemoryError{Need: s.bytes() + int64(words)*8, Limit: s.limit}
	}
	c := &dpChunk{}
	c.w, c.mem = dpAlloc(words)
	s.held += int64(words) * 8
	s.live[c] = struct{}{}
	s.note()
	return c, nil
}

func (s *dpStore) release(c *dpChunk) {
	if c == nil || c.w == nil {
		return
	}
	s.held -= int64(len(c.w)) * 8
	delete(s.live, c)
	dpRelease(c.mem)
	c.w, c.mem = nil, nil
}

// releaseAll gives back every chunk still held.
func (s *dpStore) releaseAll() {
	for c := range s.live {
		s.release(c)
	}
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
// records (in buf or in the scratch buffer).
func (s *dpStore) sortDedup(buf []dpOut) []dpOut {
	if len(buf) == 0 {
		return buf
	}
	a := buf
	if len(a) < 256 {
		slices.SortFunc(a, func(x, y dpOut) int { return cmp.Compare(x.k, y.k) })
	} else {
		var or uint64
		for i := range a {
			or |= a[i].k
		}
		passes := (bits.Len64(or) + 15) / 16
		if cap(s.scratch) < len(a) {
			s.scratch = make([]dpOut, len(a), len(a)+len(a)/4)
		}
		if len(s.cnt) < 4<<16 {
			s.cnt = make([]int, 4<<16)
		}
		s.note()
		cnt := s.cnt
		clear(cnt)
		for i := range a {
			k := a[i].k
			for p := range passes {
				cnt[p<<16|int(k>>(16*p)&0xffff)]++
			}
		}
		b := s.scratch[:len(a)]
		for p := range passes {
			c := cnt[p<<16 : (p+1)<<16]
			if c[a[0].k>>(16*p)&0xffff] == len(a) {
				continue // every key has this digit
			}
			sum := 0
			for d := range c {
				c[d], sum = sum, sum+c[d]
			}
			sh := 16 * p
			for i := range a {
				d := a[i].k >> sh & 0xffff
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
	return a[:j+1]
}

// dpWriter appends records to a run being written, taking chunks as needed; bound is the
// most records still to come (the size of the chunks taken).
type dpWriter struct {
	s     *dpStore
	r     *dpRun
	c     *dpChunk
	bound int
}

func (wr *dpWriter) put(k, lo, hi uint64) error {
	s := wr.s
	c := wr.c
	if c == nil || (c.n+1)*s.stride > len(c.w) {
		var err error
		if c, err = s.alloc(wr.bound); err != nil {
			return err
		}
		wr.c = c
		wr.r.chunks = append(wr.r.chunks, c)
	}
	o := c.n * s.stride
	c.w[o], c.w[o+1] = k, lo
	if s.wide {
		c.w[o+2] = hi
	}
	c.n++
	wr.r.n++
	wr.bound--
	return nil
}

// flush sorts buf (the made states), adds up equal keys, writes it as a run of the layer
// being written and merges runs as needed. buf may be reused after.
func (s *dpStore) flush(buf []dpOut) error {
	a := s.sortDedup(buf)
	if len(a) == 0 {
		return nil
	}
	r := &dpRun{}
	wr := &dpWriter{s: s, r: r, bound: len(a)}
	for i := range a {
		if err := wr.put(a[i].k, a[i].lo, a[i].hi); err != nil {
			return err
		}
	}
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

type dpCursor struct {
	r  *dpRun
	ci int
	i  int
}

// merge merges runs into one, adding the counts of equal keys, and releases each input chunk
// once read.
func (s *dpStore) merge(runs []*dpRun) (*dpRun, error) {
	cs := make([]dpCursor, 0, len(runs))
	bound := 0
	for _, r := range runs {
		if r.n > 0 {
			cs = append(cs, dpCursor{r: r})
			bound += r.n
		}
	}
	out := &dpRun{}
	wr := &dpWriter{s: s, r: out, bound: bound}
	st := s.stride
	for m := 0; len(cs) > 0; m++ {
		if m&0xffff == 0 && s.done != nil {
			select {
			case <-s.done:
				return nil, s.ctx.Err()
			default:
			}
		}
		minK := ^uint64(0)
		for j := range cs {
			c := &cs[j]
			if k := c.r.chunks[c.ci].w[c.i*st]; k < minK {
				minK = k
			}
		}
		var lo, hi uint64
		for j := 0; j < len(cs); j++ {
			c := &cs[j]
			ch := c.r.chunks[c.ci]
			o := c.i * st
			if ch.w[o] != minK {
				continue
			}
			var h uint64
			if s.wide {
				h = ch.w[o+2]
			}
			s.add(&lo, &hi, ch.w[o+1], h)
			c.i++
			if c.i == ch.n {
				s.release(ch)
				c.r.chunks[c.ci] = nil
				c.ci++
				c.i = 0
				if c.ci == len(c.r.chunks) {
					cs = append(cs[:j], cs[j+1:]...)
					j--
				}
			}
		}
		if err := wr.put(minK, lo, hi); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// countRuns runs the sweep with the run store. It returns errDPWide if 64-bit counts
// carried (and wide is false).
func (p *dpPlan) countRuns(ctx context.Context, cfg dpStoreConfig, wide bool, maxMemory int64, status func(CountStatus)) (*big.Int, error) {
	s := newDPStore(ctx, cfg, wide, maxMemory)
	defer s.releaseAll()
	W := p.W
	w := &dpSweep{p: p, out: make([]dpOut, 0, min(1024, cfg.bufRecs+64))}
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
	done := ctx.Done()
	st := s.stride
	for v := 0; v < p.n; v++ {
		step := &p.steps[v]
		w.final = v == p.n-1
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s.peak = s.bytes()
		seen := 0
		for ci, c := range cur.chunks {
			for i := 0; i < c.n; i++ {
				seen++
				if seen&4095 == 0 && done != nil {
					select {
					case <-done:
						return nil, ctx.Err()
					default:
					}
				}
				o := i * st
				var hi uint64
				if wide {
					hi = c.w[o+2]
				}
				var a [dpMaxW + 1]uint8
				dpDecode(&a, c.w[o]-1, W)
				p.expand(step, &a, w, c.w[o+1], hi)
				if len(w.out) >= cfg.bufRecs {
					s.bufBytes = int64(cap(w.out)) * 24
					if err := s.flush(w.out); err != nil {
						return nil, err
					}
					w.out = w.out[:0]
				}
			}
			s.release(c)
			cur.chunks[ci] = nil
		}
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
			status(CountStatus{Method: MethodDP, Done: v + 1, Total: p.n, States: next.n, Bytes: s.peak})
		}
		cur = next
	}
	r := new(big.Int).SetUint64(w.total[0])
	r.Lsh(r, 64)
	return r.Add(r, new(big.Int).SetUint64(w.total[1])), nil
}
