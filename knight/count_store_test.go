package knight

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"
)

// readRun returns the records of r (releasing its chunks) and fails if they are not
// sorted by key with unique keys.
func readRun(t *testing.T, s *dpStore, r *dpRun) map[uint64][2]uint64 {
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
		for _, cfg := range []dpStoreConfig{
			{chunkBytes: 30, bufRecs: 3, fanIn: 2},
			{chunkBytes: 200, bufRecs: 300, fanIn: 3},
			{chunkBytes: 1 << 15, bufRecs: 5000, fanIn: 8},
		} {
			rng := rand.New(rand.NewPCG(1, uint64(cfg.bufRecs)))
			s := newDPStore(context.Background(), cfg, wide, 0)
			want := map[uint64][2]uint64{}
			var buf []dpOut
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
				buf = append(buf, dpOut{k, lo, hi})
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
			if s.held != s.pooled() || len(s.live) != 0 || len(s.pool) > dpPoolChunks {
				t.Errorf("wide %v %+v: %d bytes in %d chunks (%d pooled) still held after reading", wide, cfg, s.held, len(s.live), len(s.pool))
			}
			s.releaseAll()
			if s.held != 0 {
				t.Errorf("wide %v %+v: %d bytes held after releaseAll", wide, cfg, s.held)
			}
		}
	}
}

// TestDPStoreCarry checks that a sum past 64 bits (128 with wide counts) is noted, both
// in a buffer's sort and in a merge of runs.
func TestDPStoreCarry(t *testing.T) {
	for _, wide := range []bool{false, true} {
		for _, bufRecs := range []int{1, 4} {
			s := newDPStore(context.Background(), dpStoreConfig{chunkBytes: 30, bufRecs: bufRecs, fanIn: 2}, wide, 0)
			var hi uint64
			if wide {
				hi = 1 << 63
			}
			big := dpOut{7, 1 << 63, hi}
			for _, o := range []dpOut{{3, 1, 0}, big, big} {
				if err := s.flush([]dpOut{o}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.finish(nil); err != nil {
				t.Fatal(err)
			}
			if !s.carry {
				t.Errorf("wide %v, buffer %d: 2·2^63 (·2^64) added without a carry noted", wide, bufRecs)
			}
			s.releaseAll()
		}
	}
}

// TestDPStoreLimit checks that the store refuses a chunk past its memory limit.
func TestDPStoreLimit(t *testing.T) {
	s := newDPStore(context.Background(), dpStoreConfig{chunkBytes: 1 << 13, bufRecs: 1 << 10, fanIn: 2}, false, 1000)
	buf := make([]dpOut, 100)
	for i := range buf {
		buf[i] = dpOut{uint64(i+1) << 40, 1 << 60, 0} // 15 bytes a record
	}
	var me *MemoryError
	if err := s.flush(buf); !errors.As(err, &me) || me.Need <= 1000 {
		t.Errorf("flush of 1600 bytes with a 1000-byte limit: error %v, want a *MemoryError", err)
	}
	s.releaseAll()
}

// TestDPRunsTiny counts with tiny chunks and buffers (so that every step writes many runs
// and merges them): 6×6 closed (the known 9862) and 5×6 open against the search, and a
// count past 2^64 (4×40 open, redone with 128-bit counts) against the former store of two
// hash tables.
func TestDPRunsTiny(t *testing.T) {
	ctx := context.Background()
	tiny := dpStoreConfig{chunkBytes: 60, bufRecs: 97, fanIn: 3}
	known := map[string]int64{}
	for _, k := range readKnownCounts(t, "testdata/known-values.txt") {
		known[k.line] = k.want
	}
	want66, ok := known["6x6 closed -"]
	if !ok {
		t.Fatal("testdata/known-values.txt has no 6x6 closed count")
	}
	got, err := newDPPlan(6, 6, true, -1).countRuns(ctx, tiny, false, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !got.IsInt64() || got.Int64() != want66 {
		t.Errorf("6×6 closed with tiny runs = %v, want %d", got, want66)
	}
	got, err = newDPPlan(5, 6, false, -1).countRuns(ctx, tiny, false, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	want56, err := Count(ctx, 5, 6, CountOptions{Method: MethodSearch})
	if err != nil {
		t.Fatal(err)
	}
	// countRuns counts undirected paths; the search directed tours
	if got.Lsh(got, 1); !got.IsInt64() || got.Int64() != want56 {
		t.Errorf("5×6 open with tiny runs = %v directed, search %d", got, want56)
	}
	p := newDPPlan(4, 40, false, -1)
	if _, err := p.countRuns(ctx, tiny, false, 0, nil); !errors.Is(err, errDPWide) {
		t.Fatalf("64-bit 4×40 open with tiny runs: error %v, want errDPWide", err)
	}
	a, err := p.countRuns(ctx, tiny, true, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := newDPPlan(4, 40, false, -1).countTables(ctx, true, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Cmp(b) != 0 || a.Cmp(new(big.Int).Lsh(big.NewInt(1), 64)) <= 0 {
		t.Errorf("4×40 open: tiny runs %v, tables %v, want equal and past 2^64", a, b)
	}
}
