package queens

import (
	"cmp"
	"context"
	"slices"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// Line is a kind of line along which a queen attacks.
type Line int

// The four lines through a square. A diagonal runs down to the right as printed (a8 to h1
// on a chessboard), an anti-diagonal up to the right (a1 to h8).
const (
	Row Line = iota
	Column
	Diagonal
	AntiDiagonal
)

var lineNames = [...]string{"row", "column", "diagonal", "anti-diagonal"}

// String names the line: "row", "column", "diagonal" or "anti-diagonal".
func (l Line) String() string {
	if l >= 0 && int(l) < len(lineNames) {
		return lineNames[l]
	}
	return "line?"
}

// Attack is a pair of queens that attack each other: they share a line and no queen stands
// between them on it. A is the queen nearer the top (or, on a row, the left).
type Attack struct {
	A, B board.Square
	Line Line
}

// Report is what [Check] finds in a position.
type Report struct {
	N int
	// Queens is how many queens the position has.
	Queens int
	// Solved is true when N queens stand and none attacks another.
	Solved bool
	// Attacks lists every pair of queens that attack each other, ordered by the first
	// queen from the top and then by line. A queen's attack stops at the first queen on its
	// line, so three queens on one row make two attacking pairs, not three.
	Attacks []Attack
	// Rows[r] and Columns[c] count the queens on each row and column.
	Rows, Columns []int
	// Diagonals[k] counts the queens on the diagonal of squares with col-row = k-(N-1):
	// index 0 is the bottom-left corner square alone, index 2N-2 the top-right one.
	Diagonals []int
	// OffBoard lists queens that lie off the board: they are counted in Queens but on no
	// line. Parse never gives such a position; one built by hand may have them.
	OffBoard []board.Square
	// AntiDiagonals[k] counts the queens on the anti-diagonal of squares with row+col = k:
	// index 0 is the top-left corner square alone.
	AntiDiagonals []int
}

// Check judges a position: whether it is a solution, which queens attack which, and how
// many queens stand on each line (the control sums used when solving by hand). Two queens
// on one square count as attacking along their row. Check takes time O(N + q log q) for q
// queens and never compares all pairs, so a placement of ten million queens takes about a
// second; [Placement.Check] gives the same Report of a Placement in one pass, several
// times faster.
func Check(pos Position) Report {
	n := max(pos.N, 0)
	rep := Report{
		N:             n,
		Queens:        len(pos.Queens),
		Rows:          make([]int, n),
		Columns:       make([]int, n),
		Diagonals:     make([]int, max(2*n-1, 0)),
		AntiDiagonals: make([]int, max(2*n-1, 0)),
	}
	// On each line, consecutive queens in the order of onBoard are the attacking pairs.
	qs := rep.onBoard(pos)
	lines := []struct {
		kind   Line
		counts []int
		index  func(board.Square) int
	}{
		{Row, rep.Rows, func(q board.Square) int { return q.Row }},
		{Column, rep.Columns, func(q board.Square) int { return q.Col }},
		{Diagonal, rep.Diagonals, func(q board.Square) int { return q.Col - q.Row + n - 1 }},
		{AntiDiagonal, rep.AntiDiagonals, func(q board.Square) int { return q.Row + q.Col }},
	}
	// last[i] is 1 + the index in qs of the latest queen seen on line i, 0 for none yet.
	last := make([]int, 2*n)
	for _, l := range lines {
		crowded := false
		for _, k := range l.counts {
			if k > 1 {
				crowded = true
				break
			}
		}
		if !crowded {
			continue
		}
		clear(last)
		for j, q := range qs {
			i := l.index(q)
			if l.counts[i] < 2 {
				continue
			}
			// Two queens on one square attack along their row only, not four times over.
			if prev := last[i]; prev > 0 && (l.kind == Row || qs[prev-1] != q) {
				rep.Attacks = append(rep.Attacks, Attack{A: qs[prev-1], B: q, Line: l.kind})
			}
			last[i] = j + 1
		}
	}
	slices.SortStableFunc(rep.Attacks, func(a, b Attack) int {
		return cmp.Or(cmp.Compare(a.A.Row, b.A.Row), cmp.Compare(a.A.Col, b.A.Col), cmp.Compare(a.Line, b.Line))
	})
	rep.Solved = n > 0 && rep.Queens == n && len(rep.OffBoard) == 0 && len(rep.Attacks) == 0
	return rep
}

// CheckContext is [Check] for positions too large to keep everything about: its Report lists
// only the first lim.MaxAttacks attacking pairs, in Check's order, and holds the per-line
// counts only when lim.Lines asks; attacks is the exact number of attacking pairs, listed or
// not, and Solved is what Check says. It needs no array as long as the board (Check holds 64
// bytes a row: a queen on a board of a hundred million rows costs Check 6 GB): beyond the
// queens it holds 4 bytes a queen and 40 bytes an attack listed (plus 48 bytes a row with
// Lines), and takes time O(q log q) for q queens. It returns ctx.Err() if ctx is done before
// it is, looking between the lines of each kind and every 65536 queens.
func CheckContext(ctx context.Context, pos Position, lim CheckLimits) (rep Report, attacks int64, err error) {
	n := max(pos.N, 0)
	rep = Report{N: n, Queens: len(pos.Queens)}
	if lim.Lines {
		rep.Rows, rep.Columns = make([]int, n), make([]int, n)
		rep.Diagonals, rep.AntiDiagonals = make([]int, max(2*n-1, 0)), make([]int, max(2*n-1, 0))
	}
	qs := rep.onBoard(pos)
	// As in Check, consecutive queens of one line in this order are its attacking pairs:
	// here the queens are sorted by line, stably, instead of met through an array as long
	// as the board. Kept are the smallest pairs in Check's order (see attackHeap).
	kept := &attackHeap{max: lim.MaxAttacks}
	order := make([]int32, len(qs))
	for _, l := range []struct {
		kind  Line
		index func(board.Square) int
	}{
		{Row, func(q board.Square) int { return q.Row }},
		{Column, func(q board.Square) int { return q.Col }},
		{Diagonal, func(q board.Square) int { return q.Col - q.Row }},
		{AntiDiagonal, func(q board.Square) int { return q.Row + q.Col }},
	} {
		if err := ctx.Err(); err != nil {
			return Report{}, 0, err
		}
		for j := range order {
			order[j] = int32(j)
		}
		slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(l.index(qs[a]), l.index(qs[b])) })
		for t := 1; t < len(order); t++ {
			if t%65536 == 0 {
				if err := ctx.Err(); err != nil {
					return Report{}, 0, err
				}
			}
			a, b := qs[order[t-1]], qs[order[t]]
			// Two queens on one square attack along their row only, not four times over.
			if l.index(a) == l.index(b) && (l.kind == Row || a != b) {
				attacks++
				kept.add(Attack{A: a, B: b, Line: l.kind})
			}
		}
	}
	rep.Attacks = kept.a
	slices.SortStableFunc(rep.Attacks, attackOrder)
	rep.Solved = n > 0 && rep.Queens == n && len(rep.OffBoard) == 0 && attacks == 0
	return rep, attacks, nil
}

// onBoard returns pos's queens that stand on the rep.N×rep.N board, sorted top to bottom
// and left to right, appends the others to rep.OffBoard, and counts the queens on each line
// when rep holds the per-line counts (Rows non-nil). It takes time O(q log q) for q queens.
func (rep *Report) onBoard(pos Position) []board.Square {
	n := rep.N
	qs := make([]board.Square, 0, len(pos.Queens))
	for _, q := range pos.Queens {
		if q.Row < 0 || q.Row >= n || q.Col < 0 || q.Col >= n {
			rep.OffBoard = append(rep.OffBoard, q)
			continue
		}
		qs = append(qs, q)
		if rep.Rows != nil {
			rep.Rows[q.Row]++
			rep.Columns[q.Col]++
			rep.Diagonals[q.Col-q.Row+n-1]++
			rep.AntiDiagonals[q.Row+q.Col]++
		}
	}
	slices.SortFunc(qs, func(a, b board.Square) int {
		return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col))
	})
	return qs
}
