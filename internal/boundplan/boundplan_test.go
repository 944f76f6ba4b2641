package boundplan_test

import (
	"context"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/internal/boundplan"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// TestNew: a bound plan cuts finer than the fine plan and still counts Q(n) and U(n) as
// published (count.Known); a bound of 0 is taken as 1.
func TestNew(t *testing.T) {
	const n = 10
	fine, err := frames.New(n, frames.FinePlanVersion)
	if err != nil {
		t.Fatal(err)
	}
	want, ok := count.Known(n)
	if !ok {
		t.Fatalf("no published count for N=%d", n)
	}
	for _, bound := range []uint64{0, 1, 4} {
		p, err := boundplan.New(n, bound)
		if err != nil {
			t.Fatal(err)
		}
		if p.Len() <= fine.Len() || p.Version() != frames.FinePlanVersion {
			t.Errorf("bound %d: %d tasks, version %d; want more than the fine plan's %d, version %d", bound, p.Len(), p.Version(), fine.Len(), frames.FinePlanVersion)
		}
		got, err := count.Here(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if got.Total.Cmp(want.Total) != 0 || got.Unique.Cmp(want.Unique) != 0 {
			t.Errorf("bound %d: Q=%v U=%v, want %v %v", bound, got.Total, got.Unique, want.Total, want.Unique)
		}
	}
	zero, _ := boundplan.New(n, 0)
	one, _ := boundplan.New(n, 1)
	if zero.Len() != one.Len() {
		t.Errorf("bound 0 gives %d tasks, bound 1 %d: want 0 taken as 1", zero.Len(), one.Len())
	}
	if _, err := boundplan.New(0, 1); err == nil {
		t.Error("New(0, 1) = nil error, want one")
	}
}
