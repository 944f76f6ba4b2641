package queens

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// bruteSolutions lists every solution of the n×n board by the plainest backtracking, written
// here independently of the package, as masks: sol[r] = column.
func bruteSolutions(n int) [][]int {
	var out [][]int
	p := make([]int, n)
	var place func(r int)
	place = func(r int) {
		if r == n {
			out = append(out, append([]int(nil), p...))
			return
		}
	next:
		for c := range n {
			for r2 := range r {
				if p[r2] == c || p[r2]-c == r2-r || p[r2]-c == r-r2 {
					continue next
				}
			}
			p[r] = c
			place(r + 1)
		}
	}
	place(0)
	return out
}

// attacking reports whether two distinct squares share a line.
func attacking(a, b board.Square) bool {
	dr, dc := a.Row-b.Row, a.Col-b.Col
	return dr == 0 || dc == 0 || dr == dc || dr == -dc
}

// TestCompleteExhaustive compares Complete, on every position of 1 to 3 queens on every
// board up to 8×8, with brute force: a position can be completed exactly when some solution
// holds all its queens, and whatever Complete returns must be such a solution.
func TestCompleteExhaustive(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 8; n++ {
		sols := bruteSolutions(n)
		squares := n * n
		positions, completable := 0, 0
		var qs []board.Square
		var visit func(from int)
		visit = func(from int) {
			if len(qs) > 0 {
				positions++
				pos := Position{N: n, Queens: append([]board.Square(nil), qs...)}
				conflict := false
				for i := range qs {
					for j := range i {
						conflict = conflict || attacking(qs[i], qs[j])
					}
				}
				want := false
				for _, s := range sols {
					holds := true
					for _, q := range qs {
						holds = holds && s[q.Row] == q.Col
					}
					want = want || holds
				}
				p, err := Complete(ctx, pos)
				var ce *ConflictError
				switch {
				case conflict:
					if !errors.As(err, &ce) || !errors.Is(err, ErrNoCompletion) {
						t.Fatalf("Complete(%v on %d×%d) = %v, %v, want a ConflictError", qs, n, n, p, err)
					}
					if !attacking(ce.Attack.A, ce.Attack.B) {
						t.Fatalf("Complete(%v on %d×%d) names %v and %v, which do not attack each other", qs, n, n, ce.Attack.A, ce.Attack.B)
					}
				case want:
					completable++
					if err != nil {
						t.Fatalf("Complete(%v on %d×%d) error %v, want a completion", qs, n, n, err)
					}
					if fault := solutionFault(n, func(r int) int { return int(p[r]) }); fault != "" {
						t.Fatalf("Complete(%v on %d×%d) = %v, not a solution: %s", qs, n, n, p, fault)
					}
					for _, q := range qs {
						if int(p[q.Row]) != q.Col {
							t.Fatalf("Complete(%v on %d×%d) = %v, which moved the queen on %v", qs, n, n, p, q)
						}
					}
				default:
					if !errors.Is(err, ErrNoCompletion) || errors.As(err, &ce) || p != nil {
						t.Fatalf("Complete(%v on %d×%d) = %v, %v, want ErrNoCompletion without a conflict", qs, n, n, p, err)
					}
				}
			}
			if len(qs) == 3 {
				return
			}
			for k := from; k < squares; k++ {
				qs = append(qs, board.Square{Row: k / n, Col: k % n})
				visit(k + 1)
				qs = qs[:len(qs)-1]
			}
		}
		visit(0)
		t.Logf("%d×%d: %d positions, %d can be completed", n, n, positions, completable)
		if n == 8 && completable == 0 {
			t.Errorf("8×8: no position can be completed, want many")
		}
	}
}

func TestCompleteEmpty(t *testing.T) {
	for n := 1; n <= 40; n++ {
		p, err := Complete(context.Background(), Position{N: n})
		if n == 2 || n == 3 {
			if !errors.Is(err, ErrNoCompletion) {
				t.Errorf("Complete(empty %d×%d) error = %v, want ErrNoCompletion", n, n, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Complete(empty %d×%d): %v", n, n, err)
		}
		if fault := solutionFault(n, func(r int) int { return int(p[r]) }); fault != "" {
			t.Fatalf("Complete(empty %d×%d) = %v: %s", n, n, p, fault)
		}
	}
}

// TestCompleteLarge gives some queens of a known solution, in scattered rows, and checks the
// completion: exactly when at most 64 rows are empty, by local search beyond.
func TestCompleteLarge(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		given int // how many queens of the known solution are given
	}{
		{"100, 50 given (exact)", 100, 50},
		{"500, 440 given (exact)", 500, 440},
		{"100, 10 given (local)", 100, 10},
		{"1000, 30 given (local)", 1000, 30},
		{"100000, 1000 given (local)", 100_000, 1000},
		{"100000, none given (local)", 100_000, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			known, err := Random(context.Background(), tt.n, seeded(3))
			if err != nil {
				t.Fatal(err)
			}
			rng := seeded(5)
			pos := Position{N: tt.n}
			for _, r := range rng.Perm(tt.n)[:tt.given] {
				pos.Queens = append(pos.Queens, board.Square{Row: r, Col: int(known[r])})
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			p, err := Complete(ctx, pos)
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if fault := solutionFault(tt.n, func(r int) int { return int(p[r]) }); fault != "" {
				t.Fatalf("Complete gave no solution: %s", fault)
			}
			for _, q := range pos.Queens {
				if int(p[q.Row]) != q.Col {
					t.Fatalf("Complete moved the given queen on row %d from column %d to %d", q.Row, q.Col, p[q.Row])
				}
			}
		})
	}
}

// TestCompleteNoRoom: the solution of One(99) on the top-left of a 100×100 board holds
// (94,94) on the long diagonal, so the one square left, (99,99), is attacked.
func TestCompleteNoRoom(t *testing.T) {
	pos := Position{N: 100}
	one, _ := One(99)
	for r, c := range one {
		pos.Queens = append(pos.Queens, board.Square{Row: r, Col: int(c)})
	}
	if one[94] != 94 {
		t.Fatalf("One(99)[94] = %d, want 94 for this test", one[94])
	}
	p, err := Complete(context.Background(), pos)
	var ce *ConflictError
	if !errors.Is(err, ErrNoCompletion) || errors.As(err, &ce) || p != nil {
		t.Errorf("Complete = %v, %v, want ErrNoCompletion", p, err)
	}
}

func TestCompleteErrors(t *testing.T) {
	expired, cancel := context.WithTimeout(context.Background(), -time.Second)
	defer cancel()
	tests := []struct {
		name string
		ctx  context.Context
		pos  Position
		want error  // matched with errors.Is, when not nil
		text string // in the message
	}{
		{"zero board", context.Background(), Position{N: 0}, nil, "from 1 to"},
		{"too large", context.Background(), Position{N: MaxCompleteN + 1}, nil, "from 1 to"},
		{"off the board", context.Background(), Position{N: 4, Queens: []board.Square{{Row: 4, Col: 0}}}, nil, "off the 4×4 board"},
		{"column conflict", context.Background(), Position{N: 8, Queens: []board.Square{{Row: 1, Col: 4}, {Row: 4, Col: 4}}}, ErrNoCompletion, "e7 and e4 attack each other along a column"},
		{"same row", context.Background(), Position{N: 8, Queens: []board.Square{{Row: 0, Col: 0}, {Row: 0, Col: 7}}}, ErrNoCompletion, "a8 and h8 attack each other along a row"},
		{"diagonal", context.Background(), Position{N: 8, Queens: []board.Square{{Row: 7, Col: 0}, {Row: 0, Col: 7}}}, ErrNoCompletion, "h8 and a1 attack each other along an anti-diagonal"},
		{"past deadline", expired, Position{N: 8}, context.DeadlineExceeded, ""},
		{"past deadline, large", expired, Position{N: 100_000}, context.DeadlineExceeded, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Complete(tt.ctx, tt.pos)
			if err == nil || p != nil {
				t.Fatalf("Complete = %v, %v, want an error", p, err)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("Complete error = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.text) {
				t.Errorf("Complete error = %q, want it to contain %q", err, tt.text)
			}
		})
	}
}

func ExampleComplete() {
	// Queens on c4 and a8 (given in any order); the rest filled in. The answer is
	// 15863724 in code, the first of the 92 eight-queens solutions.
	pos, err := Parse("c4 a8", 8)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := Complete(context.Background(), pos)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Format(Algebraic))
	// a8 and b8 share a row: the answer is no.
	pos, _ = Parse("a8 b8", 8)
	_, err = Complete(context.Background(), pos)
	fmt.Println(err)
	// Output:
	// a8 e7 h6 f5 c4 g3 b2 d1
	// the position cannot be completed: a8 and b8 attack each other along a row
}

// BenchmarkComplete completes random positions of N = 8…30: a few queens of random
// solutions, sometimes with one moved, so that some cannot be completed.
func BenchmarkComplete(b *testing.B) {
	for _, n := range []int{8, 16, 24, 30} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(uint64(n), 1))
			var positions []Position
			for len(positions) < 64 {
				positions = append(positions, samplePartial(n, rng))
			}
			i := 0
			for b.Loop() {
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				sinkPlacement, _ = Complete(ctx, positions[i%len(positions)])
				cancel()
				i++
			}
		})
	}
}

// samplePartial returns a random position of the n×n board with no attacks: up to n/3
// queens dropped at random on squares no queen so far attacks.
func samplePartial(n int, rng *rand.Rand) Position {
	pos := Position{N: n}
	k := 1 + rng.IntN(max(1, n/3))
	for range 50 * k {
		if len(pos.Queens) == k {
			break
		}
		q := board.Square{Row: rng.IntN(n), Col: rng.IntN(n)}
		ok := true
		for _, o := range pos.Queens {
			ok = ok && !attacking(o, q) && o != q
		}
		if ok {
			pos.Queens = append(pos.Queens, q)
		}
	}
	return pos
}

// TestCompleteUndecided gives a position with more than 64 empty rows that cannot be
// completed, which the local search cannot prove: it must say undecided when the time is
// up, not answer. One(204) stands on the top-left of a 274×274 board; the 70 empty rows and
// columns form the bottom-right 70×70 block, where 70 queens need 70 different diagonals
// (col-row) from -69 to 69, but One(204) already takes all of them but a few.
func TestCompleteUndecided(t *testing.T) {
	k, n := 204, 274
	one, err := One(k)
	if err != nil {
		t.Fatal(err)
	}
	pos := Position{N: n}
	takenDiag := make(map[int]bool)
	for r, c := range one {
		pos.Queens = append(pos.Queens, board.Square{Row: r, Col: int(c)})
		takenDiag[int(c)-r] = true
	}
	open := 0
	for d := -69; d <= 69; d++ {
		if !takenDiag[d] {
			open++
		}
	}
	if open >= 70 {
		t.Fatalf("%d diagonals are open in the block, want fewer than 70 for this test", open)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	p, err := Complete(ctx, pos)
	if !errors.Is(err, context.DeadlineExceeded) || p != nil {
		t.Errorf("Complete = %v, %v, want context.DeadlineExceeded", p, err)
	}
}

// conflicting reports whether two of qs (distinct squares) attack each other.
func conflicting(qs []board.Square) bool {
	for i := range qs {
		for j := range i {
			if qs[i] != qs[j] && attacking(qs[i], qs[j]) {
				return true
			}
		}
	}
	return false
}

// FuzzComplete drops queens on a board of up to 12×12, from bytes, and checks that Complete
// never panics and that whatever it returns is right: a solution holding the queens, or an
// error saying there is none.
func FuzzComplete(f *testing.F) {
	f.Add(uint8(8), []byte{0, 0, 4, 2})
	f.Add(uint8(8), []byte{0, 0, 1, 2})
	f.Add(uint8(3), []byte{})
	f.Add(uint8(12), []byte{5, 5, 5, 5})
	f.Add(uint8(0), []byte{1})
	f.Fuzz(func(t *testing.T, size uint8, squares []byte) {
		n := int(size % 13)
		pos := Position{N: n}
		for i := 0; i+1 < len(squares) && len(pos.Queens) < 20; i += 2 {
			// Some squares fall off the board on purpose.
			pos.Queens = append(pos.Queens, board.Square{Row: int(squares[i] % 14), Col: int(squares[i+1] % 14)})
		}
		p, err := Complete(context.Background(), pos)
		if err != nil {
			if p != nil {
				t.Fatalf("Complete(%v) = %v and error %v", pos, p, err)
			}
			dup, off := false, false
			for i, q := range pos.Queens {
				off = off || q.Row >= n || q.Col >= n
				for j := range i {
					dup = dup || q == pos.Queens[j]
				}
			}
			var ce *ConflictError
			if dup && !off && n > 0 && !errors.As(err, &ce) {
				t.Fatalf("Complete(%v): %v, want a ConflictError: two queens on one square attack along their row, as Check counts them", pos, err)
			}
			if errors.Is(err, ErrNoCompletion) && errors.As(err, &ce) != (dup || conflicting(pos.Queens)) {
				t.Fatalf("Complete(%v): %v; a ConflictError exactly when two queens attack each other", pos, err)
			}
			if errors.Is(err, ErrNoCompletion) && n <= 8 && !dup {
				// No solution may hold all the queens (brute force).
				for _, s := range bruteSolutions(n) {
					holds := true
					for _, q := range pos.Queens {
						holds = holds && q.Row < n && s[q.Row] == q.Col
					}
					if holds {
						t.Fatalf("Complete(%v): %v, but %v holds every queen", pos, err, s)
					}
				}
			}
			return
		}
		if fault := solutionFault(n, func(r int) int { return int(p[r]) }); fault != "" || len(p) != n {
			t.Fatalf("Complete(%v) = %v: %s", pos, p, fault)
		}
		for _, q := range pos.Queens {
			if int(p[q.Row]) != q.Col {
				t.Fatalf("Complete(%v) = %v lost the queen on %v", pos, p, q)
			}
		}
	})
}
