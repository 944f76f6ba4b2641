package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
//
// Checksum is "sha256:" and the hex SHA-256 of the record's canonical encoding: the JSON
// that encoding/json writes for it with Checksum empty (fields in the order below, no
// spaces). It finds a file changed after it was written (an edited count, a cut copy); it
// is no signature, since anyone can compute it again, which is why merge also checks each
// task's result against its task and recomputes a share of them (--verify).
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
	Checksum    string              `json:"checksum"`
}

// shardChecksum returns the checksum s should carry (see shardResult).
func shardChecksum(s shardResult) string {
	s.Checksum = ""
	data, err := json.Marshal(s)
	if err != nil {
		panic(err) // a struct of numbers and strings always encodes
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// shardTotals returns the weighted sums of results, whose tasks are in plan, as a
// shardResult's Solutions, HalfTurn, QuarterTurn and Nodes; ok is false if a result's id is
// not in the plan.
func shardTotals(plan *queens.Plan, results []queens.TaskResult) (solutions, half, quarter string, nodes uint64, ok bool) {
	var total, h, q big.Int
	for _, r := range results {
		t, err := plan.Task(r.ID)
		if err != nil {
			return "", "", "", 0, false
		}
		w := big.NewInt(int64(t.Weight))
		var x big.Int
		total.Add(&total, x.Mul(w, x.SetUint64(r.Solutions)))
		h.Add(&h, x.Mul(w, x.SetUint64(r.HalfTurn)))
		q.Add(&q, x.Mul(w, x.SetUint64(r.QuarterTurn)))
		nodes += r.Nodes
	}
	return total.String(), h.String(), q.String(), nodes, true
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
func runShard(ctx context.Context, n int, method string, version, i, k, workers int, stdout io.Writer) error {
	plan, err := newPlan(ctx, n, method, version)
	if err != nil {
		return err
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
	out.Solutions, out.HalfTurn, out.QuarterTurn, out.Nodes, _ = shardTotals(plan, results)
	out.Checksum = shardChecksum(out)
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", data)
	return err
}

// runTasks counts tasks on workers goroutines (runtime.GOMAXPROCS(0) if 0), costliest first, and
// returns their results in the order of tasks.
func runTasks(ctx context.Context, tasks []queens.Task, workers int) ([]queens.TaskResult, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
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
