package knight

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// validTour is the tests' own validator, independent of Tour.Check: path must hold every
// square of the rows×cols board once, consecutive squares a knight's move apart, begin at
// start (unless start is negative) and, when closed, end a knight's move from the start.
func validTour(rows, cols int, path []int32, start int32, closed bool) error {
	n := rows * cols
	if len(path) != n {
		return fmt.Errorf("%d squares, want %d", len(path), n)
	}
	if start >= 0 && path[0] != start {
		return fmt.Errorf("starts at %d, want %d", path[0], start)
	}
	seen := make([]bool, n)
	jump := func(a, b int32) bool {
		dr := int(a)/cols - int(b)/cols
		dc := int(a)%cols - int(b)%cols
		return dr*dr+dc*dc == 5
	}
	for i, v := range path {
		if v < 0 || int(v) >= n || seen[v] {
			return fmt.Errorf("square %d at step %d is off the board or repeated", v, i)
		}
		seen[v] = true
		if i > 0 && !jump(path[i-1], v) {
			return fmt.Errorf("step %d: %d to %d is not a knight's move", i, path[i-1], v)
		}
	}
	if closed && !jump(path[n-1], path[0]) {
		return errors.New("does not close")
	}
	return nil
}

// wantClosed states Schwenk's theorem (1991) as the test's expectation.
func wantClosed(rows, cols int) bool {
	m, n := min(rows, cols), max(rows, cols)
	if m%2 == 1 && n%2 == 1 || m == 1 || m == 2 || m == 4 {
		return false
	}
	return !(m == 3 && (n == 4 || n == 6 || n == 8))
}

// wantOpen states the existence rules for open tours from (r, c), as the test's
// expectation: the board rule, the colour rule, the 4×n outer-line rule, and the squares
// of 3×4, 3×7 and 3×8 that TestNarrowExhaustive confirms by brute force.
func wantOpen(rows, cols, r, c int) bool {
	if rows > cols {
		rows, cols, r, c = cols, rows, c, r
	}
	m, n := rows, cols
	switch {
	case m == 1 && n == 1:
		return true
	case m <= 2, m == 3 && (n == 3 || n == 5 || n == 6), m == 4 && n == 4:
		return false
	}
	if m*n%2 == 1 && (r+c)%2 == 1 {
		return false
	}
	if m == 4 && (r == 1 || r == 2) {
		return false
	}
	if m == 3 {
		switch n {
		case 4:
			return c == 0 || c == 3
		case 7:
			return !(r == 1 && c == 3)
		case 8:
			return !(r == 1 && (c == 2 || c == 5))
		}
	}
	return true
}

type boardCase struct{ rows, cols int }

// checkStart asks Find for a tour of rows×cols from s (closed or open) and checks the answer
// against the existence rules and validTour: a valid tour where one exists, an error where
// none does.
func checkStart(t *testing.T, rows, cols int, s board.Square, closed bool) {
	t.Helper()
	want := wantOpen(rows, cols, s.Row, s.Col)
	if closed {
		want = wantClosed(rows, cols)
	}
	tour, err := Find(context.Background(), board.Size{Rows: rows, Cols: cols}, s, Options{Closed: closed})
	if !want {
		if err == nil {
			t.Errorf("Find(%d, %d, %v, closed=%v) found a tour, want none", rows, cols, s, closed)
		}
		return
	}
	if err != nil {
		t.Fatalf("Find(%d, %d, %v, closed=%v) = %v, want a tour", rows, cols, s, closed, err)
	}
	if err := validTour(rows, cols, tour.Path, int32(s.Row*cols+s.Col), closed); err != nil {
		t.Fatalf("Find(%d, %d, %v, closed=%v): %v", rows, cols, s, closed, err)
	}
}

// raceStride is how far apart the starts are that the every-start sweeps try under -race:
// every 13th square of each board (a different residue on each board, so that over the
// boards every kind of square is tried). Every board is still built under the race
// detector, whose concern here is what the parallel subtests share (the closed-tour cache,
// the remembered blocks and lanes); the search at each start is plain sequential code, many
// times slower race-built. Every start of every board is tried in the same run without
// -race by TestSweepsNoRace.
const raceStride = 13

// starts returns the squares of a rows×cols board that an every-start sweep tries: all of
// them, or under -race every raceStride-th from an offset that depends on the board.
func starts(rows, cols int) []int32 {
	stride, from := 1, 0
	if raceEnabled {
		stride, from = raceStride, (rows*7+cols)%min(raceStride, rows*cols)
	}
	var vs []int32
	for v := from; v < rows*cols; v += stride {
		vs = append(vs, int32(v))
	}
	return vs
}

// checkEveryOpenStart runs checkStart for an open tour from every square of each board
// (every raceStride-th under -race: starts), the boards in parallel.
func checkEveryOpenStart(t *testing.T, bs []boardCase) {
	for _, b := range bs {
		t.Run(fmt.Sprintf("%dx%d", b.rows, b.cols), func(t *testing.T) {
			t.Parallel()
			for _, v := range starts(b.rows, b.cols) {
				checkStart(t, b.rows, b.cols, board.Square{Row: int(v) / b.cols, Col: int(v) % b.cols}, false)
			}
		})
	}
}

func sweepBoards() []boardCase {
	var bs []boardCase
	for n := 1; n <= 20; n++ {
		bs = append(bs, boardCase{n, n})
	}
	for r := 3; r <= 8; r++ {
		for c := r + 1; c <= 20; c++ {
			bs = append(bs, boardCase{r, c})
		}
	}
	// A few transposed boards, so that the rules are tried both ways round.
	bs = append(bs, boardCase{7, 3}, boardCase{8, 3}, boardCase{5, 4}, boardCase{20, 3}, boardCase{19, 4})
	return bs
}

// TestEveryStart tries an open tour from every square of every board in the sweep: a valid
// tour exactly where the rules say one exists, ErrNoTour elsewhere (every raceStride-th
// square under -race: starts). With -short the square boards stop at 16×16 (17×17 to
// 20×20, built from blocks as from 12×12, are about two thirds of the test's time).
func TestEveryStart(t *testing.T) {
	for _, b := range sweepBoards() {
		if testing.Short() && b.rows == b.cols && b.rows > 16 {
			continue
		}
		t.Run(fmt.Sprintf("%dx%d", b.rows, b.cols), func(t *testing.T) {
			t.Parallel()
			for _, v := range starts(b.rows, b.cols) {
				r, c := int(v)/b.cols, int(v)%b.cols
				start := board.Square{Row: r, Col: c}
				tour, err := Find(context.Background(), board.Size{Rows: b.rows, Cols: b.cols}, start, Options{})
				want := wantOpen(b.rows, b.cols, r, c)
				if !want {
					if !errors.Is(err, ErrNoTour) {
						t.Errorf("Find(%d, %d, %v) = err %v, want ErrNoTour", b.rows, b.cols, start, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("Find(%d, %d, %v) = err %v, want a tour", b.rows, b.cols, start, err)
					continue
				}
				if err := validTour(b.rows, b.cols, tour.Path, v, false); err != nil {
					t.Errorf("Find(%d, %d, %v) gave a bad tour: %v", b.rows, b.cols, start, err)
				}
			}
		})
	}
}

// TestClosedEverywhere asks for a closed tour on every board up to 20×20 (and some
// beyond), from two starts each: a closed tour exactly where Schwenk's theorem allows.
func TestClosedEverywhere(t *testing.T) {
	for rows := 1; rows <= 20; rows++ {
		for cols := rows; cols <= 20; cols++ {
			t.Run(fmt.Sprintf("%dx%d", rows, cols), func(t *testing.T) {
				t.Parallel()
				for _, start := range []board.Square{{Row: 0, Col: 0}, {Row: rows / 2, Col: cols - 1}} {
					tour, err := Find(context.Background(), board.Size{Rows: rows, Cols: cols}, start, Options{Closed: true})
					if !wantClosed(rows, cols) {
						if !errors.Is(err, ErrNoTour) {
							t.Errorf("Find(%d, %d, %v, closed) = err %v, want ErrNoTour", rows, cols, start, err)
						}
						continue
					}
					if err != nil {
						t.Fatalf("Find(%d, %d, %v, closed) = err %v, want a closed tour", rows, cols, start, err)
					}
					if err := validTour(rows, cols, tour.Path, int32(start.Row*cols+start.Col), true); err != nil {
						t.Errorf("Find(%d, %d, %v, closed) gave a bad tour: %v", rows, cols, start, err)
					}
				}
			})
		}
	}
}

// TestAllStarts64 finds an open and a closed tour from every square of the 64×64 board
// (every raceStride-th under -race: starts).
func TestAllStarts64(t *testing.T) {
	const n = 64
	for _, closed := range []bool{false, true} {
		t.Run(fmt.Sprintf("closed=%v", closed), func(t *testing.T) {
			t.Parallel()
			for _, v := range starts(n, n) {
				start := board.Square{Row: int(v) / n, Col: int(v) % n}
				tour, err := Find(context.Background(), board.Size{Rows: n, Cols: n}, start, Options{Closed: closed})
				if err != nil {
					t.Fatalf("Find(context.Background(), board.Size{Rows: 64, Cols: 64}, %v, closed=%v) = err %v", start, closed, err)
				}
				if err := validTour(n, n, tour.Path, v, closed); err != nil {
					t.Fatalf("Find(context.Background(), board.Size{Rows: 64, Cols: 64}, %v, closed=%v) gave a bad tour: %v", start, closed, err)
				}
			}
		})
	}
}

// TestNarrowExhaustive confirms the narrow-board rules of wantOpen by plain brute force
// (a depth-first search written here, independent of the package's search): on 3×4, 3×7,
// 3×8, 4×5 and 4×6, exactly the squares wantOpen allows start an open tour.
func TestNarrowExhaustive(t *testing.T) {
	for _, b := range []boardCase{{3, 4}, {3, 7}, {3, 8}, {4, 5}, {4, 6}} {
		t.Run(fmt.Sprintf("%dx%d", b.rows, b.cols), func(t *testing.T) {
			t.Parallel()
			n := b.rows * b.cols
			var nb [][]int
			for v := 0; v < n; v++ {
				var l []int
				for _, m := range moves {
					r, c := v/b.cols+m[0], v%b.cols+m[1]
					if r >= 0 && r < b.rows && c >= 0 && c < b.cols {
						l = append(l, r*b.cols+c)
					}
				}
				nb = append(nb, l)
			}
			seen := make([]bool, n)
			var dfs func(v, depth int) bool
			dfs = func(v, depth int) bool {
				if depth == n {
					return true
				}
				for _, u := range nb[v] {
					if !seen[u] {
						seen[u] = true
						ok := dfs(u, depth+1)
						seen[u] = false
						if ok {
							return true
						}
					}
				}
				return false
			}
			for v := 0; v < n; v++ {
				seen[v] = true
				got := dfs(v, 1)
				seen[v] = false
				if want := wantOpen(b.rows, b.cols, v/b.cols, v%b.cols); got != want {
					t.Errorf("brute force from (%d,%d) on %dx%d = %v, wantOpen says %v", v/b.cols, v%b.cols, b.rows, b.cols, got, want)
				}
			}
		})
	}
}

// TestParseMethod holds ParseMethod to the names String gives, and to refusing others.
func TestParseMethod(t *testing.T) {
	for _, m := range []Method{Auto, Warnsdorff, Article} {
		got, err := ParseMethod(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMethod(%q) = %v, %v, want %v", m.String(), got, err, m)
		}
	}
	for _, name := range []string{"", "greedy", "Auto", "warnsdorff "} {
		if m, err := ParseMethod(name); err == nil {
			t.Errorf("ParseMethod(%q) = %v, want an error", name, m)
		}
	}
}
