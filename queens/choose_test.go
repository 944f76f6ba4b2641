package queens_test

import (
	"errors"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/join"
)

// TestChoose checks the one decision of a count: the plan's method and version as
// ChooseMethod and NewPlan would give them, its memory as the plan's Memory, the cost
// model of both methods, and the errors for a version of no method or of another method
// and for a join that does not fit.
func TestChoose(t *testing.T) {
	for _, tt := range []struct {
		name  string
		n     int
		opts  queens.PlanOptions
		want  string
		wantV int // 0: NewPlan's default for the method
	}{
		{"auto takes the join", 12, queens.PlanOptions{Workers: 2}, count.MethodJoin, 102},
		{"auto for slices takes frames", 20, queens.PlanOptions{Method: "auto"}, count.MethodFrames, 1},
		{"frames' fine plan by default from N = 25", 25, queens.PlanOptions{Method: count.MethodFrames, Workers: 2}, count.MethodFrames, 2},
		{"a version names its method", 12, queens.PlanOptions{Version: 2, Workers: 2}, count.MethodFrames, 2},
		{"a version of the method", 12, queens.PlanOptions{Method: count.MethodFrames, Version: 2, Workers: 2}, count.MethodFrames, 2},
		{"the join's version", 12, queens.PlanOptions{Method: count.MethodJoin, Version: 102, Workers: 1}, count.MethodJoin, 102},
		{"frames past the join", join.MaxN + 1, queens.PlanOptions{Workers: 2}, count.MethodFrames, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := queens.Choose(tt.n, tt.opts)
			if err != nil {
				t.Fatalf("Choose(%d, %+v): %v", tt.n, tt.opts, err)
			}
			if tt.wantV == 0 {
				p, err := queens.NewPlan(tt.n, tt.want, 0)
				if err != nil {
					t.Fatal(err)
				}
				tt.wantV = p.Version()
			}
			if c.Plan.N() != tt.n || c.Plan.Method() != tt.want || c.Plan.Version() != tt.wantV {
				t.Errorf("Choose(%d, %+v) = N %d, %s version %d; want %s version %d", tt.n, tt.opts, c.Plan.N(), c.Plan.Method(), c.Plan.Version(), tt.want, tt.wantV)
			}
			if tt.opts.Version == 0 {
				m := tt.opts.Method
				if m == "" {
					m = "auto"
				}
				if got, err := queens.ChooseMethod(tt.n, m, tt.opts.Workers, tt.opts.MaxMemory); err != nil || got != c.Plan.Method() {
					t.Errorf("ChooseMethod = %q, %v; Choose took %s", got, err, c.Plan.Method())
				}
			}
			if need, _ := c.Plan.Memory(tt.opts.Workers, tt.opts.MaxMemory); c.Memory != need {
				t.Errorf("Memory = %d, the plan's Memory %d", c.Memory, need)
			}
			for _, m := range []struct {
				method string
				got    float64
			}{{count.MethodFrames, c.FramesSeconds}, {count.MethodJoin, c.JoinSeconds}} {
				want := 0.0
				if p, err := queens.NewPlan(tt.n, m.method, 0); err == nil {
					want = p.CoreSeconds()
				}
				if m.got != want {
					t.Errorf("the cost model of %s: %g, its plan's CoreSeconds %g", m.method, m.got, want)
				}
			}
		})
	}
	for _, tt := range []struct {
		name string
		n    int
		opts queens.PlanOptions
	}{
		{"a version of no method", 12, queens.PlanOptions{Version: 7, Workers: 1}},
		{"a version of the other method", 12, queens.PlanOptions{Method: count.MethodJoin, Version: 1, Workers: 1}},
		{"the fine plan past its N", 30, queens.PlanOptions{Method: count.MethodFrames, Version: 2, Workers: 1}},
	} {
		if _, err := queens.Choose(tt.n, tt.opts); !errors.Is(err, queens.ErrPlanVersion) {
			t.Errorf("%s: Choose(%d, %+v) = %v, want an error wrapping ErrPlanVersion", tt.name, tt.n, tt.opts, err)
		}
	}
	var me *queens.MemoryError
	if _, err := queens.Choose(22, queens.PlanOptions{Method: count.MethodJoin, Workers: 2, MaxMemory: 16 << 20}); !errors.As(err, &me) {
		t.Errorf("Choose(22, join in 16 MiB) = %v, want a *MemoryError", err)
	}
}
