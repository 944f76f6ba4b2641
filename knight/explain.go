package knight

import (
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// Candidate is a square the knight may move to at a step of [Explain].
type Candidate struct {
	Square board.Square `json:"square"`
	// Onward is the number of unvisited squares a knight's move from Square: the number
	// Warnsdorff's rule minimizes.
	Onward int `json:"onward"`
	// LookAhead is the smallest Onward of Square's own unvisited onward squares once the
	// knight stands on Square, the tie-break; -1 when Square has no unvisited onward
	// square (such a square loses every tie).
	LookAhead int `json:"lookAhead"`
}

// Step is one move of Warnsdorff's rule as [Explain] tells it.
type Step struct {
	Knight     board.Square `json:"knight"`     // where the knight stands
	Candidates []Candidate  `json:"candidates"` // the unvisited squares a move away, in the fixed move order
	Min        int          `json:"min"`        // the smallest Onward among them (-1 when there are none)
	Tie        bool         `json:"tie"`        // more than one candidate has Onward == Min
	Chosen     int          `json:"chosen"`     // index in Candidates of the square moved to; -1 at the end or when stuck
}

// MaxExplainSquares is the largest board, in squares, that [Explain] takes.
const MaxExplainSquares = 64 * 64

// Explain runs the [Warnsdorff] method from start on a rows×cols board and returns each of
// its steps with the reasons for the choice: the candidates with their onward counts, the
// minimum, and on a tie the one-move look-ahead that decides it (the smallest onward count
// among a candidate's own onward squares; the smaller wins, and on a further tie the first in
// the fixed move order). The chosen squares are those of Find with the Warnsdorff method.
// There is one step per visited square; the last has Chosen -1. When the rule gets stuck
// before visiting every square, the steps so far are returned with a *DeadEndError (wrapping
// ErrDeadEnd). It takes time and memory linear in the board times the steps, so it is
// bounded to MaxExplainSquares.
func Explain(rows, cols int, start board.Square) ([]Step, error) {
	sz := board.Size{Rows: rows, Cols: cols}
	if rows < 1 || cols < 1 || rows*cols > MaxExplainSquares {
		return nil, fmt.Errorf("board %d×%d: explaining a tour takes boards of at most %d squares", rows, cols, MaxExplainSquares)
	}
	if !sz.Contains(start) {
		return nil, fmt.Errorf("start %s is off the %s board", sz.Numeric(start), sz)
	}
	n := rows * cols
	g := newGraph(rows, cols)
	visited := make([]bool, n)
	onward := make([]int, n)
	for v := range g.adj {
		onward[v] = len(g.adj[v])
	}
	var steps []Step
	path := make([]int32, 0, n)
	sq := func(v int32) board.Square { return board.Square{Row: int(v) / cols, Col: int(v) % cols} }
	cur := int32(start.Row*cols + start.Col)
	for {
		path = append(path, cur)
		visited[cur] = true
		for _, u := range g.adj[cur] {
			onward[u]--
		}
		st := Step{Knight: sq(cur), Min: -1, Chosen: -1}
		// g.adj lists the neighbours in the fixed move order.
		for _, u := range g.adj[cur] {
			if visited[u] {
				continue
			}
			look := -1
			for _, x := range g.adj[u] {
				if !visited[x] && (look < 0 || onward[x]-1 < look) {
					look = onward[x] - 1
				}
			}
			st.Candidates = append(st.Candidates, Candidate{Square: sq(u), Onward: onward[u], LookAhead: look})
		}
		if len(path) < n {
			best := -1
			for i, c := range st.Candidates {
				if best < 0 || c.Onward < st.Candidates[best].Onward ||
					c.Onward == st.Candidates[best].Onward && lookLess(c.LookAhead, st.Candidates[best].LookAhead) {
					best = i
				}
			}
			if best >= 0 {
				st.Chosen, st.Min = best, st.Candidates[best].Onward
				for i, c := range st.Candidates {
					st.Tie = st.Tie || i != best && c.Onward == st.Min
				}
			}
		}
		steps = append(steps, st)
		if len(path) == n {
			return steps, nil
		}
		if st.Chosen < 0 {
			return steps, &DeadEndError{Method: Warnsdorff, Stuck: Tour{Rows: rows, Cols: cols, Path: path}}
		}
		c := st.Candidates[st.Chosen].Square
		cur = int32(c.Row*cols + c.Col)
	}
}

// lookLess orders look-ahead values with -1 (no onward square) after every other.
func lookLess(a, b int) bool {
	if a < 0 {
		return false
	}
	return b < 0 || a < b
}

// NextStep returns the step Warnsdorff's rule would take with the knight at the end of
// path (which must lie on the board, visit no square twice and go by knight's moves), as
// [Explain] reports it: the candidates, their onward counts and look-ahead, and the choice
// (Chosen -1 when the knight is stuck or the board is full). It is the hint for a tour made
// by hand. It takes time linear in the board.
func NextStep(rows, cols int, path []board.Square) (Step, error) {
	if len(path) == 0 {
		return Step{}, fmt.Errorf("the path is empty: give at least the start square")
	}
	acc, err := Accessibility(board.Size{Rows: rows, Cols: cols}, path)
	if err != nil {
		return Step{}, err
	}
	cur := path[len(path)-1]
	st := Step{Knight: cur, Min: -1, Chosen: -1}
	on := func(r, c int) bool { return r >= 0 && r < rows && c >= 0 && c < cols && acc[r*cols+c] >= 0 }
	for _, m := range moves {
		r, c := cur.Row+m[0], cur.Col+m[1]
		if !on(r, c) {
			continue
		}
		look := -1
		for _, m2 := range moves {
			if rr, cc := r+m2[0], c+m2[1]; on(rr, cc) && (look < 0 || acc[rr*cols+cc]-1 < look) {
				look = acc[rr*cols+cc] - 1
			}
		}
		st.Candidates = append(st.Candidates, Candidate{Square: board.Square{Row: r, Col: c}, Onward: acc[r*cols+c], LookAhead: look})
	}
	if len(path) == rows*cols {
		return st, nil
	}
	for i, c := range st.Candidates {
		if st.Chosen < 0 || c.Onward < st.Candidates[st.Chosen].Onward ||
			c.Onward == st.Candidates[st.Chosen].Onward && lookLess(c.LookAhead, st.Candidates[st.Chosen].LookAhead) {
			st.Chosen = i
		}
	}
	if st.Chosen >= 0 {
		st.Min = st.Candidates[st.Chosen].Onward
		for i, c := range st.Candidates {
			st.Tie = st.Tie || i != st.Chosen && c.Onward == st.Min
		}
	}
	return st, nil
}
