// Package regions is the region variant of the queens puzzle, the daily "Queens" game: an
// N×N grid cut into N regions (usually each in one piece); place N queens, one in every row, every column and
// every region, no two touching (diagonal neighbours included; queens far apart on a
// diagonal are allowed).
//
// Usage:
//
//	p, err := regions.Generate(ctx, 8, seed, regions.Medium) // exactly one solution
//	fmt.Print(p)                                             // the grid as letters
//	sol, _ := regions.Solve(p)                               // sol[row] = column
//	steps, err := regions.Explain(p)                         // how a person solves it
//
// Puzzles. A [Puzzle] is a grid of region ids 0…N−1, written as letters A, B, … one row a
// line ([Parse], [Puzzle.String]). [New] and [Parse] check the shape: N rows of N cells, N
// regions. A region may be in several pieces, as in some of the published game's levels
// ([Puzzle.Pieces] counts them); [Generate] makes each region one piece.
//
// Counting. [Count] counts solutions up to a limit, by a bitmask search that always branches
// on the row, column or region with the fewest free cells; [Solve] returns one. Both take well
// under a millisecond for typical puzzles and a few milliseconds at N = 20.
//
// Explaining. [Explain] solves a puzzle as a person would, one deduction at a time, each
// with its technique, the cells it concerns and a sentence ([Step]). It never guesses: every
// queen it places is in every solution and every cell it rules out is in none. [Grade]
// rates a puzzle by its hardest technique: [Easy], [Medium] or [Hard]. [Hint] gives the next
// step from a player's queens.
//
// Generating. [Generate] plants a random solution, grows one region around each queen, then
// repairs the regions until the counter proves the planted solution is the only one, and
// keeps the puzzle only when [Grade] gives the level asked for. The same N, seed and level
// give the same puzzle on every machine.
//
// Cells are written rRcC in sentences: row R from the top, column C from the left, both
// 1-based, so r1c1 is the top-left cell. Regions are named by their letters.
package regions

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// Bounds of a grid: regions are letters, so at most 26 of them.
const (
	MinN = 1
	MaxN = 26
)

// ErrBadGrid is wrapped by every error about a grid's shape or regions, from [New] and [Parse].
var ErrBadGrid = errors.New("bad region grid")

// Puzzle is an N×N grid cut into N regions, ids 0…N−1. A Puzzle is valid by
// construction ([New], [Parse], [Generate]) and never changes, so it may be shared.
type Puzzle struct {
	n      int
	region []uint8 // region[r*n+c]
	// cells[k][r] is the bitmask of the columns of region k in row r.
	cells [][MaxN]uint32
}

// N returns the number of rows, columns and regions.
func (p *Puzzle) N() int { return p.n }

// Region returns the region id, 0…N−1, of the cell in row r, column c (0-based).
func (p *Puzzle) Region(r, c int) int { return int(p.region[r*p.n+c]) }

// Rows returns the grid as N rows of N region ids, a fresh copy.
func (p *Puzzle) Rows() [][]int {
	rows := make([][]int, p.n)
	for r := range rows {
		rows[r] = make([]int, p.n)
		for c := range rows[r] {
			rows[r][c] = p.Region(r, c)
		}
	}
	return rows
}

// Record is a generated puzzle in its JSON form, the one the CLI's "queens regions
// --format json" and the web API's /api/regions write:
//
//	{"n":5,"level":"easy","seed":1,"regions":[[0,0,0,1,1],[2,0,0,0,0],…],"solution":[4,2,0,3,1]}
//
// Regions is Rows; Solution, each row's queen's column (0-based), is left out when nil.
type Record struct {
	N        int     `json:"n"`
	Level    string  `json:"level"`
	Seed     uint64  `json:"seed"`
	Regions  [][]int `json:"regions"`
	Solution []int   `json:"solution,omitempty"`
}

// Record returns p's Record for the level and seed it was generated with, holding solution
// (nil: none). It takes time and memory O(N²).
func (p *Puzzle) Record(level Level, seed uint64, solution []int) Record {
	return Record{N: p.n, Level: level.String(), Seed: seed, Regions: p.Rows(), Solution: solution}
}

// Letter returns the name of region k: 'A' for 0, 'B' for 1, and so on.
func Letter(k int) string { return string(rune('A' + k)) }

// gridError is a bad-grid error with its message.
func gridError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadGrid, fmt.Sprintf(format, args...))
}

// New returns the puzzle whose rows[r][c] is the region of row r, column c. It checks that
// the grid is N×N with N from 1 to [MaxN] and that the ids are exactly 0…N−1 (a region may
// be in several pieces); errors wrap [ErrBadGrid]. It takes time proportional to N².
func New(rows [][]int) (*Puzzle, error) {
	n := len(rows)
	if n < MinN || n > MaxN {
		return nil, gridError("a grid has 1 to %d rows, got %d", MaxN, n)
	}
	p := &Puzzle{n: n, region: make([]uint8, n*n)}
	for r, row := range rows {
		if len(row) != n {
			return nil, gridError("row %d has %d cells, want %d (as many as there are rows)", r+1, len(row), n)
		}
		for c, k := range row {
			if k < 0 || k >= n {
				return nil, gridError("r%dc%d has region %d, want 0 to %d", r+1, c+1, k, n-1)
			}
			p.region[r*n+c] = uint8(k)
		}
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return p, nil
}

// check verifies that all N regions are present, and fills in p.cells. A region may be in
// several pieces: the published game has such levels, and nothing in the rules needs a
// region to be joined ([Puzzle.Pieces] tells).
func (p *Puzzle) check() error {
	n := p.n
	p.cells = make([][MaxN]uint32, n)
	size := make([]int, n)
	for r := range n {
		for c := range n {
			k := p.region[r*n+c]
			p.cells[k][r] |= 1 << c
			size[k]++
		}
	}
	var missing []string
	for k := range n {
		if size[k] == 0 {
			missing = append(missing, Letter(k))
		}
	}
	if len(missing) > 0 {
		return gridError("a %d×%d grid has %d regions, %s to %s; missing %s", n, n, n, Letter(0), Letter(n-1), strings.Join(missing, ", "))
	}
	return nil
}

// Pieces returns, for each region, the number of its pieces: sets of cells joined through
// their sides (diagonal neighbours are not joined). A region of one piece is connected;
// [Generate] makes only such regions, while [New] and [Parse] accept regions in several
// pieces. It takes time and memory O(N²).
func (p *Puzzle) Pieces() []int {
	n := p.n
	pieces := make([]int, n)
	seen := make([]bool, n*n)
	var stack []int
	for start := range p.region {
		if seen[start] {
			continue
		}
		k := p.region[start]
		pieces[k]++
		seen[start] = true
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r, c := i/n, i%n
			for _, d := range sides {
				rr, cc := r+d[0], c+d[1]
				if rr < 0 || rr >= n || cc < 0 || cc >= n {
					continue
				}
				if j := rr*n + cc; !seen[j] && p.region[j] == k {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
	}
	return pieces
}

// cellName returns rRcC, 1-based.
func cellName(r, c int) string { return fmt.Sprintf("r%dc%d", r+1, c+1) }

// CellName returns the name of a square in sentences: "r3c5" is row 3 from the top,
// column 5 from the left.
func CellName(s board.Square) string { return cellName(s.Row, s.Col) }

// Parse reads a grid of region letters, one row a line: the first region is A, the second B,
// and so on, each a letter of the English alphabet, upper or lower case. Blank lines,
// spaces within a line and lines starting with # (a comment, such as the header the CLI
// prints above a puzzle) are ignored. Errors wrap [ErrBadGrid] and say what is wrong (a wrong
// shape, a missing region). It takes time proportional to the
// input's size; it reads at most 64 KiB.
func Parse(r io.Reader) (*Puzzle, error) {
	const limit = 64 << 10
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading grid: %w", err)
	}
	if len(data) > limit {
		return nil, gridError("grid is longer than %d bytes", limit)
	}
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 0, 1024), limit+1)
	for sc.Scan() {
		line := strings.Join(strings.Fields(sc.Text()), "")
		if line != "" && line[0] != '#' {
			lines = append(lines, line)
		}
	}
	n := len(lines)
	if n == 0 {
		return nil, gridError("no rows: want a grid of region letters, one row a line")
	}
	if n > MaxN {
		return nil, gridError("a grid has 1 to %d rows, got %d", MaxN, n)
	}
	rows := make([][]int, n)
	for r, line := range lines {
		for _, ch := range line {
			k := -1
			switch {
			case ch >= 'A' && ch <= 'Z':
				k = int(ch - 'A')
			case ch >= 'a' && ch <= 'z':
				k = int(ch - 'a')
			}
			if k < 0 {
				return nil, gridError("row %d has %q: want region letters A to %s", r+1, board.Clip(string(ch)), Letter(n-1))
			}
			if k >= n {
				return nil, gridError("row %d has region %s: a %d×%d grid has regions A to %s", r+1, Letter(k), n, n, Letter(n-1))
			}
			rows[r] = append(rows[r], k)
		}
		if len(rows[r]) != n {
			return nil, gridError("row %d has %d cells, want %d (as many as there are rows)", r+1, len(rows[r]), n)
		}
	}
	return New(rows)
}

// String returns the grid as region letters, one row a line, each line ending in a newline:
// the form [Parse] reads.
func (p *Puzzle) String() string {
	var b strings.Builder
	b.Grow(p.n * (p.n + 1))
	for r := range p.n {
		for c := range p.n {
			b.WriteByte(byte('A' + p.region[r*p.n+c]))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
