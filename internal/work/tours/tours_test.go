package tours

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/sealed"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// wholeCount is the whole forward sweep's count of a board's directed open tours.
func wholeCount(t *testing.T, rows, cols int) *big.Int {
	t.Helper()
	k, err := kcount.Tours(context.Background(), rows, cols, kcount.Options{Method: kcount.MethodDP})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestCheckpointResume counts 4×6 in three runs: one cut short after four tasks, one after
// a crash that tore its last line, one to the end; the total is the whole sweep's, and no
// task is counted twice.
func TestCheckpointResume(t *testing.T) {
	ctx := context.Background()
	p, err := NewPlan("4x6 open-ends v1")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ck")
	c, done, err := OpenCheckpoint(ctx, path, p)
	if err != nil || len(done) != 0 {
		t.Fatalf("new checkpoint: %v, %d results", err, len(done))
	}
	ctx1, cancel := context.WithCancel(ctx)
	n := 0
	_, err = Run(ctx1, p, Options{Checkpoint: c, Finished: func(Result, time.Duration) {
		if n++; n == 4 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("run cancelled after 4 tasks: error %v", err)
	}
	c.Close()
	// a crash in the middle of a write leaves a line without its newline
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("5 12345 6")
	f.Close()
	c, done, err = OpenCheckpoint(ctx, path, p)
	if err != nil || len(done) != 4 {
		t.Fatalf("resumed checkpoint: %v, %d results, want 4", err, len(done))
	}
	counted := 0
	rs, err := Run(ctx, p, Options{Checkpoint: c, Done: done, Finished: func(Result, time.Duration) { counted++ }})
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	if counted != p.Len()-4 {
		t.Errorf("the resumed run counted %d tasks, want %d", counted, p.Len()-4)
	}
	total, err := p.Total(rs)
	if err != nil {
		t.Fatal(err)
	}
	if want := wholeCount(t, 4, 6); total.Cmp(want) != 0 {
		t.Errorf("4×6 by a resumed plan: %v, the whole sweep %v", total, want)
	}
	_, done, err = OpenCheckpoint(ctx, path, p)
	if err != nil || len(done) != p.Len() {
		t.Errorf("finished checkpoint: %v, %d results, want %d", err, len(done), p.Len())
	}
}

// TestCheckpointRefuses opens damaged checkpoints and one of another plan.
func TestCheckpointRefuses(t *testing.T) {
	ctx := context.Background()
	p, _ := NewPlan("4x5 open-ends v1")
	other, _ := NewPlan("5x4 open-ends v1")
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	c, _, err := OpenCheckpoint(ctx, good, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Record(Result{ID: 1, Tours: big.NewInt(6), States: 40, Peak: 9}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	data, _ := os.ReadFile(good)
	tests := []struct {
		name, content, want string
	}{
		{"not a checkpoint", "hello\n", "not a knight count checkpoint"},
		{"edited count", strings.Replace(string(data), "1 6 40 9", "1 7 40 9", 1), "damaged"},
		{"twice, differing", string(data) + sealed.Line("1 8 40 9"), "another result"},
		{"no such task", string(data) + sealed.Line("99 8 40 9"), "has tasks 0 to"},
		{"empty", "", "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
			os.WriteFile(path, []byte(tt.content), 0o644)
			_, _, err := OpenCheckpoint(ctx, path, p)
			var ce *CheckpointError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("OpenCheckpoint: %v, want a *CheckpointError saying %q", err, tt.want)
			}
		})
	}
	if _, _, err := OpenCheckpoint(ctx, good, other); err == nil || !strings.Contains(err.Error(), "another plan") {
		t.Errorf("checkpoint of 4×5 opened for 5×4: %v, want refused", err)
	}
	if _, _, err := OpenCheckpoint(ctx, dir, p); err == nil {
		t.Errorf("a directory opened as a checkpoint")
	}
}

// writeSlices computes the k slices of rows×cols into dir and returns their names.
func writeSlices(t *testing.T, dir string, p Plan, k int) []string {
	t.Helper()
	var names []string
	for i := range k {
		f, err := Compute(context.Background(), p, i, k, Options{})
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

// TestMerge computes 5×5 (whose count is published) and 4×5 in slices, merges them, and
// refuses sets of files that are not one complete plan.
func TestMerge(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p55, _ := NewPlan("5x5 open-ends v1")
	names := writeSlices(t, dir, p55, 3)
	_, total, err := Merge(ctx, names)
	if err != nil || total.Cmp(big.NewInt(1728)) != 0 {
		t.Fatalf("merge of 5×5 in 3 slices: %v, %v; want 1728", total, err)
	}
	dir45 := t.TempDir()
	p45, _ := NewPlan("4x5 open-ends v1")
	names45 := writeSlices(t, dir45, p45, 2)
	if _, total, err := Merge(ctx, names45); err != nil || total.Cmp(wholeCount(t, 4, 5)) != 0 {
		t.Errorf("merge of 4×5 in 2 slices: %v, %v", total, err)
	}
	// a file edited without its checksum, and one edited with it recomputed
	var f File
	data, _ := os.ReadFile(names[1])
	json.Unmarshal(data, &f)
	f.Results[0].Tours = "99"
	edited := filepath.Join(dir, "edited.json")
	b, _ := json.Marshal(f)
	os.WriteFile(edited, b, 0o644)
	f.Checksum = Sum(f)
	resealed := filepath.Join(dir, "resealed.json")
	b, _ = json.Marshal(f)
	os.WriteFile(resealed, b, 0o644)
	// a queens shard file (a slice of another puzzle), and a file with more after its object
	queens := filepath.Join(dir, "queens.json")
	os.WriteFile(queens, []byte(`{"n":8,"plan_version":1,"shard":0,"shards":1,"tasks":1,"solutions":"92","half_turn":"0","quarter_turn":"0","nodes":1,"seconds":0,"results":[],"checksum":""}`), 0o644)
	trailing := filepath.Join(dir, "trailing.json")
	data, _ = os.ReadFile(names[1])
	os.WriteFile(trailing, append(data, []byte("{}\n")...), 0o644)
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
		{"a directory", []string{dir}, ErrInput, "not a regular file"},
		{"no such file", []string{filepath.Join(dir, "none.json")}, ErrInput, "none.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Merge(ctx, tt.files)
			if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Merge: %v, want %v saying %q", err, tt.kind, tt.want)
			}
		})
	}
	// a consistent forgery (weighed sum and checksum redone) is refused by the published count
	f.Weighed = "0"
	w := new(big.Int)
	for _, r := range f.Results {
		k, _ := new(big.Int).SetString(r.Tours, 10)
		w.Add(w, k.Mul(k, big.NewInt(r.Weight)))
	}
	f.Weighed = w.String()
	f.Checksum = Sum(f)
	b, _ = json.Marshal(f)
	os.WriteFile(resealed, b, 0o644)
	if _, _, err := Merge(ctx, []string{names[0], resealed, names[2]}); !errors.Is(err, ErrRefused) {
		t.Errorf("Merge of a consistent forgery of 5×5: %v, want ErrRefused", err)
	}
}

// TestPlanNames parses plan names and refuses names that are not one, or of a kind or
// version this build does not make.
func TestPlanNames(t *testing.T) {
	for _, name := range []string{"8x8 open-ends v1", "5x10 open-ends v1"} {
		p, err := NewPlan(name)
		if err != nil || p.Name() != name {
			t.Errorf("NewPlan(%q): %v, %v", name, p, err)
		}
	}
	if p, _ := NewPlan("8x8 open-ends v1"); p.Len() != 136 {
		t.Errorf("8×8 open-ends: %d tasks, want 136 (Chernov's classes)", p.Len())
	}
	for _, name := range []string{"", "8x8", "8x8 open-ends", "8x8 open-ends v0", "8x8 open-ends v2", "8x8  open-ends v1", "08x8 open-ends v1",
		"8x8 Open v1", "8x8 closed v1", "0x8 open-ends v1", "8x8 open-ends v1 ", "9x9 open-ends v1"} {
		if _, err := NewPlan(name); err == nil {
			t.Errorf("NewPlan(%q) made a plan", name)
		}
	}
}
