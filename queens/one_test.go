package queens

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
)

// solutionFault is the tests' own checker, independent of the package: it returns "" when
// cols (cols[row] = col) is a solution of the len(cols)×len(cols) board, or what is wrong.
// It marks each column, diagonal and anti-diagonal in an array, in O(N).
func solutionFault(n int, col func(r int) int) string {
	usedCol := make([]bool, n)
	down := make(map[int]int) // col-row -> row, sparse to keep this unlike the package's arrays
	up := make([]int32, 2*n)  // row+col -> row+1
	for r := range n {
		c := col(r)
		if c < 0 || c >= n {
			return fmt.Sprintf("row %d: column %d is off the board", r, c)
		}
		if usedCol[c] {
			return fmt.Sprintf("row %d: column %d taken twice", r, c)
		}
		usedCol[c] = true
		if r2, ok := down[c-r]; ok {
			return fmt.Sprintf("rows %d and %d share a diagonal", r2, r)
		}
		down[c-r] = r
		if up[r+c] != 0 {
			return fmt.Sprintf("rows %d and %d share an anti-diagonal", up[r+c]-1, r)
		}
		up[r+c] = int32(r + 1)
	}
	return ""
}

// solutionFaultLarge is solutionFault with arrays only, for boards of millions.
func solutionFaultLarge(n int, col func(r int) int) string {
	seen := make([]uint8, n)
	down := make([]uint8, 2*n)
	up := make([]uint8, 2*n)
	for r := range n {
		c := col(r)
		if c < 0 || c >= n {
			return fmt.Sprintf("row %d: column %d is off the board", r, c)
		}
		if seen[c]++; seen[c] > 1 {
			return fmt.Sprintf("row %d: column %d taken twice", r, c)
		}
		if down[c-r+n]++; down[c-r+n] > 1 {
			return fmt.Sprintf("row %d: its diagonal is taken", r)
		}
		if up[r+c]++; up[r+c] > 1 {
			return fmt.Sprintf("row %d: its anti-diagonal is taken", r)
		}
	}
	return ""
}

func TestOneEveryN(t *testing.T) {
	for n := 1; n <= 2000; n++ {
		p, err := One(n)
		if n == 2 || n == 3 {
			if !errors.Is(err, ErrNoSolution) {
				t.Errorf("One(%d) error = %v, want ErrNoSolution", n, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("One(%d) error: %v", n, err)
		}
		if len(p) != n {
			t.Fatalf("One(%d) has %d rows", n, len(p))
		}
		if fault := solutionFault(n, func(r int) int { return int(p[r]) }); fault != "" {
			t.Fatalf("One(%d) = %v is not a solution: %s", n, p, fault)
		}
	}
}

// TestOneLarge checks the construction by formula on boards of about ten million, one for
// each of its three cases: N mod 6 = 2, 3, and the others.
func TestOneLarge(t *testing.T) {
	for _, n := range []int{10_000_000, 10_000_004, 10_000_005} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			if fault := solutionFaultLarge(n, func(r int) int { return OneColumn(n, r) }); fault != "" {
				t.Fatalf("OneColumn(%d, ·) is not a solution: %s", n, fault)
			}
		})
	}
}

func TestOneBadN(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		noSoln bool
	}{
		{"zero", 0, false},
		{"negative", -4, false},
		{"beyond a billion", MaxOneN + 1, false},
		{"two", 2, true},
		{"three", 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := One(tt.n)
			if err == nil || p != nil {
				t.Fatalf("One(%d) = %v, %v, want an error", tt.n, p, err)
			}
			if errors.Is(err, ErrNoSolution) != tt.noSoln {
				t.Errorf("One(%d) error %q: errors.Is(ErrNoSolution) = %v, want %v", tt.n, err, !tt.noSoln, tt.noSoln)
			}
			if OneColumn(tt.n, 0) != -1 {
				t.Errorf("OneColumn(%d, 0) = %d, want -1", tt.n, OneColumn(tt.n, 0))
			}
		})
	}
	if c := OneColumn(8, 8); c != -1 {
		t.Errorf("OneColumn(8, 8) = %d, want -1", c)
	}
	if c := OneColumn(8, -1); c != -1 {
		t.Errorf("OneColumn(8, -1) = %d, want -1", c)
	}
}

// TestOneKnown compares with the solutions the construction gives by hand, from its
// description in the literature (1-based: evens then odds, with the mod-6 adjustments).
func TestOneKnown(t *testing.T) {
	tests := []struct {
		name string
		n    int
		code string
	}{
		{"n=1", 1, "1"},
		{"n=4", 4, "2413"},
		{"n=5", 5, "24135"},
		{"n=6", 6, "246135"},
		{"n=7", 7, "2461357"},
		{"n=8, mod 6 = 2", 8, "24683175"},
		{"n=9, mod 6 = 3", 9, "468257913"},
		{"n=14, mod 6 = 2", 14, "2,4,6,8,10,12,14,3,1,7,9,11,13,5"},
		{"n=15, mod 6 = 3", 15, "4,6,8,10,12,14,2,5,7,9,11,13,15,1,3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := One(tt.n)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Format(Code); got != tt.code {
				t.Errorf("One(%d) = %s, want %s", tt.n, got, tt.code)
			}
		})
	}
}

// TestWriteFormatMatchesFormat checks that streaming (WriteFormat, which is WriteColumns)
// writes exactly what Format writes, in every notation, for complete and partial placements.
func TestWriteFormatMatchesFormat(t *testing.T) {
	var placements []Placement
	for n := 0; n <= 30; n++ {
		p := make(Placement, n)
		for r := range p {
			p[r] = int32(OneColumn(n, r))
			if n == 2 || n == 3 || r%3 == 1 {
				p[r] = -1 // partial rows too
			}
		}
		placements = append(placements, p)
	}
	big, _ := One(1000)
	placements = append(placements, big)
	for _, p := range placements {
		for _, f := range []Notation{Code, Perm, Coords, Algebraic, Board, JSON} {
			var b bytes.Buffer
			if err := p.WriteFormat(&b, f); err != nil {
				t.Fatalf("WriteFormat(n=%d, %v): %v", len(p), f, err)
			}
			if want := p.Format(f); b.String() != want {
				t.Errorf("WriteFormat(n=%d, %v) = %.60q…, want %.60q…", len(p), f, b.String(), want)
			}
		}
	}
}

func TestWriteColumnsErrors(t *testing.T) {
	col := func(int) int { return 0 }
	if err := WriteColumns(io.Discard, 1001, col, Board); err == nil {
		t.Error("WriteColumns(1001, Board) = nil, want an error: too large to draw")
	}
	if err := WriteColumns(io.Discard, -1, col, Code); err == nil {
		t.Error("WriteColumns(-1) = nil, want an error")
	}
	want := errors.New("disk full")
	if err := WriteColumns(failWriter{want}, 100000, func(r int) int { return OneColumn(100000, r) }, Perm); !errors.Is(err, want) {
		t.Errorf("WriteColumns to a failing writer = %v, want %v", err, want)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func ExampleOne() {
	p, err := One(8)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Format(Code))
	_, err = One(3)
	fmt.Println(errors.Is(err, ErrNoSolution))
	// Output:
	// 24683175
	// true
}

func ExampleWriteColumns() {
	// Stream a solution of a huge board without holding it: here the first bytes of the
	// one for a million queens.
	var b bytes.Buffer
	n := 1_000_000
	if err := WriteColumns(&b, n, func(r int) int { return OneColumn(n, r) }, Code); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.Len(), b.String()[:20])
	// Output:
	// 6888895 2,4,6,8,10,12,14,16,
}

func ExamplePlacement_WriteFormat() {
	// A placement in memory streams out the same way, here a partial one in perm notation.
	p := Placement{1, 3, -1, 2}
	if err := p.WriteFormat(os.Stdout, Perm); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println()
	// Output:
	// 1,3,-,2
}

var sinkPlacement Placement

func BenchmarkOne(b *testing.B) {
	for _, n := range []int{1000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				sinkPlacement, _ = One(n)
			}
		})
	}
}

// BenchmarkWriteOne streams the construction in code notation; bytes/s is the writing
// speed.
func BenchmarkWriteOne(b *testing.B) {
	n := 1_000_000
	var size int64
	for b.Loop() {
		var cw countWriter
		if err := WriteColumns(&cw, n, func(r int) int { return OneColumn(n, r) }, Code); err != nil {
			b.Fatal(err)
		}
		size = cw.n
	}
	b.SetBytes(size)
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }
