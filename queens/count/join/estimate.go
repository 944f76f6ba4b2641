package join

import (
	"context"
	"math/rand/v2"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/sample"
)

// maxWholeTaskN is the largest N whose join Estimate times by whole tasks: to N = 21 a
// task takes under a second, and a lone row set there costs more in preparing its south
// rows, which consecutive row sets share, than in counting.
const maxWholeTaskN = 21

// maxTimedN is the largest N whose join Estimate times anything: from N = 24 a probe's
// setup alone (the quarter table or its rows, the symmetric search: 9 s at N = 24) passes
// ten budgets, and a row set takes seconds to minutes, so the estimate is the model's.
const maxTimedN = 23

// Estimate times the join of the plan on the calling goroutine (see count.Plan.Estimate).
// It builds the quarter table (a task of no row sets does only that) and, unless
// opts.NoSetup, runs the symmetric-solution task whole (each is done once in a count, so
// each is timed once: 0.9 s at N = 22, 9 s at N = 24); then, while opts allow, it picks a
// task with probability proportional to its Cost and, from N = 22, one of its row sets
// uniformly (task.rowSet), counts it, and takes its time over the probability of that
// pick. A row set takes milliseconds at N = 20, a fraction of a second at 22–23, seconds
// at 24, minutes beyond: where the fewest probes it must take (opts.MinProbes) are expected
// (by the cost model) to take more than ten budgets, nothing is timed and the estimate is
// the model's, with Probes 0.
func (p *plan) Estimate(ctx context.Context, opts count.EstimateOptions) (count.Estimate, error) {
	if err := p.Build(ctx); err != nil {
		return count.Estimate{}, err
	}
	var total, top, rows uint64
	for id := range p.Len() - 1 {
		total += p.cost[id]
		top = max(top, p.cost[id])
		rows += uint64(p.rowSets[id])
	}
	return estimateTasks(ctx, p.n, p.CoreSeconds(), p.Len(), total, top, rows, p.taskAt, opts)
}

// estimateTasks is Estimate of a join plan of n of the given modelled time and number of
// tasks (the last the symmetric one), whose row-set tasks' Costs sum to total, the largest
// top, over rows row sets; taskAt makes a task by id.
func estimateTasks(ctx context.Context, n int, coreSeconds float64, ntasks int, total, top, rows uint64, taskAt func(int) task, opts count.EstimateOptions) (count.Estimate, error) {
	// Probes expected (by the cost model) to take more than ten budgets are not run: the
	// estimate is the model's (Probes 0). A row set takes a fraction of a second to N = 23,
	// about a second at 24, minutes beyond.
	perProbe := coreSeconds / float64(ntasks-1)
	if n > maxWholeTaskN {
		perProbe = coreSeconds / float64(max(rows, 1))
	}
	if n > maxTimedN || perProbe*float64(max(opts.MinProbes, 1)) > 10*opts.Budget.Seconds() {
		return count.Estimate{Seconds: coreSeconds, SecondsErr: 2 * ModelError(n), Tasks: float64(ntasks), TasksExact: true,
			Largest: coreSeconds * float64(top) / float64(max(total, 1))}, nil
	}
	tasks := make([]task, ntasks-1)
	for id := range tasks {
		tasks[id] = taskAt(id)
	}
	sym := taskAt(ntasks - 1)
	tm := sample.NewTimer(opts.Budget, opts.MinProbes, opts.Clock)
	start := tm.Now()
	warm := tasks[0]
	warm.Run.RowSets = 0
	if _, err := warm.countJoin(ctx); err != nil {
		return count.Estimate{}, err
	}
	var symSecs float64
	if !opts.NoSetup {
		t0 := tm.Now()
		if _, err := sym.countJoin(ctx); err != nil {
			return count.Estimate{}, err
		}
		symSecs = tm.Now() - t0
	}
	setup := tm.Now() - start
	tm = sample.NewTimer(opts.Budget, opts.MinProbes, opts.Clock)
	mean, se, k, err := sampleRowSets(ctx, tasks, opts.Rand, n > maxWholeTaskN, tm, func(_ count.Result, secs float64) float64 { return secs })
	if err != nil {
		return count.Estimate{}, err
	}
	e := count.Estimate{Seconds: setup + mean, Setup: setup, Tasks: float64(ntasks), TasksExact: true, Probes: k}
	e.SecondsErr = 2 * se / e.Seconds
	e.Largest = max(symSecs, float64(top)*mean/float64(total))
	return e, nil
}

// A prober says whether to run another probe after k, and times them.
type prober interface {
	More(ctx context.Context, k int) bool
	Now() float64
}

// sampleRowSets estimates the sum over tasks (a join plan's row-set tasks) of a measure of
// their row sets, measure(result, seconds) of one row set's count: while pr.More, it picks
// a task with probability proportional to its Cost and one of its row sets uniformly
// (task.rowSet), counts it, and takes the measure over the probability of that pick
// (unbiased, and sharp where Cost predicts the measure). It returns the mean of these and
// its standard error and the number of probes, or ctx.Err(). With rowSets false it counts the picked task whole
// instead (the measure over the probability of the task).
func sampleRowSets(ctx context.Context, tasks []task, rng *rand.Rand, rowSets bool, pr prober, measure func(count.Result, float64) float64) (mean, se float64, probes int, err error) {
	var total uint64
	for _, t := range tasks {
		total += t.Cost
	}
	var s sample.Sampler
	for k := 0; pr.More(ctx, k); k++ {
		x := rng.Uint64N(max(total, 1))
		t := tasks[len(tasks)-1]
		for _, c := range tasks {
			if x < c.Cost {
				t = c
				break
			}
			x -= c.Cost
		}
		run, scale := t, 1.0
		if rowSets {
			if run, err = t.rowSet(rng.IntN(t.Run.RowSets)); err != nil {
				return 0, 0, 0, err
			}
			scale = float64(t.Run.RowSets)
		}
		t0 := pr.Now()
		r, err := run.countJoin(ctx)
		if err != nil {
			return 0, 0, 0, err
		}
		s.Add(measure(r, pr.Now()-t0) * float64(total) / float64(t.Cost) * scale)
	}
	if err := ctx.Err(); err != nil {
		return 0, 0, 0, err
	}
	mean, se, err = s.Mean()
	return mean, se, s.Probes(), err
}
