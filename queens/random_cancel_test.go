package queens

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

// TestRandomCancelEarly: Random on a board of 10^8 stops at once when its context is
// done before it starts (issue 25: Ctrl-C of "queens one 100000000 --random" in its first
// second took 1.1–3 s, the first touch of 400 MB of columns, unchecked).
func TestRandomCancelEarly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	_, err := Random(ctx, 100_000_000, rand.New(rand.NewPCG(1, 2)))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Random under a cancelled context = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 200*time.Millisecond {
		t.Errorf("Random under a cancelled context returned after %v", d)
	}
}
