package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A Worker pulls tasks of this build's plan version from the server and runs them, one per
// core at a time.
type Worker struct {
	Conn *nats.Conn
	// Cores is how many tasks run at once (runtime.GOMAXPROCS(0) if zero).
	Cores int
	// Name identifies the worker in the results it stores and in the coordinator's log.
	Name string
	// Logf, if not nil, gets the worker's log lines; Verbose adds one line per task.
	Logf    func(format string, args ...any)
	Verbose bool
	// Every is how often the worker logs the number of tasks it has done (if it changed);
	// zero means every 30 seconds.
	Every time.Duration
	// Stall makes every task (not second computations) take at least this long: a hook for
	// tests of ack deadlines and of killed workers. Leave it zero.
	Stall time.Duration
	// Plans, if not nil, builds the plan of a job from its N and plan version, and the
	// worker takes every task from it by id (checking the message's description against
	// it): a hook for tests and benchmarks that run a plan of their own cut
	// (queens.NewFinePlanBound). Leave it nil.
	Plans func(n, version int) (*queens.Plan, error)

	done     atomic.Int64
	mu       sync.Mutex
	plans    map[[2]int]*queens.Plan // by (N, plan version)
	bounds   map[int]uint64          // queens.FineBound by N
	waitOnce sync.Once
}

// Done returns the number of tasks the worker has computed and stored.
func (w *Worker) Done() int64 { return w.done.Load() }

func (w *Worker) logf(format string, args ...any) {
	if w.Logf != nil {
		w.Logf(format, args...)
	}
}

// Run pulls and runs tasks until ctx is done; then it hands back the tasks it holds
// (negative acknowledgement, so they are delivered again at once to another worker) and
// returns ctx.Err(). A lost connection is retried for ever; a task message that is not for
// this build is refused with a logged reason.
func (w *Worker) Run(ctx context.Context) error {
	js, err := jetstream.New(w.Conn)
	if err != nil {
		return err
	}
	cores := w.Cores
	if cores <= 0 {
		cores = runtime.GOMAXPROCS(0)
	}
	var cons jetstream.Consumer
	var results jetstream.KeyValue
	for {
		cons, err = js.Consumer(ctx, TaskStream, consumerName(queens.PlanVersion))
		if err == nil {
			results, err = js.KeyValue(ctx, ResultsBucket)
		}
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		w.waitOnce.Do(func() { w.logf("waiting for a job of plan version %d (%v)", queens.PlanVersion, err) })
		if err := sleep(ctx, time.Second); err != nil {
			return err
		}
	}
	ackWait := DefaultAckWait
	if info := cons.CachedInfo(); info != nil && info.Config.AckWait > 0 {
		ackWait = info.Config.AckWait
	}
	coresWord := "cores"
	if cores == 1 {
		coresWord = "core"
	}
	w.logf("worker %s: pulling tasks on %d %s (ack deadline %v)", w.Name, cores, coresWord, ackWait)

	every := w.Every
	if every <= 0 {
		every = 30 * time.Second
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		last := int64(0)
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if d := w.done.Load(); d != last {
					last = d
					w.logf("worker %s: %d tasks done", w.Name, d)
				}
			}
		}
	}()
	for range cores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.pull(ctx, cons, results, ackWait)
		}()
	}
	wg.Wait()
	w.logf("worker %s: %d tasks done; stopped", w.Name, w.done.Load())
	return ctx.Err()
}

// pull fetches one task at a time (no prefetching, so that no task waits in a busy
// worker's buffer while its ack deadline runs) and runs it.
func (w *Worker) pull(ctx context.Context, cons jetstream.Consumer, results jetstream.KeyValue, ackWait time.Duration) {
	for ctx.Err() == nil {
		fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		batch, err := cons.Fetch(1, jetstream.FetchContext(fctx))
		if err != nil {
			cancel()
			if ctx.Err() == nil {
				_ = sleep(ctx, 500*time.Millisecond)
			}
			continue
		}
		for msg := range batch.Messages() {
			w.handle(ctx, msg, results, ackWait)
		}
		cancel()
	}
}

// plan returns the plan of (n, v), built once: the plan of a task message that does not
// describe its task, or of any task with the Plans hook. Without the hook it is
// queens.NewCompactPlan's, which the worker needs only for plan version 1 and the join
// (milliseconds to build) or for a message of a coordinator that does not describe its
// tasks.
func (w *Worker) plan(n, v int) (*queens.Plan, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if p := w.plans[[2]int{n, v}]; p != nil {
		return p, nil
	}
	build := w.Plans
	if build == nil {
		build = queens.NewCompactPlan
	}
	p, err := build(n, v)
	if err != nil {
		return nil, err
	}
	if w.plans == nil {
		w.plans = map[[2]int]*queens.Plan{}
	}
	w.plans[[2]int{n, v}] = p
	return p, nil
}

// fineBound returns queens.FineBound(n), computed once per n (a fraction of a second).
func (w *Worker) fineBound(n int) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if b, ok := w.bounds[n]; ok {
		return b
	}
	if w.bounds == nil {
		w.bounds = map[int]uint64{}
	}
	w.bounds[n] = queens.FineBound(n)
	return w.bounds[n]
}

// task returns the task a message names and the message, or why the message is not one
// this build can run. A task of the fine plan described in the message is rebuilt from
// its description (queens.CheckFineTask: its frame, its splits and its Cost must be the
// plan's), so that the worker never builds that plan: its memory and start do not grow
// with the plan. Other tasks come from their plan, and a description must match them.
func (w *Worker) task(msg jetstream.Msg) (queens.Task, TaskMsg, error) {
	var m TaskMsg
	if err := json.Unmarshal(msg.Data(), &m); err != nil {
		return queens.Task{}, m, fmt.Errorf("not a task message: %v", err)
	}
	if m.PlanVersion != queens.PlanVersion && m.PlanVersion != queens.FinePlanVersion && m.PlanVersion != queens.JoinPlanVersion {
		return queens.Task{}, m, fmt.Errorf("task of plan version %d, but this build has plan versions %d and %d (frames) and %d (join)", m.PlanVersion, queens.PlanVersion, queens.FinePlanVersion, queens.JoinPlanVersion)
	}
	subject := taskSubject(m.N, m.PlanVersion, m.ID)
	if m.Verify {
		subject = verifySubject(m.N, m.PlanVersion, m.ID)
	}
	if m.Job != JobID(m.N, m.PlanVersion) || msg.Subject() != subject {
		return queens.Task{}, m, fmt.Errorf("task %d of job %q came on subject %q", m.ID, m.Job, msg.Subject())
	}
	if m.Task != nil && (m.Task.N != m.N || m.Task.ID != m.ID) {
		return queens.Task{}, m, fmt.Errorf("message for task %d of N=%d describes task %d of N=%d", m.ID, m.N, m.Task.ID, m.Task.N)
	}
	if m.Task != nil && m.PlanVersion == queens.FinePlanVersion && w.Plans == nil {
		if m.N < 1 || m.N > queens.MaxCountN {
			return queens.Task{}, m, fmt.Errorf("task of N=%d, but N must be from 1 to %d", m.N, queens.MaxCountN)
		}
		t, err := queens.CheckFineTask(*m.Task, w.fineBound(m.N))
		return t, m, err
	}
	p, err := w.plan(m.N, m.PlanVersion)
	if err != nil {
		return queens.Task{}, m, err
	}
	t, err := p.Task(m.ID)
	if err == nil && m.Task != nil && *m.Task != t {
		err = fmt.Errorf("the message describes task %d otherwise than the plan of N=%d, version %d", m.ID, m.N, m.PlanVersion)
	}
	return t, m, err
}

// handle runs one task message: skip it if a valid result is stored already, else compute
// (sending "in progress" every third of the ack deadline), store, and only then ack.
func (w *Worker) handle(ctx context.Context, msg jetstream.Msg, results jetstream.KeyValue, ackWait time.Duration) {
	// The first task of a job may build its plan (from a coordinator that does not
	// describe its tasks: minutes for the fine plan of N = 27). Keep the message
	// meanwhile, so that it is not delivered again to every other worker.
	building := make(chan struct{})
	go func() {
		t := time.NewTicker(max(ackWait/3, 10*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-building:
				return
			case <-t.C:
				_ = msg.InProgress()
			}
		}
	}()
	task, m, err := w.task(msg)
	close(building)
	if err != nil {
		w.logf("refused message on %s: %v", msg.Subject(), err)
		_ = msg.TermWithReason(err.Error())
		return
	}
	version := m.PlanVersion
	job := JobID(task.N, version)
	key := resultKey(job, task.ID)
	delivery := uint64(1)
	if md, err := msg.Metadata(); err == nil {
		delivery = md.NumDelivered
	}
	if m.Verify {
		if m.Not == w.Name {
			// Another worker must verify this worker's result: hand it back for a while,
			// longer each time, so that a worker left alone does not spin on it.
			_ = msg.NakWithDelay(min(time.Duration(delivery)*50*time.Millisecond, 5*time.Second))
			return
		}
		key = verifyKey(job, task.ID)
	}
	if e, err := results.Get(ctx, key); err == nil {
		if _, id, r, err := decodeResult(strings.TrimSuffix(key, ".v"), e.Value()); err == nil && id == task.ID && checkTaskResult(task, version, &r) == nil && (!m.Verify || r.Worker != m.Not) {
			_ = msg.Ack()
			if w.Verbose {
				w.logf("task %s has a result already (delivery %d); acknowledged without computing", key, delivery)
			}
			return
		}
	}
	if w.Verbose {
		w.logf("task %s started (delivery %d)", key, delivery)
	}

	start := time.Now()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type outcome struct {
		r   queens.TaskResult
		err error
	}
	out := make(chan outcome, 1)
	go func() {
		r, err := task.CountContext(cctx)
		if err == nil && w.Stall > 0 && !m.Verify {
			err = sleep(cctx, w.Stall-time.Since(start))
		}
		out <- outcome{r, err}
	}()
	beat := time.NewTicker(max(ackWait/3, 10*time.Millisecond))
	defer beat.Stop()
	var res queens.TaskResult
wait:
	for {
		select {
		case <-ctx.Done():
			// Hand the task back: another worker gets it at once.
			_ = msg.Nak()
			w.logf("task %s handed back", key)
			return
		case <-beat.C:
			_ = msg.InProgress()
		case o := <-out:
			if o.err != nil {
				_ = msg.Nak()
				return
			}
			res = o.r
			break wait
		}
	}

	r := Result{Job: job, N: task.N, PlanVersion: version, TaskResult: res, Worker: w.Name, Seconds: time.Since(start).Seconds(), Task: taskDigest(task)}
	data, _ := json.Marshal(r)
	for {
		err := w.store(ctx, results, key, data, r, task, version, m.Verify)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			_ = msg.Nak()
			return
		}
		w.logf("storing task %s: %v; trying again", key, err)
		_ = msg.InProgress()
		_ = sleep(ctx, 500*time.Millisecond)
	}
	// A plain ack, not one waiting for the server's confirmation: after a reconnection a
	// confirmation can take long to come or never come, and a lost ack costs little, since
	// the task comes again after the deadline and is acknowledged at once, its result being
	// stored.
	if err := msg.Ack(); err != nil {
		w.logf("acknowledging task %s: %v", key, err)
	}
	d := w.done.Add(1)
	if w.Verbose {
		w.logf("task %s done in %v (%d solutions), %d done by this worker", key, time.Since(start).Round(time.Millisecond), res.Solutions, d)
	}
}

// store writes a result unless a valid one is there already; an invalid one (say from a
// build with another plan version) is overwritten. A second computation (verify) always
// overwrites: it is compared with the first, not trusted over it.
func (w *Worker) store(ctx context.Context, results jetstream.KeyValue, key string, data []byte, r Result, task queens.Task, version int, verify bool) error {
	if verify {
		_, err := results.Put(ctx, key, data)
		return err
	}
	_, err := results.Create(ctx, key, data)
	if err == nil || !errors.Is(err, jetstream.ErrKeyExists) {
		return err
	}
	e, err := results.Get(ctx, key)
	if err != nil {
		return err
	}
	_, _, old, derr := decodeResult(key, e.Value())
	if derr == nil {
		derr = checkTaskResult(task, version, &old)
	}
	if derr == nil {
		if old.Solutions != r.Solutions || old.HalfTurn != r.HalfTurn || old.QuarterTurn != r.QuarterTurn {
			w.logf("task %s: worker %q stored %d solutions, this worker found %d; keeping the first", key, old.Worker, old.Solutions, r.Solutions)
		}
		return nil
	}
	w.logf("task %s: replacing an invalid stored result (%v)", key, derr)
	_, err = results.Update(ctx, key, data, e.Revision())
	return err
}
