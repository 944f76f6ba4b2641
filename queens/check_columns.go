package queens

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// ParseColumns is a fast path of [Parse] for the one notation huge placements come in: a
// list of column numbers, perm (0-based) or code (1-based), separated by commas, spaces,
// tabs, semicolons or line breaks. It returns the columns, cols[row] = col (0-based), and
// the board size, and ok = true exactly when Parse(text, n) would return the position with a
// queen on (r, cols[r]) for every row r of the list on an N×N board (N = n, or the length of
// the list when n is 0). Anything else — another notation, a prefix such as "perm:", empty
// rows, a run of digits without separators, a number off the board, "file,rank" squares
// separated by white space ("5,4 1,1", which Parse reads as algebraic) — gives ok = false,
// and the caller should use Parse, which reads it or says what is wrong. The answer does not
// depend on n beyond the board's bounds: one text has one reading at every size.
//
// ParseColumns reads text once, in time linear in its length, and holds 4 bytes a row: ten
// million queens (79 MB of text) take well under a second, where Parse builds a string and a
// Square for every queen.
func ParseColumns(text string, n int) (cols []int32, size int, ok bool) {
	if n < 0 || n > MaxParseN {
		return nil, 0, false
	}
	// As Parse does: around the text, white space is ignored; without a separator inside,
	// it is a run of code digits; and it is perm only when a field is "0" and a separator
	// Parse's detection knows (not ';' or '\r') is there.
	t := strings.TrimSpace(text)
	if !strings.ContainsAny(t, ", \t\n\r;") {
		return nil, 0, false
	}
	cols = make([]int32, 0, len(t)/4+1)
	var (
		v          int64 // the number being read
		digits     int   // its digits so far
		inNumber   bool
		singleZero bool  // the number being read is so far just "0"
		zero       bool  // some number is written "0"
		lo, hi     int64 = MaxParseN + 1, -1
		// Parse reads text whose white-space-separated fields are all "digits,digits", two
		// or more of them, as file,rank squares ("5,4 1,1" is e4 and a1), not as columns:
		// field is the shape of the current field so far, and squares stays true while
		// every finished field had that shape.
		field   = fieldEmpty
		fields  int
		squares = true
	)
	endField := func() {
		if field != fieldEmpty {
			fields++
			squares = squares && field == fieldRank
			field = fieldEmpty
		}
	}
	end := func() bool {
		if !inNumber {
			return true
		}
		if digits > 10 || v > MaxParseN {
			return false
		}
		zero = zero || singleZero
		lo, hi = min(lo, v), max(hi, v)
		cols = append(cols, int32(v))
		inNumber, v, digits = false, 0, 0
		return true
	}
	for i := 0; i < len(t); i++ {
		b := t[i]
		switch {
		case b >= '0' && b <= '9':
			switch field {
			case fieldEmpty:
				field = fieldFile
			case fieldComma:
				field = fieldRank
			}
			singleZero = !inNumber && b == '0'
			inNumber = true
			if digits++; digits <= 10 {
				v = v*10 + int64(b-'0')
			}
		case b == ',' || b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == ';':
			if !end() {
				return nil, 0, false
			}
			switch {
			case b == ' ' || b == '\t' || b == '\n' || b == '\r':
				endField()
			case b == ',' && field == fieldFile:
				field = fieldComma
			default:
				field = fieldOther
			}
		default:
			return nil, 0, false
		}
	}
	endField()
	if !end() || len(cols) == 0 || zero && !strings.ContainsAny(t, ", \t\n") || squares && fields >= 2 {
		return nil, 0, false
	}
	rows := len(cols)
	if n == 0 {
		n = rows
	}
	if rows > n {
		return nil, 0, false
	}
	base := int64(1)
	if zero {
		base = 0
	}
	if lo < base || hi-base >= int64(n) {
		return nil, 0, false
	}
	if base == 1 {
		for i := range cols {
			cols[i]--
		}
	}
	return cols, n, true
}

// The shapes of a white-space-separated field, as ParseColumns meets its bytes.
const (
	fieldEmpty = iota // nothing yet
	fieldFile         // digits
	fieldComma        // digits and a comma
	fieldRank         // digits, a comma, digits: a file,rank square
	fieldOther        // anything else
)

// CheckColumns returns the same Report as [Check] does for the position with a queen on
// (r, cols[r]) for each r < len(cols) on the n×n board, with len(cols) ≤ n and every column
// from 0 to n-1 (it panics otherwise, as indexing would). It is Check's fast path for
// placements of millions of queens: with at most one queen a row there is nothing to sort,
// and the queens on each line are met in the order Check pairs them, so it takes one pass
// and arrays, about ten times faster than Check.
func CheckColumns(n int, cols []int32) Report {
	rep := Report{
		N:             n,
		Queens:        len(cols),
		Rows:          make([]int, n),
		Columns:       make([]int, n),
		Diagonals:     make([]int, 2*n-1),
		AntiDiagonals: make([]int, 2*n-1),
	}
	for r, c32 := range cols {
		c := int(c32)
		rep.Rows[r]++
		rep.Columns[c]++
		rep.Diagonals[c-r+n-1]++
		rep.AntiDiagonals[r+c]++
	}
	crowded := func(counts []int) bool {
		return slices.ContainsFunc(counts, func(k int) bool { return k > 1 })
	}
	// For each crowded kind of line, last[i] is the row of the last queen met on line i,
	// plus one (0: none yet); walking the rows from the top meets each line's queens in
	// order, and each one attacks the one before it.
	var last []int32
	for _, l := range []struct {
		kind   Line
		counts []int
		index  func(r, c int) int
	}{
		{Column, rep.Columns, func(r, c int) int { return c }},
		{Diagonal, rep.Diagonals, func(r, c int) int { return c - r + n - 1 }},
		{AntiDiagonal, rep.AntiDiagonals, func(r, c int) int { return r + c }},
	} {
		if !crowded(l.counts) {
			continue
		}
		if last == nil {
			last = make([]int32, 2*n)
		}
		clear(last)
		for r, c32 := range cols {
			c := int(c32)
			i := l.index(r, c)
			if prev := last[i]; prev > 0 {
				pr := int(prev - 1)
				rep.Attacks = append(rep.Attacks, Attack{A: board.Square{Row: pr, Col: int(cols[pr])}, B: board.Square{Row: r, Col: c}, Line: l.kind})
			}
			last[i] = int32(r + 1)
		}
	}
	slices.SortStableFunc(rep.Attacks, func(a, b Attack) int {
		return cmp.Or(cmp.Compare(a.A.Row, b.A.Row), cmp.Compare(a.A.Col, b.A.Col), cmp.Compare(a.Line, b.Line))
	})
	rep.Solved = rep.Queens == n && len(rep.Attacks) == 0
	return rep
}

// CheckLimits bounds what [CheckColumnsContext] keeps of a huge position.
type CheckLimits struct {
	// MaxAttacks is how many attacking pairs the Report lists: the first ones in the order
	// Check lists them. The others are only counted. Negative keeps them all.
	MaxAttacks int
	// Lines asks for the per-line counts (Rows, Columns, Diagonals, AntiDiagonals: 48
	// bytes a row); without it they are nil.
	Lines bool
}

// CheckColumnsContext is [CheckColumns] for placements too large to keep everything about:
// its Report lists only the first lim.MaxAttacks attacking pairs, in Check's order, and holds
// the per-line counts only when lim.Lines asks; attacks is the exact number of attacking
// pairs, listed or not, and Solved is true when len(cols) = n and attacks = 0. Beyond cols it
// holds 8 bytes a row and 40 bytes an attack listed (plus 48 bytes a row with Lines), and
// takes time linear in len(cols) plus log(lim.MaxAttacks) an attack. It returns ctx.Err()
// if ctx is done before it is, looking every 65536 rows. As for CheckColumns, n ≥ 1,
// len(cols) ≤ n and every column is from 0 to n-1 (it panics otherwise).
func CheckColumnsContext(ctx context.Context, n int, cols []int32, lim CheckLimits) (rep Report, attacks int64, err error) {
	rep = Report{N: n, Queens: len(cols)}
	if lim.Lines {
		rep.Rows, rep.Columns = make([]int, n), make([]int, n)
		rep.Diagonals, rep.AntiDiagonals = make([]int, 2*n-1), make([]int, 2*n-1)
		for r, c32 := range cols {
			c := int(c32)
			rep.Rows[r]++
			rep.Columns[c]++
			rep.Diagonals[c-r+n-1]++
			rep.AntiDiagonals[r+c]++
		}
	}
	// As in CheckColumns: walking the rows from the top meets each line's queens in order,
	// and each one attacks the one before it (last[i] is that one's row plus one, 0: none).
	// The pairs kept are the smallest in Check's order, (first queen's row, line) as one
	// row holds one queen: a max-heap of them, whose top is the one to drop first.
	kept := &attackHeap{max: lim.MaxAttacks}
	last := make([]int32, 2*n)
	for _, l := range []struct {
		kind  Line
		index func(r, c int) int
	}{
		{Column, func(r, c int) int { return c }},
		{Diagonal, func(r, c int) int { return c - r + n - 1 }},
		{AntiDiagonal, func(r, c int) int { return r + c }},
	} {
		clear(last)
		for r, c32 := range cols {
			if r%65536 == 0 {
				if err := ctx.Err(); err != nil {
					return Report{}, 0, err
				}
			}
			c := int(c32)
			i := l.index(r, c)
			if prev := last[i]; prev > 0 {
				attacks++
				pr := int(prev - 1)
				kept.add(Attack{A: board.Square{Row: pr, Col: int(cols[pr])}, B: board.Square{Row: r, Col: c}, Line: l.kind})
			}
			last[i] = int32(r + 1)
		}
	}
	rep.Attacks = kept.a
	slices.SortFunc(rep.Attacks, attackOrder)
	rep.Solved = rep.Queens == n && attacks == 0
	return rep, attacks, nil
}

// attackOrder is Check's order of attacks: by the first queen, then by line, then (where
// a queen is written twice on one square) by the second queen, as Check meets them.
func attackOrder(a, b Attack) int {
	return cmp.Or(cmp.Compare(a.A.Row, b.A.Row), cmp.Compare(a.A.Col, b.A.Col), cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.B.Row, b.B.Row), cmp.Compare(a.B.Col, b.B.Col))
}

// attackHeap keeps the max smallest attacks added in attackOrder (all of them when max is
// negative), as a max-heap: a[0] is the largest kept.
type attackHeap struct {
	max int
	a   []Attack
}

func (h *attackHeap) add(x Attack) {
	switch {
	case h.max < 0:
		h.a = append(h.a, x)
		return
	case len(h.a) < h.max:
		h.a = append(h.a, x)
		for i := len(h.a) - 1; i > 0; {
			p := (i - 1) / 2
			if attackOrder(h.a[p], h.a[i]) >= 0 {
				break
			}
			h.a[p], h.a[i] = h.a[i], h.a[p]
			i = p
		}
		return
	case h.max == 0 || attackOrder(x, h.a[0]) >= 0:
		return
	}
	h.a[0] = x
	for i := 0; ; {
		big, l, r := i, 2*i+1, 2*i+2
		if l < len(h.a) && attackOrder(h.a[l], h.a[big]) > 0 {
			big = l
		}
		if r < len(h.a) && attackOrder(h.a[r], h.a[big]) > 0 {
			big = r
		}
		if big == i {
			return
		}
		h.a[i], h.a[big] = h.a[big], h.a[i]
		i = big
	}
}
