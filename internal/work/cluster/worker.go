package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/nats-io/nats.go"
)

// A Worker asks a coordinator for tasks of the kinds of plans this build makes
// (work.Kinds) and runs them, one per core at a time: a plan made again from its job id
// (work.OpenJob), whatever it counts.
type Worker struct {
	// Conn is the worker's connection, made as Identity (see [ConnectWorker]), with the
	// inbox prefix of that identity ([InboxPrefix]).
	Conn *nats.Conn
	// Identity is the worker's identity: the user it connected as, and the token of its
	// subjects.
	Identity string
	// Cores is how many tasks run at once (runtime.GOMAXPROCS(0) if zero).
	Cores int
	// Name is what the worker calls itself in the coordinator's log; it proves nothing.
	Name string
	// Logf, if not nil, gets the worker's log lines; Verbose adds one line per task.
	// Warnf, if not nil, gets instead the lines that say a task or a result could not be
	// taken (a task refused or handed back with its reason, a result refused): how a
	// coordinator's own worker, whose other lines would crowd the coordinator's log, says
	// why it computes nothing.
	Logf    func(format string, args ...any)
	Warnf   func(format string, args ...any)
	Verbose bool
	// Every is how often the worker logs the number of tasks it has done (if it changed);
	// zero means every 30 seconds.
	Every time.Duration
	// Stall makes every task (not second computations) take at least this long: a hook for
	// tests of ack deadlines and of killed workers. Leave it zero.
	Stall time.Duration
	// Plans, if not nil, makes the plan of a job id instead of work.OpenJob, and the
	// worker builds it and takes every task from it by id (checking the message's
	// description against it): a hook for tests and benchmarks that run a plan of their
	// own cut (a fine plan with a tiny bound). Leave it nil.
	Plans func(job string) (work.Plan, error)
	// MaxMemory bounds the memory of each task the worker runs, of a plan that takes a
	// bound (work.MemoryBounder: a knight plan's state store; 0: none): a task that needs
	// more is handed back with the reason logged, for a worker with more memory. Queens
	// tasks have bounds of their own (count.Plan.Memory).
	MaxMemory int64

	done     atomic.Int64
	lastTask atomic.Int64 // when the worker last got a task, in Unix nanoseconds
	finished sync.Map     // jobs the coordinator said were finished, said once each
	quiet    atomic.Bool  // whether the worker said it waits quietly (see quietWhenIdle)
	mu       sync.Mutex
	plans    map[string]work.Plan // by job id, of any kind, built (cachedPlan)
	made     sync.Map             // job id → its work.Plan, made and not built (madePlan)
	waitOnce sync.Once

	// askWait is how long a request for a task waits for its answer (5 s if zero): a hook
	// for tests. held is what the worker's Held heartbeats say (held.go).
	askWait time.Duration
	held    holdings
}

// Done returns the number of tasks the worker has computed and handed in.
func (w *Worker) Done() int64 { return w.done.Load() }

func (w *Worker) logf(format string, args ...any) {
	if w.Logf != nil {
		w.Logf(format, args...)
	}
}

// warnf logs a line about a task or result that could not be taken (see Warnf).
func (w *Worker) warnf(format string, args ...any) {
	if w.Warnf != nil {
		w.Warnf(format, args...)
		return
	}
	w.logf(format, args...)
}

// Run asks for and runs tasks until ctx is done; then it hands back the tasks it holds
// (so that they are assigned again at once to another worker) and returns ctx.Err(). A
// lost connection or an absent coordinator is waited for; a task this build cannot run is
// handed back with a logged reason.
func (w *Worker) Run(ctx context.Context) error {
	if !ValidIdentity(w.Identity) {
		return fmt.Errorf("worker identity must be 1 to 64 letters, digits, '-' or '_', got %q", w.Identity)
	}
	cores := w.Cores
	if cores <= 0 {
		cores = runtime.GOMAXPROCS(0)
	}
	coresWord := "cores"
	if cores == 1 {
		coresWord = "core"
	}
	// The join sizes its quarter table by what the tasks running at once leave (as
	// work's local runner says it, count.Workers), not by GOMAXPROCS.
	ctx = count.WithWorkers(ctx, cores)
	w.held.start()
	w.logf("worker %s (%s): asking for tasks on %d %s", w.Identity, w.Name, cores, coresWord)
	w.quietWhenIdle()
	every := w.Every
	if every <= 0 {
		every = 30 * time.Second
	}
	ctx, stopAll := context.WithCancelCause(ctx) // stopAll(ErrOtherBuild…) ends every core
	defer stopAll(nil)
	var wg sync.WaitGroup
	wg.Go(func() {
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
					w.logf("worker %s: %d tasks done", w.Identity, d)
				}
			}
		}
	})
	wg.Go(func() { w.beatHeld(ctx) })
	want, _ := json.Marshal(WantMsg{Name: w.Name, Messages: MessageVersion, Kinds: work.Kinds(), Cores: w.Cores, Instance: w.held.instance})
	for range cores {
		wg.Go(func() {
			idle := 0 // answers without a task in a row
			for ctx.Err() == nil {
				a, err := w.ask(ctx, want)
				if err != nil {
					if ctx.Err() == nil {
						if !w.quiet.Load() {
							w.waitOnce.Do(func() { w.logf("waiting for a coordinator (%v)", err) })
						}
						_ = sleep(ctx, 500*time.Millisecond)
					}
					continue
				}
				if a.Messages != MessageVersion {
					stopAll(fmt.Errorf("%w: the coordinator speaks task messages of version %d, this worker %d; run the same build on both", ErrOtherBuild, a.Messages, MessageVersion))
					return
				}
				if a.Finished != "" {
					w.lastTask.Store(0) // idle: the server may go with its coordinator
					if _, said := w.finished.LoadOrStore(a.Finished, true); !said {
						w.logf("worker %s: job %s is done (%d tasks done by this worker); waiting quietly for the next", w.Identity, a.Finished, w.done.Load())
					}
					w.quiet.Store(true)
				}
				if a.Nonce == "" {
					// Wait as told, twice as long each time up to 2 s: an idle fleet
					// asks a few times a second at most.
					wait := max(a.Wait, 0.01) * float64(int(1)<<min(idle, 8))
					idle++
					_ = sleep(ctx, time.Duration(min(wait, 2)*float64(time.Second)))
					continue
				}
				if ctx.Err() != nil {
					// Stopped while the assignment came: back at once, uncomputed.
					w.beat(a.Nonce, true)
					w.logf("task %d of job %s handed back: stopped as it was assigned", a.ID, a.Job)
					return
				}
				idle = 0
				w.held.take(a)
				w.lastTask.Store(time.Now().UnixNano())
				w.quiet.Store(false)
				w.handle(ctx, a)
			}
		})
	}
	wg.Wait()
	w.logf("worker %s: %d tasks done; stopped", w.Identity, w.done.Load())
	if err := context.Cause(ctx); errors.Is(err, ErrOtherBuild) {
		return err
	}
	return ctx.Err()
}

// idleFor is how long a worker without a task counts as idle: a server that goes away
// then is most likely an embedded one whose coordinator finished its job.
const idleFor = 5 * time.Second

// quietWhenIdle replaces the connection's disconnect and reconnect lines: a worker that
// loses the server while it works says so, once per outage; an idle one says once that
// the server went away after its job and waits quietly, however often it reconnects.
func (w *Worker) quietWhenIdle() {
	if w.Conn == nil {
		return
	}
	var lost atomic.Bool
	quiet := &w.quiet
	url := w.Conn.ConnectedUrlRedacted()
	w.Conn.SetDisconnectErrHandler(func(_ *nats.Conn, err error) {
		if err == nil || !lost.CompareAndSwap(false, true) {
			return
		}
		if time.Since(time.Unix(0, w.lastTask.Load())) > idleFor {
			if quiet.CompareAndSwap(false, true) {
				w.logf("worker %s: the server went away with no task left for this worker (its job done, most likely); waiting quietly for the next coordinator", w.Identity)
			}
			return
		}
		quiet.Store(false)
		w.logf("lost the connection to %s: %v; reconnecting", url, err)
	})
	w.Conn.SetReconnectHandler(func(c *nats.Conn) {
		lost.Store(false)
		w.held.kickNow() // say at once which leases it still holds
		if !quiet.Load() {
			w.logf("reconnected to %s", c.ConnectedUrlRedacted())
		}
	})
}

// ErrOtherBuild is what Worker.Run returns, wrapped, when the coordinator is of another
// build (another MessageVersion): its tasks would be unreadable.
var ErrOtherBuild = errors.New("coordinator of another build")

// askGrace is how long a worker stopped while it asks for a task still waits for the
// answer: a task the coordinator leased to it meanwhile is then handed back at once (Run)
// rather than after the ack deadline. Well under the second a stop may take.
const askGrace = 300 * time.Millisecond

// ask requests one assignment. Stopped (ctx done) while it waits, it waits askGrace more
// for the answer, so that an assignment already made is not lost.
func (w *Worker) ask(ctx context.Context, want []byte) (Assignment, error) {
	var a Assignment
	if ctx.Err() != nil {
		return a, ctx.Err()
	}
	if !w.Conn.IsConnected() {
		// A request made now would wait in the client's buffer and be answered on
		// reconnecting, perhaps after the worker gave up on it: a lease never received.
		return a, errNotConnected
	}
	wait := w.askWait
	if wait <= 0 {
		wait = 5 * time.Second
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), wait)
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		t := time.NewTimer(askGrace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-rctx.Done():
		}
	})
	defer stop()
	m, err := w.Conn.RequestWithContext(rctx, wantSubject(w.Identity), want)
	if err != nil {
		return a, err
	}
	if a, err = readAssignment(m.Data); err != nil {
		return a, fmt.Errorf("not an assignment: %v", err)
	}
	return a, nil
}

// beat tells the coordinator the worker still works on the assignment of nonce n, or
// hands it back.
func (w *Worker) beat(n string, back bool) {
	b := BeatMsg{Nonces: []string{n}}
	if back {
		b = BeatMsg{Back: []string{n}}
	}
	data, _ := json.Marshal(b)
	_ = w.Conn.Publish(beatSubject(w.Identity), data)
}

// open returns the plan of job as this build makes it (the Plans hook's, or
// work.OpenJob's), its tasks' memory bounded by MaxMemory, not built.
func (w *Worker) open(job string) (work.Plan, error) {
	open := work.OpenJob
	if w.Plans != nil {
		open = w.Plans
	}
	p, err := open(job)
	if err != nil {
		return nil, err
	}
	if b, ok := p.(work.MemoryBounder); ok {
		b.BoundMemory(w.MaxMemory)
	}
	return p, nil
}

// madePlan returns the plan of job as open makes it, not built, made the first time a task
// of the job comes and kept for the worker's life (a plan is a pure function of its job
// id, safe for concurrent use): a task that a plan checks from its description costs no
// parse of the job id and no plan made anew. A plan that fails is tried again.
func (w *Worker) madePlan(job string) (work.Plan, error) {
	if p, ok := w.made.Load(job); ok {
		return p.(work.Plan), nil
	}
	p, err := w.open(job)
	if err != nil {
		return nil, err
	}
	q, _ := w.made.LoadOrStore(job, p)
	return q.(work.Plan), nil
}

// cachedPlan returns the plan of job, made and built the first time a task of the job
// comes (under w.mu: one build at a time) and kept for the worker's life, whatever its
// kind. A plan that fails is tried again with the next task.
func (w *Worker) cachedPlan(ctx context.Context, job string) (work.Plan, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if p := w.plans[job]; p != nil {
		return p, nil
	}
	p, err := w.open(job)
	if err == nil {
		err = work.Build(ctx, p)
	}
	if err != nil {
		return nil, err
	}
	if w.plans == nil {
		w.plans = map[string]work.Plan{}
	}
	w.plans[job] = p
	return p, nil
}

// task returns the task a message names and its plan, or why the message is not one this
// build can run. A task described in the message, of a plan that takes a task from its
// description (work.TaskChecker: for the queens fine plan its frame, its splits and its
// Cost must be the plan's; for the join its row sets must be a run of its sub-problem's),
// is checked by a plan made afresh and never built, so that the worker's memory and start
// do not grow with the plan. Any other task comes from the plan, made and built once, by
// id, and a description must match it.
func (w *Worker) task(ctx context.Context, m TaskMsg) (work.Plan, work.Task, error) {
	if m.Task != nil && m.Task.ID != m.ID {
		return nil, work.Task{}, fmt.Errorf("message for task %d of job %q describes task %d", m.ID, m.Job, m.Task.ID)
	}
	if m.Task != nil && w.Plans == nil {
		p, err := w.madePlan(m.Job)
		if err != nil {
			return nil, work.Task{}, err
		}
		if c, ok := p.(work.TaskChecker); ok {
			t, err := c.CheckTask(*m.Task)
			return p, t, err
		}
	}
	p, err := w.cachedPlan(ctx, m.Job)
	if err != nil {
		return nil, work.Task{}, err
	}
	t, err := p.Task(m.ID)
	if err == nil && m.Task != nil && *m.Task != t {
		err = fmt.Errorf("the message describes task %d otherwise than the plan %s", m.ID, m.Job)
	}
	return p, t, err
}

// handle runs one assignment: compute (its lease kept by the Held heartbeats, held.go), then
// hand the result in until the coordinator answers.
func (w *Worker) handle(ctx context.Context, a Assignment) {
	defer w.held.done(a.Nonce) // after the result's receipt, or the hand-back
	plan, task, err := w.task(ctx, a.TaskMsg)
	if err != nil {
		w.warnf("refused task %d of job %q: %v", a.ID, a.Job, err)
		w.beat(a.Nonce, true)
		_ = sleep(ctx, time.Second)
		return
	}
	job := a.Job // the plan's: task made it of this job id
	key := resultKey(job, task.ID)
	if a.Verify {
		key = verifyKey(job, task.ID)
	}
	if w.Verbose {
		w.logf("task %s started", key)
	}
	start := time.Now()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type outcome struct {
		r   work.Result
		err error
	}
	out := make(chan outcome, 1)
	go func() {
		r, err := plan.RunTask(cctx, task)
		if err == nil && w.Stall > 0 && !a.Verify {
			err = sleep(cctx, w.Stall-time.Since(start))
		}
		out <- outcome{r, err}
	}()
	var res work.Result
wait:
	for {
		select {
		case <-ctx.Done():
			w.beat(a.Nonce, true)
			w.logf("task %s handed back", key)
			return
		case o := <-out:
			if o.err != nil {
				// Cancelled with ctx (the count saw it first: both cases were ready), or
				// failed: either way the task goes back to be assigned again.
				w.beat(a.Nonce, true)
				if ctx.Err() != nil {
					w.logf("task %s handed back", key)
				} else {
					w.warnf("task %s handed back: %v", key, o.err)
					_ = sleep(ctx, time.Second) // a task this worker cannot run: not at once again
				}
				return
			}
			res = o.r
			break wait
		}
	}
	r := Result{Job: job, Result: res, Worker: w.Identity, Name: w.Name,
		Seconds: time.Since(start).Seconds(), Task: taskDigest(task), Nonce: a.Nonce}
	// json.Marshal(r), without compacting MarshalJSON's output again.
	data, _ := r.appendJSON(make([]byte, 0, 512))
	said := false // that the coordinator did not answer
	for {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		m, err := w.Conn.RequestWithContext(rctx, resultSubject(w.Identity, job), data)
		cancel()
		if err == nil {
			if rc, err := readReceipt(m.Data); err != nil || !rc.OK {
				w.warnf("task %s: the coordinator refused the result: %s", key, rc.Refused)
				return
			}
			break
		}
		if ctx.Err() != nil {
			// Stopped before the coordinator answered: the result may not have
			// reached it, so the task goes back at once rather than after the ack
			// deadline (a coordinator that took the result ignores the hand-back).
			w.beat(a.Nonce, true)
			w.logf("task %s handed back: stopped while handing in its result", key)
			return
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			_ = sleep(ctx, 500*time.Millisecond)
		}
		if !said {
			said = true
			w.logf("handing in task %s: %v; trying until a coordinator takes it", key, err)
		}
		w.beat(a.Nonce, false)
	}
	d := w.done.Add(1)
	if w.Verbose {
		w.logf("task %s done in %v (count %v), %d done by this worker", key, time.Since(start).Round(time.Millisecond), res.Count, d)
	}
}
