package cluster

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// copyState copies the state directory testdata/dir into a new temporary directory with
// the owner-only modes a coordinator wants (git keeps none), and returns the copy.
func copyState(t *testing.T, dir string) string {
	t.Helper()
	src := filepath.Join("testdata", dir)
	dst := filepath.Join(t.TempDir(), "state")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o700)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestStateOf63236ff: the state directory of a finished "queens count 8 --distributed
// --workers 2 --state DIR" in the formats of main 63236ff (written by main ba27ce7, which
// changed no format since: its authority, secret, snapshot and JetStream store) still
// loads: counting N = 8 again on it, with no worker, resumes every task and answers the
// published Q(8). Its snapshot, of format 3, is ignored, and its results, of message
// version 2, read from the stream and made the plan's (legacyResult).
func TestStateOf63236ff(t *testing.T) {
	parallel(t)
	plan, err := newQueensPlan(8, count.MethodFrames, frames.PlanVersion)
	if err != nil {
		t.Fatal(err)
	}
	resumed := -1
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, _, err := Count(ctx, plan, CountOptions{Listen: "127.0.0.1:0", StoreDir: copyState(t, "63236ff/state-q8"), Logf: t.Logf,
		Progress: func(s work.Status) {
			resumed = s.Resumed // the last status says what the run found stored
		}})
	want, _ := queens.Known(8)
	if err != nil || c.Total.Cmp(want.Total) != 0 || resumed != plan.Len() {
		t.Errorf("counting again on the 63236ff state: %v, %v, %d of %d tasks resumed; want %v, all resumed", c.Total, err, resumed, plan.Len(), want.Total)
	}
}

// TestKnightStateOf63236ff: the same for the state directory of a finished "knight count
// --board 5x5 --plan --distributed --workers 2 --state DIR" of the same build: counting 5×5 again
// on it resumes every task and answers the published count of its directed open tours.
func TestKnightStateOf63236ff(t *testing.T) {
	parallel(t)
	plan, err := work.NewKnightPlan("5x5 open-ends v1")
	if err != nil {
		t.Fatal(err)
	}
	resumed := -1
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, _, err := Count(ctx, plan, CountOptions{Listen: "127.0.0.1:0", StoreDir: copyState(t, "63236ff/state-k5x5"), Logf: t.Logf,
		Progress: func(s work.Status) { resumed = s.Resumed }})
	want, _ := kcount.PublishedOpen(5, 5)
	if err != nil || c.Total.Cmp(want) != 0 || resumed != plan.Len() {
		t.Errorf("counting again on the 63236ff state: %v, %v, %d of %d tasks resumed; want %v, all resumed", c.Total, err, resumed, plan.Len(), want)
	}
}
