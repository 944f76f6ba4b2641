package queens

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
)

// Level is the difficulty of a [Puzzle].
type Level int

// The levels of [NewPuzzle]. A harder puzzle gives fewer queens and needs more search.
const (
	Easy Level = iota
	Medium
	Hard
)

var levelNames = [...]string{"easy", "medium", "hard"}

// String returns easy, medium or hard.
func (l Level) String() string {
	if l >= 0 && int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// MarshalText returns the level's name.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// ParseLevel reads easy, medium or hard.
func ParseLevel(s string) (Level, error) {
	for i, name := range levelNames {
		if strings.EqualFold(s, name) {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("level must be easy, medium or hard, got %q", clipString(s))
}

func clipString(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// Bounds of the boards [NewPuzzle] makes puzzles for.
const (
	MinPuzzleN = 6
	MaxPuzzleN = 20
)

// Puzzle is a partial placement whose completion to a solution is unique: "place the
// remaining queens".
type Puzzle struct {
	N     int    `json:"n"`
	Level Level  `json:"level"`
	Seed  uint64 `json:"seed"`
	// Given has the given queens: Given[row] is the column, or -1 for a row to fill.
	Given Placement `json:"given"`
	// Solution is the one solution that holds every given queen.
	Solution Placement `json:"solution"`
	// Effort is the number of nodes the counting search of [CountCompletions] visits to
	// prove that the completion is unique: a measure of how much search the puzzle needs.
	Effort int64 `json:"effort"`
}

// Empty returns the number of rows the solver must fill.
func (p Puzzle) Empty() int {
	k := 0
	for _, c := range p.Given {
		if c < 0 {
			k++
		}
	}
	return k
}

// puzzleTries is how many candidate puzzles NewPuzzle makes for each request, to pick the
// one whose effort fits the level.
const puzzleTries = 4

// NewPuzzle makes a puzzle for an n×n board (MinPuzzleN ≤ n ≤ MaxPuzzleN) at the given level,
// the same one for the same n, level and seed.
//
// How: a random solution (from the seed) is taken, and its queens are removed one by one in
// a random order as long as the rest still has exactly one completion, counted by
// [CountCompletions]; what is left is a minimal set of clues: e queens given, every one of
// them needed. Hard gives exactly those; Medium fills back a quarter and Easy half of the rows
// they leave empty (at least two rows always stay empty), from the same solution, which
// keeps the completion unique. This is done for puzzleTries seeds derived from seed and the
// candidate that needs the most search (Hard), the middle amount (Medium) or the least (Easy)
// is returned; uniqueness of the returned puzzle is proved again by counting. Levels are thus
// defined by the queens given and the solver effort. It takes milliseconds for n ≤ 14 and up
// to about a second for n = 20; it returns ctx.Err() when ctx is done first.
func NewPuzzle(ctx context.Context, n int, level Level, seed uint64) (Puzzle, error) {
	if n < MinPuzzleN || n > MaxPuzzleN {
		return Puzzle{}, fmt.Errorf("puzzles are made for N from %d to %d, got %d", MinPuzzleN, MaxPuzzleN, n)
	}
	if level < Easy || level > Hard {
		return Puzzle{}, fmt.Errorf("level must be easy, medium or hard, got %v", level)
	}
	var cands []Puzzle
	for try := range uint64(puzzleTries) {
		rng := rand.New(rand.NewPCG(seed, uint64(n)<<32|try))
		sol := randomSolution(n, rng)
		given := sol.Clone()
		for _, r := range rng.Perm(n) {
			c := given[r]
			given[r] = -1
			k, _, err := CountCompletions(ctx, given, 2)
			if err != nil {
				return Puzzle{}, err
			}
			if k != 1 {
				given[r] = c
			}
		}
		empty := make([]int, 0, n)
		for r, c := range given {
			if c < 0 {
				empty = append(empty, r)
			}
		}
		rng.Shuffle(len(empty), func(i, j int) { empty[i], empty[j] = empty[j], empty[i] })
		back := 0
		switch level {
		case Easy:
			back = len(empty) / 2
		case Medium:
			back = len(empty) / 4
		}
		back = max(0, min(back, len(empty)-2))
		for _, r := range empty[:back] {
			given[r] = sol[r]
		}
		k, effort, err := CountCompletions(ctx, given, 2)
		if err != nil {
			return Puzzle{}, err
		}
		if k != 1 {
			return Puzzle{}, fmt.Errorf("internal error: puzzle %v has %d completions", given, k)
		}
		cands = append(cands, Puzzle{N: n, Level: level, Seed: seed, Given: given, Solution: sol, Effort: effort})
	}
	slices.SortStableFunc(cands, func(a, b Puzzle) int {
		if c := cmp.Compare(a.Effort, b.Effort); c != 0 {
			return c
		}
		return cmp.Compare(b.Empty(), a.Empty())
	})
	switch level {
	case Easy:
		return cands[0], nil
	case Medium:
		return cands[len(cands)/2], nil
	}
	return cands[len(cands)-1], nil
}

// randomSolution returns a solution of the n×n board (n ≥ 4) found by backtracking that
// tries the columns of each row in a random order.
func randomSolution(n int, rng *rand.Rand) Placement {
	p := make(Placement, n)
	order := make([][]int, n)
	for r := range order {
		order[r] = rng.Perm(n)
	}
	var rec func(r int, cols, d1, d2 uint64) bool
	rec = func(r int, cols, d1, d2 uint64) bool {
		if r == n {
			return true
		}
		for _, c := range order[r] {
			if cols>>c&1 != 0 || d1>>(r+c)&1 != 0 || d2>>(c-r+n)&1 != 0 {
				continue
			}
			p[r] = int32(c)
			if rec(r+1, cols|1<<c, d1|1<<(r+c), d2|1<<(c-r+n)) {
				return true
			}
		}
		return false
	}
	rec(0, 0, 0, 0)
	return p
}

// CountCompletions counts the solutions that hold every queen of given (given[row] is a
// column or -1), stopping at limit (limit ≤ 0: no limit). nodes is the number of queens
// the search placed. It returns 0 when two given queens attack each other. The search
// fills next the empty row with the fewest free squares (bitboards, n ≤ 64) and backtracks
// as soon as a row has none; its time is that of the search tree, exponential in the empty
// rows in the worst case, milliseconds for puzzles of up to 20 rows. It checks ctx every
// 2^16 nodes.
func CountCompletions(ctx context.Context, given Placement, limit int) (count int, nodes int64, err error) {
	n := len(given)
	if n < 1 || n > MaxN {
		return 0, 0, fmt.Errorf("board size must be from 1 to %d, got %d", MaxN, n)
	}
	// Diagonals as bits: anti-diagonal r+c (0…2n-2), diagonal c-r+n-1.
	var cols uint64
	var d1, d2 [2]uint64 // up to 127 bits each
	has := func(d *[2]uint64, i int) bool { return d[i>>6]>>(i&63)&1 != 0 }
	set := func(d *[2]uint64, i int) { d[i>>6] |= 1 << (i & 63) }
	clr := func(d *[2]uint64, i int) { d[i>>6] &^= 1 << (i & 63) }
	var empty []int
	for r, c32 := range given {
		c := int(c32)
		if c < 0 {
			empty = append(empty, r)
			continue
		}
		if c >= n {
			return 0, 0, fmt.Errorf("row %d: column %d is off the %d×%d board", r, c, n, n)
		}
		if cols>>c&1 != 0 || has(&d1, r+c) || has(&d2, c-r+n-1) {
			return 0, 0, nil
		}
		cols |= 1 << c
		set(&d1, r+c)
		set(&d2, c-r+n-1)
	}
	full := uint64(1)<<n - 1
	if n == 64 {
		full = ^uint64(0)
	}
	free := func(r int) uint64 {
		m := full &^ cols
		for x := m; x != 0; x &= x - 1 {
			c := bits.TrailingZeros64(x)
			if has(&d1, r+c) || has(&d2, c-r+n-1) {
				m &^= 1 << c
			}
		}
		return m
	}
	filled := make([]bool, n)
	var rec func(left int) bool
	rec = func(left int) bool {
		if left == 0 {
			count++
			return limit <= 0 || count < limit
		}
		best, bestM, bestK := -1, uint64(0), 65
		for _, r := range empty {
			if filled[r] {
				continue
			}
			m := free(r)
			if k := bits.OnesCount64(m); k < bestK {
				best, bestM, bestK = r, m, k
				if k == 0 {
					return true
				}
			}
		}
		filled[best] = true
		defer func() { filled[best] = false }()
		for x := bestM; x != 0; x &= x - 1 {
			c := bits.TrailingZeros64(x)
			nodes++
			if nodes&(1<<16-1) == 0 && ctx.Err() != nil {
				err = ctx.Err()
				return false
			}
			cols |= 1 << c
			set(&d1, best+c)
			set(&d2, c-best+n-1)
			more := rec(left - 1)
			cols &^= 1 << c
			clr(&d1, best+c)
			clr(&d2, c-best+n-1)
			if !more {
				return false
			}
		}
		return true
	}
	rec(len(empty))
	if err != nil {
		return 0, nodes, err
	}
	return count, nodes, nil
}
