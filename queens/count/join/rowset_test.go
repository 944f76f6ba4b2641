package join

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rowSetSearch counts what the join counts for row set e of sub-problem sub of the n×n
// board, by a different method: a plain backtracking search of the whole board, a queen a
// row from the top, each row's queen confined to half A (columns 0…h−1) if its bit is in e
// and to half B (columns N−h…N−1) if not, with the sub-problem's fixed queens placed
// first, and each solution weighted as the join weights it (see the notes in doc.go): for even n the
// row-set weight times 2^(B's queens on the long diagonals), w180 in place of 1 where it
// has none, and no solution with a queen of A on a long diagonal; for the centre the
// row-set weight; for a cross (b = sub+1) weight 8, summed over the middle row's queen
// a = 1…b−1. It knows nothing of quarter tables, signatures, the matcher or the sieve.
func rowSetSearch(n, sub int, e uint64) uint64 {
	j := newSubproblem(n, sub)
	wE, w180 := j.rowSetWeight(e)
	if wE == 0 {
		return 0
	}
	h := n / 2
	var inA [64]int // per board row: 1 half A, 0 half B, −1 a fixed queen's row
	for r := range n {
		inA[r] = -1
	}
	for i := range 2 * h {
		r := i
		if i >= h {
			r = n - h + (i - h)
		}
		if j.free>>i&1 == 0 {
			continue
		}
		inA[r] = int(e >> i & 1)
	}
	cA := uint64(1)<<h - 1
	cB := cA << (n - h)
	st := rowSearch{n: n}
	for r := range n {
		switch inA[r] {
		case 1:
			st.allow[r] = cA
		case 0:
			st.allow[r] = cB
		}
	}
	switch j.kind {
	case subEven:
		// A's queens off both long diagonals: (r, r) and (r, n−1−r).
		for r := range n {
			if inA[r] == 1 {
				st.allow[r] &^= 1<<r | 1<<(n-1-r)
			}
		}
		st.w = [3]uint64{w180, 2, 4}
		st.weighted = true
		return wE * st.run()
	case subCentre:
		st.fix(h, h)
		return wE * st.run()
	}
	var sum uint64
	for a := 1; a < j.b; a++ {
		t := st
		t.fix(h+j.b, h)
		t.fix(h, h+a)
		sum += 8 * t.run()
	}
	return sum
}

// rowSearch is the state of rowSetSearch: the columns each row may use (0 for a row whose
// queen is fixed), the fixed queens, and the weights by long-diagonal queens.
type rowSearch struct {
	n            int
	allow        [64]uint64
	fixed        [64]bool
	cols, dn, up uint64
	weighted     bool
	w            [3]uint64
}

// fix places a queen at (r, c) before the search.
func (s *rowSearch) fix(r, c int) {
	s.fixed[r] = true
	s.allow[r] = 0
	s.cols |= 1 << c
	s.dn |= 1 << (c - r + s.n - 1)
	s.up |= 1 << (r + c)
}

func (s *rowSearch) run() uint64 { return s.place(0, 0) }

// place counts the completions from row r on; long is the number of queens on the
// long diagonals so far (used where weighted).
func (s *rowSearch) place(r, long int) uint64 {
	n := s.n
	for r < n && s.fixed[r] {
		r++
	}
	if r == n {
		if s.weighted {
			return s.w[long]
		}
		return 1
	}
	open := s.allow[r] &^ (s.cols | s.dn>>(n-1-r) | s.up>>r)
	var sum uint64
	for ; open != 0; open &= open - 1 {
		c := bits.TrailingZeros64(open)
		l := long
		if c == r || c == n-1-r {
			l++
		}
		s.cols |= 1 << c
		s.dn |= 1 << (c - r + n - 1)
		s.up |= 1 << (r + c)
		sum += s.place(r+1, l)
		s.cols &^= 1 << c
		s.dn &^= 1 << (c - r + n - 1)
		s.up &^= 1 << (r + c)
	}
	return sum
}

// countOneRowSet counts row set e of sub-problem sub by the join: a task of that one row set.
func countOneRowSet(t testing.TB, n, sub int, e uint64) uint64 {
	tab, err := tableFor(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	r, err := task{N: n, Weight: 1, Run: rowSetRun{Sub: sub, First: e, RowSets: 1}}.countJoinTable(context.Background(), tab)
	if err != nil {
		t.Fatal(err)
	}
	return r.Solutions
}

// randomRowSet draws a counted row set of n uniformly: a sub-problem with the chance of its
// share of row sets, then a subset of its free rows until one is counted.
func randomRowSet(rng *rand.Rand, n int) (sub int, e uint64) {
	var shares []float64
	var all float64
	for s := range subproblemCount(n) {
		j := newSubproblem(n, s)
		c := binomial(bits.OnesCount64(j.free), j.k)
		shares = append(shares, c)
		all += c
	}
	x := rng.Float64() * all
	for sub < len(shares)-1 && x >= shares[sub] {
		x -= shares[sub]
		sub++
	}
	j := newSubproblem(n, sub)
	for {
		e = randomSubset(rng, j.free, j.k)
		if w, _ := j.rowSetWeight(e); w != 0 {
			return sub, e
		}
	}
}

// TestRowSetSearch is the independent check of the join a row set at a time: every
// counted row set of every sub-problem for n = 6…10, and 25 random ones of each of
// n = 11…15, counted by the join and by rowSetSearch, must agree. (The whole counts check
// the symmetry weights summed; this checks each row set's part of them, and the tables,
// signatures, matcher and sieve that make it.) With CHESSPUZZLES_LONG it draws 20 random
// row sets of each N in CHESSPUZZLES_ROWSET_NS (default 22,23). The search is the slow
// side: 309 CPU-s for the 20 row sets of N = 22 (27 Nov, all agreeing), about eight times
// that a step of N, so 23 takes most of an hour and 24–28 (days to years) are left out.
func TestRowSetSearch(t *testing.T) {
	check := func(t *testing.T, n, sub int, e uint64) {
		t.Helper()
		if got, want := countOneRowSet(t, n, sub, e), rowSetSearch(n, sub, e); got != want {
			t.Errorf("N=%d sub-problem %d row set %#x: join %d, search %d", n, sub, e, got, want)
		}
	}
	for n := 6; n <= 10; n++ {
		for sub := range subproblemCount(n) {
			j := newSubproblem(n, sub)
			for e := j.firstRowSet(); e != 0; e = j.nextRowSet(e) {
				if w, _ := j.rowSetWeight(e); w != 0 {
					check(t, n, sub, e)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(33, 0))
	for n := 11; n <= 15; n++ {
		for range 25 {
			sub, e := randomRowSet(rng, n)
			check(t, n, sub, e)
		}
	}
	if !longTests() {
		return
	}
	ns := "22,23"
	if v := os.Getenv("CHESSPUZZLES_ROWSET_NS"); v != "" {
		ns = v
	}
	for _, f := range strings.Split(ns, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < MinN || n > MaxN {
			t.Fatalf("CHESSPUZZLES_ROWSET_NS=%q: want N from %d to %d, comma-separated", ns, MinN, MaxN)
		}
		t.Run(fmt.Sprint("N", n), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(n), 1))
			for range 20 {
				sub, e := randomRowSet(rng, n)
				t0 := time.Now()
				got := countOneRowSet(t, n, sub, e)
				t1 := time.Now()
				want := rowSetSearch(n, sub, e)
				t.Logf("N=%d sub-problem %d row set %#x: %d (join %v, search %v)", n, sub, e, got, t1.Sub(t0).Round(time.Millisecond), time.Since(t1).Round(time.Millisecond))
				if got != want {
					t.Errorf("N=%d sub-problem %d row set %#x: join %d, search %d", n, sub, e, got, want)
				}
			}
		})
	}
}
