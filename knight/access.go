package knight

import (
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// Marks in an Accessibility table.
const (
	Visited = -1 // a square the knight has been on
	Knight  = -2 // the knight's square, the last of the path
)

// Accessibility returns, for each square of a board of size sz in row-major order, the number
// of unvisited squares a knight's move away (its accessibility, the number Warnsdorff's rule
// minimizes) after the knight has visited the squares of path in order; path squares are
// marked Visited, the last one Knight. path must lie on the board, visit no square twice and
// go by knight's moves. It takes time linear in the board.
func Accessibility(sz board.Size, path []board.Square) ([]int, error) {
	rows, cols := sz.Rows, sz.Cols
	t := make([]int, rows*cols)
	for i, sq := range path {
		if !sz.Contains(sq) {
			return nil, fmt.Errorf("square %s is off the %s board", sz.Numeric(sq), sz)
		}
		if t[sq.Row*cols+sq.Col] != 0 {
			return nil, fmt.Errorf("square %s is visited twice", sz.Name(sq))
		}
		if i > 0 {
			dr, dc := abs(sq.Row-path[i-1].Row), abs(sq.Col-path[i-1].Col)
			if !(dr == 1 && dc == 2 || dr == 2 && dc == 1) {
				return nil, fmt.Errorf("%s to %s is not a knight's move", sz.Name(path[i-1]), sz.Name(sq))
			}
		}
		t[sq.Row*cols+sq.Col] = Visited
	}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if t[r*cols+c] == Visited {
				continue
			}
			k := 0
			for _, m := range moves {
				rr, cc := r+m[0], c+m[1]
				if rr >= 0 && rr < rows && cc >= 0 && cc < cols && t[rr*cols+cc] != Visited {
					k++
				}
			}
			t[r*cols+c] = k
		}
	}
	if n := len(path); n > 0 {
		t[path[n-1].Row*cols+path[n-1].Col] = Knight
	}
	return t, nil
}
