package shard

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// computeFiles writes the k slices of N = n, frames, plan version 1, to files in dir.
func computeFiles(t *testing.T, dir string, n, k int) ([]string, []File) {
	t.Helper()
	plan := mustPlan(t, n)
	var names []string
	var files []File
	for i := range k {
		f, err := Compute(context.Background(), plan, i, k, work.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, writeFile(t, filepath.Join(dir, "s"+strconv.Itoa(i)+".json"), f))
		files = append(files, f)
	}
	return names, files
}

func writeFile(t *testing.T, name string, f File) string {
	t.Helper()
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestMergeKinds: Merge sums two runs of every slice of N = 10 to Q(10) = 724 (OEIS
// A000170), and says which kind of error each bad set is: a copy given as a replica and an
// edited file are bad input (ErrInput); replicas that disagree, and a consistent lie that
// the published Q(10) refuses, are a refused total (ErrRefused).
func TestMergeKinds(t *testing.T) {
	a, af := computeFiles(t, t.TempDir(), 10, 2)
	b, _ := computeFiles(t, t.TempDir(), 10, 2)
	ctx := context.Background()
	c, _, err := Merge(ctx, append(append([]string{}, a...), b...), MergeOptions{Replicas: 2})
	if err != nil || c.Total.String() != "724" {
		t.Fatalf("Merge of two runs = %v, %v; want 724", c.Total, err)
	}

	dir := t.TempDir()
	cp := writeFile(t, filepath.Join(dir, "copy.json"), af[1])
	if _, _, err := Merge(ctx, []string{a[0], a[1], b[0], cp}, MergeOptions{Replicas: 2}); !errors.Is(err, ErrInput) {
		t.Errorf("a copy as a replica: %v, want ErrInput", err)
	}

	// A lie in a replica of slice 1: the first task with a solution gets one more, with
	// the file's total and checksum made to agree.
	lie := af[1]
	lie.Results = append([]count.Result{}, lie.Results...)
	lie.Run = "another run"
	j := 0
	for lie.Results[j].Solutions == 0 {
		j++
	}
	lie.Results[j].Solutions++
	sum, err := work.Sum(mustPlan(t, 10), lie.Results)
	if err != nil {
		t.Fatal(err)
	}
	lie.Solutions = sum.Counts.Total.String()
	lie.Checksum = Sum(lie)
	liar := writeFile(t, filepath.Join(dir, "lie.json"), lie)
	if _, _, err := Merge(ctx, []string{a[0], a[1], b[0], liar}, MergeOptions{Replicas: 2}); !errors.Is(err, ErrRefused) {
		t.Errorf("replicas that disagree: %v, want ErrRefused", err)
	}
	if _, _, err := Merge(ctx, []string{a[0], liar}, MergeOptions{Replicas: 1}); !errors.Is(err, ErrRefused) {
		t.Errorf("a lie against the published Q(10): %v, want ErrRefused", err)
	}

	edited := lie
	edited.Checksum = af[1].Checksum
	ed := writeFile(t, filepath.Join(dir, "edited.json"), edited)
	if _, _, err := Merge(ctx, []string{a[0], ed}, MergeOptions{Replicas: 1}); !errors.Is(err, ErrInput) || errors.Is(err, ErrRefused) {
		t.Errorf("an edited file: %v, want ErrInput alone", err)
	}
}

// mustPlan returns the built frames plan of version 1 for N = n.
func mustPlan(t *testing.T, n int) count.Plan {
	t.Helper()
	p, err := queens.NewPlan(n, count.MethodFrames, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSample: sample(n, k) gives k distinct indices in ascending order, every index about
// equally often (30,000 draws of 3 of 10: each index 9,000 times expected, within 5 %).
func TestSample(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{1, 1}, {10, 0}, {10, 10}, {1000, 7}} {
		got := sample(tc.n, tc.k)
		if len(got) != tc.k {
			t.Fatalf("sample(%d, %d) has %d indices", tc.n, tc.k, len(got))
		}
		for i, v := range got {
			if v < 0 || v >= tc.n || i > 0 && got[i-1] >= v {
				t.Fatalf("sample(%d, %d) = %v: not distinct, ascending, in range", tc.n, tc.k, got)
			}
		}
	}
	freq := make([]int, 10)
	for range 30000 {
		for _, v := range sample(10, 3) {
			freq[v]++
		}
	}
	for i, f := range freq {
		if f < 8550 || f > 9450 {
			t.Errorf("index %d drawn %d times of 90,000, want about 9,000: %v", i, f, freq)
		}
	}
}
