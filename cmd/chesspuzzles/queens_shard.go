package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/shard"
)

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
	m := newCountMeter(stderr, fmt.Sprintf("N=%d slice %d/%d", n, i, k), quiet)
	out, err := shard.Compute(ctx, plan, i, k, work.Options{Workers: workers, Progress: m.update})
	m.Finish()
	if errors.Is(err, shard.ErrInput) {
		return usageError(err)
	}
	if err != nil {
		return err
	}
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", data)
	return err
}
