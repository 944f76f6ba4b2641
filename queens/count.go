package queens

import (
	"context"
	"math/big"
)

// MaxCountN is the largest N that Count accepts. Q(27) is the largest count known (2016);
// Q(32) would take a very large cluster, so 32 is far enough.
const MaxCountN = 32

// Counts holds exact solution counts for one board size.
type Counts struct {
	N int
	// Total is Q(N), the number of solutions.
	Total *big.Int
	// Unique is U(N), the number of fundamental solutions: classes under the eight
	// symmetries of the square.
	Unique *big.Int
	// HalfTurn is P(N), the solutions that a half turn maps onto themselves, and
	// QuarterTurn is R(N), those a quarter turn does (they are among the P(N) too).
	HalfTurn, QuarterTurn *big.Int
}

// uniqueFrom returns U(N) by Burnside's lemma: U = (Q + P + 2R) / 8, since no solution of
// a board larger than 1×1 is fixed by a reflection, every solution is fixed by the identity,
// the P by the half turn and the R by both quarter turns.
func uniqueFrom(n int, total, half, quarter *big.Int) *big.Int {
	if n == 1 {
		return big.NewInt(1)
	}
	u := new(big.Int).Add(total, half)
	u.Add(u, new(big.Int).Lsh(quarter, 1))
	return u.Rsh(u, 3)
}

// Count counts the solutions of the n×n board exactly: the total, the fundamental ones, and
// those symmetric under a half and a quarter turn. It runs the tasks of [NewPlan] one after
// another on the calling goroutine (internal/work runs them on all cores, with
// checkpoints), and returns ctx.Err() if ctx is done first. Count takes time proportional
// to the search tree, which grows about sevenfold with each step of n: a fraction of a
// second for n ≤ 13, about a second for n = 15, a few seconds for n = 16.
func Count(ctx context.Context, n int) (Counts, error) {
	p, err := NewPlan(n)
	if err != nil {
		return Counts{}, err
	}
	return p.countHere(ctx)
}

// countHere runs every task of p one after another on the calling goroutine and sums
// them, or returns ctx.Err() if ctx is done first.
func (p *Plan) countHere(ctx context.Context) (Counts, error) {
	t := p.NewTally()
	for task := range p.All() {
		r, err := task.CountContext(ctx)
		if err != nil {
			return Counts{}, err
		}
		if _, err := t.Add(r); err != nil {
			return Counts{}, err
		}
	}
	return t.Final()
}
