package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

type planOptions struct {
	n       int
	method  string
	version int
	json    bool
}

func newQueensPlanCmd() *cobra.Command {
	var opts planOptions
	cmd := &cobra.Command{
		Use:   "plan N",
		Short: "Show how a count of the N×N board is cut into tasks, and their costs",
		Long: `Show the plan of "chesspuzzles queens count N" without running it: the number of
tasks, their estimated total cost, the largest task and the percentiles (50, 90, 99, max)
of task cost, and the ratio of the largest to the mean (1 is perfect balance).

Cost is each task's cheap estimate (Task.Cost), in the units of its method: for frames,
plan versions 1 and 2 share one unit, and the time on one core is estimated from a
measured model (2.1 nodes per solution, 27 ns a node on the development machine); the
join's cost has no time model here.

--method frames (default) builds the plan "queens count N" uses: version 1 (one task per
class of border frames) below N = 25, version 2 from 25 on (the fine plan: big frames split
until no task is estimated above about one core-hour; below 25 it has v1's tasks); say
--plan-version 1 or 2 for either. --method join builds the join's plan (version 101).`,
		Example: `  chesspuzzles queens plan 20
  chesspuzzles queens plan 24 --plan-version 2
  chesspuzzles queens plan 16 --method join --json`,
		Args: exactArgs(1, "one argument, N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if opts.n, err = parseN(args[0], queens.MaxCountN); err != nil {
				return err
			}
			switch opts.method {
			case queens.MethodFrames:
				if opts.version == 0 {
					opts.version = queens.FramesPlanVersion(opts.n)
				}
				if opts.version != queens.PlanVersion && opts.version != queens.FinePlanVersion {
					return usageErrorf("--plan-version of the frames method must be %d or %d, got %d", queens.PlanVersion, queens.FinePlanVersion, opts.version)
				}
			case queens.MethodJoin:
				if opts.version == 0 {
					opts.version = queens.JoinPlanVersion
				}
				if opts.version != queens.JoinPlanVersion {
					return usageErrorf("--plan-version of the join method must be %d, got %d", queens.JoinPlanVersion, opts.version)
				}
				if opts.n < queens.MinJoinN || opts.n > queens.MaxJoinN {
					return usageErrorf("N for the join method must be a whole number from %d to %d, got %d", queens.MinJoinN, queens.MaxJoinN, opts.n)
				}
			default:
				return usageErrorf("--method must be frames or join, got %q", opts.method)
			}
			return runPlan(opts, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&opts.method, "method", queens.MethodFrames, "counting method: frames or join")
	cmd.Flags().IntVar(&opts.version, "plan-version", 0, "plan version (frames: 1 or 2; join: 101; default: the one a count of N uses)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "one JSON object")
	return cmd
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
	// Seconds estimates, for frames, the time of the whole plan and of its largest task
	// on one core; 0 for the join.
	Seconds    float64 `json:"core_seconds,omitempty"`
	MaxSeconds float64 `json:"max_task_core_seconds,omitempty"`
}

// summarizePlan returns the cost distribution of p. Percentiles are of tasks by count: the
// cost below which that share of the tasks lie (nearest rank).
func summarizePlan(p *queens.Plan) planRecord {
	rec := planRecord{N: p.N, Method: p.Method, PlanVersion: p.Version, Tasks: p.Len(), MaxTask: -1}
	if p.Len() == 0 {
		return rec
	}
	costs := make([]uint64, p.Len())
	for t := range p.All() {
		costs[t.ID] = t.Cost
		rec.TotalCost += t.Cost
		if t.Cost > rec.MaxCost || rec.MaxTask < 0 {
			rec.MaxCost, rec.MaxTask = t.Cost, t.ID
		}
	}
	slices.Sort(costs)
	rank := func(q int) uint64 { return costs[(len(costs)*q+99)/100-1] }
	rec.P50, rec.P90, rec.P99 = rank(50), rank(90), rank(99)
	rec.MeanCost = float64(rec.TotalCost) / float64(len(costs))
	rec.MaxOverMean = float64(rec.MaxCost) / rec.MeanCost
	if p.Method == queens.MethodFrames {
		s := queens.FrameSecondsPerCost(p.N)
		rec.Seconds, rec.MaxSeconds = s*float64(rec.TotalCost), s*float64(rec.MaxCost)
	}
	return rec
}

func runPlan(opts planOptions, stdout io.Writer) error {
	p, err := queens.NewCompactPlan(opts.n, opts.version)
	if err != nil {
		return usageError(err)
	}
	rec := summarizePlan(p)
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
