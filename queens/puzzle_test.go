package queens_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// completions is the independent counter: row by row from the top, a given row keeps its
// queen (checked like any other), an empty row tries every column, each tested pair by pair
// against the rows above. It stops counting at limit.
func completions(given []int, limit int) int {
	n := len(given)
	p := make([]int, 0, n)
	count := 0
	var rec func()
	rec = func() {
		if count >= limit {
			return
		}
		r := len(p)
		if r == n {
			count++
			return
		}
		try := func(c int) {
			for q, qc := range p {
				if qc == c || qc-c == r-q || c-qc == r-q {
					return
				}
			}
			p = append(p, c)
			rec()
			p = p[:r]
		}
		if given[r] >= 0 {
			try(given[r])
			return
		}
		for c := 0; c < n; c++ {
			try(c)
		}
	}
	rec()
	return count
}

func TestNewPuzzle(t *testing.T) {
	ctx := context.Background()
	for n := queens.MinPuzzleN; n <= queens.MaxPuzzleN; n++ {
		if n > 14 && testing.Short() {
			break
		}
		var empties [3]int
		for _, level := range []queens.Level{queens.Easy, queens.Medium, queens.Hard} {
			name := fmt.Sprintf("%d/%v", n, level)
			p, err := queens.NewPuzzle(ctx, n, level, 7)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(p.Given) != n || !p.Solution.IsSolution() || len(p.Solution) != n {
				t.Fatalf("%s: bad puzzle %+v", name, p)
			}
			for r, c := range p.Given {
				if c >= 0 && c != p.Solution[r] {
					t.Fatalf("%s: given queen on row %d not in the solution", name, r)
				}
			}
			if k := completions(ints(p.Given), 2); k != 1 {
				t.Errorf("%s: %v has %d completions (counted to 2), want exactly 1", name, p.Given, k)
			}
			if p.Empty() < 2 {
				t.Errorf("%s: only %d rows to fill", name, p.Empty())
			}
			empties[level] = p.Empty()
			again, _ := queens.NewPuzzle(ctx, n, level, 7)
			if !slices.Equal(again.Given, p.Given) || again.Effort != p.Effort {
				t.Errorf("%s: seed 7 gave %v then %v", name, p.Given, again.Given)
			}
		}
		if !(empties[queens.Easy] <= empties[queens.Medium] && empties[queens.Medium] <= empties[queens.Hard]) {
			t.Errorf("%d: rows to fill easy %d, medium %d, hard %d: not growing", n, empties[0], empties[1], empties[2])
		}
	}
}

func TestPuzzleSeeds(t *testing.T) {
	ctx := context.Background()
	seen := map[string]bool{}
	for seed := range uint64(6) {
		p, err := queens.NewPuzzle(ctx, 10, queens.Hard, seed)
		if err != nil {
			t.Fatal(err)
		}
		seen[fmt.Sprint(p.Given)] = true
	}
	if len(seen) < 5 {
		t.Errorf("6 seeds gave only %d different puzzles", len(seen))
	}
	for _, bad := range []int{5, 21} {
		if _, err := queens.NewPuzzle(ctx, bad, queens.Easy, 1); err == nil {
			t.Errorf("NewPuzzle(%d): no error", bad)
		}
	}
	if _, err := queens.ParseLevel("extreme"); err == nil {
		t.Error("ParseLevel(extreme): no error")
	}
}

func TestCountCompletions(t *testing.T) {
	ctx := context.Background()
	for n := 4; n <= 9; n++ {
		empty := make([]int, n)
		for i := range empty {
			empty[i] = -1
		}
		k, _, err := queens.CountCompletions(ctx, placement(empty), 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := loadKnown(t)[n].total.Int64(); int64(k) != want {
			t.Errorf("CountCompletions(empty %d) = %d, want %d", n, k, want)
		}
		// One queen in the first row's middle: compare with the independent counter.
		empty[0] = n / 2
		k, _, _ = queens.CountCompletions(ctx, placement(empty), 0)
		if want := completions(empty, 1<<30); k != want {
			t.Errorf("CountCompletions(%v) = %d, independent count %d", empty, k, want)
		}
	}
	if k, _, _ := queens.CountCompletions(ctx, queens.Placement{0, 1, -1, -1}, 0); k != 0 {
		t.Errorf("attacking queens: %d completions", k)
	}
}

func ExampleNewPuzzle() {
	p, err := queens.NewPuzzle(context.Background(), 8, queens.Easy, 1)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Given, "→", p.Solution)
	k, _, _ := queens.CountCompletions(context.Background(), p.Given, 0)
	fmt.Println(k, "completion")
	// Output:
	// 5741.8.. → 57413862
	// 1 completion
}

// TestPuzzleManySeeds checks uniqueness with the independent counter for 20 seeds of every
// size and level; CHESSPUZZLES_LONG=1 runs it.
func TestPuzzleManySeeds(t *testing.T) {
	if v := os.Getenv("CHESSPUZZLES_LONG"); v != "1" && v != "all" {
		t.Skip("set CHESSPUZZLES_LONG=1 to check 900 puzzles")
	}
	ctx := context.Background()
	for n := queens.MinPuzzleN; n <= queens.MaxPuzzleN; n++ {
		for level := queens.Easy; level <= queens.Hard; level++ {
			for seed := range uint64(20) {
				p, err := queens.NewPuzzle(ctx, n, level, seed)
				if err != nil {
					t.Fatal(err)
				}
				if k := completions(ints(p.Given), 2); k != 1 {
					t.Errorf("n=%d %v seed %d: %v has %d completions", n, level, seed, p.Given, k)
				}
			}
		}
	}
}
