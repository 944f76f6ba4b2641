//go:build unix

package scan

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestScreens reads every picture (PNG, JPEG or GIF) in the folder that
// CHESSPUZZLES_SCREENS names — real screenshots of the daily game, kept outside the
// repository — and logs, for each, right, WRONG or refused (with the reason) and the CPU
// time of its read. NAME.truth.txt beside a picture is its grid as region letters (the
// text form of [regions.Puzzle.String]); a picture with no truth must be refused or read
// as drawn, and is only logged. It fails on any wrong read and on any read of more than a
// CPU-second. Without CHESSPUZZLES_SCREENS it skips, saying so.
func TestScreens(t *testing.T) {
	dir := os.Getenv("CHESSPUZZLES_SCREENS")
	if dir == "" {
		t.Skip("CHESSPUZZLES_SCREENS=DIR reads the screenshots in DIR")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".png", ".jpg", ".jpeg", ".gif":
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		t.Fatalf("no pictures in %s", dir)
	}
	var right, wrong, refused, untold int
	var total, slowest time.Duration
	for _, name := range names {
		path := filepath.Join(dir, name)
		want := ""
		if b, err := os.ReadFile(strings.TrimSuffix(path, filepath.Ext(path)) + ".truth.txt"); err == nil {
			want = strings.TrimSpace(string(b)) + "\n"
		} else if !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t0 := cpuTime(t)
		p, err := Read(context.Background(), f)
		used := cpuTime(t) - t0
		f.Close()
		total += used
		slowest = max(slowest, used)
		if used > time.Second {
			t.Errorf("%s: read took %.2f CPU-s, want at most 1", name, used.Seconds())
		}
		switch {
		case err != nil && !errors.Is(err, ErrUnreadable):
			t.Errorf("%s: %v", name, err)
		case err != nil:
			refused++
			t.Logf("%-34s refused  %.3fs  %v", name, used.Seconds(), err)
		case want == "":
			untold++
			t.Logf("%-34s read (no truth)  %.3fs\n%s", name, used.Seconds(), p)
		case p.String() == want:
			right++
			t.Logf("%-34s right    %.3fs", name, used.Seconds())
		default:
			wrong++
			t.Errorf("%-34s WRONG    %.3fs: read\n%swant\n%s", name, used.Seconds(), p, want)
		}
	}
	t.Logf("%d pictures: %d right, %d WRONG, %d refused, %d read with no truth; CPU a read %.3fs mean, %.3fs at most",
		len(names), right, wrong, refused, untold, total.Seconds()/float64(len(names)), slowest.Seconds())
}
