package knight

import (
	"context"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
)

func TestCountScratch(t *testing.T) {
	t0 := time.Now()
	k, _ := Count(context.Background(), 6, 6, CountOptions{Start: &board.Square{}})
	t.Log("corner 6x6", k, time.Since(t0))
}
