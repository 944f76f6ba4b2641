package knight_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
)

// bruteExtends reports whether some tour of the board begins with path: a plain
// depth-first search with no ordering and no cuts.
func bruteExtends(rows, cols int, path []board.Square, closed bool) bool {
	n := rows * cols
	seen := make([]bool, n)
	for _, sq := range path {
		seen[sq.Row*cols+sq.Col] = true
	}
	steps := [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}}
	knightMove := func(a, b board.Square) bool {
		dr, dc := a.Row-b.Row, a.Col-b.Col
		return dr*dr+dc*dc == 5
	}
	var rec func(cur board.Square, k int) bool
	rec = func(cur board.Square, k int) bool {
		if k == n {
			return !closed || knightMove(cur, path[0])
		}
		for _, s := range steps {
			r, c := cur.Row+s[0], cur.Col+s[1]
			if r < 0 || r >= rows || c < 0 || c >= cols || seen[r*cols+c] {
				continue
			}
			seen[r*cols+c] = true
			ok := rec(board.Square{Row: r, Col: c}, k+1)
			seen[r*cols+c] = false
			if ok {
				return true
			}
		}
		return false
	}
	return rec(path[len(path)-1], len(path))
}

// randomWalk returns a knight's walk of up to k squares from a random start, never
// revisiting a square.
func randomWalk(rng *rand.Rand, rows, cols, k int) []board.Square {
	p := []board.Square{{Row: rng.IntN(rows), Col: rng.IntN(cols)}}
	for len(p) < k {
		cur := p[len(p)-1]
		var next []board.Square
		for _, s := range [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
			q := board.Square{Row: cur.Row + s[0], Col: cur.Col + s[1]}
			if q.Row >= 0 && q.Row < rows && q.Col >= 0 && q.Col < cols && !slices.Contains(p, q) {
				next = append(next, q)
			}
		}
		if len(next) == 0 {
			break
		}
		p = append(p, next[rng.IntN(len(next))])
	}
	return p
}

func TestCompleteBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	cases := []struct {
		rows, cols, minLen, trials int
	}{
		{5, 5, 1, 100},
		{5, 6, 4, 80},
		{6, 6, 12, 40},
	}
	for _, tc := range cases {
		for _, closed := range []bool{false, true} {
			if closed && tc.rows*tc.cols%2 == 1 {
				continue // an odd board has no closed tour
			}
			t.Run(fmt.Sprintf("%dx%d/closed=%v", tc.rows, tc.cols, closed), func(t *testing.T) {
				yes, no := 0, 0
				for i := range tc.trials {
					k := tc.minLen + rng.IntN(tc.rows*tc.cols/2)
					path := randomWalk(rng, tc.rows, tc.cols, k)
					if i%2 == 0 {
						// A beginning of a tour that Find makes, so that some paths do extend.
						start := board.Square{Row: rng.IntN(tc.rows), Col: rng.IntN(tc.cols)}
						if tour, err := knight.Find(t.Context(), board.Size{Rows: tc.rows, Cols: tc.cols}, start, knight.Options{Closed: closed}); err == nil {
							path = path[:0]
							for j := range k {
								path = append(path, tour.Square(j))
							}
						}
					}
					want := bruteExtends(tc.rows, tc.cols, path, closed)
					tour, err := knight.Complete(context.Background(), tc.rows, tc.cols, path, closed)
					if want {
						yes++
						if err != nil {
							t.Fatalf("Complete(%v) = %v, brute force finds a completion", path, err)
						}
						if err := tour.Check(); err != nil {
							t.Fatalf("Complete(%v) is not a tour: %v", path, err)
						}
						for i, sq := range path {
							if tour.Square(i) != sq {
								t.Fatalf("Complete(%v) does not begin with the path", path)
							}
						}
						if closed && !tour.Closed() {
							t.Fatalf("Complete(%v, closed) is not closed", path)
						}
					} else {
						no++
						if !errors.Is(err, knight.ErrNoTour) {
							t.Fatalf("Complete(%v) = %v, brute force finds no completion", path, err)
						}
					}
				}
				if yes == 0 || no == 0 {
					t.Errorf("only %d paths with and %d without a completion: the test proves little", yes, no)
				}
			})
		}
	}
}

func TestCompleteErrors(t *testing.T) {
	ctx := context.Background()
	a1, b3, c1 := board.Square{Row: 7, Col: 0}, board.Square{Row: 5, Col: 1}, board.Square{Row: 7, Col: 2}
	for _, tc := range []struct {
		name string
		path []board.Square
	}{
		{"empty", nil},
		{"not a move", []board.Square{a1, c1}},
		{"twice", []board.Square{a1, b3, a1}},
		{"off", []board.Square{{Row: 8, Col: 0}}},
	} {
		if _, err := knight.Complete(ctx, 8, 8, tc.path, false); err == nil || errors.Is(err, knight.ErrNoTour) {
			t.Errorf("%s: Complete = %v, want an input error", tc.name, err)
		}
	}
	if _, err := knight.Complete(ctx, 40, 40, []board.Square{a1}, false); err == nil {
		t.Error("40×40: no error")
	}
	// Closed tours from a corner and from the edge.
	if tour, err := knight.Complete(ctx, 8, 8, []board.Square{a1, b3, c1}, true); err != nil || !tour.Closed() {
		t.Errorf("Complete(a1 b3 c1, closed) = %v", err)
	}
	g6, f8 := board.Square{Row: 2, Col: 6}, board.Square{Row: 0, Col: 5}
	if tour, err := knight.Complete(ctx, 8, 8, []board.Square{g6, f8}, true); err != nil || !tour.Closed() {
		t.Errorf("Complete(g6 f8, closed) = %v", err)
	}
	// a8's only neighbours b6 and c7 are visited and the knight on e6 is not next to it.
	b6, d5, c7, e6 := board.Square{Row: 2, Col: 1}, board.Square{Row: 3, Col: 3}, board.Square{Row: 1, Col: 2}, board.Square{Row: 2, Col: 4}
	if _, err := knight.Complete(ctx, 8, 8, []board.Square{b6, d5, c7, e6}, false); !errors.Is(err, knight.ErrNoTour) {
		t.Errorf("Complete(b6 d5 c7 e6) = %v, want ErrNoTour", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := knight.Complete(cctx, 8, 8, []board.Square{a1}, false); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: %v", err)
	}
}
