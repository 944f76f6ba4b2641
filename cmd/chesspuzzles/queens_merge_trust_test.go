package main

// Tests of issue 25's items for "queens merge": replicas, bounds of join shards, inputs
// without end.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/shard"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
	"github.com/chesspuzzles/chesspuzzles/queens/count/join"
)

// TestMergeReplicas: two independent runs of each slice merge to Q(12) = 14200 (OEIS
// A000170); a forged replica, resealed so that its checksum and totals hold, is refused
// with exit 1 at --verify 0 (where a single file's lie goes through, TestMergeVerify),
// and a slice given too few or too many times, or one file given twice, with exit 2.
func TestMergeReplicas(t *testing.T) {
	const n = 12
	plan, _ := queens.NewPlan(n, count.MethodFrames, frames.PlanVersion)
	a := writeShards(t, t.TempDir(), n, 2)
	b := writeShards(t, t.TempDir(), n, 2)
	merge := func(args ...string) (int, string, string) {
		return runCLI(t, append([]string{"queens", "merge", "--verify", "0"}, args...)...)
	}
	want := "12 queens: " + knownQ(t, n) + " solutions, 1787 fundamental\n"
	if code, stdout, stderr := merge(append([]string{"--replicas", "2"}, append(a, b...)...)...); code != 0 || stdout != want {
		t.Fatalf("merge --replicas 2 of true files: exit %d, %q, %q; want %q", code, stdout, stderr, want)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"one run", append([]string{"--replicas", "2"}, a...), "wants 2 independent runs"},
		{"three runs", append([]string{"--replicas", "2", a[0]}, append(a, b...)...), "same file"},
		{"same file twice", append([]string{"--replicas", "2"}, append(a, a...)...), "same file"},
		{"replicas 0", append([]string{"--replicas", "0"}, a...), "--replicas must be"},
	} {
		code, stdout, stderr := merge(tc.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, %q, %q; want exit 2 and one line saying %q", tc.name, code, stdout, stderr, tc.want)
		}
	}
	c := writeShards(t, t.TempDir(), n, 2)
	if code, _, stderr := merge(append([]string{"--replicas", "2"}, append(append(a, b...), c[0])...)...); code != 2 || !strings.Contains(stderr, "given 3 times") {
		t.Errorf("three runs of slice 0: exit %d, %q; want exit 2, given 3 times", code, stderr)
	}
	var liar int64
	editShard(t, b[1], func(m map[string]any) {
		j := weightEight(t, plan, m)
		liar, _ = m["results"].([]any)[j].(map[string]any)["id"].(json.Number).Int64()
		addSolutions(j, 1, true)(m)
	})
	reseal(t, b[1])
	code, stdout, stderr := merge(append([]string{"--replicas", "2"}, append(a, b...)...)...)
	wantErr := "disagree on task " + strconv.FormatInt(liar, 10) + ":"
	if code != 1 || stdout != "" || !strings.Contains(stderr, wantErr) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("merge --replicas 2 with a forged replica: exit %d, %q, %q; want exit 1, one line saying %q", code, stdout, stderr, wantErr)
	}
}

// TestMergeCopyIsNoReplica is issue 34's probe: a byte-identical copy of a slice's file
// under another name was taken as a second, independent run. Each file names its run, so
// the copy is refused (exit 2, one line naming both files); so is a file of an older
// build, which names no run, given as a replica; and two true runs still merge to Q(12) =
// 14200 (OEIS A000170).
func TestMergeCopyIsNoReplica(t *testing.T) {
	const n = 12
	a := writeShards(t, t.TempDir(), n, 2)
	b := writeShards(t, t.TempDir(), n, 2)
	merge := func(files ...string) (int, string, string) {
		return runCLI(t, append([]string{"queens", "merge", "--verify", "0", "--replicas", "2"}, files...)...)
	}
	if code, stdout, stderr := merge(append(a, b...)...); code != 0 || stdout != "12 queens: "+knownQ(t, n)+" solutions, 1787 fundamental\n" {
		t.Fatalf("two runs: exit %d, %q, %q", code, stdout, stderr)
	}
	runs := map[string]bool{}
	for _, name := range append(a, b...) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var f shard.File
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		if len(f.Run) != 32 || runs[f.Run] {
			t.Errorf("%s: run %q, want 32 hex digits, another in each file", name, f.Run)
		}
		runs[f.Run] = true
	}

	dir := t.TempDir()
	cp := filepath.Join(dir, "copy.json")
	data, err := os.ReadFile(a[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := merge(a[0], a[1], b[0], cp)
	want := fmt.Sprintf("%q and %q come from one run", a[1], cp)
	if code != 2 || stdout != "" || !strings.Contains(stderr, want) || !strings.Contains(stderr, "a copy is not a replica") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("a copy as a replica: exit %d, %q, %q; want exit 2, one line saying %q", code, stdout, stderr, want)
	}

	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, data, 0o644); err != nil {
		t.Fatal(err)
	}
	editShard(t, old, func(m map[string]any) { delete(m, "run") })
	reseal(t, old)
	if code, stdout, stderr := runCLI(t, "queens", "merge", "--verify", "0", a[0], old); code != 0 || stdout == "" {
		t.Errorf("a file without a run, no replicas: exit %d, %q, %q; want the count", code, stdout, stderr)
	}
	code, stdout, stderr = merge(a[0], a[1], b[0], old)
	if code != 2 || stdout != "" || !strings.Contains(stderr, "has no run identity") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("a file without a run as a replica: exit %d, %q, %q; want exit 2, one line saying it has no run identity", code, stdout, stderr)
	}
}

// TestMergeJoinBound is issue 25's probe for join shards: a task's sum raised by 10^15,
// its file resealed, is refused by the task's bound (exit 2) without any recomputation.
func TestMergeJoinBound(t *testing.T) {
	const n = 14
	dir := t.TempDir()
	var out bytes.Buffer
	if err := runShard(context.Background(), n, count.MethodJoin, join.PlanVersion, 0, 1, 2, true, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "s0.json")
	if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	editShard(t, name, func(m map[string]any) {
		var r map[string]any
		for _, x := range m["results"].([]any) {
			if x := x.(map[string]any); x["row_sets"] != nil {
				r = x // a row-set task, not the symmetric one
			}
		}
		s, _ := r["solutions"].(json.Number).Int64()
		r["solutions"] = s + 1e15
		tot, _ := strconv.ParseInt(m["solutions"].(string), 10, 64)
		m["solutions"] = strconv.FormatInt(tot+1e15, 10)
	})
	reseal(t, name)
	code, stdout, stderr := runCLI(t, "queens", "merge", "--verify", "0", name)
	if code != 2 || stdout != "" || !strings.Contains(stderr, "more than the") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("merge of a join shard raised by 10^15: exit %d, %q, %q; want exit 2 and the bound", code, stdout, stderr)
	}
}

// TestMergeEndlessInput: /dev/zero is refused at its first byte, and a FIFO nobody writes
// to is left on Ctrl-C within a second (exit 130).
func TestMergeEndlessInput(t *testing.T) {
	start := time.Now()
	code, _, stderr := runCLI(t, "queens", "merge", "/dev/zero")
	if code != 2 || strings.Count(stderr, "\n") != 1 || time.Since(start) > time.Second {
		t.Errorf("merge /dev/zero: exit %d, %q after %v; want exit 2, one line, within a second", code, stderr, time.Since(start))
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	mkfifo(t, fifo)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(200*time.Millisecond, cancel) // Ctrl-C
	var out, errb bytes.Buffer
	start = time.Now()
	code = execute(ctx, []string{"queens", "merge", fifo}, strings.NewReader(""), &out, &errb)
	if d := time.Since(start); d > 1200*time.Millisecond {
		t.Errorf("merge of a silent FIFO ended %v after the start, more than a second after the interrupt", d)
	}
	if code != exitInterrupted || errb.String() != "chesspuzzles: queens merge: interrupted\n" {
		t.Errorf("merge of a silent FIFO, interrupted: exit %d, %q; want exit %d, interrupted", code, errb.String(), exitInterrupted)
	}
}
