package knight

import (
	"fmt"
	"testing"
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
					p := buildBlocks(rows, cols, -1, true)
					if p == nil {
						if hs, _ := splitBoard(rows, cols); hs != nil {
							t.Errorf("buildBlocks(%d, %d, closed) = nil", rows, cols)
						}
						continue
					}
					if err := validTour(rows, cols, p, -1, true); err != nil {
						t.Errorf("buildBlocks(%d, %d, closed): %v", rows, cols, err)
					}
					continue
				}
				for _, s := range []int32{0, int32(n/2) &^ 1, int32(n - 1), int32(cols + 1), int32(2*cols + 1)} {
					if (int(s)/cols+int(s)%cols)%2 == 1 {
						continue // the minority colour starts no tour
					}
					p := buildBlocks(rows, cols, s, false)
					if p == nil {
						if hs, _ := splitBoard(rows, cols); hs != nil {
							t.Errorf("buildBlocks(%d, %d, from %d) = nil", rows, cols, s)
						}
						continue
					}
					if err := validTour(rows, cols, p, s, false); err != nil {
						t.Errorf("buildBlocks(%d, %d, from %d): %v", rows, cols, s, err)
					}
				}
			}
		})
	}
}
