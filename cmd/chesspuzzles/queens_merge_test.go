package main

// Tests of "queens merge" against shard files that were damaged or forged.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/internal/work/shard"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// runCLI runs the command line in this process and returns its exit code and output.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = execute(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// writeShards computes the k slices of n and writes them to files in dir.
func writeShards(t *testing.T, dir string, n, k int) []string {
	t.Helper()
	var files []string
	for i := range k {
		var out bytes.Buffer
		if err := runShard(context.Background(), n, count.MethodFrames, 0, i, k, 2, true, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, "s"+strconv.Itoa(i)+".json")
		if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	return files
}

// editShard rewrites a shard file through f, which changes its fields as JSON values.
func editShard(t *testing.T, name string, f func(m map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// weightEight returns the index in a shard's results of a task of weight 8 with solutions.
func weightEight(t *testing.T, plan count.Plan, m map[string]any) int {
	t.Helper()
	for j, r := range m["results"].([]any) {
		r := r.(map[string]any)
		id, _ := r["id"].(json.Number).Int64()
		s, _ := r["solutions"].(json.Number).Int64()
		if mustTask(plan, int(id)).Weight == 8 && s > 0 {
			return j
		}
	}
	t.Fatal("no task of weight 8 with solutions")
	return -1
}

// TestMergeIssueRepro is the issue's probe: a shard file of Q(12) whose one task count was
// edited (merge printed 14,208), and one with garbage after its JSON (merge accepted it).
func TestMergeIssueRepro(t *testing.T) {
	plan, _ := queens.NewPlan(12, count.MethodFrames, frames.PlanVersion)
	t.Run("edited task count", func(t *testing.T) {
		files := writeShards(t, t.TempDir(), 12, 1)
		editShard(t, files[0], func(m map[string]any) {
			r := m["results"].([]any)[weightEight(t, plan, m)].(map[string]any)
			s, _ := r["solutions"].(json.Number).Int64()
			r["solutions"] = s + 1
		})
		code, stdout, stderr := runCLI(t, append([]string{"queens", "merge"}, files...)...)
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("merge of an edited shard: exit %d, stdout %q, stderr %q; want exit 2, no output, one line", code, stdout, stderr)
		}
	})
	t.Run("trailing garbage", func(t *testing.T) {
		files := writeShards(t, t.TempDir(), 12, 1)
		f, _ := os.OpenFile(files[0], os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString("garbage\n")
		f.Close()
		code, stdout, stderr := runCLI(t, append([]string{"queens", "merge"}, files...)...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "after its JSON") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("merge of a shard with trailing data: exit %d, stdout %q, stderr %q; want exit 2, one line saying so", code, stdout, stderr)
		}
	})
}

// reseal gives a shard file the checksum of its present content, as a forger would.
func reseal(t *testing.T, name string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var s shard.File
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	s.Checksum = shard.Sum(s)
	out, _ := json.Marshal(s)
	if err := os.WriteFile(name, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// addSolutions adds d to the solutions of the j-th result of a shard file, and to its
// total when total is true.
func addSolutions(j int, d int64, total bool) func(m map[string]any) {
	return func(m map[string]any) {
		r := m["results"].([]any)[j].(map[string]any)
		s, _ := r["solutions"].(json.Number).Int64()
		r["solutions"] = s + d
		if total {
			s, _ := strconv.ParseInt(m["solutions"].(string), 10, 64)
			m["solutions"] = strconv.FormatInt(s+8*d, 10)
		}
	}
}

// TestMergeRefuses: every kind of damaged or foreign shard file is refused with exit 2 and
// one line that says what is wrong.
func TestMergeRefuses(t *testing.T) {
	const n = 12
	plan, _ := queens.NewPlan(n, count.MethodFrames, frames.PlanVersion)
	tests := []struct {
		name  string
		k     int
		files func(t *testing.T, files []string) []string
		want  string
	}{
		{"edited count", 1, func(t *testing.T, f []string) []string {
			editShard(t, f[0], func(m map[string]any) { addSolutions(weightEight(t, plan, m), 1, false)(m) })
			return f
		}, "does not match its checksum"},
		{"edited total", 1, func(t *testing.T, f []string) []string {
			editShard(t, f[0], func(m map[string]any) { m["solutions"] = "14208" })
			return f
		}, "does not match its checksum"},
		{"edited total, checksum recomputed", 1, func(t *testing.T, f []string) []string {
			editShard(t, f[0], func(m map[string]any) { m["solutions"] = "14208" })
			reseal(t, f[0])
			return f
		}, "but its tasks sum to"},
		{"edited count, checksum recomputed", 2, func(t *testing.T, f []string) []string {
			editShard(t, f[0], func(m map[string]any) { addSolutions(weightEight(t, plan, m), 1, false)(m) })
			reseal(t, f[0])
			return f
		}, "but its tasks sum to"},
		{"impossible count, consistent file", 1, func(t *testing.T, f []string) []string {
			editShard(t, f[0], func(m map[string]any) {
				j := weightEight(t, plan, m)
				r := m["results"].([]any)[j].(map[string]any)
				r["half_turn"] = 2 // no half turn fixes a frame of weight 8
				m["half_turn"] = "16"
			})
			reseal(t, f[0])
			return f
		}, "no half turn fixes its frame"},
		{"no checksum", 1, func(t *testing.T, f []string) []string {
			editShard(t, f[0], func(m map[string]any) { delete(m, "checksum") })
			return f
		}, "has no checksum"},
		{"trailing data", 1, func(t *testing.T, f []string) []string {
			data, _ := os.ReadFile(f[0])
			os.WriteFile(f[0], append(data, "{}"...), 0o644)
			return f
		}, "has data after its JSON object"},
		{"two objects", 1, func(t *testing.T, f []string) []string {
			data, _ := os.ReadFile(f[0])
			os.WriteFile(f[0], append(data, data...), 0o644)
			return f
		}, "has data after its JSON object"},
		{"cut short", 1, func(t *testing.T, f []string) []string {
			data, _ := os.ReadFile(f[0])
			os.WriteFile(f[0], data[:len(data)/2], 0o644)
			return f
		}, "is not the output of"},
		{"duplicate slice", 3, func(t *testing.T, f []string) []string { return []string{f[0], f[1], f[1], f[2]} }, "slice 1/3 given twice"},
		{"missing slice", 3, func(t *testing.T, f []string) []string { return f[:2] }, "slice 2/3 of N=12 is missing"},
		{"task moved between slices", 2, func(t *testing.T, f []string) []string {
			var moved any
			editShard(t, f[0], func(m map[string]any) {
				rs := m["results"].([]any)
				moved = rs[len(rs)-1]
				m["results"] = rs[:len(rs)-1]
			})
			editShard(t, f[1], func(m map[string]any) { m["results"] = append(m["results"].([]any), moved) })
			reseal(t, f[0])
			reseal(t, f[1])
			return f
		}, "does not hold the tasks of slice 0/2"},
		{"foreign plan version", 1, func(t *testing.T, f []string) []string {
			editShard(t, f[0], func(m map[string]any) { m["plan_version"] = 99 })
			reseal(t, f[0])
			return f
		}, "a slice this build cannot plan: plan version of the frames method must be 1 or 2, got 99"},
		{"foreign N", 2, func(t *testing.T, f []string) []string {
			editShard(t, f[1], func(m map[string]any) { m["n"] = n + 1 })
			reseal(t, f[1])
			return f
		}, "is a slice of N=13"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := tt.files(t, writeShards(t, t.TempDir(), n, tt.k))
			code, stdout, stderr := runCLI(t, append([]string{"queens", "merge", "--verify", "0"}, files...)...)
			if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "chesspuzzles: queens merge: ") ||
				!strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("merge: exit %d, stdout %q, stderr %q; want exit 2, no output, one line saying %q", code, stdout, stderr, tt.want)
			}
		})
	}
}

// TestMergeVerify: a consistent lie (a task's count, the file's total and its checksum all
// changed together) passes every check of the file; recomputing its task finds it.
func TestMergeVerify(t *testing.T) {
	const n = 12
	plan, _ := queens.NewPlan(n, count.MethodFrames, frames.PlanVersion)
	files := writeShards(t, t.TempDir(), n, 2)
	var liar int64
	editShard(t, files[1], func(m map[string]any) {
		j := weightEight(t, plan, m)
		liar, _ = m["results"].([]any)[j].(map[string]any)["id"].(json.Number).Int64()
		addSolutions(j, 1, true)(m)
	})
	reseal(t, files[1])

	// Without recomputation the files prove nothing against the lie; at N ≤ 27 the
	// published Q(N) still refuses the total (past 27 only --verify or --replicas would),
	// with exit 1 as "queens count" refuses it.
	code, stdout, stderr := runCLI(t, append([]string{"queens", "merge", "--verify", "0"}, files...)...)
	if code != 1 || stdout != "" || !strings.Contains(stderr, "Q(12) summed to 14208, but the published value is 14200") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("merge --verify 0 of a consistent lie: exit %d, %q, %q; want exit 1 and one line naming the published Q(12)", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, append([]string{"queens", "merge", "--verify", "1"}, files...)...)
	want := "task " + strconv.FormatInt(liar, 10) + " of N=12 in "
	if code != 1 || stdout != "" || !strings.Contains(stderr, want) || !strings.Contains(stderr, "the total is refused") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("merge --verify 1: exit %d, stdout %q, stderr %q; want exit 1, one line naming %q", code, stdout, stderr, want)
	}

	// True files pass every share, and Q(12) = 14200 (OEIS A000170).
	good := writeShards(t, t.TempDir(), n, 3)
	for _, f := range []string{"0", "0.02", "0.5", "1"} {
		code, stdout, stderr := runCLI(t, append([]string{"queens", "merge", "--verify", f}, good...)...)
		if code != 0 || stdout != "12 queens: "+knownQ(t, n)+" solutions, 1787 fundamental\n" {
			t.Errorf("merge --verify %s of true files: exit %d, %q, %q", f, code, stdout, stderr)
		}
	}
	for _, f := range []string{"-0.1", "1.5", "NaN"} {
		code, _, stderr := runCLI(t, append([]string{"queens", "merge", "--verify", f}, good...)...)
		if code != 2 || !strings.Contains(stderr, "--verify must be a fraction from 0 to 1") {
			t.Errorf("merge --verify %s: exit %d, %q; want exit 2 and the allowed range", f, code, stderr)
		}
	}
}
