package main

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// TestSampleRowSets holds the join's row-set sampler, which times the join in "queens
// estimate", to what it estimates: with the number of solutions as the measure, the
// estimate must land within three standard errors of the published Q(N) (the row-set
// tasks hold every solution; the last task counts only symmetric ones), and with the pair
// tests as the measure, within three of the whole plan's total. The seeds are fixed, so a
// biased pick (a task not ∝ Cost, a row set not uniform, a wrong scale) fails for good.
func TestSampleRowSets(t *testing.T) {
	ns := []int{12, 13, 14}
	if testing.Short() {
		ns = ns[:2] // N = 14 is most of the test's time
	}
	for _, n := range ns {
		plan, err := queens.NewJoinPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		tasks := plan.Tasks[:len(plan.Tasks)-1]
		var pairs float64
		for _, task := range tasks {
			r, err := task.CountContext(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			pairs += float64(r.PairTests)
		}
		known, _ := queens.Known(n)
		q, _ := known.Total.Float64()
		measures := []struct {
			name string
			f    func(queens.TaskResult, time.Duration) float64
			want float64
		}{
			{"solutions", func(r queens.TaskResult, _ time.Duration) float64 { return float64(r.Solutions) }, q},
			{"pair tests", func(r queens.TaskResult, _ time.Duration) float64 { return float64(r.PairTests) }, pairs},
		}
		for _, m := range measures {
			rng := rand.New(rand.NewPCG(uint64(n), 3))
			for _, rowSets := range []bool{true, false} {
				if !rowSets && n != 12 {
					continue // whole tasks: one N is enough
				}
				mean, se, err := sampleRowSets(context.Background(), tasks, rng, rowSets, func(k int) bool { return k < 3000 }, m.f)
				if err != nil {
					t.Fatal(err)
				}
				if se <= 0 || se > 0.1*m.want || math.Abs(mean-m.want) > 3*se {
					t.Errorf("N=%d %s (row sets %v): sampled %.4g ± %.2g (one s.e.), want %.4g within three", n, m.name, rowSets, mean, se, m.want)
				}
			}
		}
	}
	if _, _, err := sampleRowSets(context.Background(), nil, nil, true, func(k int) bool { return false }, nil); err == nil {
		t.Error("sampleRowSets with no probes: no error")
	}
}
