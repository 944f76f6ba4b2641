package frames

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// scanRowsNaive is scanRowsGo written from its doc comment, square by square: an
// independent statement of what the scan must return.
func scanRowsNaive(n int, cols, d1, d2, rem uint64) (best uint, once, twice, thrice uint64) {
	best = 1 << 24
	var count [64]int
	for k := range n {
		if rem&(1<<k) == 0 {
			continue
		}
		m := 0
		for c := range n {
			open := cols&(1<<c) == 0 && d1&(1<<(k+c)) == 0 && d2&(1<<(c-k+d2Bias)) == 0
			if open {
				m++
				count[c]++
			}
		}
		middle := 2*k - (n - 1) // rows nearer the middle win ties
		if middle < 0 {
			middle = -middle
		}
		best = min(best, uint(m)<<16|uint(middle)<<8|uint(k))
	}
	for c := range n {
		if count[c] >= 1 {
			once |= 1 << c
		}
		if count[c] >= 2 {
			twice |= 1 << c
		}
		if count[c] >= 3 {
			thrice |= 1 << c
		}
	}
	return best, once, twice, thrice
}

// randomNode returns a random search state on an n×n board: some queens placed at random
// (not necessarily non-attacking: the scan must not care), the rest of the rows empty.
func randomNode(rng *rand.Rand, n int) (cols, d1, d2, rem uint64) {
	mask := uint64(1)<<n - 1
	rem = mask
	for range rng.IntN(n + 1) {
		r, c := uint(rng.IntN(n)), uint64(1)<<rng.IntN(n)
		cols, d1, d2 = addQueen(cols, d1, d2, r, c)
		rem &^= 1 << r
	}
	return cols, d1, d2, rem
}

func TestScanRows(t *testing.T) { checkScans(t) }

// checkScans compares every scan this machine can run with scanRowsNaive on random nodes.
func checkScans(t *testing.T) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		n := 1 + i%count.MaxN
		cols, d1, d2, rem := randomNode(rng, n)
		free := (uint64(1)<<n - 1) &^ cols
		wb, wo, wt, wth := scanRowsNaive(n, cols, d1, d2, rem)
		s := search{n: n, tie: &tieBreak[n]}
		for _, impl := range []struct {
			name string
			scan func(free, d1, d2, rem uint64, tie *[count.MaxN]uint16) (uint, uint64, uint64, uint64)
		}{{"scanRowsGo", scanRowsGo}, {"scanRowsAsm", scanRowsAsm}, {"search.scanRows", func(free, d1, d2, rem uint64, _ *[count.MaxN]uint16) (uint, uint64, uint64, uint64) {
			return s.scanRows(free, d1, d2, rem)
		}}} {
			if impl.name == "scanRowsAsm" && !haveScanAsm {
				continue // the stub is scanRowsGo itself
			}
			b, o, tw, th := impl.scan(free, d1, d2, rem, &tieBreak[n])
			if b != wb || o != wo || tw != wt || th != wth {
				t.Fatalf("n=%d cols=%#x d1=%#x d2=%#x rem=%#x: %s = (%#x, %#x, %#x, %#x), want (%#x, %#x, %#x, %#x)",
					n, cols, d1, d2, rem, impl.name, b, o, tw, th, wb, wo, wt, wth)
			}
		}
	}
}

func FuzzScanRows(f *testing.F) {
	f.Add(uint8(8), uint64(0), uint64(0), uint64(0), uint64(0xff))
	f.Add(uint8(32), uint64(1), uint64(1<<5), uint64(1<<40), uint64(0xfffffffe))
	f.Fuzz(func(t *testing.T, n8 uint8, cols, d1, d2, rem uint64) {
		n := 1 + int(n8)%count.MaxN
		mask := uint64(1)<<n - 1
		cols, rem = cols&mask, rem&mask
		wb, wo, wt, wth := scanRowsNaive(n, cols, d1, d2, rem)
		s := search{n: n, tie: &tieBreak[n]}
		b, o, tw, th := s.scanRows(mask&^cols, d1, d2, rem)
		if b != wb || o != wo || tw != wt || th != wth {
			t.Fatalf("scanRows = (%#x, %#x, %#x, %#x), want (%#x, %#x, %#x, %#x)", b, o, tw, th, wb, wo, wt, wth)
		}
	})
}

// walk searches the task's tree by recursion on expand, the readable statement of the
// search's rules, and returns its solutions and nodes, which run must match.
func (s *search) walk(cols, d1, d2, rem uint64) (sols, nodes uint64) {
	nodes = 1
	m := s.expand(cols, d1, d2, rem)
	switch m.kind {
	case done:
		return m.count, 1
	case forced:
		c, e1, e2 := addQueen(cols, d1, d2, m.line, m.avail)
		x, y := s.walk(c, e1, e2, rem&^(1<<m.line))
		return x, y + 1
	case onRow, onColumn:
		for a := m.avail; a != 0; a &= a - 1 {
			bit := a & -a
			var x, y uint64
			if m.kind == onRow {
				c, e1, e2 := addQueen(cols, d1, d2, m.line, bit)
				x, y = s.walk(c, e1, e2, rem&^(1<<m.line))
			} else {
				k := uint(bits.TrailingZeros64(bit))
				c, e1, e2 := addQueen(cols, d1, d2, k, 1<<m.line)
				x, y = s.walk(c, e1, e2, rem&^bit)
			}
			sols += x
			nodes += y
		}
	}
	return sols, nodes
}

// TestRunFollowsExpand checks that run, which writes the search's decisions out inline for
// speed, makes the same ones as expand: the same solutions and the same nodes on every
// tk, with the assembly scan and without.
func TestRunFollowsExpand(t *testing.T) { checkRunFollowsExpand(t) }

func checkRunFollowsExpand(t *testing.T) {
	for n := 4; n <= 11; n++ {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			p, err := newPlan(n)
			if err != nil {
				t.Fatal(err)
			}
			for _, tk := range p.tasks {
				var s search
				s.init(frame{tk.N, tk.Top, tk.Bottom, tk.Left, tk.Right})
				if s.f.halfTurnFixed() || s.rem == 0 {
					continue
				}
				wantSols, wantNodes := s.walk(s.cols, s.d1, s.d2, s.rem)
				var r count.Result
				if err := s.run(context.Background(), &r); err != nil {
					t.Fatal(err)
				}
				if r.Solutions != wantSols || r.Nodes != wantNodes {
					t.Fatalf("task %d: run = %d solutions, %d nodes; walk over expand = %d, %d",
						tk.ID, r.Solutions, r.Nodes, wantSols, wantNodes)
				}
				var sym count.Result
				if err := s.runSymmetric(context.Background(), &sym); err != nil {
					t.Fatal(err)
				}
				if sym.Solutions != wantSols || sym.Nodes != wantNodes {
					t.Fatalf("task %d: runSymmetric = %d solutions, %d nodes; walk over expand = %d, %d",
						tk.ID, sym.Solutions, sym.Nodes, wantSols, wantNodes)
				}
			}
		})
	}
}
