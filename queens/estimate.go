package queens

import (
	"context"
	"math"
	"math/rand/v2"
)

// Probe walks one random path down the task's search tree, choosing each queen uniformly
// among the open columns of its row, and returns Knuth's estimates of the size of the tree
// (the nodes [Task.Count] visits, as it counts them) and of the number of solutions: with d_k
// open columns on the k-th row of the path, nodes = d_1 + d_1·d_2 + … and solutions = d_1·…·d_D
// if the path reaches the last row, else 0. Both are unbiased; their average over many
// probes converges, slowly when the tree is lopsided. A probe costs one path: a few
// hundred nanoseconds. (D. E. Knuth, Estimating the efficiency of backtrack programs,
// Mathematics of Computation 29, 1975.)
func (t Task) Probe(rng *rand.Rand) (nodes, solutions float64) {
	if t.N == 1 {
		return 1, 1
	}
	var s search
	s.init(frame{t.N, t.Top, t.Bottom, t.Left, t.Right})
	return s.probe(rng)
}

// An Estimate is a statistical estimate of a plan's work and result, each with its standard
// error (about two thirds of the time the truth lies within one standard error, 95% within
// two, if the probes are many enough to show the tree's spread).
type Estimate struct {
	N      int
	Probes int
	// Nodes is the number of search-tree nodes the plan's tasks visit together.
	Nodes, NodesErr float64
	// Solutions is the estimated total number of solutions, Q(N).
	Solutions, SolutionsErr float64
}

// EstimatePlan estimates the plan's nodes and solutions from probes random probes, each in a
// task chosen uniformly at random (so the mean times the number of tasks is unbiased). It
// takes probes × a few hundred nanoseconds.
func EstimatePlan(p *Plan, probes int, rng *rand.Rand) Estimate {
	e, _ := EstimatePlanContext(context.Background(), p, probes, rng)
	return e
}

// EstimatePlanContext is [EstimatePlan] that stops early, returning ctx.Err(), once ctx is
// done; it looks every 1024 probes, a fraction of a millisecond apart.
func EstimatePlanContext(ctx context.Context, p *Plan, probes int, rng *rand.Rand) (Estimate, error) {
	e := Estimate{N: p.N, Probes: probes}
	if err := ctx.Err(); err != nil {
		return e, err
	}
	// Probes walk a frame's whole tree (Task.Probe ignores a prefix), so the plan must be
	// one held in Tasks without prefixes: version 1, or 2 where it equals 1.
	if probes < 1 || len(p.Tasks) == 0 {
		return e, nil
	}
	var sn, snn, ss, sss float64
	for i := range probes {
		if i%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return Estimate{N: p.N, Probes: probes}, err
			}
		}
		t := p.Tasks[rng.IntN(len(p.Tasks))]
		nodes, sols := t.Probe(rng)
		sols *= float64(t.Weight)
		sn += nodes
		snn += nodes * nodes
		ss += sols
		sss += sols * sols
	}
	k, T := float64(probes), float64(len(p.Tasks))
	stderr := func(sum, sumsq float64) float64 {
		if probes < 2 {
			return math.Inf(1)
		}
		mean := sum / k
		v := (sumsq - k*mean*mean) / (k - 1)
		return math.Sqrt(max(v, 0)/k) * T
	}
	e.Nodes, e.NodesErr = sn/k*T, stderr(sn, snn)
	e.Solutions, e.SolutionsErr = ss/k*T, stderr(ss, sss)
	return e, nil
}
