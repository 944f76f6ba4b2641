package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestOtherBuildWorker checks that a coordinator gives no task to a worker of an older
// build (a WantMsg without a message version, as before task messages carried Desc) and
// names it in one log line, however often it asks.
func TestOtherBuildWorker(t *testing.T) {
	parallel(t)
	s := startServer(t, t.TempDir(), "")
	ctx, nc := connectTest(t, s, time.Minute, "test")
	log := &logger{t: t}
	c := &Coordinator{Conn: nc, Logf: log.Logf}
	done := make(chan error, 1)
	go func() { _, _, err := c.Run(ctx, mustPlan(t, 6)); done <- err }()

	old := newWorker(t, ctx, s.URL(), "old", 1)
	want, _ := json.Marshal(struct {
		Name         string `json:"name"`
		PlanVersions []int  `json:"plan_versions"`
	}{"old", []int{1, 2}})
	for range 3 {
		a, err := old.ask(ctx, want)
		for err != nil && ctx.Err() == nil { // the coordinator is starting
			time.Sleep(10 * time.Millisecond)
			a, err = old.ask(ctx, want)
		}
		if a.Nonce != "" || a.Task != nil {
			t.Fatalf("a worker of message version 0 got task %d", a.ID)
		}
	}
	var named int
	log.mu.Lock()
	for _, l := range log.lines {
		if strings.Contains(l, fmt.Sprintf("speaks task messages of version 0, this coordinator %d", MessageVersion)) {
			named++
		}
	}
	log.mu.Unlock()
	if named != 1 {
		t.Errorf("the coordinator named the old worker %d times, want once; log: %q", named, log.lines)
	}

	// Workers of this build still count the plan (two: a share is verified by another).
	stop := runWorkers(ctx, newWorker(t, ctx, s.URL(), "new0", 1), newWorker(t, ctx, s.URL(), "new1", 1))
	defer stop()
	if err := <-done; err != nil {
		t.Fatalf("%v; log: %q", err, log.lines)
	}
}

// TestOtherBuildCoordinator checks that a worker stops with ErrOtherBuild, in one error,
// when the coordinator answers in messages of an older build (no message version), instead
// of refusing its tasks one by one forever.
func TestOtherBuildCoordinator(t *testing.T) {
	parallel(t)
	s := startServer(t, t.TempDir(), "")
	ctx, nc := connectTest(t, s, time.Minute, "test")
	sub, err := nc.Subscribe(SubjectPrefix+".want.*", func(m *nats.Msg) {
		// An older coordinator's assignment: a task in the frames' own fields.
		_ = m.Respond([]byte(`{"job":"n8v1","n":8,"plan_version":1,"id":0,"task":{"n":8,"id":0,"weight":8,"top":0,"bottom":1,"left":2,"right":3},"nonce":"x","lease":60}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	w := newWorker(t, ctx, s.URL(), "new", 1)
	err = w.Run(ctx)
	if !errors.Is(err, ErrOtherBuild) || !strings.Contains(err.Error(), fmt.Sprintf("version 0, this worker %d", MessageVersion)) {
		t.Fatalf("Run against a coordinator of an older build = %v, want %v naming both message versions", err, ErrOtherBuild)
	}
	if w.done.Load() != 0 {
		t.Errorf("the worker counted %d tasks of the older build", w.done.Load())
	}
}
