package queens_test

import (
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestChooseMethodModel checks the choice against the measured model: the join where it
// was measured faster (N = 16–25, and 26–29 by its extrapolation) and fits (N = 28 and 29 on
// one worker in 2 GiB), frames at N = 30 (past the join) and where the join's memory does not fit, frames for tasks run elsewhere
// (workers 0).
func TestChooseMethodModel(t *testing.T) {
	tests := []struct {
		n, workers int
		limit      uint64
		want       string
	}{
		{16, 2, 0, count.MethodJoin}, {19, 2, 0, count.MethodJoin}, {23, 2, 0, count.MethodJoin},
		{24, 2, 2 << 30, count.MethodJoin}, {25, 64, 0, count.MethodJoin},
		{26, 2, 0, count.MethodJoin}, {27, 2, 0, count.MethodJoin},
		{28, 1, 2 << 30, count.MethodJoin}, {29, 1, 2 << 30, count.MethodJoin}, {30, 2, 0, count.MethodFrames},
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

// TestNewPlan: the one plan getter resolves a method's default version and a version's
// method, and refuses a version of another method, an unknown version or method, and a
// board size a method does not count.
func TestNewPlan(t *testing.T) {
	for _, tt := range []struct {
		n       int
		method  string
		version int
		want    string
		wantV   int
	}{
		{12, count.MethodFrames, 0, count.MethodFrames, 1},
		{25, count.MethodFrames, 0, count.MethodFrames, 2},
		{30, count.MethodFrames, 0, count.MethodFrames, 1},
		{12, count.MethodJoin, 0, count.MethodJoin, 102},
		{12, "", 2, count.MethodFrames, 2},
		{12, "", 102, count.MethodJoin, 102},
	} {
		p, err := queens.NewPlan(tt.n, tt.method, tt.version)
		if err != nil || p.Method() != tt.want || p.Version() != tt.wantV || p.N() != tt.n {
			t.Errorf("NewPlan(%d, %q, %d) = %v, %v; want method %s version %d", tt.n, tt.method, tt.version, p, err, tt.want, tt.wantV)
		}
	}
	for _, tt := range []struct {
		n       int
		method  string
		version int
	}{
		{12, count.MethodJoin, 1}, {12, count.MethodFrames, 102}, {12, "", 7}, {12, "magic", 0},
		{30, count.MethodJoin, 0}, {3, count.MethodJoin, 0}, {33, count.MethodFrames, 0}, {30, count.MethodFrames, 2},
	} {
		if p, err := queens.NewPlan(tt.n, tt.method, tt.version); err == nil {
			t.Errorf("NewPlan(%d, %q, %d) = plan of %s version %d, want an error", tt.n, tt.method, tt.version, p.Method(), p.Version())
		}
	}
}
