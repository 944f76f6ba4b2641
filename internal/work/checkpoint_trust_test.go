package work

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/sealed"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestCheckpointForgedLine is issue 25's probe: a result line edited and its CRC computed
// again (there Q(16) came out 8,000,014,761,696) is refused on load, for both methods, as is
// a second line of one task with another result.
func TestCheckpointForgedLine(t *testing.T) {
	frames := plan(t, 12)
	join, err := queens.NewPlan(12, count.MethodJoin, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []count.Plan{frames, join} {
		t.Run(p.Method(), func(t *testing.T) {
			dir := t.TempDir()
			good := filepath.Join(dir, "good.ckpt")
			if _, err := Run(context.Background(), p, Options{Checkpoint: good}); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(good)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(string(data), "\n")
			body, ok := sealed.Unseal(strings.TrimSuffix(lines[1], "\n"))
			if !ok {
				t.Fatalf("line 2 %q has no good CRC", lines[1])
			}
			f := strings.Fields(body)
			var sol, nodes uint64
			fmt.Sscan(f[1], &sol)
			fmt.Sscan(f[4], &nodes)
			f[1] = fmt.Sprint(sol + 8_000_000_000_000)
			forged := sealed.Line(strings.Join(f, " "))
			f[1], f[4] = fmt.Sprint(sol), fmt.Sprint(nodes+1)
			other := sealed.Line(strings.Join(f, " ")) // possible, but not what line 2 says
			for _, tc := range []struct{ name, content, want string }{
				{"raised by 8·10^12", lines[0] + forged + strings.Join(lines[2:], ""), "line 2: task"},
				{"task twice", strings.Join(lines, "") + other, "again with another result"},
			} {
				path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
				if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
					t.Fatal(err)
				}
				res, err := Run(context.Background(), p, Options{Checkpoint: path})
				var ce *CheckpointError
				if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: Run = %v, %v; want a CheckpointError saying %q", tc.name, res.Counts.Total, err, tc.want)
				}
			}
		})
	}
}

// TestCheckpointNotRegular: a device, a FIFO or a line without end is refused at once,
// never read without bound (issue 25: "queens count --checkpoint /dev/zero").
func TestCheckpointNotRegular(t *testing.T) {
	p := plan(t, 8)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	mkfifo(t, fifo)
	long := filepath.Join(dir, "long")
	if err := os.WriteFile(long, []byte(strings.Repeat("x", 1<<20)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{"/dev/zero", "not a regular file"},
		{fifo, "not a regular file"},
		{long, "longer than"},
	} {
		start := time.Now()
		_, _, err := OpenCheckpoint(tc.path, p)
		var ce *CheckpointError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("OpenCheckpoint(%q) = %v, want a CheckpointError saying %q", tc.path, err, tc.want)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("OpenCheckpoint(%q) took %v", tc.path, d)
		}
	}
	if fi, err := os.Stat("/dev/zero"); err != nil || fi.Mode().IsRegular() {
		t.Errorf("/dev/zero was replaced: %v, %v", fi.Mode(), err)
	}
}
