package knight

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// TestThinSweep tries an open tour from every square of every board with 5 to 11 rows and
// 12 to 80 columns (and a closed one where Schwenk allows, from a corner and the middle),
// checked by the test's own validator. Under -race it tries every 13th square and
// TestThinSweepNoRace runs the whole sweep in a child process without -race.
func TestThinSweep(t *testing.T) {
	stride := int32(1)
	if raceEnabled {
		stride = 13
	}
	for rows := 5; rows <= 11; rows++ {
		t.Run(fmt.Sprintf("rows=%d", rows), func(t *testing.T) {
			t.Parallel()
			for cols := 12; cols <= 80; cols++ {
				for v := int32(cols % int(stride)); v < int32(rows*cols); v += stride {
					r, c := int(v)/cols, int(v)%cols
					tour, err := Find(rows, cols, board.Square{Row: r, Col: c}, Options{})
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
					tour, err := Find(rows, cols, s, Options{Closed: true})
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

// TestThinSweepNoRace makes sure the whole of TestThinSweep runs in every run: without
// -race TestThinSweep does it itself; under -race this test runs it in a child "go test"
// without -race and requires every part of it to pass.
func TestThinSweepNoRace(t *testing.T) {
	if !raceEnabled {
		return // TestThinSweep tries every square itself
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("running the thin-board sweep without -race needs the go command: %v", err)
	}
	out, err := exec.Command(goBin, "test", "-count=1", "-v", "-run", "^TestThinSweep$", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go test -run TestThinSweep (without -race): %v\n%s", err, out)
	}
	for rows := 5; rows <= 11; rows++ {
		if want := fmt.Sprintf("--- PASS: TestThinSweep/rows=%d", rows); !strings.Contains(string(out), want) {
			t.Fatalf("go test -run TestThinSweep (without -race) did not report %q:\n%s", want, out)
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
		closed := rng.IntN(3) == 0
		want := wantOpen(rows, cols, s.Row, s.Col)
		if closed {
			want = wantClosed(rows, cols)
		}
		tour, err := Find(rows, cols, s, Options{Closed: closed})
		if !want {
			if err == nil {
				t.Errorf("Find(%d, %d, %v, closed=%v) found a tour, want none", rows, cols, s, closed)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Find(%d, %d, %v, closed=%v) = %v, want a tour", rows, cols, s, closed, err)
		}
		if err := validTour(rows, cols, tour.Path, v, closed); err != nil {
			t.Fatalf("Find(%d, %d, %v, closed=%v): %v", rows, cols, s, closed, err)
		}
	}
}
