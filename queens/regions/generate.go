package regions

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// Bounds of the grids [Generate] makes.
const (
	MinGenerateN = 5
	MaxGenerateN = 24
)

// Generate returns a puzzle of n rows with exactly one solution, proved by [Count], that
// [Explain] solves without guessing and [Grade] rates at level. The same n, seed and level
// give the same puzzle on every machine (math/rand/v2's PCG, seeded from them).
//
// It plants a random solution (no two queens touching), grows one region around each
// queen by random steps to side neighbours until the grid is full, then repairs: while the
// counter finds a second solution, one of that solution's queens that is not a planted queen
// is handed to a neighbouring region (keeping both connected), which kills that solution and
// keeps the planted one. A puzzle whose grade is not level is thrown away and the whole
// process starts again. The median cost is about a millisecond at N = 8, tens of
// milliseconds at N = 15 and a fraction of a second at N = 20 (see bench/README.md);
// hard puzzles need the most attempts. It returns ctx's error when ctx ends first.
func Generate(ctx context.Context, n int, seed uint64, level Level) (*Puzzle, error) {
	if n < MinGenerateN || n > MaxGenerateN {
		return nil, fmt.Errorf("n must be a whole number from %d to %d, got %d", MinGenerateN, MaxGenerateN, n)
	}
	if level < Easy || level > Hard {
		return nil, fmt.Errorf("level must be easy, medium or hard, got %d", int(level))
	}
	rng := rand.New(rand.NewPCG(seed, 0x5155_4545_4e53<<8|uint64(n)<<2|uint64(level)))
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := attempt(ctx, rng, n)
		if p == nil {
			continue
		}
		if l, err := Grade(p); err == nil && l == level {
			return p, nil
		}
	}
}

// attempt plants a solution, grows regions around it keeping it unique, hands any cells
// left over to neighbouring regions and repairs; it returns nil when the repair gets stuck.
func attempt(ctx context.Context, rng *rand.Rand, n int) *Puzzle {
	sol := plant(rng, n)
	region := make([]uint8, n*n)
	if growUnique(ctx, rng, n, sol, region) > 0 {
		fill(rng, n, region)
	}
	for range 4 * n {
		if ctx.Err() != nil {
			return nil
		}
		p := raw(n, region)
		count, sols := p.solutions(2, 2)
		if count == 1 {
			return relabel(p)
		}
		other := sols[0]
		if equal(other, sol) {
			other = sols[1]
		}
		if !repair(rng, n, region, sol, other) {
			return nil
		}
	}
	return nil
}

// fill hands every cell without a region to the region of a random side neighbour.
func fill(rng *rand.Rand, n int, region []uint8) {
	const none = 0xff
	for left := true; left; {
		left = false
		for x, k := range region {
			if k != none {
				continue
			}
			r, c := x/n, x%n
			var tos []uint8
			for _, d := range sides {
				rr, cc := r+d[0], c+d[1]
				if rr >= 0 && rr < n && cc >= 0 && cc < n && region[rr*n+cc] != none {
					tos = append(tos, region[rr*n+cc])
				}
			}
			if len(tos) == 0 {
				left = true
				continue
			}
			region[x] = tos[rng.IntN(len(tos))]
		}
	}
}

func equal(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// plant returns a random arrangement of n queens, one a row and column, no two touching:
// randomised backtracking, each row trying the columns in random order.
func plant(rng *rand.Rand, n int) []int {
	sol := make([]int, n)
	var used uint32
	var rec func(r int) bool
	rec = func(r int) bool {
		if r == n {
			return true
		}
		for _, c := range rng.Perm(n) {
			if used&(1<<c) != 0 || (r > 0 && c-sol[r-1] <= 1 && sol[r-1]-c <= 1) {
				continue
			}
			sol[r] = c
			used |= 1 << c
			if rec(r + 1) {
				return true
			}
			used &^= 1 << c
		}
		return false
	}
	rec(0)
	return sol
}

var sides = [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}

// grow gives every cell a region: region r starts at row r's planted queen, and each step
// picks a random (cell, side neighbour) pair on the border of the grown part and hands the
// unclaimed neighbour to the cell's region.
func grow(rng *rand.Rand, n int, sol []int) []uint8 {
	region := make([]uint8, n*n)
	const none = 0xff
	for i := range region {
		region[i] = none
	}
	var border []int // cells with a region and maybe an unclaimed neighbour
	for r, c := range sol {
		region[r*n+c] = uint8(r)
		border = append(border, r*n+c)
	}
	left := n*n - n
	for left > 0 {
		j := rng.IntN(len(border))
		i := border[j]
		r, c := i/n, i%n
		var open []int
		for _, d := range sides {
			rr, cc := r+d[0], c+d[1]
			if rr >= 0 && rr < n && cc >= 0 && cc < n && region[rr*n+cc] == none {
				open = append(open, rr*n+cc)
			}
		}
		if len(open) == 0 {
			border[j] = border[len(border)-1]
			border = border[:len(border)-1]
			continue
		}
		t := open[rng.IntN(len(open))]
		region[t] = region[i]
		border = append(border, t)
		left--
	}
	return region
}

// repair kills the solution other: it hands one of other's queens that is not a planted
// queen to a neighbouring region, so that other has two queens in that region and none in
// its own. The cell must not split its region. It returns false when no such move exists.
func repair(rng *rand.Rand, n int, region []uint8, sol, other []int) bool {
	type move struct {
		cell int
		to   uint8
	}
	var moves []move
	for r, c := range other {
		i := r*n + c
		k := region[i]
		if sol[r] == c {
			continue // a planted queen: it stays in its region
		}
		var tos []uint8
		for _, d := range sides {
			rr, cc := r+d[0], c+d[1]
			if rr >= 0 && rr < n && cc >= 0 && cc < n {
				if to := region[rr*n+cc]; to != k && !contains(tos, to) {
					tos = append(tos, to)
				}
			}
		}
		if len(tos) == 0 || !stillJoined(region, n, i) {
			continue
		}
		for _, to := range tos {
			moves = append(moves, move{i, to})
		}
	}
	if len(moves) == 0 {
		return false
	}
	m := moves[rng.IntN(len(moves))]
	region[m.cell] = m.to
	return true
}

func contains(s []uint8, x uint8) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// stillJoined reports whether cell i's region stays in one piece without cell i.
func stillJoined(region []uint8, n, i int) bool {
	k := region[i]
	start, size := -1, 0
	for j, rk := range region {
		if rk == k && j != i {
			size++
			if start < 0 {
				start = j
			}
		}
	}
	if size == 0 {
		return false
	}
	seen := make([]bool, n*n)
	seen[start], seen[i] = true, true
	stack := []int{start}
	reached := 0
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		reached++
		r, c := j/n, j%n
		for _, d := range sides {
			rr, cc := r+d[0], c+d[1]
			if rr >= 0 && rr < n && cc >= 0 && cc < n {
				if t := rr*n + cc; !seen[t] && region[t] == k {
					seen[t] = true
					stack = append(stack, t)
				}
			}
		}
	}
	return reached == size
}

// raw returns the puzzle of a region array known to be well formed, without checks.
func raw(n int, region []uint8) *Puzzle {
	p := &Puzzle{n: n, region: region, cells: make([][MaxN]uint32, n)}
	for r := range n {
		for c := range n {
			p.cells[region[r*n+c]][r] |= 1 << c
		}
	}
	return p
}

// relabel returns p with its regions renamed in reading order: A is the region of the
// top-left cell, B the next new region met along the rows, and so on.
func relabel(p *Puzzle) *Puzzle {
	n := p.n
	name := make([]int, n)
	for i := range name {
		name[i] = -1
	}
	next := 0
	region := make([]uint8, n*n)
	for i, k := range p.region {
		if name[k] < 0 {
			name[k] = next
			next++
		}
		region[i] = uint8(name[k])
	}
	return raw(n, region)
}

// growUnique grows the regions from the planted queens one cell at a time, keeping the
// planted solution the only one: cells without a region may hold no queen, so the grid
// starts with exactly one solution, and handing cell x to region k adds exactly the
// solutions with a queen on x; the move is made only when the search finds none. Adding
// cells only ever adds solutions, so a region that refuses a cell refuses it for good; the
// cell waits until a new region reaches it. It returns the number of cells left without a
// region (0 when the grid is complete).
func growUnique(ctx context.Context, rng *rand.Rand, n int, sol []int, region []uint8) int {
	const none = 0xff
	for i := range region {
		region[i] = none
	}
	p := &Puzzle{n: n, region: region, cells: make([][MaxN]uint32, n)}
	var allowed cellSet
	for r, c := range sol {
		region[r*n+c] = uint8(r)
		p.cells[r][r] |= 1 << c
		allowed[r] |= 1 << c
	}
	refused := make([]uint32, n*n) // refused[x] bit k: region k refused cell x
	left := n*n - n
	order := make([]int, n*n)
	for i := range order {
		order[i] = i
	}
	for progress := true; progress && left > 0; {
		if ctx.Err() != nil {
			return left
		}
		progress = false
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		for _, x := range order {
			if region[x] != none {
				continue
			}
			r, c := x/n, x%n
			var tos []uint8
			for _, d := range sides {
				rr, cc := r+d[0], c+d[1]
				if rr >= 0 && rr < n && cc >= 0 && cc < n {
					if k := region[rr*n+cc]; k != none && refused[x]&(1<<k) == 0 && !contains(tos, k) {
						tos = append(tos, k)
					}
				}
			}
			rng.Shuffle(len(tos), func(a, b int) { tos[a], tos[b] = tos[b], tos[a] })
			for _, k := range tos {
				p.cells[k][r] |= 1 << c
				region[x] = k
				allowed[r] |= 1 << c
				if !p.solvableWith(&allowed, r, c) {
					progress = true
					left--
					break
				}
				refused[x] |= 1 << k
				p.cells[k][r] &^= 1 << c
				region[x] = none
				allowed[r] &^= 1 << c
			}
		}
	}
	return left
}

// solvableWith reports whether p has a solution using only the allowed cells with a queen
// on row r, column c.
func (p *Puzzle) solvableWith(allowed *cellSet, r, c int) bool {
	s := p.start()
	for i := range p.n {
		s.cand[i] &= allowed[i]
	}
	if s.cand[r]&(1<<c) == 0 {
		return false
	}
	p.place(&s, r, c)
	sv := &searcher{p: p, limit: 1}
	sv.search(&s)
	return sv.found > 0
}
