package knight

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// TestThinSweep tries an open tour from every square of every board with 5 to 11 rows and
// as many to 80 columns (and a closed one where Schwenk allows, from a corner and the middle),
// checked by the test's own validator. Under -race (and with -short) it tries every 13th
// square; under -race TestSweepsNoRace runs the whole sweep in a child process without it.
func TestThinSweep(t *testing.T) {
	stride := int32(1)
	if raceEnabled || testing.Short() {
		stride = 13 // every start in the full run: here, or without -race in TestSweepsNoRace
	}
	for rows := 5; rows <= 11; rows++ {
		t.Run(fmt.Sprintf("rows=%d", rows), func(t *testing.T) {
			t.Parallel()
			for cols := rows; cols <= 80; cols++ {
				for v := int32(cols % int(stride)); v < int32(rows*cols); v += stride {
					r, c := int(v)/cols, int(v)%cols
					tour, err := Find(context.Background(), board.Size{Rows: rows, Cols: cols}, board.Square{Row: r, Col: c}, Options{})
					if !wantOpen(rows, cols, r, c) {
						if err == nil {
							t.Errorf("Find(%d, %d, (%d,%d)) found a tour, want none", rows, cols, r, c)
						}
						continue
					}
					if err != nil {
						t.Fatalf("Find(%d, %d, (%d,%d)) = %v, want a tour", rows, cols, r, c, err)
					}
					if err := validTour(rows, cols, tour.Path, v, false); err != nil {
						t.Fatalf("Find(%d, %d, (%d,%d)): %v", rows, cols, r, c, err)
					}
				}
				for _, s := range []board.Square{{Row: 0, Col: 0}, {Row: rows / 2, Col: cols / 2}} {
					tour, err := Find(context.Background(), board.Size{Rows: rows, Cols: cols}, s, Options{Closed: true})
					if !wantClosed(rows, cols) {
						if err == nil {
							t.Errorf("Find(%d, %d, %v, closed) found a tour, want none", rows, cols, s)
						}
						continue
					}
					if err != nil {
						t.Fatalf("Find(%d, %d, %v, closed) = %v, want a tour", rows, cols, s, err)
					}
					if err := validTour(rows, cols, tour.Path, int32(s.Row*cols+s.Col), true); err != nil {
						t.Fatalf("Find(%d, %d, %v, closed): %v", rows, cols, s, err)
					}
				}
			}
		})
	}
}

// TestSweepsNoRace makes sure that every start of the every-start sweeps is tried in
// every run: without -race they do it themselves; under -race, where they try a sample
// (TestThinSweep, TestThinOddConstruction, the sweeps that use starts, TestLongThinBoards
// and TestCompleteBrute's trials), this test runs them in a child "go test" without -race
// and requires every part of them to pass. The child costs about 10 CPU-s (its build
// aside); race-built, the whole sweeps cost several times that: the package's tests took
// 85.7 CPU-s under -race before the samples, 54.2 after the first of them, child included
// (30 Nov, load 16-23, one run each).
func TestSweepsNoRace(t *testing.T) {
	if !raceEnabled {
		return // the sweeps try every square themselves
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("running the sweeps without -race needs the go command: %v", err)
	}
	tests := []string{"TestThinSweep", "TestThinOddConstruction", "TestEveryStart", "TestAllStarts64",
		"TestThinBoards", "TestThreeRowsEveryStart", "TestFourRowsEveryStart", "TestLongThinBoards",
		"TestCompleteBrute"}
	run := "^(" + strings.Join(tests, "|") + ")$"
	out, err := exec.Command(goBin, "test", "-count=1", "-v", "-run", run, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go test -run %s (without -race): %v\n%s", run, err, out)
	}
	var want []string
	for _, name := range tests {
		want = append(want, fmt.Sprintf("--- PASS: %s ", name))
	}
	for rows := 5; rows <= 11; rows++ {
		want = append(want, fmt.Sprintf("--- PASS: TestThinSweep/rows=%d ", rows))
		if rows%2 == 1 {
			want = append(want, fmt.Sprintf("--- PASS: TestThinOddConstruction/rows=%d ", rows))
		}
	}
	for _, b := range sweepBoards() {
		want = append(want, fmt.Sprintf("--- PASS: TestEveryStart/%dx%d ", b.rows, b.cols))
	}
	for _, w := range want {
		if !strings.Contains(string(out), w) {
			t.Fatalf("go test -run %s (without -race) did not report %q:\n%s", run, w, out)
		}
	}
}

// TestThinRandom tries 400 boards drawn at random (a fixed seed, so every run tries the same
// ones) with 3 to 11 rows and 21 to 3000 columns, either way round, from a random square,
// open or closed, checked by the test's own validator: beyond the lengths the sweeps reach.
func TestThinRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 2026))
	for i := 0; i < 400; i++ {
		m, n := 3+rng.IntN(9), 21+rng.IntN(2980)
		rows, cols := m, n
		if rng.IntN(2) == 1 {
			rows, cols = n, m
		}
		v := int32(rng.IntN(rows * cols))
		s := board.Square{Row: int(v) / cols, Col: int(v) % cols}
		checkStart(t, rows, cols, s, rng.IntN(3) == 0)
	}
}

// TestThinOddConstruction calls the odd×odd construction (thinOdd) itself from every
// majority-colour square of every odd×odd board with 5 to 11 rows and 13 to 81 columns: it
// must build a tour without help from Warnsdorff's rule or a search (Find would fall back to
// them silently). Under -race it tries every 23rd square and TestSweepsNoRace runs all
// of it in a child process without -race.
func TestThinOddConstruction(t *testing.T) {
	stride := int32(1)
	if raceEnabled {
		stride = 23
	}
	for rows := 5; rows <= 11; rows += 2 {
		t.Run(fmt.Sprintf("rows=%d", rows), func(t *testing.T) {
			t.Parallel()
			for cols := 13; cols <= 81; cols += 2 {
				for v := int32(cols % int(stride)); v < int32(rows*cols); v += stride {
					if (int(v)/cols+int(v)%cols)%2 == 1 {
						continue
					}
					p := thinOdd(context.Background(), rows, cols, v)
					if p == nil {
						t.Fatalf("thinOdd(%d, %d, from (%d,%d)) = nil", rows, cols, int(v)/cols, int(v)%cols)
					}
					if err := validTour(rows, cols, p, v, false); err != nil {
						t.Fatalf("thinOdd(%d, %d, from (%d,%d)): %v", rows, cols, int(v)/cols, int(v)%cols, err)
					}
				}
			}
		})
	}
}
