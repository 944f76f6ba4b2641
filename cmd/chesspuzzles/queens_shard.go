package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// shardResult is what "queens count N --shard I/K" prints: one slice of a count plan with
// the result of each of its tasks, so that "queens merge" can check that every task of the
// plan is there exactly once. Sums are weighted by each task's symmetry class; counts are
// decimal strings because Q(N) outgrows 64 bits from N = 29 on.
type shardResult struct {
	N           int                 `json:"n"`
	Method      string              `json:"method,omitempty"` // "" for frames, as before methods
	PlanVersion int                 `json:"plan_version"`
	Shard       int                 `json:"shard"`
	Shards      int                 `json:"shards"`
	Tasks       int                 `json:"tasks"`
	Solutions   string              `json:"solutions"`
	HalfTurn    string              `json:"half_turn"`
	QuarterTurn string              `json:"quarter_turn"`
	Nodes       uint64              `json:"nodes"`
	Seconds     float64             `json:"seconds"` // the slice's wall time
	Results     []queens.TaskResult `json:"results"`
}

// shardMethod is the method as a shard file names it: empty for frames, so that files
// of the frames method read as they did before there were two methods.
func shardMethod(m string) string {
	if m == queens.MethodFrames {
		return ""
	}
	return m
}

// parseShard reads "I/K" with 0 ≤ I < K (I is 0-based, as a Kubernetes Indexed Job's
// JOB_COMPLETION_INDEX or a Slurm array started at 0).
func parseShard(s string) (i, k int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		i, err1 := strconv.Atoi(a)
		k, err2 := strconv.Atoi(b)
		if err1 == nil && err2 == nil && k >= 1 && i >= 0 && i < k {
			return i, k, nil
		}
	}
	return 0, 0, fmt.Errorf("--shard must be I/K with whole numbers 0 ≤ I < K, got %q", s)
}

// runShard computes the i-th of k slices of the plan for n on workers goroutines (all
// cores if 0) and writes one JSON line to stdout.
func runShard(ctx context.Context, n int, method string, i, k, workers int, stdout io.Writer) error {
	plan, err := newMethodPlan(n, method)
	if err != nil {
		return usageError(err)
	}
	tasks, err := plan.Shard(i, k)
	if err != nil {
		return usageError(err)
	}
	start := time.Now()
	results, err := runTasks(ctx, tasks, workers)
	if err != nil {
		return err
	}
	out := shardResult{N: n, Method: shardMethod(method), PlanVersion: plan.Version, Shard: i, Shards: k, Tasks: len(tasks), Results: results,
		Seconds: roundSeconds(time.Since(start).Seconds())}
	var total, half, quarter big.Int
	for j, r := range results {
		w := big.NewInt(int64(tasks[j].Weight))
		var x big.Int
		total.Add(&total, x.Mul(w, x.SetUint64(r.Solutions)))
		half.Add(&half, x.Mul(w, x.SetUint64(r.HalfTurn)))
		quarter.Add(&quarter, x.Mul(w, x.SetUint64(r.QuarterTurn)))
		out.Nodes += r.Nodes
	}
	out.Solutions, out.HalfTurn, out.QuarterTurn = total.String(), half.String(), quarter.String()
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", data)
	return err
}

// runTasks counts tasks on workers goroutines (all cores if 0), costliest first, and
// returns their results in the order of tasks.
func runTasks(ctx context.Context, tasks []queens.Task, workers int) ([]queens.TaskResult, error) {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	results := make([]queens.TaskResult, len(tasks))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range next {
				r, err := tasks[j].CountContext(ctx)
				if err != nil {
					return
				}
				results[j] = r
			}
		})
	}
	for j := range tasks {
		select {
		case next <- j:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}
