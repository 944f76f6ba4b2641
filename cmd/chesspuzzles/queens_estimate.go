package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/cputime"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/join"
	"github.com/spf13/cobra"
)

// maxEstimateWorkers bounds queens estimate's --workers: a million cores is more than
// any cluster a count would run on, and the join's memory per worker multiplied by more
// stops meaning anything (issue 25: 99,999,999,999 workers gave 1.16e+08 GiB).
const maxEstimateWorkers = 1 << 20

func newQueensEstimateCmd() *cobra.Command {
	return command(&cobra.Command{
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
the cost model measured by bench/cost.sh). The samples are timed by the CPU time of the
thread that runs them (Linux; elsewhere the wall clock), so other load on the machine
makes the estimate take longer, not come out larger: the time is the count's CPU time. The
time on W workers assumes they all run at the measured speed: close on an idle machine
with W real cores. The ± covers the sampling.`,
		Example: `  chesspuzzles queens estimate 20
  chesspuzzles queens estimate 27 --probes 2000000 --json`,
		Args: exactArgs(1, "one argument, N"),
	}, func(cmd *cobra.Command, opts *estimateOptions) {
		addMethodFlags(cmd, &opts.method)
		cmd.Flags().IntVar(&opts.probes, "probes", 300000, "random paths to sample (more: slower, tighter)")
		cmd.Flags().Uint64Var(&opts.seed, "seed", 1, "random seed; the same seed gives the same estimate")
		cmd.Flags().IntVar(&opts.workers, "workers", runtime.GOMAXPROCS(0), "workers to estimate the time for")
		modelledWorkers(cmd, "workers")
		cmd.Flags().BoolVar(&opts.json, "json", false, "one JSON object")
	}, func(cmd *cobra.Command, opts *estimateOptions, args []string) error {
		n, err := parseN(args[0], queens.MaxCountN)
		if err != nil {
			return err
		}
		opts.n = n
		if opts.probes < 100 {
			return usageErrorf("--probes must be a whole number from 100 up, got %d", opts.probes)
		}
		if opts.workers < 1 || opts.workers > maxEstimateWorkers {
			return usageErrorf("--workers must be a whole number from 1 to %d, the workers of the machines estimated for (default: %d, the cores this process may use), got %d", maxEstimateWorkers, runtime.GOMAXPROCS(0), opts.workers)
		}
		if err := opts.method.validate(); err != nil {
			return err
		}
		return runEstimate(cmd.Context(), *opts, cmd.OutOrStdout())
	})
}

// estimateOptions are the options of "queens estimate".
type estimateOptions struct {
	n       int
	probes  int
	seed    uint64
	workers int
	json    bool
	method  methodOptions // --method, --max-memory, --plan-version: as for "queens count"
}

// estimateRecord is the --json output.
type estimateRecord struct {
	N           int    `json:"n"`
	Method      string `json:"method"`
	PlanVersion int    `json:"plan_version"`
	Tasks       int    `json:"tasks"` // the count's plan's tasks; 0 if not built (fine plans past N = 26)
	// TasksSampled is the number of tasks estimated by sampling where Tasks is 0.
	TasksSampled float64 `json:"tasks_sampled,omitempty"`
	Probes       int     `json:"probes"`
	// Frames only: Knuth's estimates.
	Nodes        float64 `json:"nodes,omitempty"`
	NodesErr     float64 `json:"nodes_err,omitempty"`
	Solutions    float64 `json:"solutions,omitempty"`
	SolutionsErr float64 `json:"solutions_err,omitempty"`
	// The time by the method taken, on one worker and on Workers, and its relative ± (0
	// when it comes from the model alone).
	Seconds1   float64 `json:"seconds_1_worker"`
	Workers    int     `json:"workers"`
	SecondsW   float64 `json:"seconds_workers"`
	SecondsErr float64 `json:"seconds_err_fraction"`
	Timed      bool    `json:"timed"`
	// TimedProbes is the number of timed parts of tasks.
	TimedProbes int `json:"timed_probes,omitempty"`
	// The cost model of both methods (Plan.CoreSeconds) that chose the method; 0 where a
	// method does not count N.
	ModelFrames float64 `json:"model_frames_core_seconds"`
	ModelJoin   float64 `json:"model_join_core_seconds,omitempty"`
	// ModelClass is the class of processor whose figures the join's model read (this
	// one's: "AVX-512" or "AVX2"), ModelJoinByClass the join's model on each class.
	ModelClass       string             `json:"model_class,omitempty"`
	ModelJoinByClass map[string]float64 `json:"model_join_core_seconds_by_class,omitempty"`
	Memory           uint64             `json:"memory_bytes"`
}

func runEstimate(ctx context.Context, opts estimateOptions, stdout io.Writer) error {
	c, err := opts.method.plan(opts.n, opts.workers)
	if err != nil {
		return err
	}
	plan := c.Plan
	method, v := plan.Method(), plan.Version()
	rec := estimateRecord{N: opts.n, Method: method, PlanVersion: v, Probes: opts.probes, Workers: opts.workers,
		Memory: c.Memory, ModelFrames: c.FramesSeconds, ModelJoin: c.JoinSeconds}
	if rec.ModelJoin > 0 {
		rec.ModelClass, rec.ModelJoinByClass = join.ModelClass(), map[string]float64{}
		for _, class := range join.ModelClasses() {
			if secs, ok := join.ClassCoreSeconds(opts.n, class); ok {
				rec.ModelJoinByClass[class] = secs
			}
		}
	}
	rng := rand.New(rand.NewPCG(opts.seed, uint64(opts.n)))
	// The samples are timed by this thread's CPU time, not the wall clock: on a loaded
	// machine the wall clock counts the wait for a core (at a load of 10 it made a count of
	// 139 CPU-s look like 312 s), and the count's own figures are CPU time too.
	var e count.Estimate
	_, err = cputime.Run(func(clock func() float64) error {
		var err error
		e, err = plan.Estimate(ctx, count.EstimateOptions{Rand: rng, Budget: time.Second, MinProbes: 20, Probes: opts.probes, Clock: clock})
		return err
	})
	if err != nil {
		return err
	}
	if e.TasksExact {
		rec.Tasks = int(e.Tasks)
	} else {
		rec.TasksSampled = e.Tasks
	}
	rec.Nodes, rec.NodesErr, rec.Solutions, rec.SolutionsErr = e.Nodes, 2*e.NodesErr, e.Solutions, 2*e.SolutionsErr
	rec.Seconds1, rec.SecondsErr, rec.Timed, rec.TimedProbes = e.Seconds, e.SecondsErr, e.Probes > 0, e.Probes
	rec.SecondsW = rec.Seconds1 / float64(opts.workers)
	if opts.json {
		return json.NewEncoder(stdout).Encode(rec)
	}
	tasks := fmt.Sprintf("%d tasks", rec.Tasks)
	if rec.Tasks == 0 {
		tasks = fmt.Sprintf("about %.3g tasks (sampled; \"queens plan %d\" counts them: minutes)", rec.TasksSampled, opts.n)
	}
	fmt.Fprintf(stdout, "N=%d: method %s, plan version %d: %s, as \"queens count %d\" runs it\n", opts.n, method, v, tasks, opts.n)
	rel := func(v, se float64) float64 {
		if v == 0 {
			return 0
		}
		return 2 * se / v
	}
	if e.Nodes > 0 {
		fmt.Fprintf(stdout, "sampled:    %d random probes of its frames (± is two standard errors)\n", opts.probes)
		fmt.Fprintf(stdout, "nodes:      %.3g ± %.1f%%\n", e.Nodes, 100*rel(e.Nodes, e.NodesErr))
		fmt.Fprintf(stdout, "solutions:  %.3g ± %.1f%%\n", e.Solutions, 100*rel(e.Solutions, e.SolutionsErr))
	}
	if rec.Timed {
		fmt.Fprintf(stdout, "time:       %s on 1 worker, %s on %d (± %.0f%%, timed on %d sampled parts of its tasks)\n", humanDuration(rec.Seconds1), humanDuration(rec.SecondsW), opts.workers, 100*rec.SecondsErr, rec.TimedProbes)
	} else {
		model := "the cost model"
		if rec.SecondsErr > 0 {
			model = fmt.Sprintf("the cost model, ± %.0f%% at two standard errors of its sampled row sets", 100*rec.SecondsErr)
		}
		fmt.Fprintf(stdout, "time:       %s on 1 worker, %s on %d (%s: a part of a task of N=%d takes too long to time here)\n", humanDuration(rec.Seconds1), humanDuration(rec.SecondsW), opts.workers, model, opts.n)
	}
	fmt.Fprintf(stdout, "memory:     about %s on %s\n", humanBytes(rec.Memory), plural(uint64(opts.workers), "worker", "workers"))
	joinTime := "does not count N=" + strconv.Itoa(opts.n)
	if rec.ModelJoin > 0 {
		joinTime = humanDuration(rec.ModelJoin) + " on this processor's class, " + rec.ModelClass
		for _, class := range join.ModelClasses() {
			if class != rec.ModelClass {
				joinTime += fmt.Sprintf(" (%s on %s)", humanDuration(rec.ModelJoinByClass[class]), class)
			}
		}
	}
	fmt.Fprintf(stdout, "model:      one core: frames %s, join %s; bench/cost.sh measured both; --method auto takes the faster one that fits --max-memory\n",
		humanDuration(rec.ModelFrames), joinTime)
	if line := replicasLine(opts.n); line != "" {
		fmt.Fprintln(stdout, line)
	}
	return nil
}
