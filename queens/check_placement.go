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
// tabs, semicolons or line breaks. It returns the Placement of the N×N board (N = n, or the
// length of the list when n is 0) whose row r holds the queen the list gives it, rows beyond
// the list empty, and ok = true exactly when Parse(text, n) would return that placement's
// [Placement.Position]. Anything else — another notation, a prefix such as "perm:", empty
// rows, a run of digits without separators, a number off the board, "file,rank" squares
// separated by white space ("5,4 1,1", which Parse reads as algebraic) — gives ok = false,
// and the caller should use Parse, which reads it or says what is wrong. The answer does not
// depend on n beyond the board's bounds: one text has one reading at every size.
//
// ParseColumns reads text once, in time linear in its length, and holds 4 bytes a row: ten
// million queens (79 MB of text) take well under a second, where Parse builds a string and a
// Square for every queen.
func ParseColumns(text string, n int) (p Placement, ok bool) {
	p, ok, _ = ParseColumnsContext(context.Background(), text, n)
	return p, ok
}

// ParseColumnsContext is [ParseColumns] that stops early, returning ctx.Err() (and no
// placement), when ctx is done. It looks at ctx every mebibyte of text (a millisecond or
// so), so a command ends a read of a hundred million columns at once on Ctrl-C.
func ParseColumnsContext(ctx context.Context, text string, n int) (p Placement, ok bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	if n < 0 || n > MaxParseN {
		return nil, false, nil
	}
	// As Parse does: around the text, white space is ignored; without a separator inside,
	// it is a run of code digits; and it is perm only when a field is "0" and a separator
	// Parse's detection knows (not ';' or '\r') is there.
	t := strings.TrimSpace(text)
	if !strings.ContainsAny(t, ", \t\n\r;") {
		return nil, false, nil
	}
	cols := make(Placement, 0, len(t)/4+1)
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
		if i%(1<<20) == 0 && i > 0 {
			if err := ctx.Err(); err != nil {
				return nil, false, err
			}
		}
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
				return nil, false, nil
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
			return nil, false, nil
		}
	}
	endField()
	if !end() || len(cols) == 0 || zero && !strings.ContainsAny(t, ", \t\n") || squares && fields >= 2 {
		return nil, false, nil
	}
	rows := len(cols)
	if n == 0 {
		n = rows
	}
	if rows > n {
		return nil, false, nil
	}
	base := int64(1)
	if zero {
		base = 0
	}
	if lo < base || hi-base >= int64(n) {
		return nil, false, nil
	}
	if base == 1 {
		for i := range cols {
			cols[i]--
		}
	}
	for range n - rows {
		cols = append(cols, -1)
	}
	return cols, true, nil
}

// The shapes of a white-space-separated field, as ParseColumns meets its bytes.
const (
	fieldEmpty = iota // nothing yet
	fieldFile         // digits
	fieldComma        // digits and a comma
	fieldRank         // digits, a comma, digits: a file,rank square
	fieldOther        // anything else
)

// CheckLimits bounds what [CheckContext] and [Placement.CheckContext] keep of a huge
// position.
type CheckLimits struct {
	// MaxAttacks is how many attacking pairs the Report lists: the first ones in the order
	// Check lists them. The others are only counted. Negative keeps them all.
	MaxAttacks int
	// Lines asks for the per-line counts (Rows, Columns, Diagonals, AntiDiagonals: 48
	// bytes a row); without it they are nil.
	Lines bool
}

// Check returns the Report [Check] gives for p.Position(), in one pass: with at most one
// queen a row there is nothing to sort, and walking the rows from the top meets the queens
// on each line in the order Check pairs them, so it takes time linear in len(p) and 56
// bytes a row beyond p, and runs about ten times faster than Check. As in Check, a column
// of len(p) or more is a queen off the board; a negative one is an empty row.
func (p Placement) Check() Report {
	n := len(p)
	rep := Report{
		N:             n,
		Rows:          make([]int, n),
		Columns:       make([]int, n),
		Diagonals:     make([]int, max(2*n-1, 0)),
		AntiDiagonals: make([]int, max(2*n-1, 0)),
	}
	p.countLines(&rep)
	crowded := func(counts []int) bool {
		return slices.ContainsFunc(counts, func(k int) bool { return k > 1 })
	}
	var last []int32
	for _, l := range p.lines() {
		if !crowded(l.counts(&rep)) {
			continue
		}
		if last == nil {
			last = make([]int32, 2*n)
		}
		clear(last)
		for r, c32 := range p {
			if uint32(c32) >= uint32(n) {
				continue // an empty row, or a queen off the board
			}
			i := int(c32) + l.dr*r + l.off
			if prev := last[i]; prev > 0 {
				rep.Attacks = append(rep.Attacks, p.attack(int(prev-1), r, l.kind))
			}
			last[i] = int32(r + 1)
		}
	}
	slices.SortStableFunc(rep.Attacks, func(a, b Attack) int {
		return cmp.Or(cmp.Compare(a.A.Row, b.A.Row), cmp.Compare(a.A.Col, b.A.Col), cmp.Compare(a.Line, b.Line))
	})
	rep.Solved = n > 0 && rep.Queens == n && len(rep.OffBoard) == 0 && len(rep.Attacks) == 0
	return rep
}

// CheckContext returns what [CheckContext] does for p.Position(), by the pass of
// [Placement.Check]: its Report lists only the first lim.MaxAttacks attacking pairs, in
// Check's order, and holds the per-line counts only when lim.Lines asks; attacks is the
// exact number of attacking pairs, listed or not. Beyond p it holds 8 bytes a row and 40
// bytes an attack listed (plus 48 bytes a row with Lines), and takes time linear in len(p)
// plus log(lim.MaxAttacks) an attack: a check of ten million queens takes about a second
// and 0.1 GB besides p. It returns ctx.Err() if ctx is done before it is, looking every
// 65536 rows.
func (p Placement) CheckContext(ctx context.Context, lim CheckLimits) (rep Report, attacks int64, err error) {
	n := len(p)
	rep = Report{N: n}
	if lim.Lines {
		rep.Rows, rep.Columns = make([]int, n), make([]int, n)
		rep.Diagonals, rep.AntiDiagonals = make([]int, max(2*n-1, 0)), make([]int, max(2*n-1, 0))
	}
	p.countLines(&rep)
	// The pairs kept are the smallest in Check's order, (first queen's row, line) as one
	// row holds one queen: a max-heap of them, whose top is the one to drop first.
	kept := &attackHeap{max: lim.MaxAttacks}
	last := make([]int32, 2*n)
	for _, l := range p.lines() {
		clear(last)
		for r, c32 := range p {
			if r%65536 == 0 {
				if err := ctx.Err(); err != nil {
					return Report{}, 0, err
				}
			}
			if uint32(c32) >= uint32(n) {
				continue // an empty row, or a queen off the board
			}
			i := int(c32) + l.dr*r + l.off
			if prev := last[i]; prev > 0 {
				attacks++
				kept.add(p.attack(int(prev-1), r, l.kind))
			}
			last[i] = int32(r + 1)
		}
	}
	rep.Attacks = kept.a
	slices.SortFunc(rep.Attacks, attackOrder)
	rep.Solved = n > 0 && rep.Queens == n && len(rep.OffBoard) == 0 && attacks == 0
	return rep, attacks, nil
}

// countLines counts p's queens into rep.Queens and rep.OffBoard, and into the per-line
// counts rep has room for (none when rep.Rows is nil).
func (p Placement) countLines(rep *Report) {
	n := len(p)
	for r, c32 := range p {
		if c32 < 0 {
			continue
		}
		rep.Queens++
		c := int(c32)
		if c >= n {
			rep.OffBoard = append(rep.OffBoard, board.Square{Row: r, Col: c})
			continue
		}
		if rep.Rows != nil {
			rep.Rows[r]++
			rep.Columns[c]++
			rep.Diagonals[c-r+n-1]++
			rep.AntiDiagonals[r+c]++
		}
	}
}

// placementLine is a kind of line along which a Placement's queens can attack: not rows,
// which hold one queen each. The square (r, c) is on line c + dr·r + off of the kind,
// numbered from 0 to 2N-2 as in Report: arithmetic, not a function call, in the loops
// over a hundred million rows.
type placementLine struct {
	kind    Line
	dr, off int
	counts  func(rep *Report) []int
}

// lines returns the kinds of line that [Placement.Check] walks, in the order of [Line].
func (p Placement) lines() [3]placementLine {
	n := len(p)
	return [3]placementLine{
		{Column, 0, 0, func(rep *Report) []int { return rep.Columns }},
		{Diagonal, -1, n - 1, func(rep *Report) []int { return rep.Diagonals }},
		{AntiDiagonal, 1, 0, func(rep *Report) []int { return rep.AntiDiagonals }},
	}
}

// attack is the attack of the queen of row b on that of row a, above it, along line.
func (p Placement) attack(a, b int, line Line) Attack {
	return Attack{A: board.Square{Row: a, Col: int(p[a])}, B: board.Square{Row: b, Col: int(p[b])}, Line: line}
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
