package cluster

import (
	"bufio"
	"context"
	"fmt"
	"math/big"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// BenchmarkCoordinatorState is a measuring harness, not a check: with
// CHESSPUZZLES_COORDSTATE=N it builds the default plan of N (the join's from N = 18) as a
// coordinator does, then the state of a whole run of it under --replicas 2: the tally and
// a verifier sampling every task, every task given a first result by one of 1,000
// identities and an agreeing second by another (synthetic counters: the plan's work is
// not done). It logs the Go heap and the process's resident memory after each step, and
// the time and size of a snapshot saved and loaded again: what a coordinator holds at the
// end of such a count, beside the NATS server (whose memory bucket_test.go measures).
//
//	CHESSPUZZLES_COORDSTATE=28 go test -run '^$' -bench CoordinatorState -benchtime 1x ./internal/work/cluster
func BenchmarkCoordinatorState(b *testing.B) {
	spec := os.Getenv("CHESSPUZZLES_COORDSTATE")
	if spec == "" {
		b.Skip("set CHESSPUZZLES_COORDSTATE=N to measure a coordinator's state at N")
	}
	n, err := strconv.Atoi(spec)
	if err != nil || n < 4 || n > 29 {
		b.Fatalf("CHESSPUZZLES_COORDSTATE=%q: want N from 4 to 29", spec)
	}
	say := func(step string, t0 time.Time) {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		rss, hwm := procMemory()
		b.Logf("%-44s %6.1f s  heap in use %7.1f MiB  RSS %7.1f MiB (peak %7.1f MiB)",
			step, time.Since(t0).Seconds(), float64(ms.HeapInuse)/(1<<20), float64(rss)/(1<<10), float64(hwm)/(1<<10))
	}
	ctx := context.Background()
	t0 := time.Now()
	method := count.MethodFrames
	if n >= 18 {
		method = count.MethodJoin
	}
	plan, err := newQueensPlan(n, method, 0)
	if err != nil {
		b.Fatal(err)
	}
	if err := work.Build(ctx, plan); err != nil {
		b.Fatal(err)
	}
	say(fmt.Sprintf("plan %s %s, %d tasks", method, plan.Job(), plan.Len()), t0)
	digest := planDigest(plan)
	t0 = time.Now()
	tally, ver := newTally(plan), newVerifier(plan, plan.Len())
	say("empty tally and verifier (every task sampled)", t0)
	t0 = time.Now()
	job := plan.Job()
	names := plan.Counters()
	for id := range plan.Len() {
		r := work.Result{ID: id, Count: big.NewInt(int64(id) * 7), Counters: make([]work.Counter, len(names))}
		for i, name := range names {
			r.Counters[i] = work.Counter{Name: name, Value: uint64(id) * uint64(i+13)}
		}
		first, second := fmt.Sprintf("worker-%03d", id%1000), fmt.Sprintf("worker-%03d", (id+1)%1000)
		if _, err := tally.add(r); err != nil {
			b.Fatal(err)
		}
		if _, err := ver.addFirst(id, Result{Job: job, Result: r, Worker: first}); err != nil {
			b.Fatal(err)
		}
		if err := ver.addSecond(id, Result{Job: job, Result: r, Worker: second}); err != nil {
			b.Fatal(err)
		}
	}
	if !ver.done() {
		b.Fatal("not every task agreed")
	}
	say("every task computed twice, agreed", t0)
	dir := b.TempDir()
	t0 = time.Now()
	shot, err := takeSnapshot(plan, digest, 1, 1, tally, ver)
	if err != nil {
		b.Fatal(err)
	}
	if err := shot.save(dir); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(snapshotPath(dir, job))
	if err != nil {
		b.Fatal(err)
	}
	say(fmt.Sprintf("snapshot saved (%.1f MB)", float64(fi.Size())/1e6), t0)
	t0 = time.Now()
	t2, v2, _, err := loadSnapshot(dir, plan, digest, 1, 1, plan.Len())
	if err != nil {
		b.Fatal(err)
	}
	if t2.Done() != plan.Len() || !v2.done() {
		b.Fatal("the loaded snapshot lost results")
	}
	say("snapshot loaded (beside the first state)", t0)
	runtime.KeepAlive(ver)
	runtime.KeepAlive(v2)
}

// procMemory returns the process's resident memory now and at its peak, in kB (VmRSS and
// VmHWM of /proc/self/status; zero where there is none).
func procMemory() (rss, hwm uint64) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		x, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			rss = x
		case "VmHWM":
			hwm = x
		}
	}
	return rss, hwm
}
