package queens

import (
	"context"
	"math/rand/v2"
)

// MaxRandomN is the largest board [Random] accepts: a hundred million queens take about
// 450 MB and a minute or two.
const MaxRandomN = 100_000_000

// Random returns a random solution of the n×n board, by the local search of Sosić and Gu
// ("Efficient local search with conflict minimization: a case study of the n-queens
// problem", IEEE Transactions on Knowledge and Data Engineering 6(5), 1994). The same rng
// state gives the same solution, so a seeded generator makes the result reproducible; a nil
// rng is seeded at random. For n = 2 and 3 it returns an error wrapping [ErrNoSolution], for
// n outside 1…MaxRandomN another error, and ctx.Err() when ctx is done first.
//
// The search keeps a permutation, so rows and columns never clash, and counts the queens on
// every diagonal. It starts by filling the rows from the top, each with a column picked at
// random among those left that no queen above attacks along a diagonal (when 64 tries find
// none, with an attacked one: on a large board only a dozen or so rows, nearly all among the
// last, end up so). Then, while some queen is attacked, it swaps the columns of an attacked queen and a
// random other one whenever that lowers the number of attacking pairs, and starts afresh on
// the rare occasions it stalls. The expected time is linear in n — about three probes a row
// for the start, and a few dozen swaps to finish — and the memory 4.5 bytes a queen: the
// Placement returned and a bit for each diagonal.
func Random(ctx context.Context, n int, rng *rand.Rand) (Placement, error) {
	if err := checkSolvableN(n, MaxRandomN, " for a random solution"); err != nil {
		return nil, err
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := newSwapSearch(n, nil, nil, rng)
	// The first touch of a large board's columns faults its pages in (about a second for
	// n = 10^8): look at ctx every million rows, so that Ctrl-C is not left waiting.
	for r := range s.cols {
		if r&(1<<20-1) == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.cols[r] = int32(r)
	}
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	return Placement(s.cols), nil
}

// swapSearch is the local search behind [Random] and, for large boards, [Complete]:
// queen i stands on row rows[i] (row i when rows is nil) and column cols[i]; the search only
// permutes cols. Queens it may not move (the given ones when completing a position) are
// marked in baseDiag and baseAnti and never appear in rows.
//
// A diagonal's queens are counted as one bit, set when it holds any, plus, for the few
// crowded diagonals, the queens beyond the first in a map. The bits stay in cache where
// counts would not (a board of ten million has 40 million diagonals), and on a solution the
// maps are empty. collisions is the sum of the map values: the number of attacking pairs
// there would be if attacks passed through queens.
type swapSearch struct {
	n                    int
	rows, cols           []int32
	diagBits, antiBits   []uint64 // bit c-r+n-1 and bit r+c: the diagonal holds a queen
	diagExtra, antiExtra map[int32]int32
	baseDiag, baseAnti   []uint64 // the bits of the fixed queens alone; nil when none
	collisions           int
	fallback             []int32 // queens the start placed under attack
	rng                  *rand.Rand
	ticks                int
}

func newSwapSearch(n int, rows, cols []int32, rng *rand.Rand) *swapSearch {
	s := &swapSearch{n: n, rows: rows, cols: cols, rng: rng,
		diagExtra: make(map[int32]int32), antiExtra: make(map[int32]int32)}
	if cols == nil {
		s.cols = make([]int32, n)
	}
	words := (2*n + 63) / 64
	s.diagBits = make([]uint64, words)
	s.antiBits = make([]uint64, words)
	return s
}

// fix marks a queen that the search may not move. Fixed queens must not attack each other.
func (s *swapSearch) fix(r, c int) {
	if s.baseDiag == nil {
		s.baseDiag = make([]uint64, len(s.diagBits))
		s.baseAnti = make([]uint64, len(s.antiBits))
	}
	d, a := c-r+s.n-1, r+c
	s.baseDiag[d/64] |= 1 << (d % 64)
	s.baseAnti[a/64] |= 1 << (a % 64)
}

func (s *swapSearch) row(i int) int {
	if s.rows == nil {
		return i
	}
	return int(s.rows[i])
}

// tick counts work and reports, every 65536 steps, whether ctx is done.
func (s *swapSearch) tick(ctx context.Context) error {
	s.ticks++
	if s.ticks&0xffff == 0 {
		return ctx.Err()
	}
	return nil
}

// run searches until no queen is attacked, from a new random start whenever the repair
// stalls, until ctx is done.
func (s *swapSearch) run(ctx context.Context) error {
	for {
		if err := s.start(ctx); err != nil {
			return err
		}
		ok, err := s.repair(ctx)
		if err != nil || ok {
			return err
		}
	}
}

// start fills the rows in order, each with a column from those left that no queen placed so
// far attacks along a diagonal when one turns up, and with the next one otherwise.
//
// The columns left are kept shuffled in cols[i:], so trying them in order is trying them at
// random, with memory read in sequence, and whether a diagonal is taken is asked of the
// bitsets, small enough to stay in cache. On a board of ten million this is what makes the
// start take seconds rather than tens of seconds.
func (s *swapSearch) start(ctx context.Context) error {
	m := len(s.cols)
	if s.baseDiag != nil {
		copy(s.diagBits, s.baseDiag)
		copy(s.antiBits, s.baseAnti)
	} else {
		clear(s.diagBits)
		clear(s.antiBits)
	}
	clear(s.diagExtra)
	clear(s.antiExtra)
	s.collisions = 0
	s.fallback = s.fallback[:0]
	for i := m - 1; i > 0; i-- {
		if i&0xffff == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		j := int(s.rng.Uint32N(uint32(i + 1)))
		s.cols[i], s.cols[j] = s.cols[j], s.cols[i]
	}
	// probes is how many columns a row tries before settling for an attacked one. While
	// many columns are left, one is free with probability at least about e^-2 (the queens
	// above take one diagonal each, nearly independently), so 64 tries all fail with
	// probability under 1e-4; near the end, all that are left are tried.
	const probes = 64
	back := m - 1 // where the next rejected column goes; it walks down the list, wrapping
	for i := range m {
		if err := s.tick(ctx); err != nil {
			return err
		}
		r := s.row(i)
		pick := -1
		if left := m - i; left <= probes {
			for j := i; j < m; j++ {
				if s.free(r, int(s.cols[j])) {
					pick = j
					break
				}
			}
		} else {
			// A column tried and rejected goes to the back, so that the next one tried
			// is fresh: left in front, rejected columns would pile up there and make
			// the last rows fail.
			for range probes {
				if s.free(r, int(s.cols[i])) {
					pick = i
					break
				}
				if back <= i {
					back = m - 1
				}
				s.cols[i], s.cols[back] = s.cols[back], s.cols[i]
				back--
			}
		}
		if pick < 0 {
			s.fallback = append(s.fallback, int32(i))
			pick = i
		}
		s.cols[i], s.cols[pick] = s.cols[pick], s.cols[i]
		s.add(r, int(s.cols[i]))
	}
	return nil
}

// free reports whether no queen stands on the diagonals of (r, c).
func (s *swapSearch) free(r, c int) bool {
	d, a := c-r+s.n-1, r+c
	return s.diagBits[d/64]&(1<<(d%64)) == 0 && s.antiBits[a/64]&(1<<(a%64)) == 0
}

// add counts a queen on (r, c).
func (s *swapSearch) add(r, c int) {
	s.incr(s.diagBits, s.diagExtra, c-r+s.n-1)
	s.incr(s.antiBits, s.antiExtra, r+c)
}

// remove uncounts a queen on (r, c).
func (s *swapSearch) remove(r, c int) {
	s.decr(s.diagBits, s.diagExtra, c-r+s.n-1)
	s.decr(s.antiBits, s.antiExtra, r+c)
}

func (s *swapSearch) incr(bits []uint64, extra map[int32]int32, k int) {
	w, b := k/64, uint64(1)<<(k%64)
	if bits[w]&b == 0 {
		bits[w] |= b
		return
	}
	extra[int32(k)]++
	s.collisions++
}

func (s *swapSearch) decr(bits []uint64, extra map[int32]int32, k int) {
	if e, ok := extra[int32(k)]; ok {
		if e == 1 {
			delete(extra, int32(k))
		} else {
			extra[int32(k)] = e - 1
		}
		s.collisions--
		return
	}
	bits[k/64] &^= 1 << (k % 64)
}

// attacked reports whether queen i shares a diagonal with another queen.
func (s *swapSearch) attacked(i int) bool {
	if s.collisions == 0 {
		return false
	}
	r, c := s.row(i), int(s.cols[i])
	_, d := s.diagExtra[int32(c-r+s.n-1)]
	_, a := s.antiExtra[int32(r+c)]
	return d || a
}

// trySwap swaps the columns of queens i and j when that lowers collisions, and reports
// whether it did.
func (s *swapSearch) trySwap(i, j int) bool {
	ri, rj := s.row(i), s.row(j)
	ci, cj := int(s.cols[i]), int(s.cols[j])
	before := s.collisions
	s.remove(ri, ci)
	s.remove(rj, cj)
	s.add(ri, cj)
	s.add(rj, ci)
	if s.collisions < before {
		s.cols[i], s.cols[j] = int32(cj), int32(ci)
		return true
	}
	s.remove(ri, cj)
	s.remove(rj, ci)
	s.add(ri, ci)
	s.add(rj, cj)
	return false
}

// repair swaps attacked queens with random partners while that lowers collisions. It reports
// false when it stalls: a round over the attacked queens improved nothing.
//
// It works from a list of queens that may be attacked: first those the start placed under
// attack (every crowded diagonal holds one), then the queens a swap moved onto a crowded
// diagonal and those that stay attacked. Should the list run dry with collisions left, one
// scan of all the queens refills it; that is rare, so the repair costs time in proportion to
// the collisions, not to n.
func (s *swapSearch) repair(ctx context.Context) (bool, error) {
	m := len(s.cols)
	if s.collisions == 0 {
		return true, nil
	}
	if m < 2 {
		return false, nil
	}
	// tries is how many partners an attacked queen tries in one round.
	tries := min(max(4*m, 256), 4096)
	todo := append([]int32(nil), s.fallback...)
	var next []int32
	for s.collisions > 0 {
		if len(todo) == 0 {
			for i := range m {
				if s.attacked(i) {
					todo = append(todo, int32(i))
				}
			}
		}
		improved := false
		next = next[:0]
		for _, i32 := range todo {
			i := int(i32)
			if s.collisions == 0 {
				break
			}
			if !s.attacked(i) {
				continue
			}
			swapped := false
			for range tries {
				if err := s.tick(ctx); err != nil {
					return false, err
				}
				j := int(s.rng.Uint32N(uint32(m)))
				if j != i && s.trySwap(i, j) {
					swapped = true
					// The partner, now on i's old column, may be attacked there.
					if s.attacked(j) {
						next = append(next, int32(j))
					}
					break
				}
			}
			improved = improved || swapped
			if s.attacked(i) {
				next = append(next, i32)
			}
		}
		if !improved && s.collisions > 0 {
			return false, nil
		}
		todo, next = next, todo
	}
	return true, nil
}
