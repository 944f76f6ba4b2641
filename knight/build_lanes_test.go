package knight

import (
	"context"
	"fmt"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// TestThreeRowsEveryStart tries an open tour from every square of every 3×n board for
// n = 7…100 and a few longer and transposed ones (odd n built from lanes, build_lanes.go, from
// n = 31; even n from a closed cycle of lanes from n = 20), checked by the test's own
// validator: a tour exactly where wantOpen says one exists.
func TestThreeRowsEveryStart(t *testing.T) {
	var bs []boardCase
	for n := 7; n <= 100; n++ {
		bs = append(bs, boardCase{3, n})
	}
	bs = append(bs, boardCase{3, 243}, boardCase{3, 1001}, boardCase{61, 3}, boardCase{3, 999},
		boardCase{3, 998}, boardCase{58, 3}, boardCase{100, 3})
	checkEveryOpenStart(t, bs)
}

// TestThreeRowsClosed asks for a closed tour of every 3×n board with n even, 10…400, and a
// few longer ones, from a corner and from a middle square, and checks it with the test's
// own validator; and confirms that laneCycle itself builds every even length from 20 on.
func TestThreeRowsClosed(t *testing.T) {
	var ns []int
	for n := 10; n <= 400; n += 2 {
		ns = append(ns, n)
	}
	ns = append(ns, 1000, 4242, 32768)
	for _, n := range ns {
		t.Run(fmt.Sprintf("3x%d", n), func(t *testing.T) {
			t.Parallel()
			for _, s := range []board.Square{{Row: 0, Col: 0}, {Row: 1, Col: n / 2}, {Row: 2, Col: n - 1}} {
				for _, transposed := range []bool{false, true} {
					rows, cols, start := 3, n, s
					if transposed {
						rows, cols, start = n, 3, board.Square{Row: s.Col, Col: s.Row}
					}
					tour, err := Find(context.Background(), board.Size{Rows: rows, Cols: cols}, start, Options{Closed: true})
					if err != nil {
						t.Fatalf("Find(%d, %d, %v, closed) = %v, want a closed tour", rows, cols, start, err)
					}
					if err := validTour(rows, cols, tour.Path, int32(start.Row*cols+start.Col), true); err != nil {
						t.Fatalf("Find(%d, %d, %v, closed): %v", rows, cols, start, err)
					}
				}
			}
			if n >= laneCycleMinCols {
				p := laneCycle(context.Background(), 3, n)
				if p == nil {
					t.Fatalf("laneCycle(3, %d) = nil", n)
				}
				if err := validTour(3, n, p, -1, true); err != nil {
					t.Fatalf("laneCycle(3, %d): %v", n, err)
				}
			}
		})
	}
}
