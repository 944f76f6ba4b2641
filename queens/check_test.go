package queens_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

// attackNames writes the attacks of a report as "a8-h1 diagonal" strings.
func attackNames(n int, as []queens.Attack) []string {
	sz := board.SquareBoard(n)
	var out []string
	for _, a := range as {
		out = append(out, sz.Name(a.A)+"-"+sz.Name(a.B)+" "+a.Line.String())
	}
	return out
}

func TestCheckTable(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		n       int
		solved  bool
		queens  int
		attacks []string
	}{
		{name: "first solution", in: "15863724", solved: true, queens: 8},
		{name: "last solution", in: "84136275", solved: true, queens: 8},
		{name: "one queen", in: "1", solved: true, queens: 1},
		{name: "a8 and h1 on a diagonal", in: "13572468", queens: 8, attacks: []string{"a8-h1 diagonal"}},
		{name: "three on a row", in: "(1,1) (3,1) (5,1)", n: 5, queens: 3, attacks: []string{"a5-c5 row", "c5-e5 row"}},
		{name: "three on a column", in: "111", queens: 3, attacks: []string{"a3-a2 column", "a2-a1 column"}},
		{name: "anti-diagonal", in: "a1 h8", n: 8, queens: 2, attacks: []string{"h8-a1 anti-diagonal"}},
		{name: "blocked diagonal", in: "a8 d5 h1", n: 8, queens: 3, attacks: []string{"a8-d5 diagonal", "d5-h1 diagonal"}},
		{name: "two queens on one square", in: "e4 e4", n: 8, queens: 2, attacks: []string{"e4-e4 row"}},
		{name: "partial, no conflict", in: "15", n: 8, queens: 2},
		{name: "empty rows", in: "........", queens: 0},
		{name: "two lines at once", in: "a1 a2 b2", n: 3, queens: 3, attacks: []string{"a2-b2 row", "a2-a1 column", "b2-a1 anti-diagonal"}},
		{name: "n=4 solution", in: "2413", solved: true, queens: 4},
		{name: "n=4 not a solution", in: "1234", queens: 4, attacks: []string{"a4-b3 diagonal", "b3-c2 diagonal", "c2-d1 diagonal"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := queens.Parse(tc.in, tc.n)
			if err != nil {
				t.Fatalf("Parse(%q, %d): %v", tc.in, tc.n, err)
			}
			rep := queens.Check(pos)
			if rep.Solved != tc.solved {
				t.Errorf("Check(%s).Solved = %v, want %v", tc.in, rep.Solved, tc.solved)
			}
			if rep.Queens != tc.queens || rep.N != pos.N {
				t.Errorf("Check(%s): Queens %d, N %d; want %d, %d", tc.in, rep.Queens, rep.N, tc.queens, pos.N)
			}
			if got := attackNames(pos.N, rep.Attacks); !slices.Equal(got, tc.attacks) {
				t.Errorf("Check(%s).Attacks = %q, want %q", tc.in, got, tc.attacks)
			}
			checkCounts(t, tc.in, pos, rep)
		})
	}
}

// checkCounts compares the per-line counts of rep with counts made queen by queen.
func checkCounts(t *testing.T, name string, pos queens.Position, rep queens.Report) {
	t.Helper()
	n := pos.N
	rows, cols := make([]int, n), make([]int, n)
	diag, anti := make([]int, 2*n-1), make([]int, 2*n-1)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			for _, q := range pos.Queens {
				if q.Row != r || q.Col != c {
					continue
				}
				rows[r]++
				cols[c]++
				// Diagonal k holds the squares with col-row = k-(n-1); anti-diagonal k
				// those with row+col = k.
				for k := 0; k < 2*n-1; k++ {
					if c-r == k-(n-1) {
						diag[k]++
					}
					if r+c == k {
						anti[k]++
					}
				}
			}
		}
	}
	for _, l := range []struct {
		what      string
		got, want []int
	}{{"Rows", rep.Rows, rows}, {"Columns", rep.Columns, cols}, {"Diagonals", rep.Diagonals, diag}, {"AntiDiagonals", rep.AntiDiagonals, anti}} {
		if !slices.Equal(l.got, l.want) {
			t.Errorf("Check(%s).%s = %v, want %v", name, l.what, l.got, l.want)
		}
		sum := 0
		for _, k := range l.got {
			sum += k
		}
		if sum != len(pos.Queens) {
			t.Errorf("Check(%s).%s sum to %d, want %d queens", name, l.what, sum, len(pos.Queens))
		}
	}
}

// bruteAttacks finds the attacking pairs of a position without two queens on one square:
// two queens on a line attack when no queen stands strictly between them on it.
func bruteAttacks(qs []board.Square) []queens.Attack {
	var out []queens.Attack
	key := func(q board.Square, l queens.Line) int {
		switch l {
		case queens.Row:
			return q.Row
		case queens.Column:
			return q.Col
		case queens.Diagonal:
			return q.Col - q.Row
		}
		return q.Row + q.Col
	}
	less := func(a, b board.Square) bool { return a.Row < b.Row || a.Row == b.Row && a.Col < b.Col }
	for i, a := range qs {
		for j, b := range qs {
			if i == j || !less(a, b) {
				continue
			}
			for _, l := range []queens.Line{queens.Row, queens.Column, queens.Diagonal, queens.AntiDiagonal} {
				if key(a, l) != key(b, l) {
					continue
				}
				between := false
				for k, c := range qs {
					if k != i && k != j && key(c, l) == key(a, l) && less(a, c) && less(c, b) {
						between = true
					}
				}
				if !between {
					out = append(out, queens.Attack{A: a, B: b, Line: l})
				}
			}
		}
	}
	slices.SortFunc(out, func(x, y queens.Attack) int {
		return cmp.Or(cmp.Compare(x.A.Row, y.A.Row), cmp.Compare(x.A.Col, y.A.Col), cmp.Compare(x.Line, y.Line))
	})
	return out
}

// TestCheckRandom compares Check with the brute-force attacks and counts on random positions.
func TestCheckRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		n := 1 + rng.IntN(12)
		k := rng.IntN(n*n/2 + 2)
		var qs []board.Square
		seen := make(map[board.Square]bool)
		for range k {
			q := board.Square{Row: rng.IntN(n), Col: rng.IntN(n)}
			if !seen[q] {
				seen[q] = true
				qs = append(qs, q)
			}
		}
		pos := queens.Position{N: n, Queens: qs}
		rep := queens.Check(pos)
		name := "random position " + itoa(i)
		want := bruteAttacks(qs)
		if !slices.Equal(rep.Attacks, want) {
			t.Fatalf("Check(%v on %d×%d).Attacks = %v, want %v", qs, n, n, rep.Attacks, want)
		}
		if rep.Solved != (len(qs) == n && len(want) == 0) {
			t.Fatalf("Check(%v on %d×%d).Solved = %v", qs, n, n, rep.Solved)
		}
		checkCounts(t, name, pos, rep)
	}
}

// TestCheckSolutions: Check says Solved for every solution and for nothing else among all
// placements with one queen a row on boards up to 6×6.
func TestCheckSolutions(t *testing.T) {
	for n := 1; n <= 6; n++ {
		p := make([]int, n)
		var rec func(r int)
		rec = func(r int) {
			if r == n {
				rep := queens.Check(placement(p).Position())
				if rep.Solved != valid(p) {
					t.Errorf("Check(%s).Solved = %v, want %v", codeOf(p), rep.Solved, valid(p))
				}
				return
			}
			for c := 0; c < n; c++ {
				p[r] = c
				rec(r + 1)
			}
		}
		rec(0)
	}
}

// TestCheckNoPanic: "no panics on any input". A zero Position, or a queen off the board, is
// not something Parse returns, but Check must not crash a program that builds one by hand.
func TestCheckNoPanic(t *testing.T) {
	for _, tc := range []struct {
		name string
		pos  queens.Position
	}{
		{"zero value", queens.Position{}},
		{"negative N", queens.Position{N: -2}},
		{"queen off the board", queens.Position{N: 2, Queens: []board.Square{{Row: 5, Col: 0}}}},
		{"queen at a negative square", queens.Position{N: 2, Queens: []board.Square{{Row: -1, Col: 0}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Check(%+v) panics: %v", tc.pos, r)
				}
			}()
			rep := queens.Check(tc.pos)
			if rep.Solved {
				t.Errorf("Check(%+v).Solved = true, want false", tc.pos)
			}
		})
	}
}

func TestLineString(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    queens.Line
		want string
	}{
		{"row", queens.Row, "row"}, {"column", queens.Column, "column"},
		{"diagonal", queens.Diagonal, "diagonal"}, {"anti-diagonal", queens.AntiDiagonal, "anti-diagonal"},
		{"out of range", queens.Line(9), "line?"}, {"negative", queens.Line(-1), "line?"},
	} {
		if got := tc.l.String(); got != tc.want {
			t.Errorf("Line(%d).String() = %q, want %q", int(tc.l), got, tc.want)
		}
	}
}
