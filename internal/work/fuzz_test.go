package work

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/internal/work/sealed"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// FuzzOpenCheckpoint feeds arbitrary files to OpenCheckpoint: it must never panic, must
// either refuse the file with a *CheckpointError or return results whose ids are tasks of
// the plan, and a file it accepted must read back the same after it dropped any torn tail.
func FuzzOpenCheckpoint(f *testing.F) {
	p, err := queens.NewPlan(6, count.MethodFrames, frames.PlanVersion)
	if err != nil {
		f.Fatal(err)
	}
	header := sealed.Line(Queens(p).CheckpointFormat().Header)
	f.Add([]byte(header))
	f.Add([]byte(header + sealed.Line("3 1 0 0 4")))
	f.Add([]byte(header + sealed.Line("3 1 0 0 4") + "5 0 0"))
	f.Add([]byte("chesspuzzles-count-checkpoint 1 n=7 plan=1 tasks=34 crc=00000000\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "f.ckpt")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, results, err := OpenCheckpoint(path, p)
		if err != nil {
			var ce *CheckpointError
			if !errors.As(err, &ce) {
				t.Fatalf("OpenCheckpoint error %v is not a *CheckpointError", err)
			}
			return
		}
		c.Close()
		for _, r := range results {
			if r.ID < 0 || r.ID >= p.Len() {
				t.Fatalf("OpenCheckpoint returned a result for task %d of %d", r.ID, p.Len())
			}
		}
		c2, again, err := OpenCheckpoint(path, p)
		if err != nil {
			t.Fatalf("reopening an accepted checkpoint: %v", err)
		}
		c2.Close()
		if len(again) != len(results) {
			t.Fatalf("reopened checkpoint holds %d results, first read %d", len(again), len(results))
		}
	})
}
