package dist

import (
	"encoding/json"
	"slices"
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
