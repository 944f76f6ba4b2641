package queens

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// TestEstimatePlan checks Knuth's estimator against exact counts: with enough probes the
// estimate of nodes and solutions is within four standard errors and 15% of the truth.
func TestEstimatePlan(t *testing.T) {
	known := knownCounts(t)
	for _, n := range []int{8, 10, 12} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			p, err := NewPlan(n)
			if err != nil {
				t.Fatal(err)
			}
			var nodes uint64
			for _, task := range p.Tasks {
				r := task.Count()
				nodes += r.Nodes
			}
			e := EstimatePlan(p, 200000, rand.New(rand.NewPCG(1, uint64(n))))
			q, _ := known[n][0].Float64()
			for _, c := range []struct {
				what           string
				got, err, want float64
			}{{"nodes", e.Nodes, e.NodesErr, float64(nodes)}, {"solutions", e.Solutions, e.SolutionsErr, q}} {
				if d := math.Abs(c.got - c.want); d > 4*c.err || d > 0.15*c.want {
					t.Errorf("EstimatePlan(%d) %s = %.4g ± %.2g, want %.4g", n, c.what, c.got, c.err, c.want)
				}
			}
		})
	}
}

// TestEstimatePlanContext checks that the estimate with a context is EstimatePlan's, and
// that a cancelled context stops a sampling of a billion probes at once.
func TestEstimatePlanContext(t *testing.T) {
	p, err := NewPlan(10)
	if err != nil {
		t.Fatal(err)
	}
	want := EstimatePlan(p, 5000, rand.New(rand.NewPCG(1, 10)))
	got, err := EstimatePlanContext(context.Background(), p, 5000, rand.New(rand.NewPCG(1, 10)))
	if err != nil || got != want {
		t.Fatalf("EstimatePlanContext = %+v, %v; EstimatePlan = %+v", got, err, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := EstimatePlanContext(ctx, p, 1_000_000_000, rand.New(rand.NewPCG(1, 10))); err != context.Canceled {
		t.Fatalf("EstimatePlanContext with a cancelled context: %v, want %v", err, context.Canceled)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := EstimatePlanContext(ctx, p, 1_000_000_000_000, rand.New(rand.NewPCG(1, 10))); err != context.DeadlineExceeded {
		t.Fatalf("EstimatePlanContext past its deadline: %v, want %v", err, context.DeadlineExceeded)
	}
}
