package work_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/chesspuzzles/chesspuzzles/internal/work/shard"
	"github.com/chesspuzzles/chesspuzzles/internal/work/worktest"
)

// TestToyPlanRunners: the toy plan (worktest.Toy), and nothing else of its own, runs
// locally on two workers, with a checkpoint that an interrupted run leaves and a second
// run resumes, in slices summed by work.Total, and in shard files merged
// (shard.ComputePlan, shard.MergePlan); each way gives 2^bits, and a failing task stops a
// run with its error. TestToyPlanOnCluster runs it on the cluster.
func TestToyPlanRunners(t *testing.T) {
	ctx := context.Background()
	p := worktest.NewToy(12, 5)
	want, _ := p.Published()

	out, err := work.RunPlan(ctx, p, work.Options{Workers: 2})
	if err != nil || out.Total.Cmp(want) != 0 {
		t.Fatalf("work.RunPlan = %v, %v; want %v", out.Total, err, want)
	}

	defer work.SetResultDelay(work.SetResultDelay(0)) // each result on its own: the run stops a few tasks after the cancel
	path := filepath.Join(t.TempDir(), "toy.ckpt")
	ctx1, cancel := context.WithCancel(ctx)
	n := 0
	_, err = work.RunPlan(ctx1, p, work.Options{Workers: 1, Checkpoint: path, Finished: func(work.Result, time.Duration) error {
		if n++; n == 5 {
			cancel()
		}
		return nil
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a run cancelled after 5 tasks: %v", err)
	}
	c, done, err := work.OpenPlanCheckpoint(ctx, path, p)
	if err != nil || len(done) < 5 || len(done) == p.Len() {
		t.Fatalf("the checkpoint of the cancelled run: %v, %d results; want from 5 to %d", err, len(done), p.Len()-1)
	}
	c.Close()
	var resumed int
	out, err = work.RunPlan(ctx, p, work.Options{Workers: 2, Checkpoint: path, Progress: func(s work.Status) { resumed = s.Resumed }})
	if err != nil || out.Total.Cmp(want) != 0 || resumed != len(done) {
		t.Fatalf("the resumed run = %v, %v, %d resumed; want %v, %d resumed", out.Total, err, resumed, want, len(done))
	}
	if _, _, err := work.OpenPlanCheckpoint(ctx, path, worktest.NewToy(12, 4)); err == nil {
		t.Error("the checkpoint opened for another toy plan")
	}

	var all []work.Result
	const K = 3
	for i := range K {
		ids, err := work.Slice(p, i, K)
		if err != nil {
			t.Fatal(err)
		}
		out, err := work.RunPlan(ctx, p, work.Options{Tasks: ids})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, out.Results...)
	}
	if total, err := work.Total(p, all); err != nil || total.Cmp(want) != 0 {
		t.Errorf("the %d slices sum to %v, %v; want %v", K, total, err, want)
	}

	var names []string
	dir := t.TempDir()
	for i := range K {
		f, err := shard.ComputePlan(ctx, p, i, K, work.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.Join(dir, fmt.Sprintf("s%d.json", i)))
		if err := os.WriteFile(names[i], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, total, err := shard.MergePlan(ctx, names, worktest.ParseToy); err != nil || total.Cmp(want) != 0 || got.Job() != p.Job() {
		t.Errorf("the %d shard files merge to %v, %v, %v; want %s, %v", K, got, total, err, p.Job(), want)
	}
	if _, _, err := shard.MergePlan(ctx, names[:K-1], worktest.ParseToy); !errors.Is(err, shard.ErrInput) {
		t.Errorf("%d of the %d shard files merged: %v, want ErrInput", K-1, K, err)
	}

	if _, err := work.RunPlan(ctx, worktest.Toy{Bits: 12, Prefix: 5, Fail: 7}, work.Options{Workers: 2}); err == nil || err.Error() != "toy task fails" {
		t.Errorf("a run with a failing task: %v, want its error", err)
	}
}

// TestToyPlanOnCluster: the toy plan, registered by its kind and nothing else
// (work.RegisterKind, the one thing a third kind of count writes besides its plan), runs
// on the cluster: an embedded NATS server, an in-process coordinator and a worker that
// makes the plan again from its job id, half the tasks computed again to verify. Its total
// comes through exactly, 2^12, and so does one past 2^64 (each task's count is too), which
// travels as a decimal string and is summed as a big integer.
func TestToyPlanOnCluster(t *testing.T) {
	work.RegisterKind("toy", worktest.ParseToy)
	for _, p := range []worktest.Toy{worktest.NewToy(12, 5), {Bits: 10, Prefix: 4, Shift: 60, Fail: -1}} {
		t.Run(p.Job(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			want, _ := p.Published()
			var logs []string
			out, st, err := cluster.Count(ctx, p, cluster.CountOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Workers: 2, Verify: 0.5,
				Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }})
			if err != nil || out.Total.Cmp(want) != 0 {
				t.Fatalf("cluster.Count = %v, %v; want %v; log:\n%s", out.Total, err, want, strings.Join(logs, "\n"))
			}
			if st.Verified == 0 || st.Rejected != 0 || st.Resumed != 0 {
				t.Errorf("stats %+v: want some tasks verified, none rejected or resumed", st)
			}
			if steps, wantSteps := out.Sums["steps"], new(big.Int).Lsh(big.NewInt(1), uint(p.Bits)); steps.Cmp(wantSteps) != 0 {
				t.Errorf("the weighted sum of the steps counter: %v, want %v", steps, wantSteps)
			}
		})
	}
}
