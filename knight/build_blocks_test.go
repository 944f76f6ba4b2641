package knight

import (
	"context"
	"fmt"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// TestBlocksEverySize builds closed tours, and open tours from a few starts, directly from
// blocks on every board with sides from 12 to 40 that has them, and checks them with the
// test's own validator.
func TestBlocksEverySize(t *testing.T) {
	for rows := blockMinSide; rows <= 40; rows++ {
		t.Run(fmt.Sprintf("rows=%d", rows), func(t *testing.T) {
			t.Parallel()
			for cols := blockMinSide; cols <= 40; cols++ {
				n := rows * cols
				if n%2 == 0 {
					p := buildBlocks(context.Background(), rows, cols, -1, true)
					if p == nil {
						if hs, _ := splitBoard(rows, cols); hs != nil {
							t.Errorf("buildBlocks(context.Background(), %d, %d, closed) = nil", rows, cols)
						}
						continue
					}
					if err := validTour(rows, cols, p, -1, true); err != nil {
						t.Errorf("buildBlocks(context.Background(), %d, %d, closed): %v", rows, cols, err)
					}
					continue
				}
				for _, s := range []int32{0, int32(n/2) &^ 1, int32(n - 1), int32(cols + 1), int32(2*cols + 1)} {
					if (int(s)/cols+int(s)%cols)%2 == 1 {
						continue // the minority colour starts no tour
					}
					p := buildBlocks(context.Background(), rows, cols, s, false)
					if p == nil {
						if hs, _ := splitBoard(rows, cols); hs != nil {
							t.Errorf("buildBlocks(context.Background(), %d, %d, from %d) = nil", rows, cols, s)
						}
						continue
					}
					if err := validTour(rows, cols, p, s, false); err != nil {
						t.Errorf("buildBlocks(context.Background(), %d, %d, from %d): %v", rows, cols, s, err)
					}
				}
			}
		})
	}
}

// TestThinBoards tries every start on long boards with 3 to 11 rows (built by merging block
// cycles, or block chains for odd×odd ones), open and closed where they exist (every
// raceStride-th under -race: starts).
func TestThinBoards(t *testing.T) {
	for _, b := range []boardCase{{5, 61}, {7, 45}, {9, 47}, {11, 41}, {5, 31}, {7, 33}, {9, 31}, {5, 60}, {3, 40}, {3, 41}, {6, 45}, {8, 31}, {10, 44}, {11, 50}, {61, 5}, {40, 3}} {
		t.Run(fmt.Sprintf("%dx%d", b.rows, b.cols), func(t *testing.T) {
			t.Parallel()
			for _, closed := range []bool{false, true} {
				for _, v := range starts(b.rows, b.cols) {
					r, c := int(v)/b.cols, int(v)%b.cols
					want := wantOpen(b.rows, b.cols, r, c)
					if closed {
						want = wantClosed(b.rows, b.cols)
					}
					if !want {
						continue
					}
					tour, err := Find(context.Background(), board.Size{Rows: b.rows, Cols: b.cols}, board.Square{Row: r, Col: c}, Options{Closed: closed})
					if err != nil {
						t.Fatalf("Find(%d, %d, (%d,%d), closed=%v) = %v", b.rows, b.cols, r, c, closed, err)
					}
					if err := validTour(b.rows, b.cols, tour.Path, v, closed); err != nil {
						t.Fatalf("Find(%d, %d, (%d,%d), closed=%v): %v", b.rows, b.cols, r, c, closed, err)
					}
				}
			}
		})
	}
}
