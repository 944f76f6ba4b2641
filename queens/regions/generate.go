package regions

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
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
	if growUnique(ctx, rng, n, sol, region, n) > 0 {
		fill(rng, n, region)
	}
	if !repair(ctx, rng, n, region, sol) {
		return nil
	}
	return relabel(raw(n, region))
}

// fill hands every cell without a region to the region of a random side neighbour.
func fill(rng *rand.Rand, n int, region []uint8) {
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

// repairLimit caps the solutions counted while repairing: a grid with more is as bad as
// one with this many.
const repairLimit = 64

// repair makes sol the only solution of the grid, by greedy descent on the number of
// solutions. A move hands a queen cell of another solution (not a planted queen), with
// whatever of its region hangs from it away from the planted queen, to a neighbouring
// region: that kills the solutions through the cell and keeps the planted one. Each round
// tries the moves from a few other solutions and makes the one leaving the fewest
// solutions. It returns false when no move is left or 4N rounds do not finish.
func repair(ctx context.Context, rng *rand.Rand, n int, region []uint8, sol []int) bool {
	type move struct {
		cell int
		to   uint8
	}
	trial := make([]uint8, len(region))
	tabu := make([]uint32, len(region)) // tabu[y] bit k: y was moved out of region k
	cur, sols := raw(n, region).solutions(repairLimit, 5)
	for range 4 * n {
		if cur == 1 {
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		var moves []move
		for _, other := range sols {
			for r, c := range other {
				if sol[r] == c {
					continue // a planted queen: it stays in its region
				}
				i := r*n + c
				k := region[i]
				for _, y := range cutOff(region, n, i, int(k)*n+sol[k]) {
					yr, yc := y/n, y%n
					for _, d := range sides {
						rr, cc := yr+d[0], yc+d[1]
						if rr >= 0 && rr < n && cc >= 0 && cc < n {
							to := region[rr*n+cc]
							if m := (move{i, to}); to != k && tabu[i]&(1<<to) == 0 && !slices.Contains(moves, m) {
								moves = append(moves, m)
							}
						}
					}
				}
			}
		}
		if len(moves) == 0 {
			return false
		}
		rng.Shuffle(len(moves), func(a, b int) { moves[a], moves[b] = moves[b], moves[a] })
		best, bestCount := -1, repairLimit+1
		for mi, m := range moves {
			copy(trial, region)
			k := trial[m.cell]
			for _, y := range cutOff(trial, n, m.cell, int(k)*n+sol[k]) {
				trial[y] = m.to
			}
			if c := Count(raw(n, trial), bestCount-1); c < bestCount-1 || best < 0 {
				best, bestCount = mi, c
				if c <= 1 {
					break
				}
			}
		}
		m := moves[best]
		k := region[m.cell]
		for _, y := range cutOff(region, n, m.cell, int(k)*n+sol[k]) {
			region[y] = m.to
			tabu[y] |= 1 << k
		}
		cur, sols = raw(n, region).solutions(repairLimit, 5)
	}
	return cur == 1
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
// planted solution the only one. Cells without a region may hold no queen, so the grid
// starts with exactly one solution, and handing cell x to region k adds exactly the
// solutions with a queen on x: the move is made only when the search finds none. Adding
// cells only ever adds solutions, so a region that refuses a cell refuses it for good; the
// cell waits until another region reaches it. When every waiting cell is refused, one
// solution through a waiting cell (its witness) is killed by taking back one of the
// witness's other cells (not a planted queen, not splitting its region), and growth goes
// on. Searches are given a node budget; one that runs out counts as a refusal, which is
// always safe. growUnique returns the number of cells left without a region (0 when the
// grid is complete) after at most kills witness kills.
func growUnique(ctx context.Context, rng *rand.Rand, n int, sol []int, region []uint8, kills int) int {
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
	set := func(x int, k uint8) {
		r, c := x/n, x%n
		if k == none {
			p.cells[region[x]][r] &^= 1 << c
			allowed[r] &^= 1 << c
		} else {
			p.cells[k][r] |= 1 << c
			allowed[r] |= 1 << c
		}
		region[x] = k
	}
	refused := make([]uint32, n*n) // refused[x] bit k: region k refused cell x
	banned := make([]uint32, n*n)  // banned[x] bit k: x was taken back from region k
	left := n*n - n
	order := make([]int, n*n)
	for i := range order {
		order[i] = i
	}
	var tos []uint8
	neighbours := func(x int) []uint8 {
		tos = tos[:0]
		r, c := x/n, x%n
		for _, d := range sides {
			rr, cc := r+d[0], c+d[1]
			if rr >= 0 && rr < n && cc >= 0 && cc < n {
				if k := region[rr*n+cc]; k != none && refused[x]&(1<<k) == 0 && !contains(tos, k) {
					tos = append(tos, k)
				}
			}
		}
		rng.Shuffle(len(tos), func(a, b int) { tos[a], tos[b] = tos[b], tos[a] })
		return tos
	}
	for left > 0 {
		if ctx.Err() != nil {
			return left
		}
		progress := false
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		for _, x := range order {
			if region[x] != none {
				continue
			}
			for _, k := range neighbours(x) {
				set(x, k)
				if ok, _ := p.witness(&allowed, x/n, x%n); !ok {
					progress = true
					left--
					break
				}
				refused[x] |= 1 << k
				set(x, none)
			}
		}
		if progress {
			continue
		}
		if kills <= 0 {
			return left
		}
		kills--
		// Every waiting cell is refused: kill a witness of a random one.
		var waiting []int
		for x, k := range region {
			if k == none {
				refused[x] = banned[x]
				if len(neighbours(x)) > 0 {
					waiting = append(waiting, x)
				}
			}
		}
		if len(waiting) == 0 {
			return left
		}
		x := waiting[rng.IntN(len(waiting))]
		k := neighbours(x)[0]
		set(x, k)
		ok, w := p.witness(&allowed, x/n, x%n)
		set(x, none)
		if !ok || w == nil {
			continue // no witness after all (or the budget ran out): the next pass retries
		}
		var takes []int
		for r, c := range w {
			if z := r*n + c; z != x && sol[r] != c {
				takes = append(takes, z)
			}
		}
		if len(takes) == 0 {
			return left
		}
		// Take back z and whatever of its region hangs from it, away from the planted queen.
		z := takes[rng.IntN(len(takes))]
		k = region[z]
		banned[z] |= 1 << k
		for _, y := range cutOff(region, n, z, int(k)*n+sol[k]) {
			set(y, none)
			left++
		}
	}
	return left
}

// cutOff returns cell z and the cells of its region that are joined to the region's root
// cell only through z.
func cutOff(region []uint8, n, z, root int) []int {
	k := region[z]
	seen := make([]bool, n*n)
	seen[root], seen[z] = true, true
	stack := []int{root}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
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
	out := []int{z}
	for j, rk := range region {
		if rk == k && !seen[j] {
			out = append(out, j)
		}
	}
	return out
}


// none marks a cell without a region while regions grow.
const none = 0xff

// witness reports whether p may have a solution using only the allowed cells with a queen
// on row r, column c, and returns it when one is found. A search that runs out of its node
// budget reports true with no witness: the cell is refused, to be safe.
func (p *Puzzle) witness(allowed *cellSet, r, c int) (bool, []int) {
	s := p.start()
	for i := range p.n {
		s.cand[i] &= allowed[i]
	}
	if s.cand[r]&(1<<c) == 0 {
		return false, nil
	}
	p.place(&s, r, c)
	sv := &searcher{p: p, limit: 1, keep: 1, budget: 4000}
	sv.search(&s)
	if sv.aborted {
		return true, nil
	}
	if sv.found == 0 {
		return false, nil
	}
	return true, sv.sols[0]
}


