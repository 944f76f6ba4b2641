package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
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
	N           int            `json:"n"`
	Method      string         `json:"method,omitempty"` // "" for frames, as before methods
	PlanVersion int            `json:"plan_version"`
	Shard       int            `json:"shard"`
	Shards      int            `json:"shards"`
	Tasks       int            `json:"tasks"`
	Solutions   string         `json:"solutions"`
	HalfTurn    string         `json:"half_turn"`
	QuarterTurn string         `json:"quarter_turn"`
	Nodes       uint64         `json:"nodes"`
	Seconds     float64        `json:"seconds"` // the slice's wall time
	Results     []count.Result `json:"results"`
	Checksum    string         `json:"checksum"`
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

// shardMethod is the method as a shard file names it: empty for frames, so that files
// of the frames method read as they did before there were two methods.
func shardMethod(m string) string {
	if m == count.MethodFrames {
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
// cores if 0), showing progress on stderr unless quiet, and writes one JSON line to stdout.
func runShard(ctx context.Context, n int, method string, version, i, k, workers int, quiet bool, stdout, stderr io.Writer) error {
	plan, err := newMethodPlan(ctx, n, method, version)
	if err != nil {
		return err
	}
	tasks, err := count.Shard(plan, i, k)
	if err != nil {
		return usageError(err)
	}
	start := time.Now()
	m := newCountMeter(stderr, fmt.Sprintf("N=%d slice %d/%d", n, i, k), quiet)
	res, err := work.Run(ctx, plan, work.Options{Workers: workers, Tasks: tasks, Progress: m.update})
	m.Finish()
	if err != nil {
		return err
	}
	out := shardResult{N: n, Method: shardMethod(method), PlanVersion: plan.Version(), Shard: i, Shards: k, Tasks: len(tasks), Results: res.Results,
		Seconds: roundSeconds(time.Since(start).Seconds())}
	out.Solutions, out.HalfTurn, out.QuarterTurn, out.Nodes = res.Counts.Total.String(), res.Counts.HalfTurn.String(), res.Counts.QuarterTurn.String(), res.Nodes
	out.Checksum = shardChecksum(out)
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", data)
	return err
}
