package frames

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestKnuth checks Knuth's estimator against exact counts: with enough probes the
// estimate of nodes and solutions is within four standard errors and 15% of the truth.
func TestKnuth(t *testing.T) {
	known := knownCounts(t)
	for _, n := range []int{8, 10, 12} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			p, err := newPlan(n)
			if err != nil {
				t.Fatal(err)
			}
			var nodes uint64
			for _, tk := range p.tasks {
				r := tk.Count()
				nodes += r.Nodes
			}
			var e count.Estimate
			if err := knuth(context.Background(), p, 200000, rand.New(rand.NewPCG(1, uint64(n))), &e); err != nil {
				t.Fatal(err)
			}
			q, _ := known[n][0].Float64()
			for _, c := range []struct {
				what           string
				got, err, want float64
			}{{"nodes", e.Nodes, e.NodesErr, float64(nodes)}, {"solutions", e.Solutions, e.SolutionsErr, q}} {
				if d := math.Abs(c.got - c.want); d > 4*c.err || d > 0.15*c.want {
					t.Errorf("knuth(%d) %s = %.4g ± %.2g, want %.4g", n, c.what, c.got, c.err, c.want)
				}
			}
		})
	}
}

// TestEstimate: a plan's Estimate counts the plan's tasks exactly where it is built, gives
// a positive time with a finite error from at least MinProbes probes, and stops at once
// when its context is done, even with a billion probes to walk.
func TestEstimate(t *testing.T) {
	p, err := New(12, PlanVersion)
	if err != nil {
		t.Fatal(err)
	}
	e, err := p.Estimate(context.Background(), count.EstimateOptions{Rand: rand.New(rand.NewPCG(1, 12)), Budget: 10 * time.Millisecond, MinProbes: 5, Probes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if !e.TasksExact || int(e.Tasks) != p.Len() || e.Probes < 5 || e.Seconds <= 0 || math.IsInf(e.SecondsErr, 0) || e.Nodes <= 0 || e.Largest <= 0 || e.Largest > e.Seconds {
		t.Errorf("Estimate(12) = %+v; want %d tasks exact, ≥ 5 probes, positive times, the largest within the whole", e, p.Len())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Estimate(ctx, count.EstimateOptions{Rand: rand.New(rand.NewPCG(1, 10)), Probes: 1_000_000_000}); err != context.Canceled {
		t.Fatalf("Estimate with a cancelled context: %v, want %v", err, context.Canceled)
	}
}
