package frontier

import (
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
)

// openCount is a Disk that counts the files opened for reading.
type openCount struct {
	*memDisk
	opens atomic.Int64
}

func (d *openCount) Open(name string) (io.ReadCloser, error) {
	d.opens.Add(1)
	return d.memDisk.Open(name)
}

// jobRuns writes runs chains of random keys (each sorted, keys shared between runs) on a
// new disk, through a store of workers goroutines, and returns the store, the chains and
// the sum of each key's counts.
func jobRuns(t *testing.T, runs, workers int) (*spillRuns, *openCount, [][]seg, map[uint64]uint64) {
	t.Helper()
	d := &openCount{memDisk: newMemDisk()}
	s := &spillRuns{disk: d, sizes: map[string]int64{}, ctx: context.Background(), workers: workers, segRaw: 512}
	rng := rand.New(rand.NewPCG(9, uint64(runs)))
	want := map[uint64]uint64{}
	h := header{fp: 1, cells: 3}
	var srcs [][]seg
	for c := range runs {
		w := s.newChain(runName(3, c), h, false)
		k := uint64(0)
		for range 3000 + rng.IntN(2000) {
			k += 1 + rng.Uint64N(40)
			v := 1 + rng.Uint64N(1000)
			want[k] += v
			if err := w.put(k, v, 0); err != nil {
				t.Fatal(err)
			}
		}
		segs, err := w.close()
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, segs)
	}
	return s, d, srcs, want
}

// TestJobBlocks merges runs of many segments by a job of many ranges (runJob), by one and
// two workers, and checks the layer against the sums of the runs' counts, that every run
// segment is removed, and that each segment is opened about once: the readers of a block
// of ranges go on from range to range (each range reading its runs' segments from their
// start opened them about 1.5 times as often). Then again with one range in the middle of
// a block sealed before (a job resumed): the readers start again after it.
func TestJobBlocks(t *testing.T) {
	for _, workers := range []int{1, 2} {
		for _, resumed := range []bool{false, true} {
			s, d, srcs, want := jobRuns(t, 3, workers)
			segs := 0
			for _, c := range srcs {
				segs += len(c)
			}
			j := newJob(partsName(3), header{fp: 1, cells: 3}, layerBase(3), srcs)
			if j.ranges() < 8*workers {
				t.Fatalf("%d ranges of %d run segments; want at least %d", j.ranges(), segs, 8*workers)
			}
			if resumed {
				// range 1 of block 0 (ranges 0..block-1) merged and sealed before
				block := max(j.ranges()/(jobBlocks*workers), 1)
				if block < 3 {
					t.Fatalf("blocks of %d ranges; want 3 or more", block)
				}
				rds := j.carriedReaders(d, 1, ^uint64(0))
				if _, _, err := s.mergeRange(j, 1, rds); err != nil {
					t.Fatal(err)
				}
				closeCarried(rds)
			}
			d.opens.Store(0)
			out, high, err := s.runJob(j)
			opens := d.opens.Load()
			if err != nil || high {
				t.Fatalf("workers %d: runJob: high %t, err %v", workers, high, err)
			}
			got := map[uint64]uint64{}
			r := readChainFrom(d, out, 0, 0, ^uint64(0))
			prev := uint64(0)
			for r.next() {
				k, lo, _ := r.rec()
				if k <= prev && len(got) > 0 {
					t.Fatalf("workers %d: key %d after %d", workers, k, prev)
				}
				prev = k
				got[k] = lo
			}
			if r.err != nil {
				t.Fatal(r.err)
			}
			if len(got) != len(want) {
				t.Errorf("workers %d, resumed %t: %d keys merged, want %d", workers, resumed, len(got), len(want))
			}
			for k, v := range want {
				if got[k] != v {
					t.Fatalf("workers %d, resumed %t: key %d count %d, want %d", workers, resumed, k, got[k], v)
				}
			}
			names, _ := d.Names()
			for _, n := range names {
				if strings.HasPrefix(n, runPrefix) {
					t.Errorf("workers %d: run segment %s left after the job", workers, n)
				}
			}
			// a segment is opened by the block that reads it, and once more by the next
			// block when they share it, at most
			bound := int64(segs + jobBlocks*workers*len(srcs) + 2*len(srcs))
			if opens > bound {
				t.Errorf("workers %d, resumed %t: %d opens of %d run segments in %d ranges; want at most %d", workers, resumed, opens, segs, j.ranges(), bound)
			}
			t.Logf("workers %d, resumed %t: %d opens of %d run segments in %d ranges", workers, resumed, opens, segs, j.ranges())
		}
	}
}
