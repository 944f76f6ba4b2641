package join

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestSampleRowSets holds the join's row-set sampler, which times the join in "queens
// estimate", to what it estimates: with the number of solutions as the measure, the
// estimate must land within three standard errors of the published Q(N) (the row-set
// tasks hold every solution; the last task counts only symmetric ones), and with the pair
// tests as the measure, within three of the whole plan's total. The seeds are fixed, so a
// biased pick (a task not ∝ Cost, a row set not uniform, a wrong scale) fails for good.
func TestSampleRowSets(t *testing.T) {
	// N = 14 takes most of the test's time (a hundred seconds under -race) for the same
	// picks and scales as N = 12 and 13: it runs with CHESSPUZZLES_LONG=1.
	ns := []int{12, 13}
	if longTests() {
		ns = append(ns, 14)
	}
	for _, n := range ns {
		plan, err := newJoinPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		tasks := plan.allTasks()[:len(plan.allTasks())-1]
		var pairs float64
		for _, task := range tasks {
			r, err := task.CountContext(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			pairs += float64(r.PairTests)
		}
		known, _ := count.Known(n)
		q, _ := known.Total.Float64()
		measures := []struct {
			name string
			f    func(count.Result, float64) float64
			want float64
		}{
			{"solutions", func(r count.Result, _ float64) float64 { return float64(r.Solutions) }, q},
			{"pair tests", func(r count.Result, _ float64) float64 { return float64(r.PairTests) }, pairs},
		}
		for _, m := range measures {
			rng := rand.New(rand.NewPCG(uint64(n), 3))
			for _, rowSets := range []bool{true, false} {
				if !rowSets && n != 12 {
					continue // whole tasks: one N is enough
				}
				mean, se, _, err := sampleRowSets(context.Background(), tasks, rng, rowSets, probesUpTo(3000), m.f)
				if err != nil {
					t.Fatal(err)
				}
				if se <= 0 || se > 0.1*m.want || math.Abs(mean-m.want) > 3*se {
					t.Errorf("N=%d %s (row sets %v): sampled %.4g ± %.2g (one s.e.), want %.4g within three", n, m.name, rowSets, mean, se, m.want)
				}
			}
		}
	}
	if _, _, _, err := sampleRowSets(context.Background(), nil, nil, true, probesUpTo(0), nil); err == nil {
		t.Error("sampleRowSets with no probes: no error")
	}
}

// probesUpTo is a prober of k probes and no clock.
type probesUpTo int

func (p probesUpTo) More(_ context.Context, k int) bool { return k < int(p) }
func (probesUpTo) Now() float64                         { return 0 }
