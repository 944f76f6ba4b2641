package frontier

import (
	"context"
	"testing"
	"time"
)

// TestReading counts 5×6 open tours in memory and on a disk with Options.Reading told at
// every check (readingEvery 0): the count is unchanged, the calls come cell after cell,
// each cell's reads grow and never pass the states of the layer it reads (the Report of
// the cell before), and every cell whose layer holds 4096 states or more is told of at
// least once, the last time less than 4096 states (and a batch) before its end.
func TestReading(t *testing.T) {
	defer func(e time.Duration) { readingEvery = e }(readingEvery)
	readingEvery = 0
	ctx := context.Background()
	want, err := Count(ctx, 5, 6, Options{Start: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, spill := range []bool{false, true} {
		name := map[bool]string{false: "in memory", true: "spilled"}[spill]
		t.Run(name, func(t *testing.T) {
			states := []int{1}    // states[v]: of the layer cell v reads
			told := map[int]int{} // calls for each cell
			last := map[int]int{} // the last read told for each cell
			prevCell := 0
			opts := Options{Start: -1}
			opts.Report = func(cell, n int, _ int64) {
				if cell+1 != len(states) {
					t.Fatalf("Report of cell %d after %d cells", cell, len(states)-1)
				}
				states = append(states, n)
			}
			opts.Reading = func(cell, read int) {
				if cell < prevCell {
					t.Errorf("Reading of cell %d after cell %d", cell, prevCell)
				}
				prevCell = cell
				if cell != len(states)-1 {
					t.Fatalf("Reading of cell %d while the sweep has reported %d cells", cell, len(states)-1)
				}
				if read <= last[cell] || read > states[cell] {
					t.Errorf("cell %d: %d states read told after %d, of a layer of %d", cell, read, last[cell], states[cell])
				}
				told[cell]++
				last[cell] = read
			}
			if spill {
				opts.Spill = newMemDisk()
				opts.MaxMemory = 1 << 30
			}
			got, err := Count(ctx, 5, 6, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(want) != 0 {
				t.Fatalf("count with Reading = %v, want %v", got, want)
			}
			big := 0
			for v := 0; v < len(states); v++ {
				if states[v] < 4096 {
					continue
				}
				big++
				if told[v] == 0 {
					t.Errorf("cell %d reads a layer of %d states and was never told of", v, states[v])
				}
				// told every 4096 states read, the last time less than that before the end
				if left := states[v] - last[v]; left >= 4096+readBatch {
					t.Errorf("cell %d: last told at %d states read of %d: %d states unreported", v, last[v], states[v], left)
				}
			}
			if big == 0 {
				t.Fatal("no layer of 4096 states: the test tells nothing")
			}
		})
	}
}
