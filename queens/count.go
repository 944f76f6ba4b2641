package queens

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
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
// those symmetric under a half and a quarter turn. It returns ctx.Err() if ctx is done
// first. Count takes time proportional to the search tree, which grows about sevenfold with
// each step of n: a fraction of a second for n ≤ 12, a few seconds for n = 16.
func Count(ctx context.Context, n int) (Counts, error) {
	if n < 1 || n > MaxCountN {
		return Counts{}, fmt.Errorf("board size must be a whole number from 1 to %d, got %d", MaxCountN, n)
	}
	if err := ctx.Err(); err != nil {
		return Counts{}, err
	}
	var total, half, quarter uint64
	// Mirror symmetry: a solution with its top queen in the left half has a mirror image
	// with it in the right half. Count the left half twice, and the middle column (odd n)
	// once. Symmetry under turns survives mirroring, so P and R are weighted the same way.
	for c := 0; c < (n+1)/2; c++ {
		w := uint64(2)
		if n%2 == 1 && c == n/2 {
			w = 1
		}
		t, h, q, err := countFromTop(ctx, n, c)
		if err != nil {
			return Counts{}, err
		}
		total += w * t
		half += w * h
		quarter += w * q
	}
	c := Counts{N: n, Total: new(big.Int).SetUint64(total), HalfTurn: new(big.Int).SetUint64(half), QuarterTurn: new(big.Int).SetUint64(quarter)}
	c.Unique = uniqueFrom(n, c.Total, c.HalfTurn, c.QuarterTurn)
	return c, nil
}

// countFromTop counts the solutions with the top queen in column top, and among them those
// symmetric under a half turn and a quarter turn. It is the listing search without the
// yield: the same stack of bitboards, a row a level.
func countFromTop(ctx context.Context, n, top int) (total, half, quarter uint64, err error) {
	var (
		cols, left, right, avail [MaxN + 1]uint64
		place                    = make(Placement, n)
		mask                     = ^uint64(0) >> (64 - n)
		nodes                    uint64
	)
	bit := uint64(1) << top
	place[0] = top
	if n == 1 {
		return 1, 1, 1, nil
	}
	d := 1
	cols[1], left[1], right[1] = bit, bit<<1, bit>>1
	avail[1] = mask &^ (cols[1] | left[1] | right[1])
	for d >= 1 {
		open := avail[d]
		if open == 0 {
			d--
			continue
		}
		bit := open & -open
		avail[d] = open ^ bit
		nodes++
		if nodes%progressEvery == 0 && ctx.Err() != nil {
			return 0, 0, 0, ctx.Err()
		}
		if d == n-1 {
			total++
			place[d] = bits.TrailingZeros64(bit)
			if symmetricHalf(place) {
				half++
				if symmetricQuarter(place) {
					quarter++
				}
			}
			continue
		}
		place[d] = bits.TrailingZeros64(bit)
		c, l, r := cols[d]|bit, (left[d]|bit)<<1, (right[d]|bit)>>1
		d++
		cols[d], left[d], right[d] = c, l, r
		avail[d] = mask &^ (c | l | r)
	}
	return total, half, quarter, nil
}
