package queens

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// sameAsParse fails the test unless ParseColumns(text, n), when it reads text, gives the
// position Parse does.
func sameAsParse(t *testing.T, text string, n int) bool {
	t.Helper()
	p, ok := ParseColumns(text, n)
	if !ok {
		return false
	}
	pos, err := Parse(text, n)
	if err != nil {
		t.Fatalf("ParseColumns(%.40q, %d) read it, but Parse says %v", text, n, err)
	}
	if pos.N != len(p) {
		t.Fatalf("ParseColumns(%.40q, %d): N %d; Parse: N %d", text, n, len(p), pos.N)
	}
	// Parse lists the queens of a column list row by row: the i-th queen is on the i-th
	// row of the list, and the rows after the list are empty.
	for r, c := range p {
		switch {
		case r < len(pos.Queens) && (pos.Queens[r].Row != r || pos.Queens[r].Col != int(c)):
			t.Fatalf("ParseColumns(%.40q, %d): row %d column %d; Parse has %v", text, n, r, c, pos.Queens[r])
		case r >= len(pos.Queens) && c != -1:
			t.Fatalf("ParseColumns(%.40q, %d): row %d column %d; Parse has %d queens, none there", text, n, r, c, len(pos.Queens))
		}
	}
	return true
}

func TestParseColumns(t *testing.T) {
	tests := []struct {
		name string
		text string
		n    int
		ok   bool // whether the fast path takes it (when not, Parse decides)
	}{
		{"perm", "0,4,7,5,2,6,1,3", 0, true},
		{"code with commas", "1,5,8,6,3,7,2,4", 0, true},
		{"spaces and newlines", " 0 4 7\n5 2 6\r\n1 3\n", 0, true},
		{"semicolons, code", "1;5;8;6;3;7;2;4", 0, true},
		{"partial with --n", "0,4,7", 8, true},
		{"leading zeros", "01,05,08,06,03,07,02,04", 0, true},
		{"digits run", "15863724", 0, false},
		{"digits run with trailing newline", "15863724\n", 0, false},
		{"zero with only semicolons is code, which has no 0", "0;4;7;5;2;6;1;3", 0, false},
		{"off the board, perm", "0,8,1", 0, false},
		{"off the board, code", "1,2,4", 0, false},
		{"double zero in code", "00,1,2", 0, false},
		{"too many rows", "0,1,2", 2, false},
		{"empty row", "0,-,2", 0, false},
		{"prefix", "perm:0,1,2", 0, false},
		{"letters", "a8 b7", 0, false},
		{"empty", "", 0, false},
		{"only separators", " , ,", 0, false},
		{"huge number", "1,99999999999999999999", 0, false},
		{"negative n", "0,1", -1, false},
		// Issue 11.1: file,rank squares separated by white space are algebraic, at every N.
		{"file,rank squares", "5,4 1,1", 0, false},
		{"file,rank squares, n 30", "5,4 1,1", 30, false},
		{"file,rank squares, n 40", "5,4 1,1", 40, false},
		{"file,rank squares off the board", "0,0 0,0", 108, false},
		{"file,rank squares on lines", "5,4\n1,1\n", 40, false},
		{"one file,rank pair is a list", "5,4", 40, true},
		{"pairs and a lone number is a list", "5,4 1,1 3", 40, true},
		{"pairs with a semicolon is a list", "5,4 1;1", 40, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameAsParse(t, tt.text, tt.n); got != tt.ok {
				t.Errorf("ParseColumns(%q, %d) ok = %v, want %v", tt.text, tt.n, got, tt.ok)
			}
		})
	}
}

// randomPlacement returns a placement of n rows for the tests of Placement.Check: most
// with attacks, some partial, some solutions, a few with queens off the board or rows
// written with a negative column other than -1, as trial picks.
func randomPlacement(rng *rand.Rand, n, trial int) Placement {
	p := make(Placement, n)
	if trial%3 == 0 {
		for r, c := range rng.Perm(n) {
			p[r] = int32(c)
		}
	} else {
		for r := range p {
			p[r] = int32(rng.IntN(n))
		}
	}
	if trial%7 == 0 && n >= 4 {
		p, _ = Random(context.Background(), n, rng)
	}
	for range rng.IntN(min(n, 3)) {
		p[rng.IntN(n)] = -1
	}
	if trial%11 == 0 {
		p[rng.IntN(n)] = int32(n + rng.IntN(3)) // off the board
	}
	if trial%13 == 0 {
		p[rng.IntN(n)] = -2 // an empty row, as Position reads it
	}
	return p
}

// TestPlacementCheckMatchesCheck compares the one-pass check with Check on random
// placements.
func TestPlacementCheckMatchesCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := range 3000 {
		n := 1 + rng.IntN(12)
		if trial%100 == 0 {
			n = 200 + rng.IntN(300)
		}
		p := randomPlacement(rng, n, trial)
		want := Check(p.Position())
		got := p.Check()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%v.Check() =\n%+v\nCheck gives\n%+v", p, got, want)
		}
	}
	if got, want := (Placement{}).Check(), Check(Position{}); !reflect.DeepEqual(got, want) {
		t.Fatalf("Placement{}.Check() = %+v, Check gives %+v", got, want)
	}
}

// TestPlacementCheckLarge checks ten million queens (two million under the race detector
// or -short): One's solution, and the same with two rows swapped (which puts queens on
// shared diagonals).
func TestPlacementCheckLarge(t *testing.T) {
	n := 10_000_000
	if testing.Short() || raceEnabled {
		n = 2_000_000
	}
	var b bytes.Buffer
	if err := WriteColumns(&b, n, func(r int) int { return OneColumn(n, r) }, Perm); err != nil {
		t.Fatal(err)
	}
	p, ok := ParseColumns(b.String(), 0)
	if !ok || len(p) != n {
		t.Fatalf("ParseColumns(One(%d) in perm) = ok %v, N %d", n, ok, len(p))
	}
	if rep := p.Check(); !rep.Solved || len(rep.Attacks) != 0 {
		t.Fatalf("One(%d).Check(): solved %v, %d attacks, want a solution", n, rep.Solved, len(rep.Attacks))
	}
	p[0], p[1] = p[1], p[0] // columns 2 and 4 (1-based) swap: both now on a diagonal with the next rows
	rep := p.Check()
	if rep.Solved || len(rep.Attacks) == 0 {
		t.Fatalf("One(%d) with rows 0 and 1 swapped, Check(): solved %v, %d attacks, want attacks", n, rep.Solved, len(rep.Attacks))
	}
	for _, a := range rep.Attacks {
		dr, dc := a.B.Row-a.A.Row, a.B.Col-a.A.Col
		if dr != dc && dr != -dc {
			t.Errorf("attack %v: not on a diagonal", a)
		}
	}
}

func FuzzParseColumns(f *testing.F) {
	for _, s := range []string{"0,4,7,5,2,6,1,3", "1,5,8,6,3,7,2,4", "15863724", "0;1", "1 2\n3", "00,1", "0,-,2", " , ", "99999999999,1", "5,4 1,1", "0,0 0,0", "1,2 3", "1,2\t3,4\r\n"} {
		f.Add(s, 0)
		f.Add(s, 8)
	}
	f.Fuzz(func(t *testing.T, text string, n int) {
		// Every N: most inputs meet small boards, where the readings differ most, but
		// sizes up to MaxParseN and just beyond it (refused by both) are tried as well.
		if n < -1 || n > MaxParseN+1 {
			n %= 1001
		}
		sameAsParse(t, text, n)
	})
}

func ExampleParseColumns() {
	text := "0,4,7,5,2,6,1,3"
	p, ok := ParseColumns(text, 0)
	if !ok {
		// Not a plain list of columns: Parse reads every notation.
		pos, err := Parse(text, 0)
		fmt.Println(Check(pos).Solved, err)
		return
	}
	fmt.Println(len(p), p.Check().Solved)
	// Output:
	// 8 true
}

// BenchmarkCheckLarge reads and checks a million queens in perm notation, the fast path
// against Parse and Check.
func BenchmarkCheckLarge(b *testing.B) {
	n := 1_000_000
	var buf strings.Builder
	if err := WriteColumns(&buf, n, func(r int) int { return OneColumn(n, r) }, Perm); err != nil {
		b.Fatal(err)
	}
	text := buf.String()
	b.Run("ParseColumns+Placement.Check", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			p, _ := ParseColumns(text, 0)
			sinkReport = p.Check()
		}
	})
	b.Run("Parse+Check", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			pos, _ := Parse(text, 0)
			sinkReport = Check(pos)
		}
	})
}

var sinkReport Report

// TestPlacementCheckContextMatches compares the bounded one-pass check with Check on random
// placements: the attacks it lists are the first ones Check lists, its count is their
// number, and the rest of the Report is Check's (with the line counts when asked for);
// and it is what CheckContext says of the placement's Position.
func TestPlacementCheckContextMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	for trial := range 2000 {
		n := 1 + rng.IntN(40)
		p := randomPlacement(rng, n, trial)
		if trial%4 == 1 {
			for r := range p {
				p[r] = int32(min(r, n-1)) // a diagonal: many attacks
			}
		}
		want := Check(p.Position())
		for _, k := range []int{-1, 0, 1, 2, 7, 1000} {
			lim := CheckLimits{MaxAttacks: k, Lines: trial%2 == 0}
			got, count, err := p.CheckContext(context.Background(), lim)
			if err != nil {
				t.Fatal(err)
			}
			if count != int64(len(want.Attacks)) {
				t.Fatalf("%v.CheckContext(max %d): %d attacks, Check lists %d", p, k, count, len(want.Attacks))
			}
			w := want
			if k >= 0 && k < len(w.Attacks) {
				w.Attacks = w.Attacks[:k]
			}
			if len(w.Attacks) == 0 {
				w.Attacks, got.Attacks = nil, nil
			}
			if !lim.Lines {
				w.Rows, w.Columns, w.Diagonals, w.AntiDiagonals = nil, nil, nil, nil
			}
			if !reflect.DeepEqual(got, w) {
				t.Fatalf("%v.CheckContext(%+v) =\n%+v\nCheck gives (first %d attacks)\n%+v", p, lim, got, k, w)
			}
			fromPos, posCount, _ := CheckContext(context.Background(), p.Position(), lim)
			if len(fromPos.Attacks) == 0 {
				fromPos.Attacks = nil
			}
			if posCount != count || !reflect.DeepEqual(got, fromPos) {
				t.Fatalf("%v.CheckContext(%+v) =\n%+v\nCheckContext of its Position gives\n%+v", p, lim, got, fromPos)
			}
		}
	}
}

// TestPlacementCheckContextLarge checks a million queens on one diagonal with one queen
// moved: the count of attacking pairs is exact (counted here by walking the lines
// independently), and only the first 10 pairs are listed.
func TestPlacementCheckContextLarge(t *testing.T) {
	n := 1_000_000
	p := make(Placement, n)
	for r := range p {
		p[r] = int32(r)
	}
	p[n/2] = 0 // now on column 0 with row 0, off the main diagonal
	// Independently: a queen attacks the previous one on each line it shares; on a line
	// holding k queens that is k-1 pairs. The main diagonal holds n-1 queens, column 0
	// holds 2, and every anti-diagonal one (r+r distinct; row n/2 has r+c = n/2, which
	// row n/4 shares).
	want := int64(n-1-1) + 1 + 1
	rep, count, err := p.CheckContext(context.Background(), CheckLimits{MaxAttacks: 10})
	if err != nil {
		t.Fatal(err)
	}
	if count != want || len(rep.Attacks) != 10 || rep.Solved {
		t.Fatalf("Placement.CheckContext: %d attacks, %d listed, solved %v; want %d, 10, false", count, len(rep.Attacks), rep.Solved, want)
	}
	// The first listed: row 0 attacks row 1 on the diagonal and row n/2 on the column;
	// by line, column comes first.
	if a := rep.Attacks[0]; a.A.Row != 0 || a.B.Row != n/2 || a.Line != Column {
		t.Errorf("first attack %v, want row 0 and row %d on a column", a, n/2)
	}
	if a := rep.Attacks[1]; a.A.Row != 0 || a.B.Row != 1 || a.Line != Diagonal {
		t.Errorf("second attack %v, want rows 0 and 1 on a diagonal", a)
	}
}

func TestPlacementCheckContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := (Placement{0, 1, 2}).CheckContext(ctx, CheckLimits{}); err != context.Canceled {
		t.Fatalf("Placement.CheckContext with a cancelled context: %v, want %v", err, context.Canceled)
	}
}

// TestCheckContextMatches compares the bounded check with Check on random positions: several
// queens a row, queens written twice, queens off the board, partial ones. The attacks it
// lists are the first ones Check lists, its count is their number, and the rest of the
// Report is Check's.
func TestCheckContextMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 3000 {
		n := 1 + rng.IntN(12)
		pos := Position{N: n}
		for range rng.IntN(2 * n) {
			q := board.Square{Row: rng.IntN(n), Col: rng.IntN(n)}
			switch {
			case trial%5 == 0 && len(pos.Queens) > 0:
				q = pos.Queens[rng.IntN(len(pos.Queens))] // written twice
			case trial%11 == 0:
				q.Row += n // off the board
			}
			pos.Queens = append(pos.Queens, q)
		}
		want := Check(pos)
		for _, k := range []int{-1, 0, 1, 3, 1000} {
			got, count, err := CheckContext(context.Background(), pos, CheckLimits{MaxAttacks: k, Lines: true})
			if err != nil {
				t.Fatal(err)
			}
			if count != int64(len(want.Attacks)) {
				t.Fatalf("CheckContext(%v, max %d): %d attacks, Check lists %d", pos, k, count, len(want.Attacks))
			}
			w := want
			if k >= 0 && k < len(w.Attacks) {
				w.Attacks = w.Attacks[:k]
			}
			if len(w.Attacks) == 0 {
				w.Attacks, got.Attacks = nil, nil
			}
			if !reflect.DeepEqual(got, w) {
				t.Fatalf("CheckContext(%v, max %d) =\n%+v\nCheck gives (first %d attacks)\n%+v", pos, k, got, k, w)
			}
		}
		if got, _, _ := CheckContext(context.Background(), pos, CheckLimits{MaxAttacks: -1}); got.Rows != nil || got.Solved != want.Solved {
			t.Fatalf("CheckContext without Lines: rows %v, solved %v; want nil, %v", got.Rows, got.Solved, want.Solved)
		}
	}
}

// TestCheckContextHugeBoard checks two queens on a board of a hundred million rows, which
// Check would need 6 GB for: they attack along a diagonal, once.
func TestCheckContextHugeBoard(t *testing.T) {
	pos := Position{N: MaxParseN, Queens: []board.Square{{Row: 5, Col: 7}, {Row: MaxParseN - 1, Col: MaxParseN - 1}}}
	rep, count, err := CheckContext(context.Background(), pos, CheckLimits{MaxAttacks: 10})
	if err != nil {
		t.Fatal(err)
	}
	if count != 0 || rep.Solved || len(rep.Attacks) != 0 {
		t.Fatalf("CheckContext: %d attacks %v, solved %v; want none, not solved", count, rep.Attacks, rep.Solved)
	}
	pos.Queens[0] = board.Square{Row: 5, Col: 5}
	if rep, count, _ = CheckContext(context.Background(), pos, CheckLimits{MaxAttacks: 10}); count != 1 || len(rep.Attacks) != 1 || rep.Attacks[0].Line != Diagonal {
		t.Fatalf("CheckContext: %d attacks %v; want one on a diagonal", count, rep.Attacks)
	}
}

// FuzzCheckContext compares the bounded check with Check on positions built from the
// fuzzer's bytes: the board size, then a queen per pair of bytes (off the board when a
// byte says so), and the number of attacks to list. Where the position is a Placement,
// the one-pass checks of the Placement must say the same.
func FuzzCheckContext(f *testing.F) {
	f.Add([]byte{8, 0, 0, 0, 7, 1, 1, 1, 1}, 3)
	f.Add([]byte{4, 0, 0, 0, 1, 0, 2, 0, 3}, 1)
	f.Add([]byte{3, 0, 0, 200, 0}, -1)
	f.Fuzz(func(t *testing.T, data []byte, k int) {
		if len(data) == 0 {
			return
		}
		n := int(data[0]%16) + 1
		pos := Position{N: n}
		for i := 1; i+1 < len(data); i += 2 {
			pos.Queens = append(pos.Queens, board.Square{Row: int(data[i]) % (n + 2), Col: int(data[i+1]) % (n + 1)})
		}
		k = max(k%50, -1)
		want := Check(pos)
		got, count, err := CheckContext(context.Background(), pos, CheckLimits{MaxAttacks: k, Lines: true})
		if err != nil {
			t.Fatal(err)
		}
		if count != int64(len(want.Attacks)) {
			t.Fatalf("CheckContext(%v): %d attacks, Check lists %d", pos, count, len(want.Attacks))
		}
		if k >= 0 && k < len(want.Attacks) {
			want.Attacks = want.Attacks[:k]
		}
		if len(want.Attacks) == 0 {
			want.Attacks, got.Attacks = nil, nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("CheckContext(%v, max %d) =\n%+v\nCheck gives\n%+v", pos, k, got, want)
		}
		p, ok := pos.Placement()
		if !ok {
			return
		}
		if onePass, full := p.Check(), Check(pos); !reflect.DeepEqual(onePass, full) {
			t.Fatalf("%v.Check() =\n%+v\nCheck of %v gives\n%+v", p, onePass, pos, full)
		}
		onePass, onePassCount, err := p.CheckContext(context.Background(), CheckLimits{MaxAttacks: k, Lines: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(onePass.Attacks) == 0 {
			onePass.Attacks = nil
		}
		if onePassCount != count || !reflect.DeepEqual(onePass, got) {
			t.Fatalf("%v.CheckContext(max %d) =\n%+v (%d attacks)\nCheckContext of %v gives\n%+v (%d)", p, k, onePass, onePassCount, pos, got, count)
		}
	})
}

// endsAfter is a context whose Err is nil for its first calls, then context.Canceled: a
// context that ends while a function runs, at a point the test knows.
type endsAfter struct {
	context.Context
	calls int
}

func (c *endsAfter) Err() error {
	if c.calls--; c.calls < 0 {
		return context.Canceled
	}
	return nil
}

// TestParseColumnsContext checks that ParseColumnsContext returns ctx.Err() and no
// placement when ctx is done before it starts, and when it ends during a read of 3 MiB of
// columns (it looks at ctx every mebibyte), and reads the text as ParseColumns does when
// ctx stays alive.
func TestParseColumnsContext(t *testing.T) {
	text := strings.Repeat("1,", 3<<19-1) + "1" // 3 MiB: one queen per row on column 1 (not a solution; still read)
	tests := []struct {
		name  string
		calls int // the calls of Err that return nil
		want  error
	}{
		{"done before", 0, context.Canceled},
		{"ends while reading", 1, context.Canceled},
		{"alive", 1 << 30, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := &endsAfter{Context: context.Background(), calls: tt.calls}
			p, ok, err := ParseColumnsContext(ctx, text, 0)
			if !errors.Is(err, tt.want) {
				t.Fatalf("ParseColumnsContext: error %v, want %v", err, tt.want)
			}
			if tt.want != nil {
				if p != nil || ok {
					t.Errorf("ParseColumnsContext ended early with ok %v and %d rows, want none", ok, len(p))
				}
				return
			}
			if !ok || len(p) != 3<<19 || p[0] != 0 || p[len(p)-1] != 0 {
				t.Errorf("ParseColumnsContext: ok %v, %d rows, want %d rows on column 0", ok, len(p), 3<<19)
			}
		})
	}
}
