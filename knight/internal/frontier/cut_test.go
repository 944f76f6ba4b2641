package frontier

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"strings"
	"testing"
	"time"
)

// cutWatch is a memDisk that calls onCut after each cut sealed (renamed to its name) and
// fails the create of a file when fail says so.
type cutWatch struct {
	*memDisk
	onCut func(name string)
	fail  func(name string) error
}

func (d *cutWatch) Rename(from, to string) error {
	err := d.memDisk.Rename(from, to)
	if err == nil && strings.HasPrefix(to, cutPrefix) && d.onCut != nil {
		d.onCut(to)
	}
	return err
}

func (d *cutWatch) Create(name string) (DiskFile, error) {
	if d.fail != nil {
		if err := d.fail(name); err != nil {
			return nil, err
		}
	}
	return d.memDisk.Create(name)
}

// resumeAll runs the count of rows×cols open on d again until it ends (each run stopped
// by the disk's errors of fail, if any) and returns the count and the cut resumed from
// first (cells, done, runs; cells -1 if none). The i-th run has workers[i mod
// len(workers)] workers (Options.Workers), if any are given.
func resumeAll(t *testing.T, rows, cols int, d *cutWatch, budget int64, workers ...int) (got uint64, cells, done, runs int) {
	t.Helper()
	cells = -1
	for i := range 1000 {
		opts := Options{Start: -1, ResumedCut: func(c, n, r int) {
			if cells < 0 {
				cells, done, runs = c, n, r
			}
		}}
		if len(workers) > 0 {
			opts.Workers = workers[i%len(workers)]
		}
		g, _, err := spillCount(context.Background(), rows, cols, opts, d, budget)
		if err == nil {
			return g, cells, done, runs
		}
		if !errors.Is(err, errStopHere) {
			t.Fatalf("resumed count of %d×%d open: %v", rows, cols, err)
		}
	}
	t.Fatal("the count never ended")
	return
}

var errStopHere = errors.New("stopped here")

// stopAtCut counts rows×cols open with opts on a new disk and stops the count right after
// the at-th cut (from 0) for which pick is true is sealed, as a kill there would: its
// context is cancelled and the next file it makes fails. It returns the disk and the cut.
func stopAtCut(t *testing.T, rows, cols int, opts Options, budget int64, at int, pick func(Disk, *cut) bool) (*cutWatch, string) {
	t.Helper()
	d := &cutWatch{memDisk: newMemDisk()}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen, stopped := 0, ""
	d.onCut = func(name string) {
		if c, err := readCut(d, name); err == nil && stopped == "" && pick(d, c) {
			if seen == at {
				stopped = name
				cancel()
			}
			seen++
		}
	}
	d.fail = func(string) error {
		if stopped != "" {
			return errStopHere
		}
		return nil
	}
	_, _, err := spillCount(ctx, rows, cols, opts, d, budget)
	if !errors.Is(err, context.Canceled) && !errors.Is(err, errStopHere) {
		t.Fatalf("%d×%d open stopped at cut %d: err %v, want it stopped", rows, cols, at, err)
	}
	d.onCut, d.fail = nil, nil
	if _, ok := d.files[stopped]; !ok {
		t.Fatalf("%d×%d open stopped at cut %d: %q not on disk", rows, cols, at, stopped)
	}
	return d, stopped
}

// twoRuns picks the cuts with two run files or more.
func twoRuns(_ Disk, c *cut) bool { return len(c.runs) >= 2 }

// layerTotal returns the tours finished before the layer that cut c reads, as its header
// on d gives them.
func layerTotal(d Disk, c *cut) [2]uint64 {
	r, h, err := openRun(d, layerName(c.cells))
	if err != nil {
		return [2]uint64{^uint64(0), 0}
	}
	r.close()
	return h.total
}

// cutBoard is the board of open tours the cut tests count and the budget of its runs:
// 4×5 (1 KiB: a few runs spill at its widest cells; a count takes milliseconds), or 5×6
// with CHESSPUZZLES_LONG set (a third of a second a count, 3 s with -race).
func cutBoard() (rows, cols int, budget int64) {
	if os.Getenv("CHESSPUZZLES_LONG") == "" {
		return 4, 5, 1 << 10
	}
	return 5, 6, spillBudget
}

// TestSpillCutResume stops a spilling count of open tours inside a step at several of its
// cuts, each with at least two run files spilled, and checks that the count resumes from
// the cut (not the layer before it) to the same total and leaves no file behind: 4×5,
// and with CHESSPUZZLES_LONG set 5×6 too.
func TestSpillCutResume(t *testing.T) {
	for _, b := range [][3]int{{4, 5, 1 << 10}, {5, 6, spillBudget}} {
		if os.Getenv("CHESSPUZZLES_LONG") == "" && b[0] > 4 {
			break
		}
		rows, cols, spillBudget := b[0], b[1], int64(b[2])
		want, err := Count(context.Background(), rows, cols, Options{Start: -1})
		if err != nil {
			t.Fatal(err)
		}
		// the cuts with two runs or more of a whole count
		var cuts []string
		d := &cutWatch{memDisk: newMemDisk()}
		d.onCut = func(name string) {
			if c, err := readCut(d, name); err == nil && len(c.runs) >= 2 {
				cuts = append(cuts, name)
			}
		}
		if got, _, err := spillCount(context.Background(), rows, cols, Options{Start: -1}, d, spillBudget); err != nil || got != want.Uint64() {
			t.Fatalf("%d×%d open: %d, %v; want %d", rows, cols, got, err, want)
		}
		if len(cuts) < 4 {
			t.Fatalf("%d×%d open: %d cuts with two runs or more, want several", rows, cols, len(cuts))
		}
		n := len(cuts)
		for _, at := range []int{0, n / 3, 2 * n / 3, n - 1} {
			d, _ := stopAtCut(t, rows, cols, Options{Start: -1}, spillBudget, at, twoRuns)
			got, cells, done, runs := resumeAll(t, rows, cols, d, spillBudget)
			if got != want.Uint64() {
				t.Errorf("%d×%d open stopped at cut %d: count %d, want %d", rows, cols, at, got, want)
			}
			if cells < 0 || done < 1 || runs < 2 {
				t.Errorf("%d×%d open stopped at cut %d: resumed from a cut after %d cells, %d states done, %d runs; want one inside a step, two runs or more", rows, cols, at, cells, done, runs)
			}
			if names, _ := d.Names(); len(names) > 0 {
				t.Errorf("files left after the count: %v", names)
			}
		}
	}
}

// TestSpillCutCrash stops a spilling count of open tours (cutBoard) as it makes its k-th file, for k
// over the whole count, as a crash would (the files part written stay), then resumes it
// as often as it takes: every resume ends with the count in memory's total.
func TestSpillCutCrash(t *testing.T) {
	rows, cols, spillBudget := cutBoard()
	want, err := Count(context.Background(), rows, cols, Options{Start: -1})
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	d := &cutWatch{memDisk: newMemDisk(), fail: func(string) error { made++; return nil }}
	if _, _, err := spillCount(context.Background(), rows, cols, Options{Start: -1}, d, spillBudget); err != nil {
		t.Fatal(err)
	}
	step := max(made/16, 1)
	fromCut := 0
	for k := step / 2; k < made; k += step {
		n := 0
		d := &cutWatch{memDisk: newMemDisk()}
		d.fail = func(name string) error {
			if n++; n == k {
				return errStopHere
			}
			return nil
		}
		got, cells, _, _ := resumeAll(t, rows, cols, d, spillBudget)
		if got != want.Uint64() {
			t.Errorf("stopped at file %d of %d: count %d, want %d", k, made, got, want)
		}
		if cells >= 0 {
			fromCut++
		}
	}
	if fromCut == 0 {
		t.Errorf("no stop of %d resumed from a cut", made/step)
	}
}

// TestSpillCutEvery checks that a step whose runs fit in memory still takes cuts with
// Options.CutEvery (cutBoard's board, far more memory than it needs), and that a count
// stopped at one resumes from it to the same total: at a cut early in the count, and at
// one inside a step where tours were finished (the cut holds them).
func TestSpillCutEvery(t *testing.T) {
	rows, cols, _ := cutBoard()
	want, err := Count(context.Background(), rows, cols, Options{Start: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		at   int
		pick func(Disk, *cut) bool
	}{
		{"third cut", 2, func(Disk, *cut) bool { return true }},
		// a cut whose step finished tours before it (the layer read holds none of them)
		{"tours in the step", 0, func(d Disk, c *cut) bool { return c.done > 0 && c.total != layerTotal(d, c) }},
	} {
		// budget: far more than the board's layers; CutEvery: a cut at every look at the clock
		d, _ := stopAtCut(t, rows, cols, Options{Start: -1, CutEvery: time.Nanosecond}, 1<<40, tt.at, tt.pick)
		got, cells, done, _ := resumeAll(t, rows, cols, d, 1<<40)
		if got != want.Uint64() || cells < 0 || done < 1 {
			t.Errorf("resumed from the %s of CutEvery: count %d from %d cells, %d done; want %d from a cut", tt.name, got, cells, done, want)
		}
	}
}

// TestSpillCutRefused checks that a cut that fails its checksum, does not match its
// layer or names a run file that is not there is refused with an error naming it, never
// counted on.
func TestSpillCutRefused(t *testing.T) {
	rows, cols, spillBudget := cutBoard()
	// stopped returns a disk stopped at a cut with two runs or more, and the cut's name.
	stopped := func() (*cutWatch, string) {
		return stopAtCut(t, rows, cols, Options{Start: -1}, spillBudget, 0, twoRuns)
	}
	// reseal rewrites the cut's checksum after a change.
	reseal := func(b []byte) {
		n := len(b) - 4
		binary.LittleEndian.PutUint32(b[n:], crc32.Checksum(b[:n], castagnoli()))
	}
	for _, tt := range []struct {
		name   string
		damage func(d *cutWatch, name string)
		want   string
	}{
		{"a byte flipped", func(d *cutWatch, name string) { d.files[name][30] ^= 4 }, "checksum"},
		{"cut short", func(d *cutWatch, name string) { d.files[name] = d.files[name][:40] }, "checksum"},
		{"another layer's size", func(d *cutWatch, name string) {
			b := d.files[name]
			b[20]++
			reseal(b)
		}, "bytes"},
		{"a key not found", func(d *cutWatch, name string) {
			b := d.files[name]
			b[36] ^= 1
			reseal(b)
		}, "last state"},
		{"more states than the layer", func(d *cutWatch, name string) {
			b := d.files[name]
			binary.LittleEndian.PutUint64(b[28:], 1<<40)
			reseal(b)
		}, "fewer"},
		{"a run file gone", func(d *cutWatch, name string) {
			c, _ := readCut(d, name)
			delete(d.files, c.runs[0][0].name)
		}, "not there"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, name := stopped()
			tt.damage(d, name)
			_, _, err := spillCount(context.Background(), rows, cols, Options{Start: -1}, d, spillBudget)
			if !errors.Is(err, ErrCutRefused) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("count on a cut with %s: err %v, want ErrCutRefused naming %s and %q", tt.name, err, name, tt.want)
			}
		})
	}
}
