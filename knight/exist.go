package knight

import (
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// Exists reports whether a board of size sz has a knight's tour beginning at start (closed
// or open), without searching: nil if one exists, else an error wrapping ErrNoTour that says
// why. It takes constant time.
//
// The rules are those in the package comment. The narrow-board exceptions were decided by an
// exhaustive backtracking search over every start square (3×4, 3×7…3×16 and 4×5…4×10): on
// 3×n boards every colour-legal start works from n = 9 on; on 3×4 only the end columns, on
// 3×7 not the middle square, on 3×8 not the squares b2 and e2 (and their mirror images)
// start a tour. On 4×n no tour starts in the two middle rows, which also follows from a
// colouring argument (outer-row squares only neighbour middle-row squares, so the outer
// squares take every other place of the tour but one gap, and both colours must appear among
// them, which forces the tour to begin and end on them).
func Exists(sz board.Size, start board.Square, closed bool) error {
	rows, cols := sz.Rows, sz.Cols
	if closed {
		if why := closedExists(rows, cols); why != "" {
			return noTour(fmt.Sprintf("no closed tour on a %s board: %s", sz, why))
		}
		return nil
	}
	if why := openExists(rows, cols); why != "" {
		return noTour(fmt.Sprintf("no open tour on a %s board: %s", sz, why))
	}
	if why := startExists(rows, cols, start); why != "" {
		return noTour(fmt.Sprintf("no open tour from %s on %s: %s", sz.Name(start), sz, why))
	}
	return nil
}

// closedExists returns "" when a rows×cols board has a closed tour, else the reason it has
// none (Schwenk, 1991). A closed tour can start anywhere, so the start square does not matter.
func closedExists(rows, cols int) string {
	m, n := min(rows, cols), max(rows, cols)
	switch {
	case m == 1 && n == 1:
		return "a closed tour needs a move back to the start"
	case m%2 == 1 && n%2 == 1:
		return "both sides are odd"
	case m <= 2:
		return "a side is shorter than 3"
	case m == 4:
		return "a side is 4 (Schwenk, 1991)"
	case m == 3 && (n == 4 || n == 6 || n == 8):
		return "3×4, 3×6 and 3×8 boards have none (Schwenk, 1991)"
	}
	return ""
}

// openExists returns "" when a rows×cols board has an open tour from some square.
func openExists(rows, cols int) string {
	m, n := min(rows, cols), max(rows, cols)
	switch {
	case m == 1 && n == 1:
		return ""
	case m <= 2:
		return "a side is shorter than 3"
	case m == 3 && (n == 3 || n == 5 || n == 6):
		return "3×3, 3×5 and 3×6 boards have no tour"
	case m == 4 && n == 4:
		return "the 4×4 board has no tour"
	}
	return ""
}

// narrowNo lists, for 3×n boards with 3 rows, the squares (row, col) that are of the right
// colour but start no open tour, found by exhaustive search. Columns not listed are fine.
var narrowNo = map[int][][2]int{
	4: {{0, 1}, {1, 1}, {2, 1}, {0, 2}, {1, 2}, {2, 2}},
	7: {{1, 3}},
	8: {{1, 2}, {1, 5}},
}

// startExists returns "" when an open tour of a board that has one begins at start.
func startExists(rows, cols int, start board.Square) string {
	if rows*cols%2 == 1 && (start.Row+start.Col)%2 == 1 {
		return "on a board with an odd number of squares a tour starts and ends on the colour of the corners"
	}
	r, c, n := start.Row, start.Col, cols
	m := rows
	if rows > cols {
		r, c, m, n = start.Col, start.Row, cols, rows
	}
	switch m {
	case 4:
		if r == 1 || r == 2 {
			return fmt.Sprintf("on a 4×%d board tours start and end on the two outer lines", n)
		}
	case 3:
		for _, sq := range narrowNo[n] {
			if sq[0] == r && sq[1] == c {
				return fmt.Sprintf("exhaustive search finds none from this square of a 3×%d board", n)
			}
		}
	}
	return ""
}

// noTour is an error that says why there is no tour and matches ErrNoTour.
type noTour string

func (e noTour) Error() string        { return string(e) }
func (e noTour) Is(target error) bool { return target == ErrNoTour }
