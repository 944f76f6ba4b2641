package shard

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// knightPlan makes a knight plan from its name, as "knight merge" does.
func knightPlan(name string) (work.Plan, error) { return work.NewKnightPlan(name) }

// TestPlanMergeOf63236ff: the two slices "knight count --board 5x5 --plan --shard I/2" in
// the format of main 63236ff (written by main ba27ce7, which changed no format since;
// testdata/63236ff) still merge, checksums and all, to the published count of 5×5.
func TestPlanMergeOf63236ff(t *testing.T) {
	names := []string{filepath.Join("testdata", "63236ff", "k5x5-0of2.json"), filepath.Join("testdata", "63236ff", "k5x5-1of2.json")}
	p, total, err := MergePlan(context.Background(), names, knightPlan)
	want, _ := kcount.PublishedOpen(5, 5)
	if err != nil || total.Cmp(want) != 0 || p.Job() != "k5x5-open-ends-v1" {
		t.Errorf("merging the 63236ff slices: %v, %v, %v; want k5x5-open-ends-v1, %v", p, total, err, want)
	}
}

// writeSlices computes the k slices of p into dir and returns their names.
func writeSlices(t *testing.T, dir string, p work.Plan, k int) []string {
	t.Helper()
	var names []string
	for i := range k {
		f, err := ComputePlan(context.Background(), p, i, k, work.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(f)
		name := filepath.Join(dir, "s"+string(rune('0'+i))+".json")
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

// TestPlanMerge computes 5×5 (whose count is published) and 4×5 in slices, merges them,
// and refuses sets of files that are not one complete plan.
func TestPlanMerge(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p55, _ := work.NewKnightPlan("5x5 open-ends v1")
	names := writeSlices(t, dir, p55, 3)
	_, total, err := MergePlan(ctx, names, knightPlan)
	if err != nil || total.Cmp(big.NewInt(1728)) != 0 {
		t.Fatalf("merge of 5×5 in 3 slices: %v, %v; want 1728", total, err)
	}
	dir45 := t.TempDir()
	p45, _ := work.NewKnightPlan("4x5 open-ends v1")
	names45 := writeSlices(t, dir45, p45, 2)
	want45, err := kcount.Tours(ctx, 4, 5, kcount.Options{Method: kcount.MethodDP})
	if err != nil {
		t.Fatal(err)
	}
	if _, total, err := MergePlan(ctx, names45, knightPlan); err != nil || total.Cmp(want45) != 0 {
		t.Errorf("merge of 4×5 in 2 slices: %v, %v; want %v", total, err, want45)
	}
	// a file edited without its checksum, and one edited with it recomputed
	var f PlanFile
	data, _ := os.ReadFile(names[1])
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if f.Results[0].CountName != "tours" || len(f.Results[0].Counters) != 2 || f.Results[0].Start == "" {
		t.Fatalf("a 5×5 slice's first result %+v: want its tours, states and peak, and its ends", f.Results[0])
	}
	f.Results[0].Count = "99"
	edited := filepath.Join(dir, "edited.json")
	b, _ := json.Marshal(f)
	os.WriteFile(edited, b, 0o644)
	f.Checksum = SumPlan(f)
	resealed := filepath.Join(dir, "resealed.json")
	b, _ = json.Marshal(f)
	os.WriteFile(resealed, b, 0o644)
	// a queens shard file (a slice of another puzzle), and a file with more after its object
	queens := filepath.Join(dir, "queens.json")
	os.WriteFile(queens, []byte(`{"n":8,"plan_version":1,"shard":0,"shards":1,"tasks":1,"solutions":"92","half_turn":"0","quarter_turn":"0","nodes":1,"seconds":0,"results":[],"checksum":""}`), 0o644)
	trailing := filepath.Join(dir, "trailing.json")
	data, _ = os.ReadFile(names[1])
	os.WriteFile(trailing, append(data, []byte("{}\n")...), 0o644)
	twoCounts := filepath.Join(dir, "twocounts.json")
	os.WriteFile(twoCounts, []byte(strings.Replace(string(data), `"tours":`, `"count":"1","tours":`, 1)), 0o644)
	tests := []struct {
		name  string
		files []string
		kind  error
		want  string
	}{
		{"missing slice", names[:2], ErrInput, "is missing"},
		{"slice twice", append([]string{names[0]}, names...), ErrInput, "both slice 0/3"},
		{"changed", []string{names[0], edited, names[2]}, ErrInput, "checksum"},
		{"resealed", []string{names[0], resealed, names[2]}, ErrInput, "weighed sum"},
		{"two plans", []string{names[0], names45[0]}, ErrInput, "plan"},
		{"no files", nil, ErrInput, "no result files"},
		{"queens shard", []string{queens}, ErrInput, "not the output"},
		{"data after", []string{names[0], trailing, names[2]}, ErrInput, "data after its JSON object"},
		{"two counts", []string{names[0], twoCounts, names[2]}, ErrInput, "not the output"},
		{"a directory", []string{dir}, ErrInput, "not a regular file"},
		{"no such file", []string{filepath.Join(dir, "none.json")}, ErrInput, "none.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := MergePlan(ctx, tt.files, knightPlan)
			if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("MergePlan: %v, want %v saying %q", err, tt.kind, tt.want)
			}
		})
	}
	// a consistent forgery (weighed sum and checksum redone) is refused by the published count
	w := new(big.Int)
	for _, r := range f.Results {
		k, _ := new(big.Int).SetString(r.Count, 10)
		w.Add(w, k.Mul(k, big.NewInt(r.Weight)))
	}
	f.Weighed = w.String()
	f.Checksum = SumPlan(f)
	b, _ = json.Marshal(f)
	os.WriteFile(resealed, b, 0o644)
	if _, _, err := MergePlan(ctx, []string{names[0], resealed, names[2]}, knightPlan); !errors.Is(err, ErrRefused) {
		t.Errorf("MergePlan of a consistent forgery of 5×5: %v, want ErrRefused", err)
	}
}
