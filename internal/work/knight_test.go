package work

import (
	"context"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/sealed"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// mustKnight returns the knight plan a name names.
func mustKnight(t *testing.T, name string) *KnightPlan {
	t.Helper()
	p, err := NewKnightPlan(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// wholeCount is the whole forward sweep's count of a board's directed open tours.
func wholeCount(t *testing.T, rows, cols int) *big.Int {
	t.Helper()
	k, err := kcount.Tours(context.Background(), rows, cols, kcount.Options{Method: kcount.MethodDP})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestKnightCheckpointResume counts 4×6 in three runs: one cut short after four tasks,
// one after a crash that tore its last line, one to the end; the total is the whole
// sweep's, and no task is counted twice.
func TestKnightCheckpointResume(t *testing.T) {
	ctx := context.Background()
	p := mustKnight(t, "4x6 open-ends v1")
	path := filepath.Join(t.TempDir(), "ck")
	stop := errors.New("stop")
	n := 0
	_, err := RunPlan(ctx, p, Options{Workers: 1, Checkpoint: path, Finished: func(Result, time.Duration) error {
		if n++; n == 4 {
			return stop // recorded, then the run stops
		}
		return nil
	}})
	if !errors.Is(err, stop) {
		t.Fatalf("run stopped after 4 tasks: error %v", err)
	}
	// a crash in the middle of a write leaves a line without its newline
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("5 12345 6")
	f.Close()
	c, done, err := OpenPlanCheckpoint(ctx, path, p)
	if err != nil || len(done) != 4 {
		t.Fatalf("resumed checkpoint: %v, %d results, want 4", err, len(done))
	}
	c.Close()
	counted, resumed := 0, -1
	out, err := RunPlan(ctx, p, Options{Workers: 1, Checkpoint: path,
		Finished: func(Result, time.Duration) error { counted++; return nil },
		Progress: func(s Status) {
			if resumed < 0 {
				resumed = s.Resumed
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if counted != p.Len()-4 || resumed != 4 {
		t.Errorf("the resumed run counted %d tasks and resumed %d, want %d and 4", counted, resumed, p.Len()-4)
	}
	if want := wholeCount(t, 4, 6); out.Total.Cmp(want) != 0 {
		t.Errorf("4×6 by a resumed plan: %v, the whole sweep %v", out.Total, want)
	}
	c, done, err = OpenPlanCheckpoint(ctx, path, p)
	if err != nil || len(done) != p.Len() {
		t.Errorf("finished checkpoint: %v, %d results, want %d", err, len(done), p.Len())
	}
	c.Close()
}

// TestKnightCheckpointRefuses opens damaged knight checkpoints and one of another plan.
func TestKnightCheckpointRefuses(t *testing.T) {
	ctx := context.Background()
	p := mustKnight(t, "4x5 open-ends v1")
	other := mustKnight(t, "5x4 open-ends v1")
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	c, _, err := OpenPlanCheckpoint(ctx, good, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Add(KnightResult(kcount.OpenResult{ID: 1, Tours: big.NewInt(6), States: 40, Peak: 9})); err != nil {
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
			_, _, err := OpenPlanCheckpoint(ctx, path, p)
			var ce *CheckpointError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("OpenPlanCheckpoint: %v, want a *CheckpointError saying %q", err, tt.want)
			}
		})
	}
	if _, _, err := OpenPlanCheckpoint(ctx, good, other); err == nil || !strings.Contains(err.Error(), "another plan") {
		t.Errorf("checkpoint of 4×5 opened for 5×4: %v, want refused", err)
	}
	if _, _, err := OpenPlanCheckpoint(ctx, dir, p); err == nil {
		t.Errorf("a directory opened as a checkpoint")
	}
}

// TestKnightCheckpointOf63236ff: the knight checkpoint in the format of main 63236ff
// (written by main ba27ce7, which changed no format since: "knight count --board 5x5 --plan
// --checkpoint" cut to its first 8 tasks) resumes its 8 tasks, and the run ends with the
// published count of 5×5's directed open tours.
func TestKnightCheckpointOf63236ff(t *testing.T) {
	ctx := context.Background()
	path := copyFixture(t, filepath.Join("63236ff", "k5x5-open-ends-v1.ckpt"))
	p := mustKnight(t, "5x5 open-ends v1")
	c, done, err := OpenPlanCheckpoint(ctx, path, p)
	if err != nil || len(done) != 8 {
		t.Fatalf("the 63236ff checkpoint: %v, %d results; want 8", err, len(done))
	}
	c.Close()
	resumed := -1
	out, err := RunPlan(ctx, p, Options{Workers: 1, Checkpoint: path, Progress: func(s Status) {
		if resumed < 0 {
			resumed = s.Resumed
		}
	}})
	want, _ := kcount.PublishedOpen(5, 5)
	if err != nil || out.Total.Cmp(want) != 0 || resumed != 8 {
		t.Errorf("resumed from the 63236ff checkpoint: %v, %v, %d resumed; want %v, 8 resumed", out.Total, err, resumed, want)
	}
}

// TestKnightPlanNames parses plan names and refuses names that are not one, or of a kind
// or version this build does not make.
func TestKnightPlanNames(t *testing.T) {
	for _, name := range []string{"8x8 open-ends v1", "5x10 open-ends v1"} {
		p, err := NewKnightPlan(name)
		if err != nil || p.Name() != name {
			t.Errorf("NewKnightPlan(%q): %v, %v", name, p, err)
		}
	}
	if p := mustKnight(t, "8x8 open-ends v1"); p.Len() != 136 {
		t.Errorf("8×8 open-ends: %d tasks, want 136 (Chernov's classes)", p.Len())
	}
	for _, name := range []string{"", "8x8", "8x8 open-ends", "8x8 open-ends v0", "8x8 open-ends v2", "8x8  open-ends v1", "08x8 open-ends v1",
		"8x8 Open v1", "8x8 closed v1", "0x8 open-ends v1", "8x8 open-ends v1 ", "9x9 open-ends v1"} {
		if _, err := NewKnightPlan(name); err == nil {
			t.Errorf("NewKnightPlan(%q) made a plan", name)
		}
	}
}

// TestKnightSplitPlan makes split plans by name, runs one and sums it to the published
// 5×5 count, and refuses names this build does not make.
func TestKnightSplitPlan(t *testing.T) {
	p := mustKnight(t, "5x5 open-split-c8k3f4-c12k2f0 v1")
	if p.Len() != 6 || p.Name() != "5x5 open-split-c8k3f4-c12k2f0 v1" {
		t.Fatalf("NewKnightPlan: %d tasks named %q, want 6 named as asked", p.Len(), p.Name())
	}
	if got, _ := p.Task(5); got.Desc != "parts 8:2/3 12:1/2" {
		t.Errorf("task 5's description %q, want %q", got.Desc, "parts 8:2/3 12:1/2")
	}
	out, err := RunPlan(context.Background(), p, Options{Workers: 1})
	if want, _ := p.Published(); err != nil || out.Total.Cmp(want) != 0 {
		t.Errorf("5×5 by a split plan: %v directed open tours, %v; want %v", out.Total, err, want)
	}
	if got := KnightFamily("open-split-c8k3f4-c12k2f0"); got != KindOpenSplit {
		t.Errorf("KnightFamily(open-split-c8k3f4-c12k2f0) = %q, want %q", got, KindOpenSplit)
	}
	if ks := KnightKinds(); !slices.Contains(ks, "open-split v1") {
		t.Errorf("KnightKinds() = %q, want open-split v1 among them", ks)
	}
	for _, name := range []string{"5x5 open-split-c8k3f4 v2", "5x5 open-split-c8k3 v1", "5x5 open-split-c30k3f4 v1", "5x5 open-split- v1", "5x5 open-split-c08k3f4 v1"} {
		if _, err := NewKnightPlan(name); err == nil {
			t.Errorf("NewKnightPlan(%q): no error", name)
		}
	}
}
