package frontier

import (
	"context"
	"errors"
	"testing"
)

// TestSortDedupCancel: the run store's sort of a full buffer looks at its context (issue
// 25: Ctrl-C of "knight count --size 7" took 1.5–2 s once its buffers held millions of
// states, the time of an unchecked radix sort).
func TestSortDedupCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := newRuns(ctx, defaultRuns, false, 0)
	buf := make([]rec, 1<<17)
	for i := range buf {
		buf[i].k = uint64(len(buf)-i) * 0x9E3779B97F4A7C15 >> 8
	}
	if _, err := s.sortDedup(buf); !errors.Is(err, context.Canceled) {
		t.Errorf("sortDedup under a cancelled context = %v, want context.Canceled", err)
	}
	s2 := newRuns(context.Background(), defaultRuns, false, 0)
	a, err := s2.sortDedup(buf)
	if err != nil || len(a) != len(buf) {
		t.Fatalf("sortDedup = %d records, %v; want %d distinct", len(a), err, len(buf))
	}
	for i := 1; i < len(a); i++ {
		if a[i-1].k >= a[i].k {
			t.Fatalf("sortDedup: keys %d and %d out of order at %d", a[i-1].k, a[i].k, i)
		}
	}
}
