package count

import (
	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
)

// moves are the eight knight's moves as (row, col) steps, in the order package knight's
// search tries them (so a corner's two neighbours come in the same order).
var moves = [8][2]int{{-2, 1}, {-1, 2}, {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}}

// graph is the knight graph of an h×w board, squares numbered r·w+c, with adjacency lists.
type graph struct {
	h, w int
	adj  [][]int32
}

func newGraph(h, w int) *graph {
	g := &graph{h: h, w: w, adj: make([][]int32, h*w)}
	for r := range h {
		for c := range w {
			for _, m := range moves {
				rr, cc := r+m[0], c+m[1]
				if rr >= 0 && rr < h && cc >= 0 && cc < w {
					g.adj[r*w+c] = append(g.adj[r*w+c], int32(rr*w+cc))
				}
			}
		}
	}
	return g
}

// noClosedTour reports whether a rows×cols board has no closed tour (Schwenk's theorem, as
// package knight's Exists applies it).
func noClosedTour(rows, cols int) bool {
	return knight.Exists(board.Size{Rows: rows, Cols: cols}, board.Square{}, true) != nil
}
