package frontier

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// source is a sorted run being merged: in memory or in a file (heapMerge's, the reference).
type source interface {
	next() bool
	rec() (k, lo, hi uint64)
}

// heapMerge is the merge of the spilling count before mergeMem and mergeCarried (main
// e814241), kept as their reference: it merges srcs into put by a binary heap of the
// sources' keys, adding the counts of equal keys by add.
func heapMerge(ctx interface{ Err() error }, srcs []source, add func(dlo, dhi *uint64, lo, hi uint64), put func(k, lo, hi uint64) error) error {
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
		if m&0xffff == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		src := srcs[h[0].i]
		k, l, hh := src.rec()
		if have && k == curK {
			add(&lo, &hi, l, hh)
		} else {
			if have {
				if err := put(curK, lo, hi); err != nil {
					return err
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
		return put(curK, lo, hi)
	}
	return nil
}

// mergeRuns are random sorted runs for the merges: n runs (some empty when empty), keys
// from a pool of about keys values so that runs share them, counts small or, when big,
// near 2^64 (their sums carry into the high bits) and, when wide, with high bits.
func mergeRuns(rng *rand.Rand, n, keys int, empty, big, wide bool) [][]rec {
	pool := make([]uint64, keys)
	for i := range pool {
		switch rng.IntN(4) {
		case 0:
			pool[i] = 1 + rng.Uint64N(64)
		case 1:
			pool[i] = endKey - 1 - rng.Uint64N(64) // the largest keys a record may hold
		default:
			pool[i] = 1 + rng.Uint64N(endKey-2)
		}
	}
	slices.Sort(pool)
	pool = slices.Compact(pool)
	out := make([][]rec, n)
	for i := range out {
		if empty && rng.IntN(4) == 0 {
			continue
		}
		take := rng.Float64()
		for _, k := range pool {
			if rng.Float64() >= take {
				continue
			}
			r := rec{k: k, lo: 1 + rng.Uint64N(1000)}
			if big && rng.IntN(3) == 0 {
				r.lo = ^uint64(0) - rng.Uint64N(1000)
			}
			if wide && rng.IntN(3) == 0 {
				r.hi = 1 + rng.Uint64N(1<<20)
			}
			out[i] = append(out[i], r)
		}
	}
	return out
}

// memReaders writes rs as runs in memory of a new store (chunks of chunkBytes, or of
// 64–263 bytes if 0) and returns their readers.
func memReaders(t testing.TB, rs [][]rec, wide bool, chunkBytes int) (*runs, []runReader) {
	if chunkBytes == 0 {
		chunkBytes = 64 + rand.IntN(200)
	}
	s := newRuns(context.Background(), runsConfig{chunkBytes: chunkBytes, bufRecs: 16, fanIn: 2}, wide, 0)
	var rds []runReader
	for _, a := range rs {
		var size int64
		prev := uint64(0)
		for _, r := range a {
			size += int64(recLen(r.k-prev, r.lo, r.hi))
			prev = r.k
		}
		run := &sortedRun{}
		wr := &runWriter{s: s, r: run, bound: size}
		for _, r := range a {
			if err := wr.put(r.k, r.lo, r.hi); err != nil {
				t.Fatal(err)
			}
		}
		wr.close()
		rds = append(rds, s.reader(run))
	}
	return s, rds
}

// fileReaders writes rs as chains of segments of about segRaw bytes on a new disk and
// returns readers of them as a job's range of all keys reads them.
func fileReaders(t testing.TB, rs [][]rec, segRaw int) []*carried {
	d := newMemDisk()
	s := &spillRuns{disk: d, sizes: map[string]int64{}, ctx: context.Background(), segRaw: segRaw}
	h := header{fp: 1, cells: 3, wide: true}
	var rds []*carried
	for c, a := range rs {
		w := s.newChain(runName(3, c), h, false)
		for _, r := range a {
			if err := w.put(r.k, r.lo, r.hi); err != nil {
				t.Fatal(err)
			}
		}
		segs, err := w.close()
		if err != nil {
			t.Fatal(err)
		}
		rds = append(rds, &carried{c: readRange(d, segs, 0, endKey), hi: endKey})
	}
	return rds
}

type mergeOut struct {
	recs  []rec
	carry bool
	err   error
}

// memMerges merges rs as runs in memory by heapMerge and by mergeMem.
func memMerges(t testing.TB, rs [][]rec, wide bool) (ref, got mergeOut) {
	for i, out := range []*mergeOut{&ref, &got} {
		s, rds := memReaders(t, rs, wide, 0)
		put := func(k, lo, hi uint64) error {
			out.recs = append(out.recs, rec{k, lo, hi})
			return nil
		}
		if i == 0 {
			srcs := make([]source, len(rds))
			for j := range rds {
				srcs[j] = &rds[j]
			}
			out.err = heapMerge(context.Background(), srcs, s.add, put)
		} else {
			out.err = mergeMem(context.Background(), rds, s.add, put)
		}
		out.carry = s.carry
		if n := s.held - s.pooled(); n != 0 {
			t.Fatalf("merge %d: %d bytes of chunks held after it; want all given back", i, n)
		}
	}
	return ref, got
}

// fileMerges merges rs as run files by heapMerge (with 128-bit sums) and by mergeCarried.
func fileMerges(t testing.TB, rs [][]rec, segRaw int) (ref, got mergeOut) {
	for i, out := range []*mergeOut{&ref, &got} {
		rds := fileReaders(t, rs, segRaw)
		put := func(k, lo, hi uint64) error {
			out.recs = append(out.recs, rec{k, lo, hi})
			return nil
		}
		if i == 0 {
			srcs := make([]source, len(rds))
			for j := range rds {
				srcs[j] = rds[j]
			}
			add := func(dlo, dhi *uint64, lo, hi uint64) {
				var c uint64
				*dlo, c = bits.Add64(*dlo, lo, 0)
				*dhi, c = bits.Add64(*dhi, hi, c)
				if c != 0 {
					out.carry = true
				}
			}
			out.err = heapMerge(context.Background(), srcs, add, put)
		} else {
			out.carry, out.err = mergeCarried(context.Background(), rds, put)
		}
		for _, r := range rds {
			if r.c.err != nil {
				t.Fatalf("merge %d: %v", i, r.c.err)
			}
		}
		closeCarried(rds)
	}
	return ref, got
}

// sums is the merge of rs by a map: each key's counts added in 128 bits.
func sums(rs [][]rec) []rec {
	m := map[uint64]rec{}
	for _, a := range rs {
		for _, r := range a {
			s := m[r.k]
			var c uint64
			s.k = r.k
			s.lo, c = bits.Add64(s.lo, r.lo, 0)
			s.hi, _ = bits.Add64(s.hi, r.hi, c)
			m[r.k] = s
		}
	}
	out := make([]rec, 0, len(m))
	for _, r := range m {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b rec) int {
		if a.k < b.k {
			return -1
		}
		if a.k > b.k {
			return 1
		}
		return 0
	})
	return out
}

func sameMerge(t testing.TB, what string, ref, got mergeOut) {
	t.Helper()
	if ref.err != nil || got.err != nil {
		t.Fatalf("%s: errors %v (heapMerge), %v (new)", what, ref.err, got.err)
	}
	if !slices.Equal(ref.recs, got.recs) {
		n := min(len(ref.recs), len(got.recs))
		i := 0
		for i < n && ref.recs[i] == got.recs[i] {
			i++
		}
		t.Fatalf("%s: %d records, heapMerge %d; first difference at %d", what, len(got.recs), len(ref.recs), i)
	}
	if ref.carry != got.carry {
		t.Fatalf("%s: carry %v, heapMerge %v", what, got.carry, ref.carry)
	}
}

// TestLoserMerge merges random runs (none, one, many; empty ones; keys shared across runs;
// counts whose sums carry into the high bits) by mergeMem and mergeCarried and checks each
// against heapMerge, the merge they replace, and the 128-bit sums against a map's.
func TestLoserMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(48, 2))
	cases := 0
	// Under -race (one goroutine merges: nothing for the detector to find, but the run
	// files' buffers cost it most of 15 s of the suite) the runs go through files in two
	// of the eight variants of each shape (runs, keys), a different two from shape to
	// shape so that each variant goes through files in about a quarter of the shapes;
	// without -race all of them.
	race := raceBuilt()
	if race {
		t.Log("-race: each shape's runs go through files in two variants of eight (all without -race)")
	}
	for ni, n := range []int{0, 1, 2, 3, 5, 8, 9, 17, 33} {
		for ki, keys := range []int{1, 7, 300} {
			for v := range 8 {
				empty, big, wide := v&1 != 0, v&2 != 0, v&4 != 0
				rs := mergeRuns(rng, n, keys, empty, big, wide)
				what := func(kind string) string {
					return fmt.Sprintf("%s: %d runs, %d keys, empty %v, big %v, wide %v", kind, n, keys, empty, big, wide)
				}
				ref, got := memMerges(t, rs, wide)
				sameMerge(t, what("in memory"), ref, got)
				if wide && !slices.Equal(got.recs, sums(rs)) {
					t.Fatalf("in memory, %d runs: not the sums of the runs' counts", n)
				}
				segRaw := 256 + rng.IntN(1024)
				if race && (v+3*ni+ki)%4 != 0 {
					cases++
					continue
				}
				fref, fgot := fileMerges(t, rs, segRaw)
				sameMerge(t, what("files"), fref, fgot)
				if !slices.Equal(fgot.recs, sums(rs)) {
					t.Fatalf("files, %d runs: not the sums of the runs' counts", n)
				}
				if big && fgot.carry {
					t.Fatalf("files, %d runs: a carry out of 128 bits from 64-bit sums", n)
				}
				cases++
			}
		}
	}
	t.Logf("%d cases", cases)
}

// TestLoserMergeCarry: sums past 64 bits in a store of 64-bit counts set its carry, past 128
// bits mergeCarried's, as heapMerge did.
func TestLoserMergeCarry(t *testing.T) {
	rs := [][]rec{{{k: 5, lo: 1}, {k: 9, lo: ^uint64(0)}}, {{k: 9, lo: 1}}, {{k: 2, lo: 3}}}
	ref, got := memMerges(t, rs, false)
	sameMerge(t, "64-bit", ref, got)
	if !got.carry {
		t.Fatal("64-bit counts: a sum past 2^64 set no carry")
	}
	rs = [][]rec{{{k: 9, lo: ^uint64(0), hi: ^uint64(0)}}, {{k: 9, lo: 1}}}
	fref, fgot := fileMerges(t, rs, 100)
	sameMerge(t, "128-bit", fref, fgot)
	if !fgot.carry {
		t.Fatal("128-bit counts: a sum past 2^128 set no carry")
	}
	rs = [][]rec{{{k: 9, lo: ^uint64(0)}}, {{k: 9, lo: ^uint64(0)}}}
	fref, fgot = fileMerges(t, rs, 100)
	sameMerge(t, "into hi", fref, fgot)
	if fgot.carry || fgot.recs[0] != (rec{9, ^uint64(0) - 1, 1}) {
		t.Fatalf("two counts of 2^64-1: %v, carry %v; want {9 2^64-2 1}, none", fgot.recs, fgot.carry)
	}
}

// TestLoserMergeEndKey: a record whose key is the end mark is an error, not a record lost.
func TestLoserMergeEndKey(t *testing.T) {
	rs := [][]rec{{{k: 3, lo: 1}}, {{k: 4, lo: 1}, {k: endKey, lo: 1}}}
	_, rds := memReaders(t, rs, false, 0)
	var n int
	err := mergeMem(context.Background(), rds, func(_, _ *uint64, _, _ uint64) {}, func(_, _, _ uint64) error { n++; return nil })
	if !errors.Is(err, errMergeKey) {
		t.Fatalf("a key of 2^64-1: %v after %d records; want errMergeKey", err, n)
	}
}

// TestLoserMergeStop: a done context stops both merges.
func TestLoserMergeStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rs := mergeRuns(rand.New(rand.NewPCG(1, 1)), 3, 50, false, false, false)
	s, rds := memReaders(t, rs, false, 0)
	if err := mergeMem(ctx, rds, s.add, func(_, _, _ uint64) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("mergeMem with its context done: %v", err)
	}
	frds := fileReaders(t, rs, 100)
	defer closeCarried(frds)
	if _, err := mergeCarried(ctx, frds, func(_, _, _ uint64) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("mergeCarried with its context done: %v", err)
	}
}

// FuzzLoserMerge merges runs made from the fuzzer's bytes (each byte a key's step and the
// run it goes to) by both merges and heapMerge.
func FuzzLoserMerge(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5}, uint8(3), false)
	f.Add([]byte{7, 7, 7, 200, 0, 0, 1}, uint8(9), true)
	f.Fuzz(func(t *testing.T, b []byte, n uint8, big bool) {
		runsN := int(n%40) + 1
		rs := make([][]rec, runsN)
		k := uint64(1)
		for i, x := range b {
			k += uint64(x>>5) + 1 // keys repeat across runs: several records a key
			if i%3 == 0 {
				k -= uint64(x>>5) + 1
			}
			c := int(x) % runsN
			if m := len(rs[c]); m > 0 && rs[c][m-1].k >= k {
				continue
			}
			r := rec{k: k, lo: uint64(x) + 1}
			if big {
				r.lo = ^uint64(0) - uint64(x)
			}
			rs[c] = append(rs[c], r)
		}
		ref, got := memMerges(t, rs, true)
		sameMerge(t, "in memory", ref, got)
		fref, fgot := fileMerges(t, rs, 64)
		sameMerge(t, "files", fref, fgot)
		if !slices.Equal(fgot.recs, sums(rs)) {
			t.Fatal("files: not the sums of the runs' counts")
		}
	})
}

// BenchmarkMerge merges 24 runs in memory of 40,000 records each (keys shared between
// runs, as a cut's runs share states) by heapMerge and by mergeMem, and the same runs as
// files by heapMerge and by mergeCarried (there the inflater's time is a part of both).
func BenchmarkMerge(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 7))
	rs := make([][]rec, 24)
	for i := range rs {
		k := uint64(0)
		for range 40000 {
			k += 1 + rng.Uint64N(60)
			rs[i] = append(rs[i], rec{k: k, lo: 1 + rng.Uint64N(100)})
		}
	}
	put := func(_, _, _ uint64) error { return nil }
	ctx := context.Background()
	b.Run("mem/heap", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			s, rds := memReaders(b, rs, false, defaultRuns.chunkBytes)
			srcs := make([]source, len(rds))
			for j := range rds {
				srcs[j] = &rds[j]
			}
			b.StartTimer()
			if err := heapMerge(ctx, srcs, s.add, put); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("mem/loser", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			s, rds := memReaders(b, rs, false, defaultRuns.chunkBytes)
			b.StartTimer()
			if err := mergeMem(ctx, rds, s.add, put); err != nil {
				b.Fatal(err)
			}
		}
	})
	add := func(dlo, dhi *uint64, lo, hi uint64) {
		var c uint64
		*dlo, c = bits.Add64(*dlo, lo, 0)
		*dhi, _ = bits.Add64(*dhi, hi, c)
	}
	b.Run("file/heap", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			rds := fileReaders(b, rs, 1<<20)
			srcs := make([]source, len(rds))
			for j := range rds {
				srcs[j] = rds[j]
			}
			b.StartTimer()
			if err := heapMerge(ctx, srcs, add, put); err != nil {
				b.Fatal(err)
			}
			closeCarried(rds)
		}
	})
	b.Run("file/loser", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			rds := fileReaders(b, rs, 1<<20)
			b.StartTimer()
			if _, err := mergeCarried(ctx, rds, put); err != nil {
				b.Fatal(err)
			}
			closeCarried(rds)
		}
	})
}
