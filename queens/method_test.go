package queens_test

import (
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestChooseMethodModel checks the choice against the measured model: the join where it
// was measured faster (N = 16–25) and fits, frames at N = 26–28 and where the join's
// memory does not fit, frames for tasks run elsewhere (workers 0).
func TestChooseMethodModel(t *testing.T) {
	tests := []struct {
		n, workers int
		limit      uint64
		want       string
	}{
		{16, 2, 0, count.MethodJoin}, {19, 2, 0, count.MethodJoin}, {23, 2, 0, count.MethodJoin},
		{24, 2, 2 << 30, count.MethodJoin}, {25, 64, 0, count.MethodJoin},
		{26, 2, 0, count.MethodFrames}, {27, 2, 0, count.MethodFrames}, {28, 2, 0, count.MethodFrames},
		{22, 2, 16 << 20, count.MethodFrames}, {20, 0, 0, count.MethodFrames}, {3, 1, 0, count.MethodFrames},
	}
	for _, tt := range tests {
		if got, err := queens.ChooseMethod(tt.n, "auto", tt.workers, tt.limit); err != nil || got != tt.want {
			t.Errorf("queens.ChooseMethod(%d, auto, %d workers, %d bytes) = %q, %v; want %q", tt.n, tt.workers, tt.limit, got, err, tt.want)
		}
	}
	if _, err := queens.ChooseMethod(22, count.MethodJoin, 2, 16<<20); err == nil {
		t.Error("queens.ChooseMethod(22, join, 16 MiB) accepted")
	}
}
