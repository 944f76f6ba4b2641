package frames

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/sample"
)

// Probe walks one random path down the task's search tree, choosing each queen uniformly
// among the open columns of its row, and returns Knuth's estimates of the size of the tree
// (the nodes task.Count visits, as it counts them) and of the number of solutions: with d_k
// open columns on the k-th row of the path, nodes = d_1 + d_1·d_2 + … and solutions = d_1·…·d_D
// if the path reaches the last row, else 0. Both are unbiased; their average over many
// probes converges, slowly when the tree is lopsided. A probe costs one path: a few
// hundred nanoseconds. (D. E. Knuth, Estimating the efficiency of backtrack programs,
// Mathematics of Computation 29, 1975.)
func (t task) Probe(rng *rand.Rand) (nodes, solutions float64) {
	if t.N == 1 {
		return 1, 1
	}
	var s search
	s.init(frame{t.N, t.Top, t.Bottom, t.Left, t.Right})
	return s.probe(rng)
}

// knuth fills e's Nodes and Solutions (with their standard errors) from probes random
// probes, each in a task of p (a plan held in tasks, without prefixes: version 1) chosen
// uniformly at random, so the mean times the number of tasks is unbiased. It takes probes
// × a few hundred nanoseconds, and stops early, returning ctx.Err(), once ctx is done; it
// looks every 1024 probes, a fraction of a millisecond apart.
func knuth(ctx context.Context, p *plan, probes int, rng *rand.Rand, e *count.Estimate) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if probes < 1 || len(p.tasks) == 0 {
		return nil
	}
	var sn, snn, ss, sss float64
	for i := range probes {
		if i%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		t := p.tasks[rng.IntN(len(p.tasks))]
		nodes, sols := t.Probe(rng)
		sols *= float64(t.Weight)
		sn += nodes
		snn += nodes * nodes
		ss += sols
		sss += sols * sols
	}
	k, T := float64(probes), float64(len(p.tasks))
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
	return nil
}

// maxBuiltFineN is the largest N whose fine plan Estimate builds to count its tasks:
// seconds at 25 and 26, minutes at 27.
const maxBuiltFineN = 26

// Estimate times the frames method's plan on the calling goroutine (see
// count.Plan.Estimate). With opts.Probes it first walks Knuth's probes for the nodes and
// solutions. Then each timed probe picks a version 1 frame with probability proportional
// to its Cost and descends through its children (the fine plan's splits), each picked
// with probability proportional to its Cost, until the subtask is expected (by the cost
// model, FrameSecondsPerCost) to take about a twentieth of the budget (at most 0.05 s),
// counts it, and takes its time over the probability of having picked it. The fine plan's
// tasks partition version 1's frames, so both versions are timed so. The number of tasks
// is exact for version 1 and for fine plans to N = 26 (built: seconds); beyond, it is the
// mean number of tasks a frame splits into over a uniform sample of frames, times the
// frames.
func (p *plan) Estimate(ctx context.Context, opts count.EstimateOptions) (count.Estimate, error) {
	var e count.Estimate
	v1, err := buildPlan(ctx, p.n)
	if err != nil {
		return e, err
	}
	if err := knuth(ctx, v1, opts.Probes, opts.Rand, &e); err != nil {
		return e, err
	}
	var total, top uint64
	for _, t := range v1.tasks {
		total += t.Cost
	}
	tm := sample.NewTimer(opts.Budget, opts.MinProbes, opts.Clock)
	e.Tasks, e.TasksExact = float64(len(v1.tasks)), true
	bound := uint64(math.MaxUint64)
	switch {
	case p.version == PlanVersion || p.n < FineFromN:
		for _, t := range v1.tasks {
			top = max(top, t.Cost)
		}
	case p.n <= maxBuiltFineN:
		if err := p.Build(ctx); err != nil {
			return e, err
		}
		e.Tasks = float64(p.Len())
		for id := range p.Len() {
			top = max(top, p.Cost(id))
		}
	default:
		e.TasksExact = false
		bound = fineBoundFor(p.n, total)
		kids := 0
		k := 0
		for ; k < 2000 && (k < 3 || tm.Now()-tm.Start() < opts.Budget.Seconds()/4); k++ {
			splitFrame(v1.tasks[opts.Rand.IntN(len(v1.tasks))], bound, func(task) { kids++ })
		}
		e.Tasks = float64(kids) / float64(k) * float64(len(v1.tasks))
		top = bound
	}
	spc := frameSecondsPerCost(p.n, total)
	leaf := min(opts.Budget.Seconds()/20, 0.05)
	var s sample.Sampler
	tm = sample.NewTimer(opts.Budget, opts.MinProbes, opts.Clock)
	for k := 0; tm.More(ctx, k); k++ {
		f := pickTask(opts.Rand, v1.tasks, total)
		prob := float64(f.Cost) / float64(total)
		// share is the subtask's part of the frame's Cost, by its children's estimates
		// (a child's own estimate is on a smaller scale than its share of its parent).
		share := float64(f.Cost)
		t := f
		for share*spc > leaf {
			kids := t.children()
			if len(kids) == 0 {
				break
			}
			var ks uint64
			for _, c := range kids {
				ks += c.Cost
			}
			c := pickTask(opts.Rand, kids, ks)
			prob *= float64(c.Cost) / float64(ks)
			share *= float64(c.Cost) / float64(ks)
			t = c
		}
		t0 := tm.Now()
		if _, err := t.CountContext(ctx); err != nil {
			return e, err
		}
		s.Add((tm.Now() - t0) / prob)
	}
	if err := ctx.Err(); err != nil {
		return e, err
	}
	mean, se, err := s.Mean()
	if err != nil {
		return e, err
	}
	e.Seconds, e.SecondsErr, e.Probes = mean, 2*se/mean, s.Probes()
	e.Largest = float64(top) * mean / float64(max(total, 1))
	return e, nil
}

// pickTask returns one of ts with probability proportional to Cost (sum is their sum).
func pickTask(rng *rand.Rand, ts []task, sum uint64) task {
	x := rng.Uint64N(max(sum, 1))
	for _, t := range ts {
		if x < t.Cost {
			return t
		}
		x -= t.Cost
	}
	return ts[len(ts)-1]
}
