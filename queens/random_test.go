package queens

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func seeded(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// TestRandomManyN checks a few hundred sizes, each with several seeds, with the tests' own
// checker.
func TestRandomManyN(t *testing.T) {
	var sizes []int
	for n := 1; n <= 200; n++ {
		sizes = append(sizes, n)
	}
	for n := 201; n <= 5000; n += 97 {
		sizes = append(sizes, n)
	}
	sizes = append(sizes, 65536, 100_003)
	for _, n := range sizes {
		for seed := range uint64(4) {
			p, err := Random(context.Background(), n, seeded(seed))
			if n == 2 || n == 3 {
				if !errors.Is(err, ErrNoSolution) {
					t.Errorf("Random(%d) error = %v, want ErrNoSolution", n, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("Random(%d, seed %d): %v", n, seed, err)
			}
			if len(p) != n {
				t.Fatalf("Random(%d, seed %d) has %d rows", n, seed, len(p))
			}
			if fault := solutionFault(n, func(r int) int { return int(p[r]) }); fault != "" {
				t.Fatalf("Random(%d, seed %d) = %v is not a solution: %s", n, seed, p, fault)
			}
		}
	}
}

// TestRandomLarge runs a board of ten million; two million under the race detector (where
// ten million take about a minute) and with -short.
func TestRandomLarge(t *testing.T) {
	n := 10_000_000
	if testing.Short() || raceEnabled {
		n = 2_000_000
	}
	t.Logf("N = %d", n)
	cols, err := Random(context.Background(), n, seeded(7))
	if err != nil {
		t.Fatal(err)
	}
	if len(cols) != n {
		t.Fatalf("Random(%d) has %d rows", n, len(cols))
	}
	if fault := solutionFaultLarge(n, func(r int) int { return int(cols[r]) }); fault != "" {
		t.Fatalf("Random(%d) is not a solution: %s", n, fault)
	}
}

func TestRandomReproducible(t *testing.T) {
	for _, n := range []int{1, 4, 8, 50, 1000} {
		a, err1 := Random(context.Background(), n, seeded(42))
		b, err2 := Random(context.Background(), n, seeded(42))
		if err1 != nil || err2 != nil {
			t.Fatalf("Random(%d): %v, %v", n, err1, err2)
		}
		if !slices.Equal(a, b) {
			t.Errorf("Random(%d) with seed 42 twice: %v and %v, want the same", n, a, b)
		}
	}
	// Different seeds give different solutions of a large board (two equal ones out of
	// the astronomically many would mean the seed is ignored).
	a, _ := Random(context.Background(), 1000, seeded(1))
	b, _ := Random(context.Background(), 1000, seeded(2))
	if slices.Equal(a, b) {
		t.Errorf("Random(1000) with seeds 1 and 2 gave the same solution")
	}
	// On the 8×8 board, many seeds reach many of the 92 solutions.
	seen := make(map[string]bool)
	for seed := range uint64(400) {
		p, err := Random(context.Background(), 8, seeded(seed))
		if err != nil {
			t.Fatal(err)
		}
		seen[p.Format(Code)] = true
	}
	if len(seen) < 60 {
		t.Errorf("Random(8) over 400 seeds gave %d distinct solutions, want most of the 92", len(seen))
	}
	if p, err := Random(context.Background(), 10, nil); err != nil || solutionFault(10, func(r int) int { return int(p[r]) }) != "" {
		t.Errorf("Random(10, nil) = %v, %v, want a solution", p, err)
	}
}

func TestRandomBadN(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		noSoln bool
	}{
		{"zero", 0, false},
		{"negative", -1, false},
		{"too large", MaxRandomN + 1, false},
		{"two", 2, true},
		{"three", 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Random(context.Background(), tt.n, seeded(1))
			if err == nil || p != nil {
				t.Fatalf("Random(%d) = %v, %v, want an error", tt.n, p, err)
			}
			if errors.Is(err, ErrNoSolution) != tt.noSoln {
				t.Errorf("Random(%d) error %q: errors.Is(ErrNoSolution) = %v, want %v", tt.n, err, !tt.noSoln, tt.noSoln)
			}
		})
	}
}

func TestRandomCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cols, err := Random(ctx, 1_000_000, seeded(1))
	if !errors.Is(err, context.Canceled) || cols != nil {
		t.Errorf("Random(cancelled) = %d columns, %v, want context.Canceled", len(cols), err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	time.Sleep(2 * time.Millisecond)
	if _, err := Random(ctx, 1_000_000, seeded(1)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Random(past deadline) error = %v, want context.DeadlineExceeded", err)
	}
}

func ExampleRandom() {
	rng := rand.New(rand.NewPCG(1, 2)) // a fixed seed gives the same solution every run
	p, err := Random(context.Background(), 1000, rng)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(p), p.Check().Solved)
	// Output:
	// 1000 true
}

var sinkCols []int32

func BenchmarkRandom(b *testing.B) {
	for _, n := range []int{1000, 100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			seed := uint64(0)
			for b.Loop() {
				seed++
				var err error
				if sinkCols, err = Random(context.Background(), n, seeded(seed)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
