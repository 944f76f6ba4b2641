package dist

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

// A worker stopped while it hands in a result that the coordinator has not answered
// hands its task back at once (a beat with the task's nonce in Back) and says so, rather
// than leaving the lease to run out: the coordinator here takes the result and never
// answers.
func TestWorkerHandsBackWhenStoppedHandingIn(t *testing.T) {
	s := startServer(t, t.TempDir(), "")
	ctx, nc := connectTest(t, s, time.Minute, "stopped")
	const nonce = "nonce-1"
	msg := TaskMsg{Job: JobID(8, frames.PlanVersion), N: 8, PlanVersion: frames.PlanVersion, ID: 0}
	given := false
	want, err := nc.Subscribe(SubjectPrefix+".want.*", func(m *nats.Msg) {
		a := Assignment{Messages: MessageVersion, Wait: 0.01}
		if !given {
			given = true
			a = Assignment{TaskMsg: msg, Messages: MessageVersion, Nonce: nonce, Lease: 30}
		}
		data, _ := json.Marshal(a)
		_ = m.Respond(data)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = want.Unsubscribe() }()
	results, err := nc.SubscribeSync(SubjectPrefix + ".result.>")
	if err != nil {
		t.Fatal(err)
	}
	beats, err := nc.SubscribeSync(SubjectPrefix + ".beat.*")
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

	deadline := time.Now().Add(10 * time.Second)
	for {
		m, err := beats.NextMsg(time.Until(deadline))
		if err != nil {
			t.Fatalf("no beat handed back task %s after the worker stopped: %v", nonce, err)
		}
		var b BeatMsg
		if json.Unmarshal(m.Data, &b) == nil && slices.Contains(b.Back, nonce) {
			break
		}
	}
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
	s := startServer(t, t.TempDir(), "")
	ctx, nc := connectTest(t, s, time.Minute, "stopped")
	const nonce = "nonce-2"
	w := newWorker(t, ctx, s.URL(), "stopped", 1)
	log := &logger{t: t}
	w.Logf = log.Logf
	wctx, stopWorker := context.WithCancel(ctx)
	defer stopWorker()
	var stopped atomic.Int64 // when the coordinator stopped the worker, in Unix nanoseconds
	want, err := nc.Subscribe(SubjectPrefix+".want.*", func(m *nats.Msg) {
		if stopped.Load() != 0 {
			return // no answer to a later ask: there must be none
		}
		stopWorker()
		stopped.Store(time.Now().UnixNano())
		time.Sleep(50 * time.Millisecond) // the worker is stopped when the task comes
		a := Assignment{TaskMsg: TaskMsg{Job: JobID(8, frames.PlanVersion), N: 8, PlanVersion: frames.PlanVersion, ID: 3},
			Messages: MessageVersion, Nonce: nonce, Lease: 30}
		data, _ := json.Marshal(a)
		_ = m.Respond(data)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = want.Unsubscribe() }()
	beats, err := nc.SubscribeSync(SubjectPrefix + ".beat.*")
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}

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
	m, err := beats.NextMsg(5 * time.Second)
	if err != nil {
		t.Fatalf("no beat handed back task %s: %v", nonce, err)
	}
	var b BeatMsg
	if err := json.Unmarshal(m.Data, &b); err != nil || !slices.Contains(b.Back, nonce) {
		t.Errorf("beat %s, want it to hand back %s", m.Data, nonce)
	}
	if !log.contains("task 3 of job q8v") || !log.contains("handed back: stopped as it was assigned") {
		t.Errorf("log = %q, want a line that task 3 was handed back", log.lines)
	}
}
