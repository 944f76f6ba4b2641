package frontier

import (
	"context"
	"errors"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// readRun returns the records of r (releasing its chunks) and fails if they are not
// sorted by key with unique keys.
func readRun(t *testing.T, s *runs, r *sortedRun) map[uint64][2]uint64 {
	t.Helper()
	got := map[uint64][2]uint64{}
	var last uint64
	n := 0
	rd := s.reader(r)
	for rd.next() {
		if n > 0 && rd.k <= last {
			t.Fatalf("record %d: key %d after %d, want increasing", n, rd.k, last)
		}
		got[rd.k] = [2]uint64{rd.lo, rd.hi}
		last = rd.k
		n++
	}
	if n != r.n {
		t.Errorf("run says %d records, holds %d", r.n, n)
	}
	return got
}

// TestDPStore checks the run store against a map: random records (many repeated keys,
// keys small and large enough for every radix pass) flushed in random pieces, with tiny
// chunks, buffers and fan-in so that many runs and merges happen, come out as one sorted
// run with the sums of the counts, and every chunk is given back once read.
func TestDPStore(t *testing.T) {
	for _, wide := range []bool{false, true} {
		for _, cfg := range []runsConfig{
			{chunkBytes: 30, bufRecs: 3, fanIn: 2},
			{chunkBytes: 200, bufRecs: 300, fanIn: 3},
			{chunkBytes: 1 << 15, bufRecs: 5000, fanIn: 8},
		} {
			rng := rand.New(rand.NewPCG(1, uint64(cfg.bufRecs)))
			s := newRuns(context.Background(), cfg, wide, 0)
			want := map[uint64][2]uint64{}
			var buf []rec
			for range 20000 {
				var k uint64
				switch rng.IntN(3) {
				case 0:
					k = 1 + rng.Uint64N(500)
				case 1:
					k = 1 + rng.Uint64N(1<<40)
				default:
					k = 1 + rng.Uint64N(1<<59)
				}
				lo, hi := rng.Uint64N(1<<40), uint64(0)
				if wide {
					hi = rng.Uint64N(1 << 20)
				}
				w := want[k]
				w[0] += lo
				w[1] += hi
				want[k] = w
				buf = append(buf, rec{k, lo, hi})
				if len(buf) >= cfg.bufRecs {
					if err := s.flush(buf); err != nil {
						t.Fatal(err)
					}
					buf = buf[:0]
				}
			}
			r, err := s.finish(buf)
			if err != nil {
				t.Fatal(err)
			}
			if s.carry {
				t.Errorf("carry noted without one")
			}
			got := readRun(t, s, r)
			if len(got) != len(want) {
				t.Errorf("wide %v %+v: %d keys, want %d", wide, cfg, len(got), len(want))
			}
			for k, w := range want {
				if got[k] != w {
					t.Errorf("wide %v %+v: key %d = %v, want %v", wide, cfg, k, got[k], w)
					break
				}
			}
			if s.held != s.pooled() || len(s.live) != 0 || len(s.pool) > poolChunks {
				t.Errorf("wide %v %+v: %d bytes in %d chunks (%d pooled) still held after reading", wide, cfg, s.held, len(s.live), len(s.pool))
			}
			s.release()
			if s.held != 0 {
				t.Errorf("wide %v %+v: %d bytes held after release", wide, cfg, s.held)
			}
		}
	}
}

// TestDPStoreCarry checks that a sum past 64 bits (128 with wide counts) is noted, both
// in a buffer's sort and in a merge of runs.
func TestDPStoreCarry(t *testing.T) {
	for _, wide := range []bool{false, true} {
		for _, bufRecs := range []int{1, 4} {
			s := newRuns(context.Background(), runsConfig{chunkBytes: 30, bufRecs: bufRecs, fanIn: 2}, wide, 0)
			var hi uint64
			if wide {
				hi = 1 << 63
			}
			big := rec{7, 1 << 63, hi}
			for _, o := range []rec{{3, 1, 0}, big, big} {
				if err := s.flush([]rec{o}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.finish(nil); err != nil {
				t.Fatal(err)
			}
			if !s.carry {
				t.Errorf("wide %v, buffer %d: 2·2^63 (·2^64) added without a carry noted", wide, bufRecs)
			}
			s.release()
		}
	}
}

// TestDPStoreLimit checks that the store refuses a chunk past its memory limit.
func TestDPStoreLimit(t *testing.T) {
	s := newRuns(context.Background(), runsConfig{chunkBytes: 1 << 13, bufRecs: 1 << 10, fanIn: 2}, false, 1000)
	buf := make([]rec, 100)
	for i := range buf {
		buf[i] = rec{uint64(i+1) << 40, 1 << 60, 0} // 15 bytes a record
	}
	var me *MemoryError
	if err := s.flush(buf); !errors.As(err, &me) || me.Need <= 1000 {
		t.Errorf("flush of 1600 bytes with a 1000-byte limit: error %v, want a *MemoryError", err)
	}
	s.release()
}

// TestDPRunsTiny counts with tiny chunks and buffers (so that every step writes many runs
// and merges them, and a cache of 4 states) against the store of two hash tables: 5×8
// closed, 4×8 open, 5×5 open from a corner and a count past 2^64 (3×40 open, whose 64-bit
// sweep must ask for 128-bit counts); CHESSPUZZLES_LONG=1 adds 6×6 closed, 5×6 open, 4×40. Package knight checks both against known counts.
func TestDPRunsTiny(t *testing.T) {
	ctx := context.Background()
	tiny := runsConfig{chunkBytes: 60, bufRecs: 97, fanIn: 3, cacheBits: 2}
	// by default boards of seconds under -race; 6×6, 5×6 and 4×40 take half a minute or more
	// there and run with CHESSPUZZLES_LONG=1
	type board struct {
		rows, cols int
		closed     bool
		start      int
		wide       bool
	}
	cases := []board{{5, 8, true, -1, false}, {4, 8, false, -1, false}, {5, 5, false, 0, false}, {3, 40, false, -1, true}}
	if v := os.Getenv("CHESSPUZZLES_LONG"); v == "1" || v == "all" {
		cases = append(cases, []board{{6, 6, true, -1, false}, {5, 6, false, -1, false}, {4, 40, false, -1, true}}...)
	}
	for _, tt := range cases {
		p := newPlan(tt.rows, tt.cols, tt.closed, tt.start)
		if tt.wide {
			if _, err := p.count(ctx, newRuns(ctx, tiny, false, 0), false, nil); !errors.Is(err, errWide) {
				t.Fatalf("64-bit %d×%d with tiny runs: error %v, want errWide", tt.rows, tt.cols, err)
			}
		}
		a, err := p.count(ctx, newRuns(ctx, tiny, tt.wide, 0), tt.wide, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := p.count(ctx, newTables(tt.wide, 0), tt.wide, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.Cmp(b) != 0 || a.Sign() <= 0 {
			t.Errorf("%d×%d closed %v from %d: tiny runs %v, tables %v, want equal and positive", tt.rows, tt.cols, tt.closed, tt.start, a, b)
		}
		if tt.wide && a.Cmp(new(big.Int).Lsh(big.NewInt(1), 64)) <= 0 {
			t.Errorf("%d×%d: %v, want past 2^64", tt.rows, tt.cols, a)
		}
	}
}

// TestDPCodec writes records of edge values back to back into a buffer of stale bytes and
// reads them back: every length of key difference and count, with and without high bits.
func TestDPCodec(t *testing.T) {
	vals := []uint64{0, 1, 0x7f, 0xff, 0x100, 0xffff, 1 << 16, 1<<24 - 1, 1 << 31, 1<<32 + 5, 1<<40 - 1, 1 << 48, 1<<56 - 1, 1 << 56, 1<<63 + 1, ^uint64(0)}
	type rec struct{ d, lo, hi uint64 }
	var recs []rec
	for _, d := range vals[1:] {
		for _, lo := range vals {
			for _, hi := range []uint64{0, 1, 1 << 20, ^uint64(0)} {
				recs = append(recs, rec{d, lo, hi})
			}
		}
	}
	size := 0
	for _, r := range recs {
		size += recLen(r.d, r.lo, r.hi)
	}
	buf := make([]byte, size+recMax)
	for i := range buf {
		buf[i] = 0xa5
	}
	p := 0
	for _, r := range recs {
		n := putRec(buf[p:], r.d, r.lo, r.hi)
		if want := recLen(r.d, r.lo, r.hi); n != want {
			t.Fatalf("putRec(%#x, %#x, %#x) wrote %d bytes, recLen says %d", r.d, r.lo, r.hi, n, want)
		}
		p += n
	}
	p = 0
	for _, r := range recs {
		d, lo, hi, n := getRec(buf[p:])
		if d != r.d || lo != r.lo || hi != r.hi {
			t.Fatalf("at byte %d: read (%#x, %#x, %#x), wrote (%#x, %#x, %#x)", p, d, lo, hi, r.d, r.lo, r.hi)
		}
		p += n
	}
	if p != size {
		t.Errorf("read %d bytes, wrote %d", p, size)
	}
	// narrow and wide records of small counts take 1 + 1 + 1 bytes
	if n := recLen(3, 200, 0); n != 3 {
		t.Errorf("record of difference 3, count 200: %d bytes, want 3", n)
	}
}

// FuzzDPRuns writes random sorted runs (keys from a seed, spread over a range chosen by the
// fuzzer, counts narrow or wide) into chunks of a size chosen by the fuzzer (down to one
// record a chunk), merges them and reads the result back against a map; every chunk must
// be given back once read.
func FuzzDPRuns(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint16(0), uint8(10), false)
	f.Add(uint64(2), uint8(1), uint16(1), uint8(60), true)
	f.Add(uint64(3), uint8(9), uint16(300), uint8(40), false)
	f.Add(uint64(4), uint8(17), uint16(5000), uint8(63), true)
	f.Add(uint64(5), uint8(2), uint16(7), uint8(2), true)
	f.Fuzz(func(t *testing.T, seed uint64, nruns uint8, chunk uint16, spread uint8, wide bool) {
		rng := rand.New(rand.NewPCG(seed, 7))
		cfg := runsConfig{chunkBytes: recMax + int(chunk), bufRecs: 1, fanIn: 2 + int(nruns%7)}
		s := newRuns(context.Background(), cfg, wide, 0)
		want := map[uint64][2]uint64{}
		var runs []*sortedRun
		span := uint64(1) << (1 + spread%63)
		for range 1 + int(nruns%20) {
			m := rng.IntN(200)
			keys := map[uint64]bool{}
			for range m {
				keys[1+rng.Uint64N(span)] = true
			}
			var ks []uint64
			for k := range keys {
				ks = append(ks, k)
			}
			slices.Sort(ks)
			r := &sortedRun{}
			wr := &runWriter{s: s, r: r, bound: rng.Int64N(5000)}
			for _, k := range ks {
				lo := rng.Uint64() >> rng.UintN(64)
				var hi uint64
				if wide && rng.IntN(4) == 0 {
					hi = rng.Uint64() >> rng.UintN(64) >> 8
				}
				if !wide {
					lo >>= 2
				}
				if err := wr.put(k, lo, hi); err != nil {
					t.Fatal(err)
				}
				w := want[k]
				var c uint64
				w[0], c = bits.Add64(w[0], lo, 0)
				w[1] += hi + c
				want[k] = w
			}
			wr.close()
			if r.n != len(ks) {
				t.Fatalf("run of %d keys says %d records", len(ks), r.n)
			}
			runs = append(runs, r)
		}
		m, err := s.merge(runs)
		if err != nil {
			t.Fatal(err)
		}
		if !wide {
			for k, w := range want {
				if w[1] != 0 {
					// a narrow sum that carried: the store must have noted it
					if !s.carry {
						t.Fatalf("key %d: narrow sum carried, no carry noted", k)
					}
					return
				}
			}
		}
		got := readRun(t, s, m)
		if len(got) != len(want) {
			t.Fatalf("%d keys merged, want %d", len(got), len(want))
		}
		for k, w := range want {
			if got[k] != w {
				t.Fatalf("key %d = %v, want %v", k, got[k], w)
			}
		}
		if s.held != s.pooled() || len(s.live) != 0 {
			t.Fatalf("%d bytes in %d chunks still held after reading", s.held-s.pooled(), len(s.live))
		}
	})
}
