package regions

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
)

// Bounds of the grids [Generate] makes. The upper bound is where generation was measured
// (bench/README.md); at N = 24 one easy puzzle was still not found after 40 CPU seconds.
const (
	MinGenerateN = 5
	MaxGenerateN = 20
)

// Generate returns a puzzle of n rows with exactly one solution, proved by [Count], that
// [Explain] solves without guessing and [Grade] rates at level. The same n, seed and level
// give the same puzzle on every machine (math/rand/v2's PCG, seeded from them).
//
// It plants a random solution (no two queens touching) and grows one region around each
// queen, a cell at a time, handing a cell to a region only when the search proves that no
// solution other than the planted one uses it. Cells no region can take that way are given
// to a neighbour anyway, and the grid is then repaired: while the counter finds other
// solutions, a queen cell of one of them is handed to a neighbouring region (keeping both
// in one piece), which kills it and keeps the planted solution. Every region stays in one
// piece. A puzzle whose grade is not level is thrown away and the process starts again.
//
// Up to N = 12 the regions are shaped like the published game's: one region, the
// background, takes every cell it can first, until it holds 0.30 to 0.55 of the board, and
// after the repair takes cells of the regions it touches, those furthest along it from its
// queen first, while the puzzle stays unique and at its level, so that it grows arms and
// winds round the others; the other regions grow smallest first,
// uncapped; in half the grids regions of at most three cells are then fattened with cells
// of larger neighbours while the puzzle stays unique and at its level; and a grid is kept
// only when at most two regions have three cells or fewer, none of them one cell at medium
// and hard, and, at easy, a one-cell region is in about one puzzle in five (after 64
// attempts, any grid of the level is kept). Above N = 12, easier levels instead cap some
// regions at one to three cells, which gives forced first moves. Costs are measured in
// bench/README.md: milliseconds at N = 8–11 (a median of 0.1 CPU-s or less at N = 8–10),
// a fraction of a second at N = 12–15, seconds at N = 20; the level the grids lean away from
// (medium at large N) needs the most attempts. It returns
// ctx's error when ctx ends first (checked between searches, so within milliseconds).
func Generate(ctx context.Context, n int, seed uint64, level Level) (*Puzzle, error) {
	if n < MinGenerateN || n > MaxGenerateN {
		return nil, fmt.Errorf("n must be a whole number from %d to %d, got %d", MinGenerateN, MaxGenerateN, n)
	}
	if level < Easy || level > Hard {
		return nil, fmt.Errorf("level must be easy, medium or hard, got %d", int(level))
	}
	rng := rand.New(rand.NewPCG(seed, 0x5155_4545_4e53<<8|uint64(n)<<2|uint64(level)))
	for tries := 0; ; tries++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := attempt(ctx, rng, n, level)
		if p == nil {
			continue
		}
		if n <= maxNaturalN && tries < naturalTries && !natural(rng, p, level) {
			continue
		}
		if l, err := Grade(p); err == nil && l == level {
			return p, nil
		}
	}
}

// attempt plants a solution, grows regions around it keeping it unique, hands any cells
// left over to neighbouring regions, repairs, and fattens the small regions; it returns nil
// when the repair gets stuck.
func attempt(ctx context.Context, rng *rand.Rand, n int, level Level) *Puzzle {
	sol := plant(rng, n)
	region := make([]uint8, n*n)
	natural := n <= maxNaturalN
	// Above maxNaturalN, small regions make forced first moves, so easier levels cap the
	// size of some regions (about a third of them for easy, a fifth for medium, a sixth for
	// hard) at 1 to 3 cells; without any, large grids come out too hard for the techniques
	// or need many repairs. Up to it, regions grow smallest first, uncapped.
	caps := make([]int, n)
	if !natural {
		share := [...]int{3, 5, 6}[level]
		for k := range caps {
			if rng.IntN(share) == 0 {
				caps[k] = 1 + rng.IntN(3)
			}
		}
	}
	// Up to it, one region is the background, as in the published levels: it takes every
	// cell it can reach until it holds a share of the board drawn from 0.30 to 0.55 (the
	// published levels' largest region holds 0.36 of the board on average), winding round
	// the others.
	bg, bgSize := -1, 0
	if natural {
		bg, bgSize = rng.IntN(n), n*n*(30+rng.IntN(26))/100
	}
	if growUnique(ctx, rng, n, sol, region, n, caps, natural, bg, bgSize) > 0 {
		fill(rng, n, region)
	}
	if !repair(ctx, rng, n, region, sol) {
		return nil
	}
	if natural {
		// Fatten only a grid the techniques solve at level or below, and keep each move only
		// while they still do: fattening makes puzzles harder, and a puzzle fattened past
		// its level would be thrown away, leaving each level the puzzles with small regions.
		if l, err := Grade(raw(n, region)); err != nil || l > level {
			return nil
		}
		keep := func() bool {
			l, err := Grade(raw(n, region))
			return err == nil && l <= level
		}
		swell(ctx, rng, n, region, sol, bg, bgSize, keep)
		// Half the grids keep their small regions: the published levels have one of at
		// most three cells in about half their medium and hard puzzles.
		if rng.IntN(2) == 0 {
			return relabel(raw(n, region))
		}
		fatten(ctx, rng, n, region, sol, keep)
	}
	return relabel(raw(n, region))
}

// naturalTries is how many attempts Generate holds to natural region sizes (natural)
// before it takes any grid of its level, so that a level that needs small regions still
// ends; at N = 7–12 all but one puzzle in fifty met them within these (bench/README.md).
const naturalTries = 64

// maxNaturalN is the largest N whose puzzles must have natural region sizes: the published
// game's grids are 7×7 to 11×11, and at N = 15 the attempts this takes cost seconds.
const maxNaturalN = 12

// natural reports whether p's region sizes are like the published game's (608 levels
// collected by its players: a region of one cell in 23 % of them, 1.6 regions of at most
// three cells a level, one of at most three cells in 63 % of medium and 48 % of hard levels):
// at most two regions of at most smallRegion cells; at medium and hard none of one cell; at
// easy a grid with a one-cell region passes one time in four (the draw is from rng, so that
// Generate stays repeatable; about one easy puzzle in five keeps one).
func natural(rng *rand.Rand, p *Puzzle, level Level) bool {
	n := p.n
	size := make([]int, n)
	for _, k := range p.region {
		size[k]++
	}
	small, one := 0, false
	for _, z := range size {
		if z <= smallRegion {
			small++
		}
		one = one || z == 1
	}
	if level > Easy {
		return small <= 2 && !one
	}
	return small <= 2 && (!one || rng.IntN(4) == 0)
}

// smallRegion is the size up to which fatten grows a region: the published game's levels
// have few regions of at most this many cells (1.6 a puzzle), a generator left to itself
// many more (3 to 5 at N = 7–11).
const smallRegion = 3

// fatten grows the regions of at most smallRegion cells, a side neighbour cell at a time,
// taken from a region of more than smallRegion+1 cells that stays in one piece (never a
// planted queen). A move is kept when the planted solution stays the only one (proved by
// Count), or one more move makes it so again (fixed), and keep approves the grid (the
// level); else it is undone. Each small region tries its neighbour cells in random order
// until one is kept; rounds go on while a region grows. It costs a count or two (well under
// a millisecond at N ≤ 12) a cell tried, and keep's cost a move kept.
func fatten(ctx context.Context, rng *rand.Rand, n int, region []uint8, sol []int, keep func() bool) {
	size := make([]int, n)
	for _, k := range region {
		size[k]++
	}
	planted := make([]bool, n*n)
	for r, c := range sol {
		planted[r*n+c] = true
	}
	for grew := true; grew; {
		grew = false
		for _, k := range rng.Perm(n) {
			if size[k] > smallRegion || ctx.Err() != nil {
				continue
			}
			var cand []int
			for x, d := range region {
				if int(d) == k || planted[x] || size[d] <= smallRegion+1 {
					continue
				}
				for _, to := range foreign(region, n, x) {
					if int(to) == k {
						cand = append(cand, x)
						break
					}
				}
			}
			rng.Shuffle(len(cand), func(a, b int) { cand[a], cand[b] = cand[b], cand[a] })
			for _, x := range cand {
				d := region[x]
				if size[d] <= smallRegion+1 || len(cutOff(region, n, x, int(d)*n+sol[d])) > 1 {
					continue // x joins the rest of its region: it would split in two
				}
				save := slices.Clone(region)
				region[x] = uint8(k)
				if fixed(ctx, rng, n, region, sol, size, x) && keep() {
					size[k]++
					size[d]--
					grew = true
					break
				}
				copy(region, save)
				for j := range size {
					size[j] = 0
				}
				for _, rk := range region {
					size[rk]++
				}
			}
		}
	}
}

// swell hands cells of other regions that touch region bg to it, one at a time, until bg
// has target cells or no cell can go: a cell goes when it is no planted queen, its region
// keeps two cells or more and stays in one piece, and the grid keeps one solution (fixed)
// and keep holds. It tries at most 4n cells, each a count and a grade.
func swell(ctx context.Context, rng *rand.Rand, n int, region []uint8, sol []int, bg, target int, keep func() bool) {
	if bg < 0 {
		return
	}
	planted := make([]bool, n*n)
	for r, c := range sol {
		planted[r*n+c] = true
	}
	size := make([]int, n)
	count := func() {
		clear(size)
		for _, k := range region {
			size[k]++
		}
	}
	count()
	var cand []int
	for tries := 0; size[bg] < target && tries < 4*n && ctx.Err() == nil; {
		cand = cand[:0]
		for x, d := range region {
			if int(d) != bg && !planted[x] && size[d] > 2 && contains(foreign(region, n, x), uint8(bg)) {
				cand = append(cand, x)
			}
		}
		rng.Shuffle(len(cand), func(a, b int) { cand[a], cand[b] = cand[b], cand[a] })
		// Cells that touch bg furthest from its queen, along bg, go first: bg grows arms
		// and winds rather than swelling round its middle.
		far := reach(region, n, bg*n+sol[bg])
		slices.SortStableFunc(cand, func(a, b int) int { return far(b) - far(a) })
		moved := false
		for _, x := range cand {
			if tries >= 4*n {
				break
			}
			d := region[x]
			if len(cutOff(region, n, x, int(d)*n+sol[d])) > 1 {
				continue // x joins the rest of its region: it would split in two
			}
			tries++
			save := slices.Clone(region)
			region[x] = uint8(bg)
			count()
			if fixed(ctx, rng, n, region, sol, size, x) && keep() {
				moved = true
				count()
				break
			}
			copy(region, save)
			count()
		}
		if !moved {
			return
		}
	}
}

// reach returns, for a cell touching root's region, one more than the shortest path inside
// the region from root to a cell of it that the cell touches (0 for other cells): a
// breadth-first search of the region, N² steps.
func reach(region []uint8, n, root int) func(x int) int {
	k := region[root]
	dist := make([]int, n*n)
	for i := range dist {
		dist[i] = -1
	}
	dist[root] = 0
	queue := []int{root}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		r, c := i/n, i%n
		for _, d := range sides {
			rr, cc := r+d[0], c+d[1]
			if rr >= 0 && rr < n && cc >= 0 && cc < n && region[rr*n+cc] == k && dist[rr*n+cc] < 0 {
				dist[rr*n+cc] = dist[i] + 1
				queue = append(queue, rr*n+cc)
			}
		}
	}
	return func(x int) int {
		best := 0
		r, c := x/n, x%n
		for _, d := range sides {
			rr, cc := r+d[0], c+d[1]
			if rr >= 0 && rr < n && cc >= 0 && cc < n && dist[rr*n+cc] >= 0 {
				best = max(best, dist[rr*n+cc]+1)
			}
		}
		return best
	}
}

// fixed reports whether the grid has one solution, or can be brought back to one by one
// more move: a cell of another solution (not a planted queen, not the cell x just moved)
// handed to a neighbouring region, its own region staying in one piece and neither
// becoming small. It makes that move when it finds one.
func fixed(ctx context.Context, rng *rand.Rand, n int, region []uint8, sol []int, size []int, x int) bool {
	c, others, err := raw(n, region).solutions(ctx, 2, 2)
	if err != nil || c == 0 {
		return false
	}
	if c == 1 {
		return true
	}
	for _, other := range others {
		for r, col := range other {
			z := r*n + col
			if sol[r] == col || z == x {
				continue
			}
			d := region[z]
			if size[d] <= smallRegion+1 || len(cutOff(region, n, z, int(d)*n+sol[d])) > 1 {
				continue
			}
			tos := foreign(region, n, z)
			rng.Shuffle(len(tos), func(a, b int) { tos[a], tos[b] = tos[b], tos[a] })
			for _, to := range tos {
				region[z] = to
				if Count(raw(n, region), 2) == 1 {
					size[d]--
					size[to]++
					return true
				}
				region[z] = d
			}
		}
	}
	return false
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
// solutions (counted up to repairLimit). A move hands a queen cell of another solution (not
// a planted queen), with whatever of its region hangs from it away from the planted queen,
// to a neighbouring region; a queen cell deep inside its region goes with a path to the
// region's edge. That kills the solutions through the cell and keeps the planted one.
// Each round tries the moves from up to five other solutions and makes the one leaving the
// fewest solutions, even if that is more than before; a short tabu list stops it undoing
// its last moves. It returns false when no move is left or 4N rounds do not finish.
func repair(ctx context.Context, rng *rand.Rand, n int, region []uint8, sol []int) bool {
	type move struct {
		cells []int // the cells handed over, the queen cell first
		to    uint8
	}
	trial := make([]uint8, len(region))
	// tabu[y*n+k] is the round until which cell y may not go back to region k, which it
	// left: without it the descent swaps a cell back and forth between two regions.
	const tenure = 6
	tabu := make([]int, len(region)*n)
	// A search that ctx stops gives cur 0: the round below sees ctx and gives up.
	cur, sols, _ := raw(n, region).solutions(ctx, repairLimit, 5)
	for round := range 4 * n {
		if cur == 1 {
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		var moves []move
		seen := map[[2]int]bool{}
		for _, other := range sols {
			for r, c := range other {
				if sol[r] == c {
					continue // a planted queen: it stays in its region
				}
				i := r*n + c
				k := region[i]
				root := int(k)*n + sol[k]
				branch := cutOff(region, n, i, root)
				found := false
				for _, y := range branch {
					for _, to := range foreign(region, n, y) {
						found = true
						if key := [2]int{i, int(to)}; !seen[key] && tabu[i*n+int(to)] <= round {
							seen[key] = true
							moves = append(moves, move{branch, to})
						}
					}
				}
				if !found {
					// The queen cell is deep inside its region: hand over a path from it to
					// the region's edge, and whatever the path cuts off.
					if cells, to, ok := pathOut(rng, region, n, i, root); ok {
						moves = append(moves, move{cells, to})
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
			for _, y := range m.cells {
				trial[y] = m.to
			}
			if c := Count(raw(n, trial), bestCount); c < bestCount || best < 0 {
				best, bestCount = mi, c
				if c <= 1 {
					break
				}
			}
		}
		m := moves[best]
		k := region[m.cells[0]]
		for _, y := range m.cells {
			region[y] = m.to
			tabu[y*n+int(k)] = round + tenure
		}
		cur, sols, _ = raw(n, region).solutions(ctx, repairLimit, 5)
	}
	return cur == 1
}

// foreign returns the regions other than its own that touch cell y by a side.
func foreign(region []uint8, n, y int) []uint8 {
	var out []uint8
	r, c := y/n, y%n
	for _, d := range sides {
		rr, cc := r+d[0], c+d[1]
		if rr >= 0 && rr < n && cc >= 0 && cc < n {
			if to := region[rr*n+cc]; to != region[y] && !contains(out, to) {
				out = append(out, to)
			}
		}
	}
	return out
}

// pathOut finds a shortest path inside cell i's region, avoiding the root cell, from i to
// a cell on the region's edge, and returns the path's cells with every cell of the region
// the path cuts off from the root, and a region touching the path's end: handing them all
// to it keeps both regions in one piece.
func pathOut(rng *rand.Rand, region []uint8, n, i, root int) ([]int, uint8, bool) {
	k := region[i]
	parent := make([]int, n*n)
	for j := range parent {
		parent[j] = -2
	}
	parent[i] = -1
	queue := []int{i}
	end := -1
	for len(queue) > 0 && end < 0 {
		j := queue[0]
		queue = queue[1:]
		if len(foreign(region, n, j)) > 0 {
			end = j
			break
		}
		r, c := j/n, j%n
		for _, d := range sides {
			rr, cc := r+d[0], c+d[1]
			if rr >= 0 && rr < n && cc >= 0 && cc < n {
				if t := rr*n + cc; t != root && parent[t] == -2 && region[t] == k {
					parent[t] = j
					queue = append(queue, t)
				}
			}
		}
	}
	if end < 0 {
		return nil, 0, false
	}
	tos := foreign(region, n, end)
	to := tos[rng.IntN(len(tos))]
	onPath := make([]bool, n*n)
	var cells []int
	for j := end; j >= 0; j = parent[j] {
		onPath[j] = true
		cells = append(cells, j)
	}
	slices.Reverse(cells) // the queen cell first
	// Flood the region from the root around the path; what it misses goes too.
	cells = append(cells, unreached(region, n, k, root, onPath)...)
	return cells, to, true
}

func contains(s []uint8, x uint8) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
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
// always safe. Region bg (none when −1) is offered a cell before any other region until it
// has bgSize cells. growUnique returns the number of cells left without a region (0 when
// the grid is complete) after at most kills witness kills.
func growUnique(ctx context.Context, rng *rand.Rand, n int, sol []int, region []uint8, kills int, caps []int, balance bool, bg, bgSize int) int {
	size := make([]int, n)
	for k := range size {
		size[k] = 1
	}
	capped := true // while true, a region at its cap takes no more cells
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
			size[region[x]]--
		} else {
			p.cells[k][r] |= 1 << c
			allowed[r] |= 1 << c
			size[k]++
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
				if k := region[rr*n+cc]; k != none && refused[x]&(1<<k) == 0 && !contains(tos, k) &&
					!(capped && caps[k] > 0 && size[k] >= caps[k]) {
					tos = append(tos, k)
				}
			}
		}
		rng.Shuffle(len(tos), func(a, b int) { tos[a], tos[b] = tos[b], tos[a] })
		if balance {
			slices.SortStableFunc(tos, func(a, b uint8) int { return size[a] - size[b] })
		}
		if bg >= 0 && size[bg] < bgSize {
			if i := slices.Index(tos, uint8(bg)); i > 0 {
				copy(tos[1:i+1], tos[:i])
				tos[0] = uint8(bg)
			}
		}
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
			if ctx.Err() != nil {
				return left
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
		if capped {
			capped = false
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
	seen := make([]bool, n*n)
	seen[z] = true
	return append([]int{z}, unreached(region, n, region[z], root, seen)...)
}

// unreached floods region k from its cell root through the cells seen does not hold yet,
// joined by their sides, marking them in seen, and returns the cells of region k left
// unmarked, in index order. It takes time linear in n².
func unreached(region []uint8, n int, k uint8, root int, seen []bool) []int {
	seen[root] = true
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
	var out []int
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
