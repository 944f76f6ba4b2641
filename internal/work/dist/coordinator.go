package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A Coordinator runs one count plan through a NATS server: it queues the tasks that have
// neither a result nor a message in the stream, and sums the results once per task id.
type Coordinator struct {
	Conn *nats.Conn
	// AckWait is the ack deadline of the workers' consumer (DefaultAckWait if zero).
	AckWait time.Duration
	// Logf, if not nil, gets one line per event worth knowing: a resumed job, a rejected
	// result.
	Logf func(format string, args ...any)
	// Progress, if not nil, is called after each new result with the tally so far.
	Progress func(t *queens.Tally)
	// Resync is how long the coordinator waits without a new result before it reads every
	// result again and queues any task that has neither a result nor a message (for
	// example after the stream was purged). It does the same at once after a
	// reconnection. Zero means 5 minutes.
	Resync time.Duration
}

// Stats says what a run found and did.
type Stats struct {
	Job string
	// Resumed is the number of tasks that had a result when the run started.
	Resumed int
	// Queued is the number of tasks the run put on the stream.
	Queued int
	// Rejected is the number of stored results rejected as not belonging to the job.
	Rejected int
}

func (c *Coordinator) logf(format string, args ...any) {
	if c.Logf != nil {
		c.Logf(format, args...)
	}
}

// Run counts plan through the server and returns the exact counts once every task has a
// result, or ctx.Err() if ctx is done first (the job stays on the server: running again
// resumes it). It takes as long as the workers need, plus a moment per thousand tasks to
// queue them.
func (c *Coordinator) Run(ctx context.Context, plan *queens.Plan) (queens.Counts, Stats, error) {
	job := JobID(plan.N, plan.Version)
	stats := Stats{Job: job}
	js, err := jetstream.New(c.Conn)
	if err != nil {
		return queens.Counts{}, stats, err
	}
	st, results, jobs, err := setup(ctx, js, c.AckWait)
	if err != nil {
		return queens.Counts{}, stats, err
	}
	rec := JobRecord{Job: job, N: plan.N, PlanVersion: plan.Version, Tasks: len(plan.Tasks), Started: time.Now().UTC()}
	if e, err := jobs.Get(ctx, job); err == nil {
		var old JobRecord
		if json.Unmarshal(e.Value(), &old) == nil && !old.Started.IsZero() {
			rec.Started = old.Started
		}
	}
	if err := putJSON(ctx, jobs, job, rec); err != nil {
		return queens.Counts{}, stats, err
	}

	tally := plan.NewTally()
	rejected := map[string]uint64{} // key → revision already reported
	add := func(e jetstream.KeyValueEntry) {
		if e.Operation() != jetstream.KeyValuePut {
			return
		}
		_, id, r, err := decodeResult(e.Key(), e.Value())
		if err == nil {
			err = r.check(plan.N, plan.Version, id)
		}
		if err == nil {
			_, err = tally.Add(r.TaskResult)
			if err == nil && c.Progress != nil {
				c.Progress(tally)
			}
			return
		}
		if rejected[e.Key()] != e.Revision() {
			rejected[e.Key()] = e.Revision()
			stats.Rejected++
			c.logf("rejected result %s (revision %d) from worker %q: %v", e.Key(), e.Revision(), r.Worker, err)
		}
	}

	resync := c.Resync
	if resync <= 0 {
		resync = 5 * time.Minute
	}
	first := true
	for {
		// Read every result of the job, then queue what is missing, then follow new results.
		w, err := results.WatchFiltered(ctx, []string{job + ".>"})
		if err != nil {
			if ctx.Err() != nil {
				return queens.Counts{}, stats, ctx.Err()
			}
			c.logf("watching results: %v; trying again", err)
			if err := sleep(ctx, time.Second); err != nil {
				return queens.Counts{}, stats, err
			}
			continue
		}
		complete, err := c.follow(ctx, w, add, tally, resync, func() error {
			n, waiting, err := c.queue(ctx, js, st, plan, tally)
			stats.Queued += n
			if first && err == nil {
				first = false
				stats.Resumed = tally.Done()
				c.logf("job %s: %d of %d tasks have results, %d are queued, %d queued now",
					job, tally.Done(), len(plan.Tasks), waiting, n)
			}
			return err
		})
		_ = w.Stop()
		if complete {
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				return queens.Counts{}, stats, ctx.Err()
			}
			c.logf("%v; trying again", err)
			if err := sleep(ctx, time.Second); err != nil {
				return queens.Counts{}, stats, err
			}
		}
	}
	if first {
		stats.Resumed = tally.Done()
		c.logf("job %s: all %d tasks have results already", job, len(plan.Tasks))
	}
	counts := tally.Counts()
	rec.Finished = time.Now().UTC()
	rec.Total = counts.Total.String()
	if err := putJSON(ctx, jobs, job, rec); err != nil {
		c.logf("recording the finished job: %v", err)
	}
	return counts, stats, nil
}

// follow feeds w's entries to add. After the watcher's initial values it calls queue once.
// It returns true once tally is complete, and false with a nil error when no result came
// for the resync period.
func (c *Coordinator) follow(ctx context.Context, w jetstream.KeyWatcher, add func(jetstream.KeyValueEntry), tally *queens.Tally, resync time.Duration, queue func() error) (bool, error) {
	initial := true
	timer := time.NewTimer(resync)
	defer timer.Stop()
	// A watcher does not always survive the server's restart: after a reconnection, read
	// everything again.
	reconnects := c.Conn.Stats().Reconnects
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-tick.C:
			if r := c.Conn.Stats().Reconnects; r != reconnects && c.Conn.IsConnected() {
				return false, nil
			}
		case <-timer.C:
			if initial {
				return false, fmt.Errorf("reading the results took more than %v", resync)
			}
			return false, nil
		case e, ok := <-w.Updates():
			if !ok {
				return false, errors.New("the results watcher stopped")
			}
			if e != nil {
				add(e)
				timer.Reset(resync)
			} else if initial {
				initial = false
				if tally.Complete() {
					return true, nil
				}
				if err := queue(); err != nil {
					return false, err
				}
			}
			if !initial && tally.Complete() {
				return true, nil
			}
		}
	}
}

// queue publishes a message for each task that has no result in tally and no message on
// the stream, costliest first, and returns how many it published and how many it found
// queued already.
func (c *Coordinator) queue(ctx context.Context, js jetstream.JetStream, st jetstream.Stream, plan *queens.Plan, tally *queens.Tally) (published, waiting int, err error) {
	info, err := st.Info(ctx, jetstream.WithSubjectFilter(jobSubjects(plan.N, plan.Version)))
	if err != nil {
		return 0, 0, fmt.Errorf("reading the queue: %w", err)
	}
	queued := info.State.Subjects
	job := JobID(plan.N, plan.Version)
	var futures []jetstream.PubAckFuture
	for _, t := range plan.ByCost() {
		subj := taskSubject(plan.N, plan.Version, t.ID)
		if tally.Has(t.ID) {
			continue
		}
		if queued[subj] > 0 {
			waiting++
			continue
		}
		data, _ := json.Marshal(TaskMsg{Job: job, N: plan.N, PlanVersion: plan.Version, ID: t.ID})
		f, err := js.PublishAsync(subj, data)
		if err != nil {
			return len(futures), waiting, fmt.Errorf("queueing task %d: %w", t.ID, err)
		}
		futures = append(futures, f)
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-ctx.Done():
		return 0, waiting, ctx.Err()
	case <-time.After(time.Minute):
		return 0, waiting, errors.New("queueing tasks: no acknowledgement from the server within a minute")
	}
	for _, f := range futures {
		select {
		case err := <-f.Err():
			return 0, waiting, fmt.Errorf("queueing task %s: %w", strings.TrimPrefix(f.Msg().Subject, TaskPrefix+"."), err)
		default:
		}
	}
	return len(futures), waiting, nil
}

func putJSON(ctx context.Context, kv jetstream.KeyValue, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := kv.Put(ctx, key, data); err != nil {
		return fmt.Errorf("storing %s: %w", key, err)
	}
	return nil
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
