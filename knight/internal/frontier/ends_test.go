package frontier

import (
	"context"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// pathsByEnd counts the knight's paths through every square of a rows×cols board from
// square start, by the square they end on, by plain depth-first search: the independent
// slow method the fixed ends are checked against.
func pathsByEnd(rows, cols, start int) []int64 {
	n := rows * cols
	byEnd := make([]int64, n)
	seen := make([]bool, n)
	var walk func(sq, depth int)
	walk = func(sq, depth int) {
		if depth == n {
			byEnd[sq]++
			return
		}
		r, c := sq/cols, sq%cols
		for _, m := range moves {
			rr, cc := r+m[0], c+m[1]
			if rr < 0 || rr >= rows || cc < 0 || cc >= cols || seen[rr*cols+cc] {
				continue
			}
			seen[rr*cols+cc] = true
			walk(rr*cols+cc, depth+1)
			seen[rr*cols+cc] = false
		}
	}
	seen[start] = true
	walk(start, 1)
	return byEnd
}

// raceBuilt reports whether this test binary was built with -race, as its build settings
// say (the package has no build-tagged file for it).
func raceBuilt() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// TestCountEnds counts the open tours from each start square to each end square, and to
// sets of end squares, against the depth-first search (boards of a few milliseconds). On
// 5×5 half the starts (each a dozen sweeps). Race-built, where it cost 15.3 CPU-s against
// 1.4 without (30 Nov), it tries 4×5 and 5×5 from three starts each (0, 8, 16 and 4, 12,
// 20), and its subtest "without -race" runs the whole test in a child go test without the
// detector.
func TestCountEnds(t *testing.T) {
	ctx := context.Background()
	race := raceBuilt()
	for _, b := range []struct{ rows, cols int }{{3, 4}, {4, 3}, {4, 5}, {5, 5}} {
		n := b.rows * b.cols
		for s := range n {
			if b.rows == 5 && s%2 == 1 {
				continue // half the starts of 5×5 (each is a task of a dozen sweeps under -race)
			}
			if race && n >= 20 && s%8 != (b.rows%2)*4 {
				continue // a sample under -race: the child below tries every start
			}
			want := pathsByEnd(b.rows, b.cols, s)
			var all, odd int64
			var oddSet []int
			for e := range n {
				all += want[e]
				if e%2 == 1 {
					odd += want[e]
					oddSet = append(oddSet, e)
				}
				if e == s {
					continue
				}
				got, err := Count(ctx, b.rows, b.cols, Options{Start: s, Ends: []int{e}})
				if err != nil {
					t.Fatal(err)
				}
				if got.Int64() != want[e] {
					t.Errorf("%d×%d from %d to %d: %v, want %d", b.rows, b.cols, s, e, got, want[e])
				}
			}
			got, err := Count(ctx, b.rows, b.cols, Options{Start: s, Ends: oddSet})
			if err != nil {
				t.Fatal(err)
			}
			if got.Int64() != odd {
				t.Errorf("%d×%d from %d to odd squares: %v, want %d", b.rows, b.cols, s, got, odd)
			}
			got, err = Count(ctx, b.rows, b.cols, Options{Start: s})
			if err != nil {
				t.Fatal(err)
			}
			if got.Int64() != all {
				t.Errorf("%d×%d from %d: %v, want %d", b.rows, b.cols, s, got, all)
			}
		}
	}
	if race {
		runWithoutRace(t, "TestCountEnds")
	}
}

// runWithoutRace runs the named tests of this package in a child go test built without
// the race detector, as subtest "without -race" of t (a race-built test that checks less
// checks the rest so). It needs the go command.
func runWithoutRace(t *testing.T, names ...string) {
	t.Run("without -race", func(t *testing.T) {
		goBin, err := exec.LookPath("go")
		if err != nil {
			t.Fatalf("running %v without -race needs the go command: %v", names, err)
		}
		pattern := "^(" + strings.Join(names, "|") + ")$"
		out, err := exec.Command(goBin, "test", "-count=1", "-v", "-run", pattern, ".").CombinedOutput()
		if err != nil {
			t.Fatalf("go test -run %s (without -race): %v\n%s", pattern, err, out)
		}
		for _, name := range names {
			if !strings.Contains(string(out), "--- PASS: "+name+" ") {
				t.Fatalf("go test -run %s (without -race): %s did not pass\n%s", pattern, name, out)
			}
		}
	})
}

// TestCountEndsFree checks that Ends naming every square leaves the sweep as it was: the
// same count and the same states at every cell.
func TestCountEndsFree(t *testing.T) {
	ctx := context.Background()
	rows, cols, start := 5, 6, 7
	every := make([]int, rows*cols)
	for i := range every {
		every[i] = i
	}
	var states [2][]int
	for i, ends := range [][]int{nil, every} {
		_, err := Count(ctx, rows, cols, Options{Start: start, Ends: ends, Report: func(_, k int, _ int64) {
			states[i] = append(states[i], k)
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	for v := range states[0] {
		if states[0][v] != states[1][v] {
			t.Fatalf("5×6 from %d, cell %d: %d states with every end given, want %d", start, v, states[1][v], states[0][v])
		}
	}
}
