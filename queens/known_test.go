package queens_test

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// TestKnownTable checks the transcription of the published table: every row satisfies
// Burnside's lemma 8·U = Q + P + 2·R, R ≤ P ≤ Q, R = 0 unless n mod 4 is 0 or 1, and sizes
// outside 1…MaxKnownN are refused. A mistyped digit in any of the four columns breaks the
// first identity.
func TestKnownTable(t *testing.T) {
	for n := 2; n <= queens.MaxKnownN; n++ {
		c, ok := queens.Known(n)
		if !ok || c.N != n {
			t.Fatalf("Known(%d) = %+v, %v", n, c, ok)
		}
		lhs := new(big.Int).Lsh(c.Unique, 3)
		rhs := new(big.Int).Add(c.Total, c.HalfTurn)
		rhs.Add(rhs, new(big.Int).Lsh(c.QuarterTurn, 1))
		if lhs.Cmp(rhs) != 0 {
			t.Errorf("n=%d: 8·U = %v, Q + P + 2R = %v", n, lhs, rhs)
		}
		if c.QuarterTurn.Cmp(c.HalfTurn) > 0 || c.HalfTurn.Cmp(c.Total) > 0 {
			t.Errorf("n=%d: want R ≤ P ≤ Q, got R=%v P=%v Q=%v", n, c.QuarterTurn, c.HalfTurn, c.Total)
		}
		if m := n % 4; (m == 2 || m == 3) && c.QuarterTurn.Sign() != 0 {
			t.Errorf("n=%d: R = %v, want 0 for n mod 4 = %d", n, c.QuarterTurn, m)
		}
	}
	for _, n := range []int{-1, 0, queens.MaxKnownN + 1} {
		if _, ok := queens.Known(n); ok {
			t.Errorf("Known(%d) reports a value", n)
		}
	}
	// Fresh values: changing one must not change the table.
	a, _ := queens.Known(8)
	a.Total.SetInt64(0)
	if b, _ := queens.Known(8); b.Total.Int64() != 92 {
		t.Errorf("Known(8).Total = %v after a caller changed its copy", b.Total)
	}
}

// TestCountMatchesKnown holds Count to the published Q, U, P and R where it is quick.
func TestCountMatchesKnown(t *testing.T) {
	for n := 1; n <= 11; n++ {
		got, err := queens.Count(t.Context(), n, queens.CountOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := queens.Known(n)
		g := fmt.Sprint(got.Total, got.Unique, got.HalfTurn, got.QuarterTurn)
		w := fmt.Sprint(want.Total, want.Unique, want.HalfTurn, want.QuarterTurn)
		if g != w {
			t.Errorf("Count(%d) = Q U P R %s, published %s", n, g, w)
		}
	}
}

func ExampleKnown() {
	c, _ := queens.Known(8)
	fmt.Println(c.Total, c.Unique)
	// Output: 92 12
}
