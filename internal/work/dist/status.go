package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// JobStatus is a job's progress as the server knows it.
type JobStatus struct {
	JobRecord
	// Done is the number of tasks with a valid result.
	Done int
	// Rate is tasks finished per second over the last RateWindow (at most ten minutes,
	// since the first result), 0 if none.
	Rate       float64
	RateWindow time.Duration
	// Left is the estimated time to finish, 0 if unknown or done: the plan's Cost still to
	// do at the Cost per second of the window when this build has the job's plan version
	// (tasks are handed out costliest first, so tasks per second alone would promise too
	// much early on), else the tasks left at Rate.
	Left time.Duration
}

// Status reads every job on the server with its results. It reads each result once, so it
// takes a moment per ten thousand results.
func Status(ctx context.Context, nc *nats.Conn, now time.Time) ([]JobStatus, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	jobs, err := js.KeyValue(ctx, JobsBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", JobsBucket, err)
	}
	results, err := js.KeyValue(ctx, ResultsBucket)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", ResultsBucket, err)
	}
	keys, err := jobs.Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing jobs: %w", err)
	}
	slices.Sort(keys)
	var out []JobStatus
	for _, k := range keys {
		e, err := jobs.Get(ctx, k)
		if err != nil {
			return nil, fmt.Errorf("reading job %s: %w", k, err)
		}
		var s JobStatus
		if err := json.Unmarshal(e.Value(), &s.JobRecord); err != nil {
			return nil, fmt.Errorf("reading job %s: %w", k, err)
		}
		var plan *queens.Plan
		plan, _ = queens.NewCompactPlan(s.N, s.PlanVersion)
		var times []time.Time
		var ids []int
		w, err := results.WatchFiltered(ctx, []string{k + ".>"}, jetstream.IgnoreDeletes())
		if err != nil {
			return nil, fmt.Errorf("reading results of %s: %w", k, err)
		}
	read:
		for {
			select {
			case <-ctx.Done():
				_ = w.Stop()
				return nil, ctx.Err()
			case e := <-w.Updates():
				if e == nil {
					break read
				}
				_, id, r, err := decodeResult(e.Key(), e.Value())
				if err == nil {
					err = r.check(s.N, s.PlanVersion, id)
				}
				if err == nil && plan != nil {
					err = plan.CheckResult(r.TaskResult)
				}
				if err == nil {
					times = append(times, e.Created())
					ids = append(ids, id)
				}
			}
		}
		_ = w.Stop()
		s.Done = len(times)
		if len(times) > 0 {
			first := slices.MinFunc(times, time.Time.Compare)
			s.RateWindow = min(10*time.Minute, now.Sub(first))
			recent := 0
			var recentCost, doneCost, totalCost float64
			if plan != nil {
				for t := range plan.All() {
					totalCost += float64(t.Cost)
				}
			}
			for i, t := range times {
				var c float64
				if plan != nil {
					if t, err := plan.Task(ids[i]); err == nil {
						c = float64(t.Cost)
					}
				}
				doneCost += c
				if now.Sub(t) <= s.RateWindow {
					recent++
					recentCost += c
				}
			}
			if s.RateWindow > 0 {
				s.Rate = float64(recent) / s.RateWindow.Seconds()
			}
			switch {
			case s.Done >= s.Tasks:
			case plan != nil && recentCost > 0:
				s.Left = time.Duration((totalCost - doneCost) / recentCost * s.RateWindow.Seconds() * float64(time.Second))
			case s.Rate > 0:
				s.Left = time.Duration(float64(s.Tasks-s.Done) / s.Rate * float64(time.Second))
			}
		}
		out = append(out, s)
	}
	return out, nil
}
