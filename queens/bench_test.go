package queens_test

import (
	"context"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// Sinks keep the compiler from dropping the work of a benchmark.
var (
	sinkCounts    queens.Counts
	sinkInt       int
	sinkPlacement queens.Placement
)

func BenchmarkCount12(b *testing.B) {
	for b.Loop() {
		c, err := queens.Count(context.Background(), 12)
		if err != nil {
			b.Fatal(err)
		}
		sinkCounts = c
	}
	if sinkCounts.Total.Int64() != 14200 {
		b.Fatalf("Count(12).Total = %v, want 14200", sinkCounts.Total)
	}
}

func BenchmarkSolutions12(b *testing.B) {
	for b.Loop() {
		k := 0
		for p := range queens.Solutions(12) {
			k += p[0]
			sinkPlacement = p
		}
		sinkInt = k
	}
}

// BenchmarkFirstSolution28 finds the first solution of n = 28 in code order (a listing with
// a limit of one).
func BenchmarkFirstSolution28(b *testing.B) {
	for b.Loop() {
		for p := range queens.List(context.Background(), 28, queens.ListOptions{}) {
			sinkPlacement = p.Clone()
			break
		}
	}
	if !valid(sinkPlacement) {
		b.Fatalf("first solution of n = 28 = %v, not a solution", sinkPlacement)
	}
}
