package regions

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/bits"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

// Level is how hard a puzzle is: the level of the hardest technique [Explain] needs. It is
// the level of package queens' puzzles (queens.Level), named and parsed the same way.
type Level = queens.Level

// The levels, easiest first.
const (
	Easy   = queens.Easy   // last free cells, single confinements, cells whose queen would empty a unit
	Medium = queens.Medium // also pairs
	Hard   = queens.Hard   // also groups of three or more, and forcing chains
)

// ParseLevel reads easy, medium or hard, in any case (queens.ParseLevel).
func ParseLevel(s string) (Level, error) { return queens.ParseLevel(s) }

// Technique is one kind of deduction [Explain] makes. A "unit" is a row, a column or a
// region: each holds exactly one queen. A "line" is a row or a column.
type Technique int

// The techniques, in the order [Explain] tries them (easiest first).
const (
	// LastCell: a unit has one free cell left, so its queen goes there; the queen then
	// rules out the rest of its row, column and region and the cells touching it.
	LastCell Technique = iota
	// Confined: all free cells of one unit lie in one unit of another kind (a region
	// within one row, a column within one region, …), so that unit's queen is the first
	// unit's, and its other cells are ruled out.
	Confined
	// WouldEmpty: a queen on a cell would leave some unit with no free cell (taking its
	// row, column, region and neighbours), so the cell is ruled out.
	WouldEmpty
	// Pair: two units have all their free cells in two units of another kind (two
	// regions within two rows, …), so those two hold their queens; their other cells are
	// ruled out.
	Pair
	// Group: as Pair, with three or more units (N regions confined to N rows, …).
	Group
	// Chain: a queen on a cell would force, by last free cells and confinements, a
	// sequence of queens that leaves some unit with no free cell; the cell is ruled out.
	Chain
)

var techniqueNames = [...]string{"last free cell", "confined unit", "would empty a unit", "pair", "group", "forcing chain"}
var techniqueLevels = [...]Level{Easy, Easy, Easy, Medium, Hard, Hard}

// String returns the technique's name in words, e.g. "last free cell".
func (t Technique) String() string {
	if t >= 0 && int(t) < len(techniqueNames) {
		return techniqueNames[t]
	}
	return fmt.Sprintf("Technique(%d)", int(t))
}

// MarshalText returns the technique's name.
func (t Technique) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// Level returns the level of the technique: a puzzle that needs it is at least that hard.
func (t Technique) Level() Level {
	if t >= 0 && int(t) < len(techniqueLevels) {
		return techniqueLevels[t]
	}
	return Hard
}

// Step is one deduction: a queen placed or cells ruled out, with the reason.
type Step struct {
	Technique Technique
	// Queen is the cell where a queen goes (LastCell only); Placed tells whether there is one.
	Queen  board.Square
	Placed bool
	// Ruled holds the cells ruled out: for LastCell, those the new queen takes.
	Ruled []board.Square
	// Because holds the cells the reasoning looks at: the unit with its last free cell,
	// the confined units' free cells, the cells a hypothetical queen would take, or the
	// queens of a forcing chain.
	Because []board.Square
	// Text says the step in a sentence or two, every cell it concerns written rRcC.
	Text string
	// Short says the same naming at most three cells a list; a longer list is "N marked
	// cells", for a reader who sees Queen, Ruled and Because marked on the grid (the
	// page's hints): it names at most four different cells.
	Short string
}

// maxNamed is how many cells a list in a Short sentence names before it counts them.
const maxNamed = 3

// say sets st.Text and st.Short from one sentence, written with the list of cells given:
// names for Text, fewNames for Short.
func (st *Step) say(sentence func(list func([]board.Square) string) string) {
	st.Text = sentence(names)
	st.Short = sentence(fewNames)
}

// fewNames writes up to maxNamed cells by name, and more as "N marked cells".
func fewNames(sqs []board.Square) string {
	if len(sqs) <= maxNamed {
		return names(sqs)
	}
	return fmt.Sprintf("%d marked cells", len(sqs))
}

// Errors of [Explain], [Grade] and [Hint].
var (
	// ErrStuck: the techniques find no further step; the puzzle needs guessing (or has
	// more than one solution).
	ErrStuck = errors.New("no technique applies: the puzzle needs guessing or has more than one solution")
	// ErrSolved: [Hint] was given a complete solution.
	ErrSolved = errors.New("the puzzle is solved")
)

// cellSet is a set of cells: bit c of word r is the cell in row r, column c.
type cellSet [MaxN]uint32

func (p *Puzzle) squares(cs *cellSet) []board.Square {
	var out []board.Square
	for r := range p.n {
		for m := cs[r]; m != 0; m &= m - 1 {
			out = append(out, board.Square{Row: r, Col: bits.TrailingZeros32(m)})
		}
	}
	return out
}

func names(sqs []board.Square) string {
	parts := make([]string, len(sqs))
	for i, s := range sqs {
		parts[i] = CellName(s)
	}
	return strings.Join(parts, ", ")
}

// free returns the free cells of unit idx of the given kind.
func (p *Puzzle) free(s *state, kind, idx int) cellSet {
	var cs cellSet
	switch kind {
	case unitRow:
		cs[idx] = s.cand[idx]
	case unitCol:
		for r := range p.n {
			cs[r] = s.cand[r] & (1 << idx)
		}
	default:
		for r := range p.n {
			cs[r] = s.cand[r] & p.cells[idx][r]
		}
	}
	return cs
}

// done reports whether unit idx of the given kind holds a queen.
func (s *state) done(kind, idx int) bool {
	switch kind {
	case unitRow:
		return s.rows&(1<<idx) != 0
	case unitCol:
		return s.cols&(1<<idx) != 0
	}
	return s.regs&(1<<idx) != 0
}

// touches returns the units of kind b that the cells cs meet, as a bitmask.
func (p *Puzzle) touches(cs *cellSet, b int) uint32 {
	var m uint32
	for r := range p.n {
		if cs[r] == 0 {
			continue
		}
		switch b {
		case unitRow:
			m |= 1 << r
		case unitCol:
			m |= cs[r]
		default:
			for x := cs[r]; x != 0; x &= x - 1 {
				m |= 1 << p.region[r*p.n+bits.TrailingZeros32(x)]
			}
		}
	}
	return m
}

func unitName(kind, idx int) string {
	switch kind {
	case unitRow:
		return fmt.Sprintf("row %d", idx+1)
	case unitCol:
		return fmt.Sprintf("column %d", idx+1)
	}
	return "region " + Letter(idx)
}

// unitNames writes units of one kind as "rows 2 and 3", "regions A, C and D".
func unitNames(kind int, m uint32) string {
	var ids []string
	for x := m; x != 0; x &= x - 1 {
		i := bits.TrailingZeros32(x)
		if kind == unitRegion {
			ids = append(ids, Letter(i))
		} else {
			ids = append(ids, fmt.Sprint(i+1))
		}
	}
	word := [...]string{"row", "column", "region"}[kind]
	if len(ids) > 1 {
		word += "s"
	}
	list := ids[0]
	if len(ids) > 1 {
		list = strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
	}
	return word + " " + list
}

// empty returns an open unit (no queen yet) with no free cell, if any: the state has no
// solution.
func (p *Puzzle) empty(s *state) (kind, idx int, ok bool) {
	col, reg := p.counts(s)
	for r := range p.n {
		if s.rows&(1<<r) == 0 && s.cand[r] == 0 {
			return unitRow, r, true
		}
	}
	for c := range p.n {
		if s.cols&(1<<c) == 0 && col[c] == 0 {
			return unitCol, c, true
		}
	}
	for k := range p.n {
		if s.regs&(1<<k) == 0 && reg[k] == 0 {
			return unitRegion, k, true
		}
	}
	return 0, 0, false
}

// lastCell finds an open unit with exactly one free cell.
func (p *Puzzle) lastCell(s *state) (Step, bool) {
	for kind := unitRow; kind <= unitRegion; kind++ {
		for i := range p.n {
			if s.done(kind, i) {
				continue
			}
			cs := p.free(s, kind, i)
			sqs := p.squares(&cs)
			if len(sqs) != 1 {
				continue
			}
			q := sqs[0]
			t := *s
			p.place(&t, q.Row, q.Col)
			var ruled cellSet
			for r := range p.n {
				ruled[r] = s.cand[r] &^ t.cand[r]
			}
			ruled[q.Row] &^= 1 << q.Col
			st := Step{Technique: LastCell, Queen: q, Placed: true, Ruled: p.squares(&ruled), Because: sqs}
			st.say(func(list func([]board.Square) string) string {
				text := fmt.Sprintf("%s has one free cell left, %s, so its queen goes there.", capital(unitName(kind, i)), CellName(q))
				if len(st.Ruled) > 0 {
					text += fmt.Sprintf(" It takes its row, column and region %s, and the cells around it: %s ruled out.",
						Letter(p.Region(q.Row, q.Col)), list(st.Ruled))
				}
				return text
			})
			return st, true
		}
	}
	return Step{}, false
}

func capital(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// kindPairs are the (confined kind, container kind) pairs the confinement techniques try.
var kindPairs = [...][2]int{
	{unitRegion, unitRow}, {unitRegion, unitCol},
	{unitRow, unitRegion}, {unitCol, unitRegion},
	{unitRow, unitCol}, {unitCol, unitRow},
}

// confine looks for k open units of one kind whose free cells lie within k units of another
// kind: those k units' queens are then the first k units' queens, and every other free cell
// of theirs is ruled out. It tries every k-subset, which costs C(N, k) unions; for k = 1
// a single unit within a single unit.
func (p *Puzzle) confine(s *state, k int) (Step, bool) {
	for _, kp := range kindPairs {
		a, b := kp[0], kp[1]
		// The open a-units that meet at most k b-units, with their free cells and b-masks.
		var ids []int
		var sets []cellSet
		var masks []uint32
		for i := range p.n {
			if s.done(a, i) {
				continue
			}
			cs := p.free(s, a, i)
			m := p.touches(&cs, b)
			if m != 0 && bits.OnesCount32(m) <= k {
				ids, sets, masks = append(ids, i), append(sets, cs), append(masks, m)
			}
		}
		if len(ids) < k {
			continue
		}
		pick := make([]int, k)
		var rec func(from, depth int, m uint32) (Step, bool)
		rec = func(from, depth int, m uint32) (Step, bool) {
			if depth == k {
				if bits.OnesCount32(m) != k {
					return Step{}, false
				}
				return p.confineStep(s, k, a, b, ids, sets, pick, m)
			}
			for j := from; j < len(ids); j++ {
				mm := m | masks[j]
				if bits.OnesCount32(mm) > k {
					continue
				}
				pick[depth] = j
				if st, ok := rec(j+1, depth+1, mm); ok {
					return st, ok
				}
			}
			return Step{}, false
		}
		if st, ok := rec(0, 0, 0); ok {
			return st, true
		}
	}
	return Step{}, false
}

// confineStep builds the step for the units pick (indexes into ids/sets) of kind a, confined
// to the b-units m, if it rules anything out.
func (p *Puzzle) confineStep(s *state, k, a, b int, ids []int, sets []cellSet, pick []int, m uint32) (Step, bool) {
	var inside, ruled cellSet
	var am uint32
	for _, j := range pick {
		am |= 1 << ids[j]
		for r := range p.n {
			inside[r] |= sets[j][r]
		}
	}
	for x := m; x != 0; x &= x - 1 {
		cs := p.free(s, b, bits.TrailingZeros32(x))
		for r := range p.n {
			ruled[r] |= cs[r] &^ inside[r]
		}
	}
	sq := p.squares(&ruled)
	if len(sq) == 0 {
		return Step{}, false
	}
	t := Confined
	switch {
	case k == 2:
		t = Pair
	case k >= 3:
		t = Group
	}
	st := Step{Technique: t, Ruled: sq, Because: p.squares(&inside)}
	an, bn := unitNames(a, am), unitNames(b, m)
	if k == 1 {
		st.say(func(list func([]board.Square) string) string {
			return fmt.Sprintf("The free cells of %s all lie in %s, so the queen of %s is the queen of %s: %s ruled out.",
				an, bn, bn, an, list(sq))
		})
	} else {
		st.say(func(list func([]board.Square) string) string {
			return fmt.Sprintf("The free cells of %s all lie in %s: %d queens for %d units, so %s hold no other queens: %s ruled out.",
				an, bn, k, k, bn, list(sq))
		})
	}
	return st, true
}

// wouldEmpty finds a free cell whose queen would leave an open unit with no free cell.
func (p *Puzzle) wouldEmpty(s *state) (Step, bool) {
	for r, c := range p.trials(s) {
		t := *s
		p.place(&t, r, c)
		kind, idx, ok := p.empty(&t)
		if !ok {
			continue
		}
		cs := p.free(s, kind, idx)
		q := board.Square{Row: r, Col: c}
		st := Step{Technique: WouldEmpty, Ruled: []board.Square{q}, Because: p.squares(&cs)}
		st.say(func(list func([]board.Square) string) string {
			return fmt.Sprintf("A queen on %s would take every free cell of %s (%s), so %s is ruled out.",
				CellName(q), unitName(kind, idx), list(st.Because), CellName(q))
		})
		return st, true
	}
	return Step{}, false
}

// easyStep returns the next step by the easy techniques.
func (p *Puzzle) easyStep(s *state) (Step, bool) {
	if st, ok := p.lastCell(s); ok {
		return st, true
	}
	return p.confine(s, 1)
}

// chain finds a free cell whose queen leads, by easy steps alone, to an open unit with no
// free cell.
func (p *Puzzle) chain(s *state) (Step, bool) {
	for r, c := range p.trials(s) {
		t := *s
		p.place(&t, r, c)
		var forced []board.Square
		for {
			if kind, idx, ok := p.empty(&t); ok {
				q := board.Square{Row: r, Col: c}
				st := Step{Technique: Chain, Ruled: []board.Square{q}, Because: append([]board.Square{q}, forced...)}
				st.say(func(list func([]board.Square) string) string {
					text := fmt.Sprintf("Suppose a queen on %s.", CellName(q))
					if len(forced) > 0 {
						text += fmt.Sprintf(" Then last free cells and confinements force queens on %s,", list(forced))
						text += fmt.Sprintf(" and %s is left with no free cell.", unitName(kind, idx))
					} else {
						text += fmt.Sprintf(" Then confinements leave %s with no free cell.", unitName(kind, idx))
					}
					return text + fmt.Sprintf(" So %s is ruled out.", CellName(q))
				})
				return st, true
			}
			if t.rows == p.full() {
				break
			}
			st, ok := p.easyStep(&t)
			if !ok {
				break
			}
			apply(p, &t, st)
			if st.Placed {
				forced = append(forced, st.Queen)
			}
		}
	}
	return Step{}, false
}

// apply makes the step's changes to the state.
func apply(p *Puzzle, s *state, st Step) {
	if st.Placed {
		p.place(s, st.Queen.Row, st.Queen.Col)
	}
	for _, q := range st.Ruled {
		s.cand[q.Row] &^= 1 << q.Col
	}
}

// next returns the next step from s by the easiest technique that applies: [ErrNoSolution]
// when an open unit has no free cell, [ErrSolved] when every row holds a queen, [ErrStuck]
// when no technique applies.
func (p *Puzzle) next(s *state) (Step, error) {
	if s.rows == p.full() {
		return Step{}, ErrSolved
	}
	if _, _, ok := p.empty(s); ok {
		return Step{}, ErrNoSolution
	}
	if st, ok := p.easyStep(s); ok {
		return st, nil
	}
	if st, ok := p.wouldEmpty(s); ok {
		return st, nil
	}
	if st, ok := p.confine(s, 2); ok {
		return st, nil
	}
	for k := 3; k <= min(4, p.n-1); k++ {
		if st, ok := p.confine(s, k); ok {
			return st, nil
		}
	}
	if st, ok := p.chain(s); ok {
		return st, nil
	}
	return Step{}, ErrStuck
}

// Explain solves p as a person would: the steps, each by the easiest technique that applies,
// until every queen is placed. It never guesses: each queen it places is in every solution
// of p, and each cell it rules out is in none. When the techniques run out before the end it
// returns the steps so far and [ErrStuck] (the puzzle needs guessing or has more than one
// solution); when they find that some unit can hold no queen, [ErrNoSolution].
//
// Each step scans the grid: the cheap techniques cost O(N²) to O(N³), a cell that would
// empty a unit O(N⁴), groups O(N⁴·C(N,4)/N²) and forcing chains up to O(N⁶); a whole puzzle of
// N = 20 takes milliseconds when easy and up to a second or so when it needs chains.
func Explain(p *Puzzle) ([]Step, error) {
	return ExplainContext(context.Background(), p)
}

// ExplainContext is [Explain], stopping with the steps so far and ctx.Err() once ctx is
// done: it looks at ctx before each step (a step takes up to a fraction of a second on the
// largest grids).
func ExplainContext(ctx context.Context, p *Puzzle) ([]Step, error) {
	s := p.start()
	var steps []Step
	for {
		if err := ctx.Err(); err != nil {
			return steps, err
		}
		st, err := p.next(&s)
		if err == ErrSolved {
			return steps, nil
		}
		if err != nil {
			return steps, err
		}
		apply(p, &s, st)
		steps = append(steps, st)
	}
}

// Grade returns the level of p: that of the hardest technique [Explain] uses. It returns
// [ErrStuck] or [ErrNoSolution] when Explain does. Its cost is that of Explain.
func Grade(p *Puzzle) (Level, error) {
	steps, err := Explain(p)
	if err != nil {
		return 0, err
	}
	return gradeSteps(steps), nil
}

func gradeSteps(steps []Step) Level {
	l := Easy
	for _, st := range steps {
		l = max(l, st.Technique.Level())
	}
	return l
}

// Hint returns the next step [Explain] would make after the given queens: the step a player
// who has placed those queens can make next. The queens must be on the grid, at most one a
// row, column and region, none touching; otherwise Hint returns an error. It returns
// [ErrSolved] when the queens are a whole solution, [ErrNoSolution] when they leave some
// row, column or region without a free cell (so some are wrong; wrong queens that do not
// yet show it get steps that are true only of completions of those queens), and [ErrStuck]
// when no technique applies. Its cost is one step of Explain.
func Hint(p *Puzzle, queens []board.Square) (Step, error) {
	s := p.start()
	for _, q := range queens {
		if q.Row < 0 || q.Row >= p.n || q.Col < 0 || q.Col >= p.n {
			return Step{}, fmt.Errorf("queen r%dc%d is off the %d×%d grid", q.Row+1, q.Col+1, p.n, p.n)
		}
		if s.cand[q.Row]&(1<<q.Col) == 0 {
			return Step{}, fmt.Errorf("queen %s shares a row, column or region with another queen or touches one", CellName(q))
		}
		p.place(&s, q.Row, q.Col)
	}
	return p.next(&s)
}

// trials yields the free cells of s, row by row and left to right, as (row, column): the
// cells a technique tries a queen on.
func (p *Puzzle) trials(s *state) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for r := range p.n {
			for m := s.cand[r]; m != 0; m &= m - 1 {
				if !yield(r, bits.TrailingZeros32(m)) {
					return
				}
			}
		}
	}
}
