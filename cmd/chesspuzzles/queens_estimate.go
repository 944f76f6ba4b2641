package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

// maxEstimateWorkers bounds queens estimate's --workers: a million cores is more than
// any cluster a count would run on, and the join's memory per worker multiplied by more
// stops meaning anything (issue 25: 99,999,999,999 workers gave 1.16e+08 GiB).
const maxEstimateWorkers = 1 << 20

type estimateOptions struct {
	n       int
	probes  int
	seed    uint64
	workers int
	json    bool
	method  methodOptions // --method, --max-memory, --plan-version: as for "queens count"
}

func newQueensEstimateCmd() *cobra.Command {
	var opts estimateOptions
	cmd := &cobra.Command{
		Use:   "estimate N",
		Short: "Estimate how long counting the N×N board would take, and its count",
		Long: `Estimate the work of "chesspuzzles queens count N" before starting it: the method and
plan the count takes with the same flags (the same choice as "queens plan N" and "queens
count N"), the time on this machine with its uncertainty (± two standard errors: about 95%
of the time the truth lies within), and the memory.

Frames: the plan is sampled with Knuth's estimator (random paths down the search trees of
random frames, each path's branching factors an unbiased estimate of the tree's size, and
of the number of solutions), and the speed of this machine is measured by running random
tasks for about a second. The join: random row sets of its plan are counted and timed for
about a second (to N = 23; beyond, a row set takes seconds to hours, and the time comes from
the cost model measured by bench/cost.sh). The time on W workers assumes they all run at
the measured speed: close on an idle machine with W real cores. The ± covers the sampling,
not the machine's other load.`,
		Example: `  chesspuzzles queens estimate 20
  chesspuzzles queens estimate 27 --probes 2000000 --json`,
		Args: exactArgs(1, "one argument, N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if opts.n, err = parseN(args[0], queens.MaxCountN); err != nil {
				return err
			}
			if opts.probes < 100 {
				return usageErrorf("--probes must be a whole number from 100 up, got %d", opts.probes)
			}
			if opts.workers < 1 || opts.workers > maxEstimateWorkers {
				return usageErrorf("--workers must be a whole number from 1 to %d, the workers of the machines estimated for (default: %d, the cores this process may use), got %d", maxEstimateWorkers, runtime.GOMAXPROCS(0), opts.workers)
			}
			if err := opts.method.validate(); err != nil {
				return err
			}
			return runEstimate(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	cmd.Flags().IntVar(&opts.probes, "probes", 300000, "random paths to sample (more: slower, tighter)")
	cmd.Flags().Uint64Var(&opts.seed, "seed", 1, "random seed; the same seed gives the same estimate")
	cmd.Flags().IntVar(&opts.workers, "workers", runtime.GOMAXPROCS(0), "workers to estimate the time for")
	modelledWorkers(cmd, "workers")
	cmd.Flags().BoolVar(&opts.json, "json", false, "one JSON object")
	addMethodFlags(cmd, &opts.method)
	return cmd
}

// estimateRecord is the --json output.
type estimateRecord struct {
	N           int    `json:"n"`
	Method      string `json:"method"`
	PlanVersion int    `json:"plan_version"`
	Tasks       int    `json:"tasks"` // the count's plan's tasks; 0 if not built (fine plans past maxBuiltFineN)
	Frames      int    `json:"frames,omitempty"`
	Probes      int    `json:"probes"`
	// Frames only: Knuth's estimates.
	Nodes          float64 `json:"nodes,omitempty"`
	NodesErr       float64 `json:"nodes_err,omitempty"`
	Solutions      float64 `json:"solutions,omitempty"`
	SolutionsErr   float64 `json:"solutions_err,omitempty"`
	NodesPerSecond float64 `json:"nodes_per_second,omitempty"`
	// The time by the method taken, on one worker and on Workers, and its relative ± (0
	// when it comes from the model alone).
	Seconds1   float64 `json:"seconds_1_worker"`
	Workers    int     `json:"workers"`
	SecondsW   float64 `json:"seconds_workers"`
	SecondsErr float64 `json:"seconds_err_fraction"`
	Timed      bool    `json:"timed"`
	// The cost model of both methods (Plan.CoreSeconds) that chose the method; 0 where a
	// method does not count N.
	ModelFrames float64 `json:"model_frames_core_seconds"`
	ModelJoin   float64 `json:"model_join_core_seconds,omitempty"`
	Memory      uint64  `json:"memory_bytes"`
}

// maxTimedJoinN is the largest N whose join the estimate times on sampled row sets: a row
// set of N = 22–23 takes a fraction of a second, of 24 seconds, beyond minutes.
const maxTimedJoinN = 23

// maxWholeJoinTaskN is the largest N whose join the estimate times by whole tasks.
const maxWholeJoinTaskN = 21

// maxBuiltFineN is the largest N whose fine frame plan the estimate builds to count its
// tasks: seconds at 25 and 26, minutes at 27.
const maxBuiltFineN = 26

func runEstimate(ctx context.Context, opts estimateOptions, stdout io.Writer) error {
	method, err := opts.method.choose(opts.n, opts.workers)
	if err != nil {
		return err
	}
	v, err := planVersionFor(opts.n, method, opts.method.planVersion)
	if err != nil {
		return err
	}
	rec := estimateRecord{N: opts.n, Method: method, PlanVersion: v, Probes: opts.probes, Workers: opts.workers}
	var plan *queens.Plan
	if method == queens.MethodJoin || v == queens.PlanVersion || opts.n <= maxBuiltFineN {
		if plan, err = newPlan(ctx, opts.n, method, v); err != nil {
			return err
		}
		rec.Tasks = plan.Len()
	}
	limit, _ := opts.method.memoryLimit()
	rec.ModelFrames = (&queens.Plan{N: opts.n, Method: queens.MethodFrames}).CoreSeconds()
	if opts.n >= queens.MinJoinN && opts.n <= queens.MaxJoinN {
		rec.ModelJoin = (&queens.Plan{N: opts.n, Method: queens.MethodJoin}).CoreSeconds()
	}
	rng := rand.New(rand.NewPCG(opts.seed, uint64(opts.n)))
	rel := func(v, se float64) float64 {
		if v == 0 {
			return 0
		}
		return 2 * se / v
	}
	var e queens.Estimate
	if method == queens.MethodFrames {
		rec.Memory, _ = (&queens.Plan{N: opts.n, Method: method}).Memory(opts.workers, limit)
		// A probe walks a whole frame's tree, so the fine plan (whose tasks partition the
		// frames') is sampled through its frames.
		frames, err := newPlan(ctx, opts.n, queens.MethodFrames, queens.PlanVersion)
		if err != nil {
			return err
		}
		rec.Frames = frames.Len()
		if e, err = queens.EstimatePlanContext(ctx, frames, opts.probes, rng); err != nil {
			return err
		}
		speed, err := timeTasks(ctx, frames, rng, time.Second)
		if err != nil {
			return err
		}
		rec.Nodes, rec.NodesErr, rec.Solutions, rec.SolutionsErr = e.Nodes, 2*e.NodesErr, e.Solutions, 2*e.SolutionsErr
		rec.NodesPerSecond, rec.Seconds1, rec.SecondsErr, rec.Timed = speed, e.Nodes/speed, rel(e.Nodes, e.NodesErr), true
	} else {
		rec.Memory, _ = plan.Memory(opts.workers, limit)
		rec.Seconds1 = plan.CoreSeconds()
		if opts.n <= maxTimedJoinN {
			secs, errFrac, err := measureJoin(ctx, opts.n, rng, time.Second, 20, true)
			if err != nil {
				return err
			}
			rec.Seconds1, rec.SecondsErr, rec.Timed = secs, errFrac, true
		}
	}
	rec.SecondsW = rec.Seconds1 / float64(opts.workers)
	if opts.json {
		line, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", line)
		return err
	}
	tasks := fmt.Sprintf("%d tasks", rec.Tasks)
	if rec.Tasks == 0 {
		tasks = fmt.Sprintf("its tasks split %d frames (\"queens plan %d\" counts them: minutes)", rec.Frames, opts.n)
	}
	fmt.Fprintf(stdout, "N=%d: method %s, plan version %d: %s, as \"queens count %d\" runs it\n", opts.n, method, v, tasks, opts.n)
	switch {
	case method == queens.MethodFrames:
		fmt.Fprintf(stdout, "sampled:    %d random probes of its %d frames (± is two standard errors)\n", opts.probes, rec.Frames)
		fmt.Fprintf(stdout, "nodes:      %.3g ± %.1f%%\n", e.Nodes, 100*rel(e.Nodes, e.NodesErr))
		fmt.Fprintf(stdout, "solutions:  %.3g ± %.1f%%\n", e.Solutions, 100*rel(e.Solutions, e.SolutionsErr))
		fmt.Fprintf(stdout, "speed:      %.3g nodes/s on one core here (timed for a second on this plan's tasks)\n", rec.NodesPerSecond)
		fmt.Fprintf(stdout, "time:       %s on 1 worker, %s on %d (± %.0f%%)\n", humanDuration(rec.Seconds1), humanDuration(rec.SecondsW), opts.workers, 100*rec.SecondsErr)
	case rec.Timed:
		what := "row sets"
		if opts.n <= maxWholeJoinTaskN {
			what = "tasks"
		}
		fmt.Fprintf(stdout, "time:       %s on 1 worker, %s on %d (± %.0f%%, timed on sampled %s)\n", humanDuration(rec.Seconds1), humanDuration(rec.SecondsW), opts.workers, 100*rec.SecondsErr, what)
	default:
		fmt.Fprintf(stdout, "time:       %s on 1 worker, %s on %d (the cost model: a row set of N=%d takes too long to time here)\n", humanDuration(rec.Seconds1), humanDuration(rec.SecondsW), opts.workers, opts.n)
	}
	fmt.Fprintf(stdout, "memory:     about %s on %s\n", humanBytes(rec.Memory), plural(uint64(opts.workers), "worker", "workers"))
	join := "does not count N=" + strconv.Itoa(opts.n)
	if rec.ModelJoin > 0 {
		join = humanDuration(rec.ModelJoin)
	}
	fmt.Fprintf(stdout, "model:      frames %s, join %s on one core of the development machine (bench/cost.sh); --method auto takes the faster one that fits --max-memory\n",
		humanDuration(rec.ModelFrames), join)
	return nil
}

// measureJoin times the join of n on this goroutine and returns its seconds on one worker
// and their relative uncertainty (two standard errors). It builds the quarter table and,
// with sym, runs the symmetric-solution task whole (each is done once in a count, so each
// is timed once: 0.9 s at N = 22, 9 s at N = 24), then times random row sets for about
// budget and at least minProbes (each 1–10 s at N = 24): a task is
// picked with probability proportional to its Cost and one of its row sets uniformly
// (Task.RowSet), and a row set's time over the probability of picking it is an unbiased
// estimate of the rest of the plan.
func measureJoin(ctx context.Context, n int, rng *rand.Rand, budget time.Duration, minProbes int, sym bool) (secs, errFrac float64, err error) {
	plan, err := queens.NewJoinPlan(n)
	if err != nil {
		return 0, 0, err
	}
	last := len(plan.Tasks) - 1
	tasks := plan.Tasks[:last]
	// A task of no row sets only builds the table.
	start := time.Now()
	warm := tasks[0]
	warm.Join.RowSets = 0
	if _, err := warm.CountContext(ctx); err != nil {
		return 0, 0, err
	}
	if sym {
		if _, err := plan.Tasks[last].CountContext(ctx); err != nil {
			return 0, 0, err
		}
	}
	fixed := time.Since(start).Seconds()
	start = time.Now()
	more := func(k int) bool { return k < max(minProbes, 2) || time.Since(start) < budget }
	// To N = 21 a task takes under a second: time whole tasks, as the count runs them (a
	// lone row set there costs more in preparing its south rows, which consecutive row
	// sets share, than in counting).
	mean, se, err := sampleRowSets(ctx, tasks, rng, n > maxWholeJoinTaskN, more, func(_ queens.TaskResult, d time.Duration) float64 { return d.Seconds() })
	if err != nil {
		return 0, 0, err
	}
	return fixed + mean, 2 * se / (fixed + mean), nil
}

// sampleRowSets estimates the sum over tasks (a join plan's row-set tasks) of a measure of
// their row sets, measure(result, time) of one row set's count: while more(probes so far),
// it picks a task with probability proportional to its Cost and one of its row sets
// uniformly (Task.RowSet), counts it, and takes the measure over the probability of that
// pick (unbiased, and sharp where Cost predicts the measure). It returns the mean of these
// and its standard error.
//
// With rowSets false it counts the picked task whole instead (the measure over the
// probability of the task).
func sampleRowSets(ctx context.Context, tasks []queens.Task, rng *rand.Rand, rowSets bool, more func(k int) bool, measure func(queens.TaskResult, time.Duration) float64) (mean, se float64, err error) {
	var total uint64
	for _, t := range tasks {
		total += t.Cost
	}
	var sum, sumsq float64
	k := 0
	for ; more(k); k++ {
		x := rng.Uint64N(total)
		var t queens.Task
		for _, t = range tasks {
			if x < t.Cost {
				break
			}
			x -= t.Cost
		}
		rs, scale := t, 1.0
		if rowSets {
			if rs, err = t.RowSet(rng.IntN(t.Join.RowSets)); err != nil {
				return 0, 0, err
			}
			scale = float64(t.Join.RowSets)
		}
		t0 := time.Now()
		r, err := rs.CountContext(ctx)
		if err != nil {
			return 0, 0, err
		}
		e := measure(r, time.Since(t0)) * float64(total) / float64(t.Cost) * scale
		sum += e
		sumsq += e * e
	}
	if k < 2 {
		return 0, 0, fmt.Errorf("sampleRowSets: %d probes, at least 2 are needed", k)
	}
	mean = sum / float64(k)
	return mean, math.Sqrt(math.Max(sumsq/float64(k)-mean*mean, 0) / float64(k-1)), nil
}

// timeTasks runs random tasks of the plan for about budget on this goroutine, each for at
// most a quarter of budget, and returns the nodes visited per second. Timing the plan's
// own tasks matters: a node of a larger board scans more rows and costs more.
func timeTasks(ctx context.Context, plan *queens.Plan, rng *rand.Rand, budget time.Duration) (float64, error) {
	slice := budget / 4
	var nodes uint64
	start := time.Now()
	for time.Since(start) < budget {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		tctx, cancel := context.WithTimeout(ctx, slice)
		r, err := plan.Tasks[rng.IntN(len(plan.Tasks))].CountContext(tctx)
		cancel()
		if err != nil && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		nodes += r.Nodes
	}
	return float64(nodes) / time.Since(start).Seconds(), nil
}

// humanDuration writes seconds in the largest unit that keeps the number at least 1.
func humanDuration(secs float64) string {
	units := []struct {
		name string
		size float64
	}{{"years", 365.25 * 86400}, {"days", 86400}, {"hours", 3600}, {"minutes", 60}}
	for _, u := range units {
		if secs >= 2*u.size {
			return fmt.Sprintf("%.3g %s", secs/u.size, u.name)
		}
	}
	if math.IsInf(secs, 0) || math.IsNaN(secs) {
		return "unknown"
	}
	return fmt.Sprintf("%.3g s", secs)
}
