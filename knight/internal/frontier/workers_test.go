package frontier

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestSpillWorkers checks spilling counts placed by two and three workers (runs spilled at
// the widest cells, cuts between rounds) against the same counts in memory, and that a
// finished count leaves no file behind: 4×5 open, and with CHESSPUZZLES_LONG set 5×5
// from a corner and 5×6 open and closed.
func TestSpillWorkers(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		opts       Options
		budget     int64
	}{
		{"4x5 open", 4, 5, Options{Start: -1}, 1 << 10},
		{"5x5 from a corner", 5, 5, Options{Start: 0}, 1 << 10},
		{"5x6 closed", 5, 6, Options{Closed: true, Start: -1}, 1 << 10},
		{"5x6 open", 5, 6, Options{Start: -1}, spillBudget},
	}
	switch {
	case testing.Short():
		tests = tests[:1]
	case os.Getenv("CHESSPUZZLES_LONG") == "":
		tests = tests[:1] // the others take 10–40 s each with -race
	}
	ctx := context.Background()
	for _, tt := range tests {
		want, err := Count(ctx, tt.rows, tt.cols, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{2, 3} {
			d := newMemDisk()
			opts := tt.opts
			opts.Workers = workers
			got, spills, err := spillCount(ctx, tt.rows, tt.cols, opts, d, tt.budget)
			if err != nil {
				t.Fatalf("%s, %d workers: %v", tt.name, workers, err)
			}
			if got != want.Uint64() {
				t.Errorf("%s, %d workers: count %d, want %d", tt.name, workers, got, want)
			}
			if spills < 2 {
				t.Errorf("%s, %d workers: at most %d runs spilled at a cell, want several", tt.name, workers, spills)
			}
			if names, _ := d.Names(); len(names) > 0 {
				t.Errorf("%s, %d workers: files left after the count: %v", tt.name, workers, names)
			}
		}
	}
}

// TestSpillWorkersResume stops a spilling count of open tours at cuts with two runs or
// more, placed by two workers, and resumes it by one, and the other way round; then stops it
// as it makes its k-th file for k over the whole count and resumes it as often as it takes
// by two workers and one alternately; and stops it by two workers at a cut by the clock in a
// step that finished tours, resumed by one. Every resume ends with the count in memory's total,
// and some resume from a cut: cutBoard's board (5×6 with CHESSPUZZLES_LONG set).
func TestSpillWorkersResume(t *testing.T) {
	rows, cols, budget := cutBoard()
	want, err := Count(context.Background(), rows, cols, Options{Start: -1})
	if err != nil {
		t.Fatal(err)
	}
	long := os.Getenv("CHESSPUZZLES_LONG") != ""
	// (a spilling count of 4×5 takes about a second with -race: its files' buffers)
	// (three stops: a stop before the first lasting cut, at about a sixth of the files,
	// resumes from a layer; the quarter, half and three-quarter marks each resume from a
	// cut in most runs, whatever order two workers make their files in)
	ats, stops, ways := []int{1}, 3, [][2]int{{2, 1}}
	if long {
		ats, stops, ways = []int{0, 3, 6}, 24, [][2]int{{2, 1}, {1, 2}}
	}
	for _, w := range ways {
		for _, at := range ats {
			d, _ := stopAtCut(t, rows, cols, Options{Start: -1, Workers: w[0]}, budget, at, twoRuns)
			got, cells, done, runs := resumeAll(t, rows, cols, d, budget, w[1])
			if got != want.Uint64() || cells < 0 || done < 1 || runs < 2 {
				t.Errorf("stopped at cut %d by %d workers, resumed by %d: count %d from a cut after %d cells, %d done, %d runs; want %d from a cut of two runs or more",
					at, w[0], w[1], got, cells, done, runs, want)
			}
		}
	}
	// a cut by the clock whose step finished tours before it, taken by two workers (the
	// cut holds the tours each worker finished) and resumed by one
	toursBefore := func(d Disk, c *cut) bool { return c.done > 0 && c.total != layerTotal(d, c) }
	d, _ := stopAtCut(t, rows, cols, Options{Start: -1, Workers: 2, CutEvery: time.Nanosecond}, 1<<40, 0, toursBefore)
	if got, cells, _, _ := resumeAll(t, rows, cols, d, 1<<40, 1); got != want.Uint64() || cells < 0 {
		t.Errorf("stopped by 2 workers at a cut after tours were finished, resumed by 1: count %d from %d cells; want %d from a cut", got, cells, want)
	}
	made := 0
	d = &cutWatch{memDisk: newMemDisk(), fail: func(string) error { made++; return nil }}
	if _, _, err := spillCount(context.Background(), rows, cols, Options{Start: -1, Workers: 2}, d, budget); err != nil {
		t.Fatal(err)
	}
	step := max(made/(stops+1), 1)
	fromCut, tried := 0, 0
	for k := step; k < made; k += step {
		tried++
		n := 0
		d := &cutWatch{memDisk: newMemDisk()}
		d.fail = func(name string) error {
			// every second file: the count stops again in each resume
			if n++; n == k || n > k && n%(2*step) == 0 {
				return errStopHere
			}
			return nil
		}
		got, cells, _, _ := resumeAll(t, rows, cols, d, budget, 2, 1)
		if got != want.Uint64() {
			t.Errorf("stopped at file %d of %d and after, by 2 and 1 workers in turn: count %d, want %d", k, made, got, want)
		}
		if cells >= 0 {
			fromCut++
		}
	}
	if fromCut == 0 {
		t.Errorf("no stop of %d resumed from a cut", tried)
	}
}
