package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/spf13/cobra"
)

func newQueensPlanCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "plan N",
		Short: "Show how a count of the N×N board is cut into tasks, and their costs",
		Long: `Show the plan of "chesspuzzles queens count N" without running it: the method and
plan version the count takes with the same flags, the number of tasks, their estimated total
cost and time, the largest task and the percentiles (50, 90, 99, max) of task cost, the
ratio of the largest to the mean (1 is perfect balance), and the memory.

Cost is each task's cheap estimate (Task.Cost), in the units of its method; the time on one
core comes from the cost model measured by bench/cost.sh on the development machines (whole
plans of both methods timed by samples of their tasks; the join's on a processor of this
one's class, AVX-512 or AVX2, whose kernels differ), shared among the tasks by cost.

--method auto (default) takes the method "queens count N" takes: whichever the cost model
says is faster at N within --max-memory (the same choice in "queens estimate" and "queens
count"). Frames: plan version 1 (one task per class of border frames) below N = 25, version
2 from 25 on (big frames split until no task is estimated above about one core-hour); the
join: version 102 (row sets grouped by modelled cost, none above about a core-hour).`,
		Example: `  chesspuzzles queens plan 20
  chesspuzzles queens plan 24 --method frames --plan-version 2
  chesspuzzles queens plan 16 --method join --json`,
		Args: exactArgs(1, "one argument, N"),
	}, func(cmd *cobra.Command, opts *planOptions) {
		cmd.Flags().IntVar(&opts.workers, "workers", runtime.GOMAXPROCS(0), "workers the count would run on (for its memory)")
		cmd.Flags().BoolVar(&opts.json, "json", false, "one JSON object")
		addMethodFlags(cmd, &opts.method)
	}, func(cmd *cobra.Command, opts *planOptions, args []string) error {
		var err error
		if opts.n, err = parseN(args[0], queens.MaxCountN); err != nil {
			return err
		}
		if opts.workers < 1 {
			return usageErrorf("--workers must be a whole number from 1 up, got %d", opts.workers)
		}
		if err := opts.method.validate(); err != nil {
			return err
		}
		c, err := opts.method.plan(opts.n, opts.workers)
		if err != nil {
			return err
		}
		return runPlan(cmd.Context(), *opts, c, cmd.OutOrStdout())
	})
}

// planOptions are the options of "queens plan".
type planOptions struct {
	n       int
	method  methodOptions
	workers int
	json    bool
}

// planRecord is the summary of a plan: the --json output.
type planRecord struct {
	N           int     `json:"n"`
	Method      string  `json:"method"`
	PlanVersion int     `json:"plan_version"`
	Tasks       int     `json:"tasks"`
	TotalCost   uint64  `json:"total_cost"`
	MeanCost    float64 `json:"mean_cost"`
	P50         uint64  `json:"p50_cost"`
	P90         uint64  `json:"p90_cost"`
	P99         uint64  `json:"p99_cost"`
	MaxCost     uint64  `json:"max_cost"`
	MaxTask     int     `json:"max_task"`
	MaxOverMean float64 `json:"max_over_mean"`
	// Seconds estimates the time of the whole plan and of its largest task on one core
	// (Plan.CoreSeconds, shared by Cost).
	Seconds    float64 `json:"core_seconds,omitempty"`
	MaxSeconds float64 `json:"max_task_core_seconds,omitempty"`
	// Memory is what the count needs on Workers within the memory limit (Plan.Memory).
	Workers int    `json:"workers"`
	Memory  uint64 `json:"memory_bytes"`
}

// summarizePlan returns the cost distribution of p. Percentiles are of tasks by count: the
// cost below which that share of the tasks lie (nearest rank).
func summarizePlan(p count.Plan) planRecord {
	rec := planRecord{N: p.N(), Method: p.Method(), PlanVersion: p.Version(), Tasks: p.Len(), MaxTask: -1}
	if p.Len() == 0 {
		return rec
	}
	costs := make([]uint64, p.Len())
	for id := range costs {
		c := p.Cost(id)
		costs[id] = c
		rec.TotalCost += c
		if c > rec.MaxCost || rec.MaxTask < 0 {
			rec.MaxCost, rec.MaxTask = c, id
		}
	}
	slices.Sort(costs)
	rank := func(q int) uint64 { return costs[(len(costs)*q+99)/100-1] }
	rec.P50, rec.P90, rec.P99 = rank(50), rank(90), rank(99)
	rec.MeanCost = float64(rec.TotalCost) / float64(len(costs))
	rec.MaxOverMean = float64(rec.MaxCost) / rec.MeanCost
	rec.Seconds = p.CoreSeconds()
	rec.MaxSeconds = rec.Seconds * float64(rec.MaxCost) / float64(max(rec.TotalCost, 1))
	return rec
}

func runPlan(ctx context.Context, opts planOptions, c queens.Choice, stdout io.Writer) error {
	p := c.Plan
	if err := p.Build(ctx); err != nil {
		return err
	}
	rec := summarizePlan(p)
	rec.Workers = opts.workers
	rec.Memory = c.Memory
	if opts.json {
		return json.NewEncoder(stdout).Encode(rec)
	}
	fmt.Fprintf(stdout, "N=%d: method %s, plan version %d: %d tasks\n", rec.N, rec.Method, rec.PlanVersion, rec.Tasks)
	if rec.Tasks == 0 {
		return nil
	}
	fmt.Fprintf(stdout, "total cost %d, mean %.0f", rec.TotalCost, rec.MeanCost)
	if rec.Seconds > 0 {
		fmt.Fprintf(stdout, " (estimated %s on one core)", coreTime(rec.Seconds))
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "largest task %d: cost %d, %.1f× the mean", rec.MaxTask, rec.MaxCost, rec.MaxOverMean)
	if rec.MaxSeconds > 0 {
		fmt.Fprintf(stdout, " (estimated %s on one core)", coreTime(rec.MaxSeconds))
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "task cost percentiles: p50 %d, p90 %d, p99 %d, max %d\n", rec.P50, rec.P90, rec.P99, rec.MaxCost)
	fmt.Fprintf(stdout, "memory about %s on %s\n", humanBytes(rec.Memory), plural(uint64(opts.workers), "worker", "workers"))
	if line := replicasLine(rec.N); line != "" {
		fmt.Fprintln(stdout, line)
	}
	return nil
}

// coreTime writes an estimated time in the largest fitting unit.
func coreTime(s float64) string {
	switch {
	case s < 1:
		return fmt.Sprintf("%.2g s", s)
	case s < 3600*48:
		return time.Duration(s * float64(time.Second)).Round(time.Second).String()
	case s < 3600*24*3650:
		return fmt.Sprintf("%.1f core-days", s/86400)
	}
	return fmt.Sprintf("%.3g core-years", s/(86400*365.25))
}
