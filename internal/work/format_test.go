package work

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// copyFixture copies testdata file name into a new temporary directory (a checkpoint is
// written to as it resumes) and returns the copy's path.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCheckpointOf63236ff: a checkpoint in the format of main 63236ff (written by "queens
// count 8 --checkpoint" of main ba27ce7, which changed no format since; the join's plan
// version 102, cut to its first 10 tasks) still loads: its 10 tasks are resumed, the rest
// counted, and the total is the published Q(8).
func TestCheckpointOf63236ff(t *testing.T) {
	plan, err := queens.NewPlan(8, count.MethodJoin, 102)
	if err != nil {
		t.Fatal(err)
	}
	path := copyFixture(t, "63236ff/q8-join-102.ckpt")
	resumed := -1
	res, err := Run(context.Background(), plan, Options{Checkpoint: path, Workers: 2, Progress: func(s Status) {
		if resumed < 0 {
			resumed = s.Resumed
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := queens.Known(8)
	if res.Counts.Total.Cmp(want.Total) != 0 || resumed != 10 {
		t.Errorf("resumed from the 63236ff checkpoint: Q(8) = %v with %d tasks resumed; want %v with 10", res.Counts.Total, resumed, want.Total)
	}
}
