package regions

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"
)

// TestContextDone: a context done before the call stops CountContext, SolveContext and
// ExplainContext at once with its error.
func TestContextDone(t *testing.T) {
	p := rowRegions(8)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n, err := CountContext(ctx, p, 1<<20); !errors.Is(err, context.Canceled) || n != 0 {
		t.Errorf("CountContext(done, rows 8) = %d, %v; want 0, context.Canceled", n, err)
	}
	if sol, err := SolveContext(ctx, p); !errors.Is(err, context.Canceled) || sol != nil {
		t.Errorf("SolveContext(done, rows 8) = %v, %v; want nil, context.Canceled", sol, err)
	}
	if steps, err := ExplainContext(ctx, p); !errors.Is(err, context.Canceled) || len(steps) != 0 {
		t.Errorf("ExplainContext(done, rows 8) = %d steps, %v; want none, context.Canceled", len(steps), err)
	}
	// Not done: the count (OEIS A002464: 5242 for n = 8).
	if n, err := CountContext(context.Background(), p, 1<<20); n != 5242 || err != nil {
		t.Errorf("CountContext(rows 8) = %d, %v; want 5242, nil", n, err)
	}
}

// TestContextStopsSearch: a count that would run for ages (the one-region-a-row grid of
// N = 26 has more solutions than any search could list) stops soon after its context's
// deadline.
func TestContextStopsSearch(t *testing.T) {
	p := rowRegions(MaxN)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	type answer struct {
		n   int
		err error
	}
	done := make(chan answer, 1)
	go func() {
		n, err := CountContext(ctx, p, math.MaxInt)
		done <- answer{n, err}
	}()
	select {
	case a := <-done:
		if !errors.Is(a.err, context.DeadlineExceeded) || a.n != 0 {
			t.Errorf("CountContext(rows %d) = %d, %v; want 0, context.DeadlineExceeded", MaxN, a.n, a.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("CountContext(rows %d) still searching 10 s after a deadline of 20 ms", MaxN)
	}
}
