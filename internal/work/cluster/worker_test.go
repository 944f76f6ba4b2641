package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
	"github.com/nats-io/nats.go"
)

// stubCoordinator starts a server on which answer serves the workers' asks in place of a
// coordinator; it returns the server, the stub's context (a minute) and connection, and a
// subscription to the workers' beats.
func stubCoordinator(t *testing.T, answer nats.MsgHandler) (*Server, context.Context, *nats.Conn, *nats.Subscription) {
	t.Helper()
	s := startServer(t, t.TempDir(), "")
	ctx, nc := connectTest(t, s, time.Minute, "stub")
	want, err := nc.Subscribe(SubjectPrefix+".want.*", answer)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = want.Unsubscribe() })
	beats, err := nc.SubscribeSync(SubjectPrefix + ".beat.*")
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return s, ctx, nc, beats
}

// respond answers an ask with a.
func respond(m *nats.Msg, a Assignment) {
	data, _ := json.Marshal(a)
	_ = m.Respond(data)
}

// awaitHandBack waits up to 10 s for a beat that hands back the assignment of nonce.
func awaitHandBack(t *testing.T, beats *nats.Subscription, nonce string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		m, err := beats.NextMsg(time.Until(deadline))
		if err != nil {
			t.Fatalf("no beat handed back task %s after the worker stopped: %v", nonce, err)
		}
		var b BeatMsg
		if json.Unmarshal(m.Data, &b) == nil && slices.Contains(b.Back, nonce) {
			return
		}
	}
}

// A worker stopped while it hands in a result that the coordinator has not answered
// hands its task back at once (a beat with the task's nonce in Back) and says so, rather
// than leaving the lease to run out: the coordinator here takes the result and never
// answers.
func TestWorkerHandsBackWhenStoppedHandingIn(t *testing.T) {
	parallel(t)
	const nonce = "nonce-1"
	msg := TaskMsg{Job: JobID(8, frames.PlanVersion), ID: 0}
	given := false
	s, ctx, nc, beats := stubCoordinator(t, func(m *nats.Msg) {
		if given {
			respond(m, Assignment{Messages: MessageVersion, Wait: 0.01})
			return
		}
		given = true
		respond(m, Assignment{TaskMsg: msg, Messages: MessageVersion, Nonce: nonce, Lease: 30})
	})
	results, err := nc.SubscribeSync(SubjectPrefix + ".result.>")
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}

	log := &logger{t: t}
	w := newWorker(t, ctx, s.URL(), "stopped", 1)
	w.Logf = log.Logf
	stop := runWorkers(ctx, w)
	if _, err := results.NextMsg(30 * time.Second); err != nil {
		stop()
		t.Fatalf("no result handed in: %v", err)
	}
	stop() // the worker waits for a receipt that never comes: stop it there

	awaitHandBack(t, beats, nonce)
	if !log.contains("handed back: stopped while handing in its result") {
		t.Errorf("log = %q, want a line that the task was handed back", log.lines)
	}
	if w.Done() != 0 {
		t.Errorf("Done() = %d, want 0: no coordinator took the result", w.Done())
	}
}

// A worker stopped while it waits for an assignment that the coordinator makes a moment
// later hands that task back at once (rather than leaving its lease to run out), and
// stops within a second.
func TestWorkerHandsBackWhenStoppedAsking(t *testing.T) {
	parallel(t)
	const nonce = "nonce-2"
	wctx, stopWorker := context.WithCancel(t.Context())
	defer stopWorker()
	var stopped atomic.Int64 // when the stub stopped the worker, in Unix nanoseconds
	s, ctx, _, beats := stubCoordinator(t, func(m *nats.Msg) {
		if stopped.Load() != 0 {
			return // no answer to a later ask: there must be none
		}
		stopWorker()
		stopped.Store(time.Now().UnixNano())
		time.Sleep(50 * time.Millisecond) // the worker is stopped when the task comes
		respond(m, Assignment{TaskMsg: TaskMsg{Job: JobID(8, frames.PlanVersion), ID: 3},
			Messages: MessageVersion, Nonce: nonce, Lease: 30})
	})
	w := newWorker(t, ctx, s.URL(), "stopped", 1)
	log := &logger{t: t}
	w.Logf = log.Logf

	done := make(chan error, 1)
	go func() { done <- w.Run(wctx) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the worker did not stop")
	}
	if took := time.Since(time.Unix(0, stopped.Load())); took > time.Second {
		t.Errorf("the worker took %v to stop, want at most a second", took)
	}
	awaitHandBack(t, beats, nonce)
	if !log.contains("task 3 of job q8v") || !log.contains("handed back: stopped as it was assigned") {
		t.Errorf("log = %q, want a line that task 3 was handed back", log.lines)
	}
}
