package count

import "math/big"

// MaxN is the largest N a plan counts. Q(27) is the largest count known (2016); Q(32)
// would take a very large cluster, so 32 is far enough, and a board row fits 32 bits.
const MaxN = 32

// The two counting methods, as a plan, a task, a checkpoint and a shard file name them.
const (
	// MethodFrames pre-places the border queens and searches the rest (package frames):
	// any N, tiny memory.
	MethodFrames = "frames"
	// MethodJoin joins half-boards built from a quarter-board table (package join): far
	// faster where its table fits in memory.
	MethodJoin = "join"
)

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

// CountsFrom returns the counts of the n×n board whose Q(N), P(N) and R(N) are total, half
// and quarter (U(N) by Burnside's lemma, as a [Tally] makes it): what a runner that sums
// results itself returns. It shares the three values.
func CountsFrom(n int, total, half, quarter *big.Int) Counts {
	return Counts{N: n, Total: total, HalfTurn: half, QuarterTurn: quarter, Unique: uniqueFrom(n, total, half, quarter)}
}
