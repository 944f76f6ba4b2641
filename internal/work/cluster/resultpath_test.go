package cluster

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/internal/cputime"
	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// BenchmarkResultPath times the handling of one task of N = 16 (frames) outside the
// network, step by step: on the worker, its task's digest and its result's JSON; on the
// coordinator, reading the result, checking it against the plan and sealing it for the
// results stream; the task's assignment written by the coordinator and read by the
// worker, and its nonce. A count of N = 16 on the cluster has 3,206 such tasks. It reports
// the process's CPU time per op beside the wall time.
//
//	go test -run '^$' -bench ResultPath -count 6 ./internal/work/cluster
func BenchmarkResultPath(b *testing.B) {
	plan, err := newQueensPlan(16, count.MethodFrames, frames.PlanVersion)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := work.Build(ctx, plan); err != nil {
		b.Fatal(err)
	}
	const id = 1000
	task := mustTask(plan, id)
	res, err := plan.RunTask(ctx, task)
	if err != nil {
		b.Fatal(err)
	}
	s := NewSealer("secret")
	r := Result{Job: plan.Job(), Result: res, Worker: "local", Name: "local-1", Seconds: 0.0015314, Task: taskDigest(task),
		Nonce: nonce(s, "local", plan.Job(), id, false, "123")}
	data, err := json.Marshal(r)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("digest", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			sinkString = taskDigest(task)
		}
	})
	b.Run("encode", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			sinkBytes, _ = r.appendJSON(nil) // as Worker.handle
		}
	})
	b.Run("decode", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			var back Result
			if err := back.UnmarshalJSON(data); err != nil { // as dispatch.result
				b.Fatal(err)
			}
		}
	})
	b.Run("check", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			if err := checkResult(plan, id, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("seal", func(b *testing.B) {
		key := resultKey(plan.Job(), id)
		defer reportCPU(b)()
		for b.Loop() {
			sinkBytes, _ = sealValue(s, key, &r)
		}
	})
	a := Assignment{TaskMsg: taskMsg(plan, id), Messages: MessageVersion, Nonce: r.Nonce, Lease: 30, Seq: 5}
	adata, _ := json.Marshal(a)
	b.Run("assign-encode", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			sinkBytes, _ = a.appendJSON(make([]byte, 0, 256)) // as dispatch.want
		}
	})
	b.Run("assign-decode", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := readAssignment(adata); err != nil { // as Worker.ask
				b.Fatal(err)
			}
		}
	})
	b.Run("nonce", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			sinkString = nonce(s, "local", plan.Job(), id, false, "123")
		}
	})
}

// reportCPU, deferred at a benchmark's start, reports the process's CPU time (user and
// system, every thread's, the collector's included) per op as cpu-ns/op: on a loaded
// machine ns/op, a wall time, counts the waits for a core too.
func reportCPU(b *testing.B) func() {
	start := cputime.Process()
	return func() { b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op") }
}

var (
	sinkString string
	sinkBytes  []byte
)
