package queens

import (
	"bytes"
	"context"
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
	cols, size, ok := ParseColumns(text, n)
	if !ok {
		return false
	}
	pos, err := Parse(text, n)
	if err != nil {
		t.Fatalf("ParseColumns(%.40q, %d) read it, but Parse says %v", text, n, err)
	}
	if pos.N != size || len(pos.Queens) != len(cols) {
		t.Fatalf("ParseColumns(%.40q, %d): N %d, %d queens; Parse: N %d, %d queens", text, n, size, len(cols), pos.N, len(pos.Queens))
	}
	for i, q := range pos.Queens {
		if q.Row != i || q.Col != int(cols[i]) {
			t.Fatalf("ParseColumns(%.40q, %d): row %d column %d; Parse has %v", text, n, i, cols[i], q)
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

// TestCheckColumnsMatchesCheck compares the fast path with Check on random lists of
// columns, most of them with attacks, some partial.
func TestCheckColumnsMatchesCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := range 3000 {
		n := 1 + rng.IntN(12)
		if trial%100 == 0 {
			n = 200 + rng.IntN(300)
		}
		rows := n - rng.IntN(min(n, 3))
		cols := make([]int32, rows)
		if trial%3 == 0 {
			for r, c := range rng.Perm(n)[:rows] {
				cols[r] = int32(c)
			}
		} else {
			for r := range cols {
				cols[r] = int32(rng.IntN(n))
			}
		}
		if trial%7 == 0 && n >= 4 {
			p, _ := Random(n, rng)
			for r := range cols {
				cols[r] = int32(p[r])
			}
		}
		pos := Position{N: n}
		for r, c := range cols {
			pos.Queens = append(pos.Queens, board.Square{Row: r, Col: int(c)})
		}
		want := Check(pos)
		got := CheckColumns(n, cols)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("CheckColumns(%d, %v) =\n%+v\nCheck gives\n%+v", n, cols, got, want)
		}
	}
}

// TestCheckColumnsLarge checks ten million queens (two million under the race detector or
// -short): One's solution, and the same with two rows swapped (which puts queens on shared
// diagonals).
func TestCheckColumnsLarge(t *testing.T) {
	n := 10_000_000
	if testing.Short() || raceEnabled {
		n = 2_000_000
	}
	var b bytes.Buffer
	if err := WriteColumns(&b, n, func(r int) int { return OneColumn(n, r) }, Perm); err != nil {
		t.Fatal(err)
	}
	cols, size, ok := ParseColumns(b.String(), 0)
	if !ok || size != n {
		t.Fatalf("ParseColumns(One(%d) in perm) = ok %v, N %d", n, ok, size)
	}
	if rep := CheckColumns(size, cols); !rep.Solved || len(rep.Attacks) != 0 {
		t.Fatalf("CheckColumns(One(%d)): solved %v, %d attacks, want a solution", n, rep.Solved, len(rep.Attacks))
	}
	cols[0], cols[1] = cols[1], cols[0] // columns 2 and 4 (1-based) swap: both now on a diagonal with the next rows
	rep := CheckColumns(size, cols)
	if rep.Solved || len(rep.Attacks) == 0 {
		t.Fatalf("CheckColumns(One(%d) with rows 0 and 1 swapped): solved %v, %d attacks, want attacks", n, rep.Solved, len(rep.Attacks))
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
	cols, n, ok := ParseColumns(text, 0)
	if !ok {
		// Not a plain list of columns: Parse reads every notation.
		pos, err := Parse(text, 0)
		fmt.Println(Check(pos).Solved, err)
		return
	}
	fmt.Println(n, CheckColumns(n, cols).Solved)
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
	b.Run("ParseColumns+CheckColumns", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			cols, size, _ := ParseColumns(text, 0)
			sinkReport = CheckColumns(size, cols)
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

// TestCheckColumnsContextMatches compares the bounded check with CheckColumns on random
// lists of columns: the attacks it lists are the first ones CheckColumns lists, its count is
// their number, and its line counts are the same.
func TestCheckColumnsContextMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	for trial := range 2000 {
		n := 1 + rng.IntN(40)
		rows := n - rng.IntN(min(n, 3))
		cols := make([]int32, rows)
		for r := range cols {
			cols[r] = int32(rng.IntN(n))
			if trial%4 == 0 {
				cols[r] = int32(min(r, n-1)) // a diagonal: many attacks
			}
		}
		want := CheckColumns(n, cols)
		for _, k := range []int{-1, 0, 1, 2, 7, 1000} {
			got, count, err := CheckColumnsContext(context.Background(), n, cols, CheckLimits{MaxAttacks: k, Lines: trial%2 == 0})
			if err != nil {
				t.Fatal(err)
			}
			if count != int64(len(want.Attacks)) {
				t.Fatalf("CheckColumnsContext(%d, %v, max %d): %d attacks, CheckColumns lists %d", n, cols, k, count, len(want.Attacks))
			}
			wantKept := want.Attacks
			if k >= 0 && k < len(wantKept) {
				wantKept = wantKept[:k]
			}
			if len(got.Attacks) != len(wantKept) || len(wantKept) > 0 && !reflect.DeepEqual(got.Attacks, wantKept) {
				t.Fatalf("CheckColumnsContext(%d, %v, max %d) lists\n%v\nwant the first of CheckColumns's:\n%v", n, cols, k, got.Attacks, wantKept)
			}
			if got.Solved != want.Solved || got.Queens != want.Queens || got.N != want.N {
				t.Fatalf("CheckColumnsContext(%d, %v): solved %v, %d queens; CheckColumns: %v, %d", n, cols, got.Solved, got.Queens, want.Solved, want.Queens)
			}
			if trial%2 == 0 && (!reflect.DeepEqual(got.Rows, want.Rows) || !reflect.DeepEqual(got.Columns, want.Columns) ||
				!reflect.DeepEqual(got.Diagonals, want.Diagonals) || !reflect.DeepEqual(got.AntiDiagonals, want.AntiDiagonals)) {
				t.Fatalf("CheckColumnsContext(%d, %v): line counts differ from CheckColumns's", n, cols)
			}
			if trial%2 == 1 && (got.Rows != nil || got.Diagonals != nil) {
				t.Fatalf("CheckColumnsContext without Lines filled the line counts")
			}
		}
	}
}

// TestCheckColumnsContextLarge checks a million queens on one diagonal with one queen moved:
// the count of attacking pairs is exact (counted here by walking the lines independently),
// and only the first 10 pairs are listed.
func TestCheckColumnsContextLarge(t *testing.T) {
	n := 1_000_000
	cols := make([]int32, n)
	for r := range cols {
		cols[r] = int32(r)
	}
	cols[n/2] = 0 // now on column 0 with row 0, off the main diagonal
	// Independently: a queen attacks the previous one on each line it shares; on a line
	// holding k queens that is k-1 pairs. The main diagonal holds n-1 queens, column 0
	// holds 2, and every anti-diagonal one (r+r distinct; row n/2 has r+c = n/2, which
	// row n/4 shares).
	want := int64(n-1-1) + 1 + 1
	rep, count, err := CheckColumnsContext(context.Background(), n, cols, CheckLimits{MaxAttacks: 10})
	if err != nil {
		t.Fatal(err)
	}
	if count != want || len(rep.Attacks) != 10 || rep.Solved {
		t.Fatalf("CheckColumnsContext: %d attacks, %d listed, solved %v; want %d, 10, false", count, len(rep.Attacks), rep.Solved, want)
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

func TestCheckColumnsContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := CheckColumnsContext(ctx, 3, []int32{0, 1, 2}, CheckLimits{}); err != context.Canceled {
		t.Fatalf("CheckColumnsContext with a cancelled context: %v, want %v", err, context.Canceled)
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
// byte says so), and the number of attacks to list.
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
	})
}
