package queens

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime/debug"
	"testing"
	"time"
)

// TestRandomCancelEarly: Random on a board of 10^8 stops soon after its context is done in
// its first moments (issue 25: Ctrl-C of "queens one 100000000 --random" in its first
// second took 1.1–3.3 s, the first touch of 400 MB of columns, unchecked). Under the race
// detector allocating those 400 MB alone takes about a second, so the bound is looser.
func TestRandomCancelEarly(t *testing.T) {
	bound := time.Second // the brief's bound for Ctrl-C; typically tens of milliseconds
	if raceEnabled {
		bound = 3 * time.Second
	}
	// Give freed memory back first, as a fresh process has it: reusing 400 MB the heap
	// kept means zeroing it, in one call that no context can stop.
	debug.FreeOSMemory()
	ctx, cancel := context.WithCancel(context.Background())
	var at time.Time
	done := make(chan struct{})
	time.AfterFunc(50*time.Millisecond, func() { at = time.Now(); cancel(); close(done) })
	_, err := Random(ctx, 100_000_000, rand.New(rand.NewPCG(1, 2)))
	<-done
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Random cancelled after 50 ms = %v, want context.Canceled", err)
	}
	if d := time.Since(at); d > bound {
		t.Errorf("Random returned %v after its context was cancelled, want within %v", d, bound)
	}
}
