package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// JobStatus is a job's progress as its coordinator last recorded it.
type JobStatus struct {
	JobRecord
	// Rate is tasks finished per second over the last RateWindow (at most ten minutes of
	// the coordinator's current run), 0 if unknown.
	Rate       float64
	RateWindow time.Duration
	// Left is the estimated time to finish, 0 if unknown or done: the plan's Cost still to
	// do at the Cost per second of the window (tasks are handed out costliest first, so
	// tasks per second alone would promise too much early on), else the tasks left at
	// Rate.
	Left time.Duration
	// Checked says the record was read with the coordinator's secret and its seal is the
	// coordinator's: its total is what that coordinator counted and verified. Unchecked
	// records (no secret to check them with) may say anything; Bad gives why a record's
	// seal is wrong, and such a record holds nothing but its job id.
	Checked bool
	Bad     string
}

// Status reads every job on the server from the jobs bucket: what its coordinator recorded
// last (see JobRecord), at most a second old while the coordinator runs. With s, the
// sealer of the coordinator's secret, it checks each record's seal (JobStatus.Checked,
// Bad); with s nil it cannot. It reads one small record per job, never the results or
// the plan, so it takes a moment whatever the plan's size.
func Status(ctx context.Context, nc *nats.Conn, s *Sealer, now time.Time) ([]JobStatus, error) {
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
		var js JobStatus
		checked, err := openValue(s, k, e.Value(), &js.JobRecord)
		if err != nil {
			js = JobStatus{JobRecord: JobRecord{Job: k}, Bad: err.Error()}
			if n, _, err := ParseJobID(k); err == nil {
				js.N = n
			}
			out = append(out, js)
			continue
		}
		js.Checked = checked
		js.rate(now)
		out = append(out, js)
	}
	return out, nil
}

// rate sets Rate, RateWindow and Left from the record's progress and samples: from the
// oldest sample within ten minutes of the last update to the last update; none if that
// update is more than ten minutes before now (its coordinator is not running).
func (s *JobStatus) rate(now time.Time) {
	if s.Updated.IsZero() || s.Done >= s.Tasks || !s.Finished.IsZero() || now.Sub(s.Updated) > sampleSpan {
		return
	}
	var first *Sample
	for i := range s.Samples {
		if s.Updated.Sub(s.Samples[i].At) <= sampleSpan {
			first = &s.Samples[i]
			break
		}
	}
	if first == nil || !s.Updated.After(first.At) {
		return
	}
	s.RateWindow = s.Updated.Sub(first.At)
	secs := s.RateWindow.Seconds()
	s.Rate = float64(s.Done-first.Done) / secs
	switch cost := float64(s.CostDone-first.CostDone) / secs; {
	case cost > 0 && s.CostTotal > s.CostDone:
		s.Left = time.Duration(float64(s.CostTotal-s.CostDone) / cost * float64(time.Second))
	case s.Rate > 0:
		s.Left = time.Duration(float64(s.Tasks-s.Done) / s.Rate * float64(time.Second))
	}
}
