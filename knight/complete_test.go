package knight_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

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
		if knight.RaceEnabled {
			// The brute force is most of the cost: 17 CPU-s under -race with every trial
			// (29 Nov), 4.7 with a third, 1.2 without -race with all (30 Nov). A sixth still
			// finds paths with and without a completion; TestSweepsNoRace runs every trial
			// without -race.
			tc.trials = (tc.trials + 5) / 6
		}
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

// TestCompleteReasons: when the path as it is rules out every tour, the error names the
// square and says why (issue 27.5), and the existence rules of Exists come first, before
// any search (7×7 from e4: Find says no at once, and so does Complete). Each reason below
// is checked by hand in its comment.
func TestCompleteReasons(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, tc := range []struct {
		name       string
		size       int
		path       string
		closed     bool
		wantSuffix string
	}{
		// a8's only neighbours, b6 and c7, are visited; the knight on e6 is not next to it.
		{"cut off", 8, "b6 d5 c7 e6", false, ": a8 is cut off, every square a knight's move from it is visited"},
		// a1 (b3 visited) can only be entered from c2, h8 (g6 visited) only from f7: both
		// would have to be the last square.
		{"two ends", 8, "b3 c5 d7 f8 g6 e7", false, ": h8 and a1 each have one unvisited neighbour, so each could only end the tour"},
		// a1's neighbours b3 and c2 are both visited.
		{"stuck", 6, "d3 e1 c2 b4 a2 c1 b3 a1", false, ": the knight on a1 has no move, every square a knight's move from it is visited"},
		// b6's neighbours: a4 and d5 visited, c4 not; b6 is not a move from b5.
		{"cannot close", 6, "b5 c3 a4 b2 d3 f2 e4 f6 d5 f4 e6 d4", true, ": b6 has one unvisited neighbour, so it can only end the tour, but it is not a knight's move from the start b5"},
		{"odd board, wrong colour", 7, "e4", false, "no open tour from e4 on 7×7: on a board with an odd number of squares a tour starts and ends on the colour of the corners"},
		{"no closed tour on 5×5", 5, "a1 c2", true, "no closed tour on a 5×5 board: both sides are odd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sz := board.SquareBoard(tc.size)
			var path []board.Square
			for _, f := range strings.Fields(tc.path) {
				sq, err := sz.ParseSquare(f)
				if err != nil {
					t.Fatal(err)
				}
				path = append(path, sq)
			}
			start := time.Now()
			_, err := knight.Complete(ctx, tc.size, tc.size, path, tc.closed)
			if !errors.Is(err, knight.ErrNoTour) || !strings.HasSuffix(err.Error(), tc.wantSuffix) {
				t.Errorf("Complete(%s) = %v, want ErrNoTour ending %q", tc.path, err, tc.wantSuffix)
			}
			if el := time.Since(start); el > time.Second {
				t.Errorf("Complete(%s) took %v: the reason should come before any search", tc.path, el)
			}
		})
	}
}
