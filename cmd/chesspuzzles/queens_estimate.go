package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
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
	method  methodOptions // --max-memory: whether the join's table may be built to time it
}

func newQueensEstimateCmd() *cobra.Command {
	var opts estimateOptions
	cmd := &cobra.Command{
		Use:   "estimate N",
		Short: "Estimate how long counting the N×N board would take, and its count",
		Long: `Estimate the work of "chesspuzzles queens count N" before starting it: the nodes its
search visits, the number of solutions, and the time on this machine, each with its
uncertainty (± two standard errors: about 95% of the time the truth lies within).

It samples the count plan with Knuth's estimator: random paths down the search trees of
random tasks, each path's branching factors giving an unbiased estimate of the tree's size.
The speed of this machine is measured by running random tasks of the same count for about a
second. The time on W workers assumes they all run at the measured speed: close on an idle
machine with W real cores. The ± covers the sampling, not the machine's other load.`,
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
			opts.method.method = "auto"
			if err := opts.method.validate(); err != nil {
				return err
			}
			return runEstimate(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	cmd.Flags().IntVar(&opts.probes, "probes", 300000, "random paths to sample (more: slower, tighter)")
	cmd.Flags().Uint64Var(&opts.seed, "seed", 1, "random seed; the same seed gives the same estimate")
	cmd.Flags().IntVar(&opts.workers, "workers", runtime.GOMAXPROCS(0), "workers to estimate the time for")
	cmd.Flags().BoolVar(&opts.json, "json", false, "one JSON object")
	cmd.Flags().StringVar(&opts.method.maxMemory, "max-memory", "", "memory the join may use, e.g. 512MiB or 8GB (default: half the machine's memory)")
	return cmd
}

// estimateRecord is the --json output.
type estimateRecord struct {
	N              int     `json:"n"`
	Tasks          int     `json:"tasks"`
	Probes         int     `json:"probes"`
	Nodes          float64 `json:"nodes"`
	NodesErr       float64 `json:"nodes_err"`
	Solutions      float64 `json:"solutions"`
	SolutionsErr   float64 `json:"solutions_err"`
	NodesPerSecond float64 `json:"nodes_per_second"`
	Seconds1       float64 `json:"seconds_1_worker"`
	Workers        int     `json:"workers"`
	SecondsW       float64 `json:"seconds_workers"`
	SecondsErr     float64 `json:"seconds_err_fraction"`
	// The join method (absent where it does not apply): memory, and time if it fits.
	JoinMemory   uint64  `json:"join_memory_bytes,omitempty"`
	JoinTable    uint64  `json:"join_table_bytes,omitempty"`
	JoinFits     bool    `json:"join_fits,omitempty"`
	JoinSeconds1 float64 `json:"join_seconds_1_worker,omitempty"`
	JoinSecondsW float64 `json:"join_seconds_workers,omitempty"`
	// JoinSecondsErr is two standard errors of the sampled row sets, relative to JoinSeconds1.
	JoinSecondsErr float64 `json:"join_seconds_err_fraction,omitempty"`
}

// maxTimedJoinTable is the largest quarter table the estimate builds to time the join: the
// table of N = 22–23 (0.56 GiB) builds in about 1.5 s, that of N = 24–25 (5 GiB) in half a
// minute, longer than an estimate should take.
const maxTimedJoinTable = 1 << 30

func runEstimate(ctx context.Context, opts estimateOptions, stdout io.Writer) error {
	plan, err := newPlan(ctx, opts.n, queens.MethodFrames, queens.PlanVersion)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(opts.seed, uint64(opts.n)))
	e, err := queens.EstimatePlanContext(ctx, plan, opts.probes, rng)
	if err != nil {
		return err
	}
	speed, err := timeTasks(ctx, plan, rng, time.Second)
	if err != nil {
		return err
	}
	rel := func(v, se float64) float64 {
		if v == 0 {
			return 0
		}
		return 2 * se / v
	}
	secs := e.Nodes / speed
	rec := estimateRecord{
		N: opts.n, Tasks: len(plan.Tasks), Probes: opts.probes,
		Nodes: e.Nodes, NodesErr: 2 * e.NodesErr, Solutions: e.Solutions, SolutionsErr: 2 * e.SolutionsErr,
		NodesPerSecond: speed, Seconds1: secs, Workers: opts.workers, SecondsW: secs / float64(opts.workers),
		SecondsErr: rel(e.Nodes, e.NodesErr),
	}
	if opts.n >= queens.MinJoinN && opts.n <= queens.MaxJoinN {
		limit, _ := opts.method.memoryLimit()
		rec.JoinMemory, rec.JoinTable = joinBytes(opts.n, opts.workers)
		rec.JoinFits = rec.JoinMemory <= limit
		if rec.JoinFits && rec.JoinTable <= maxTimedJoinTable {
			secs, errFrac, err := measureJoin(ctx, opts.n, rng, time.Second, 20, true)
			if err != nil {
				return err
			}
			rec.JoinSeconds1, rec.JoinSecondsW, rec.JoinSecondsErr = secs, secs/float64(opts.workers), errFrac
		}
	}
	if opts.json {
		line, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", line)
		return err
	}
	fmt.Fprintf(stdout, "N=%d: a plan of %d tasks, sampled with %d random probes (± is two standard errors)\n", opts.n, len(plan.Tasks), opts.probes)
	fmt.Fprintf(stdout, "nodes:      %.3g ± %.1f%%\n", e.Nodes, 100*rel(e.Nodes, e.NodesErr))
	fmt.Fprintf(stdout, "solutions:  %.3g ± %.1f%%\n", e.Solutions, 100*rel(e.Solutions, e.SolutionsErr))
	fmt.Fprintf(stdout, "speed:      %.3g nodes/s on one core here (timed for a second on this plan's tasks)\n", speed)
	fmt.Fprintf(stdout, "time:       %s on 1 worker, %s on %d (± %.0f%%)\n", humanDuration(secs), humanDuration(rec.SecondsW), opts.workers, 100*rec.SecondsErr)
	fmt.Fprintf(stdout, "frames:     %s on 1 worker, %s on %d; memory under 1 MB a worker\n", humanDuration(secs), humanDuration(rec.SecondsW), opts.workers)
	switch {
	case rec.JoinMemory == 0:
		fmt.Fprintf(stdout, "join:       not for N=%d (it counts N from %d to %d)\n", opts.n, queens.MinJoinN, queens.MaxJoinN)
	case rec.JoinFits && rec.JoinSeconds1 == 0:
		fmt.Fprintf(stdout, "join:       memory %s (quarter table %s, within the limit); not timed: building a table past %s takes half a minute and more\n",
			humanBytes(rec.JoinMemory), humanBytes(rec.JoinTable), humanBytes(maxTimedJoinTable))
	case !rec.JoinFits:
		limit, _ := opts.method.memoryLimit()
		fmt.Fprintf(stdout, "join:       needs %s (quarter table %s), more than the memory limit %s; not timed\n", humanBytes(rec.JoinMemory), humanBytes(rec.JoinTable), humanBytes(limit))
	default:
		fmt.Fprintf(stdout, "join:       %s on 1 worker, %s on %d (± %.0f%%, timed on sampled row sets); memory %s (quarter table %s)\n",
			humanDuration(rec.JoinSeconds1), humanDuration(rec.JoinSecondsW), opts.workers, 100*rec.JoinSecondsErr, humanBytes(rec.JoinMemory), humanBytes(rec.JoinTable))
	}
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
	mean, se, err := sampleRowSets(ctx, tasks, rng, more, func(_ queens.TaskResult, d time.Duration) float64 { return d.Seconds() })
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
func sampleRowSets(ctx context.Context, tasks []queens.Task, rng *rand.Rand, more func(k int) bool, measure func(queens.TaskResult, time.Duration) float64) (mean, se float64, err error) {
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
		rs, err := t.RowSet(rng.IntN(t.Join.RowSets))
		if err != nil {
			return 0, 0, err
		}
		t0 := time.Now()
		r, err := rs.CountContext(ctx)
		if err != nil {
			return 0, 0, err
		}
		e := measure(r, time.Since(t0)) * float64(total) / float64(t.Cost) * float64(t.Join.RowSets)
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
