package knight

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// cancelAfter runs f under a context cancelled after d and returns how long f took to return
// after the cancel. It fails the test if f does not return within a generous hang limit
// (not a speed claim: the latency is logged, and reported from measurements). If f returns
// before the cancel (a loaded machine can fire the timer late), it tries again with a
// quarter of the delay, three times at most, and fails if f never saw the cancel.
func cancelAfter(t *testing.T, d time.Duration, f func(ctx context.Context)) time.Duration {
	t.Helper()
	for try := 0; ; try++ {
		lat, ok := cancelOnce(t, d, f)
		if ok {
			return lat
		}
		if try == 2 {
			t.Fatalf("returned before the cancel three times, the last after less than %v", d)
		}
		d /= 4
	}
}

// cancelOnce is one try of cancelAfter; ok is false if f returned before the cancel.
func cancelOnce(t *testing.T, d time.Duration, f func(ctx context.Context)) (time.Duration, bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	fired := make(chan time.Time, 1)
	timer := time.AfterFunc(d, func() { fired <- time.Now(); cancel() })
	defer timer.Stop()
	done := make(chan time.Time, 1)
	go func() { f(ctx); done <- time.Now() }()
	select {
	case end := <-done:
		if !timer.Stop() {
			// the timer fired: f returned after it or at the same time
			return end.Sub(<-fired), true
		}
		return 0, false
	case <-time.After(d + 20*time.Second):
		t.Fatalf("still running 20 s after the cancel")
	}
	return 0, false
}

// TestHamPathCancel searches a path that does not exist: on the 8×8 board a path through
// all 64 squares ends on the colour opposite its start, and only squares of the start's
// colour are allowed as ends. The search cannot prove that quickly, and hamPath restarts
// with growing budgets forever, so only the context can stop it.
func TestHamPathCancel(t *testing.T) {
	g := newGraph(8, 8)
	ends := make([]bool, 64)
	for v := range ends {
		ends[v] = (v/8+v%8)%2 == 0 // the colour of square 0
	}
	var got []int32
	lat := cancelAfter(t, 50*time.Millisecond, func(ctx context.Context) {
		got = hamPath(ctx, g, 0, ends, false)
	})
	if got != nil {
		t.Fatalf("hamPath found %v, want nil (no such path exists)", got)
	}
	t.Logf("hamPath returned %v after the cancel", lat)
}

func TestFindCancel(t *testing.T) {
	tests := []struct {
		name string
		sz   board.Size
		opts Options
	}{
		// Warnsdorff's rule over 9·10^6 squares: about a second of work.
		{"warnsdorff 3000x3000", board.Size{Rows: 3000, Cols: 3000}, Options{Method: Warnsdorff}},
		// The block construction of a closed tour: about half a second.
		{"blocks 3000x3002", board.Size{Rows: 3000, Cols: 3002}, Options{Closed: true}},
		// Thin boards: merged block cycles (6 rows), lanes (3 rows), block chains (odd).
		{"thin 6x2000000 closed", board.Size{Rows: 6, Cols: 2_000_000}, Options{Closed: true}},
		{"lanes 3x4000001", board.Size{Rows: 3, Cols: 4_000_001}, Options{}},
		{"lanes 3x4000000 closed", board.Size{Rows: 3, Cols: 4_000_000}, Options{Closed: true}},
		{"thin 7x1000001", board.Size{Rows: 7, Cols: 1_000_001}, Options{}},
	}
	// Block paths are searched once per process and remembered; search them before timing.
	for _, tc := range tests {
		small := board.Size{Rows: min(tc.sz.Rows, 30), Cols: min(tc.sz.Cols, 300+tc.sz.Cols%2)} // same parity
		if _, err := Find(context.Background(), small, board.Square{Row: 1, Col: 1}, tc.opts); err != nil && tc.opts.Method == Auto {
			t.Fatal(err)
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			lat := cancelAfter(t, 20*time.Millisecond, func(ctx context.Context) {
				_, err = Find(ctx, tc.sz, board.Square{Row: 1, Col: 1}, tc.opts)
			})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Find after cancel: err = %v, want context.Canceled", err)
			}
			t.Logf("Find returned %v after the cancel", lat)
		})
	}
}

func TestFindDoneContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Find(ctx, board.Size{Rows: 8, Cols: 8}, board.Square{}, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Find with a done context: err = %v, want context.Canceled", err)
	}
	// Bad input is still reported as such, before the context is looked at.
	_, err = Find(ctx, board.Size{Rows: 0, Cols: 8}, board.Square{}, Options{})
	if err == nil || errors.Is(err, context.Canceled) {
		t.Errorf("Find of a 0×8 board with a done context: err = %v, want a size error", err)
	}
}
