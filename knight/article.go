package knight

import (
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// Article follows the rule of the knight's-tour program of a widely read article on the
// 8×8 tour: Warnsdorff's rule with that program's own move order, an accessibility table
// that is never reset, and its own tie-break (see articlePath). From the 64 starts of the
// 8×8 board it reproduces the boards that program prints, move for move; where the program
// gets stuck and prints a broken board (from b5 it visits 60 squares) Find returns an
// error wrapping ErrDeadEnd that says where and how many squares were left. It takes
// any board size; time and memory are linear in the squares.
const Article Method = Warnsdorff + 1

// articleMoves are the program's moves as (row, col) steps, in its order. The program
// writes them as (dx, dy) with x the column and y the row from the top: (2,−1), (1,−2),
// (−1,−2), (−2,−1), (−2,1), (−1,2), (1,2), (2,1).
var articleMoves = [8][2]int{{-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1}, {2, 1}, {1, 2}}

// articlePath runs the article program's rule from s on a rows×cols board and returns the
// squares visited, all of them when ok. The rule, as the program applies it at each step:
//
//   - acc starts as the number of knight's moves from each square and is never reset: each
//     step decrements it on every on-board neighbour of the knight, visited or not;
//   - minAcc, minA and minB are set to 8 once per step;
//   - for each move in order to an on-board square t: decrement acc[t]; if t is unvisited
//     and acc[t] < minAcc, t is chosen, minAcc = acc[t], and a walk from t lowers minA; then
//     if t is unvisited and acc[t] == minAcc, the same walk lowers minB, and t is chosen
//     when minB < minA;
//   - the walk adds the eight moves in order cumulatively (it is not reset to t between
//     moves, and goes on from positions off the board), and at each on-board unvisited
//     position w lowers the minimum to acc[w] when acc[w] ≤ it.
//
// When a step chooses nothing the program keeps the knight where it is and overwrites that
// square with the later numbers; here the path ends there and ok is false.
func articlePath(rows, cols int, s int32) (path []int32, ok bool) {
	n := rows * cols
	on := func(r, c int) bool { return r >= 0 && r < rows && c >= 0 && c < cols }
	acc := make([]int, n)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			for _, m := range articleMoves {
				if on(r+m[0], c+m[1]) {
					acc[r*cols+c]++
				}
			}
		}
	}
	visited := make([]bool, n)
	walk := func(r, c int, min *int) {
		for _, m := range articleMoves {
			r, c = r+m[0], c+m[1]
			if on(r, c) && !visited[r*cols+c] && acc[r*cols+c] <= *min {
				*min = acc[r*cols+c]
			}
		}
	}
	path = make([]int32, 0, n)
	cur := int(s)
	for {
		path = append(path, int32(cur))
		visited[cur] = true
		r, c := cur/cols, cur%cols
		minAcc, minA, minB := 8, 8, 8
		chosen := -1
		for _, m := range articleMoves {
			tr, tc := r+m[0], c+m[1]
			if !on(tr, tc) {
				continue
			}
			t := tr*cols + tc
			acc[t]--
			if visited[t] {
				continue
			}
			if acc[t] < minAcc {
				minAcc = acc[t]
				chosen = t
				walk(tr, tc, &minA)
			}
			if acc[t] == minAcc {
				walk(tr, tc, &minB)
				if minB < minA {
					chosen = t
				}
			}
		}
		if len(path) == n {
			return path, true
		}
		if chosen < 0 {
			return path, false
		}
		cur = chosen
	}
}

// articleTour is Find with the Article method: t is the empty tour of the board.
func articleTour(t Tour, s int32, closed bool) (Tour, error) {
	sz := t.Size()
	path, ok := articlePath(t.Rows, t.Cols, s)
	start := sz.Name(board.Square{Row: int(s) / t.Cols, Col: int(s) % t.Cols})
	if !ok {
		return Tour{}, &DeadEndError{Method: Article, Stuck: Tour{Rows: t.Rows, Cols: t.Cols, Path: path}}
	}
	t.Path = path
	if closed && !t.isMove(path[len(path)-1], path[0]) {
		return Tour{}, fmt.Errorf("%w: the article's rule found an open tour from %s on %s that does not close", ErrDeadEnd, start, sz)
	}
	return t, nil
}

// DeadEndError reports where a greedy method got stuck. It wraps [ErrDeadEnd].
type DeadEndError struct {
	Method Method
	Stuck  Tour // the squares visited, in order, up to the one the knight is stuck on
}

func (e *DeadEndError) Error() string {
	sz := e.Stuck.Size()
	n := e.Stuck.Len()
	return fmt.Sprintf("%v: the %s rule got stuck on %s after %d of %d squares from %s on %s, %d squares left",
		ErrDeadEnd, e.Method, sz.Name(e.Stuck.Square(n-1)), n, sz.Squares(), sz.Name(e.Stuck.Square(0)), sz, sz.Squares()-n)
}

// Unwrap returns ErrDeadEnd.
func (e *DeadEndError) Unwrap() error { return ErrDeadEnd }
