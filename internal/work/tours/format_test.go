package tours

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// published returns the published number of directed open tours of rows×cols.
func published(t *testing.T, rows, cols int) *big.Int {
	t.Helper()
	k, ok := kcount.PublishedOpen(rows, cols)
	if !ok {
		t.Fatalf("no published count of %d×%d", rows, cols)
	}
	return k
}

// The files in testdata/63236ff are in the formats of main 63236ff (written by main
// ba27ce7, which changed no format since): "knight count --board 5x5 --plan --checkpoint"
// cut to its first 8 tasks, and "--shard 0/2" and "--shard 1/2". They must still load, or
// be refused with a line naming the build.

// TestCheckpointOf63236ff: the checkpoint resumes its 8 tasks and the run ends with the
// published count of 5×5's directed open tours.
func TestCheckpointOf63236ff(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile(filepath.Join("testdata", "63236ff", "k5x5-open-ends-v1.ckpt"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "k.ckpt")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan("5x5 open-ends v1")
	if err != nil {
		t.Fatal(err)
	}
	c, done, err := OpenCheckpoint(ctx, path, p)
	if err != nil || len(done) != 8 {
		t.Fatalf("the 63236ff checkpoint: %v, %d results; want 8", err, len(done))
	}
	rs, err := Run(ctx, p, Options{Checkpoint: c, Done: done})
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	total, err := p.Total(rs)
	if want := published(t, 5, 5); err != nil || total.Cmp(want) != 0 {
		t.Errorf("resumed from the 63236ff checkpoint: %v, %v; want %v", total, err, want)
	}
}

// TestMergeOf63236ff: the two slices merge to the published count of 5×5.
func TestMergeOf63236ff(t *testing.T) {
	names := []string{filepath.Join("testdata", "63236ff", "k5x5-0of2.json"), filepath.Join("testdata", "63236ff", "k5x5-1of2.json")}
	p, total, err := Merge(context.Background(), names)
	if want := published(t, 5, 5); err != nil || total.Cmp(want) != 0 || p.Name() != "5x5 open-ends v1" {
		t.Errorf("merging the 63236ff slices: %v, %v, %v; want 5x5 open-ends v1, %v", p, total, err, want)
	}
}
