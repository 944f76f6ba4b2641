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
		c, err := queens.Count(context.Background(), 12, queens.CountOptions{})
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
			k += int(p[0])
			sinkPlacement = p
		}
		sinkInt = k
	}
}

// BenchmarkSolutions13 lists the 73,712 solutions of n = 13: the per-solution cost (the
// yield and a read of the placement) against the search's.
func BenchmarkSolutions13(b *testing.B) {
	for b.Loop() {
		k := 0
		for p := range queens.Solutions(13) {
			k += int(p[12])
			sinkPlacement = p
		}
		sinkInt = k
	}
	if sinkInt == 0 {
		b.Fatal("no solutions of n = 13")
	}
}

// BenchmarkFundamental13 lists the 9,233 fundamental solutions of n = 13, which tests every
// solution with IsCanonical.
func BenchmarkFundamental13(b *testing.B) {
	for b.Loop() {
		k := 0
		for range queens.Fundamental(13) {
			k++
		}
		sinkInt = k
	}
	if sinkInt != 9233 {
		b.Fatalf("Fundamental(13) yielded %d, want 9233", sinkInt)
	}
}

// BenchmarkSolve12 writes every solution of n = 12 in code notation, as the solve command
// does, with the class size of each: the per-solution path of a listing.
func BenchmarkSolve12(b *testing.B) {
	var buf []byte
	for b.Loop() {
		k := 0
		for p := range queens.Solutions(12) {
			buf = p.AppendFormat(buf[:0], queens.Code)
			k += len(buf) + queens.ClassSize(p)
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
	if !valid(ints(sinkPlacement)) {
		b.Fatalf("first solution of n = 28 = %v, not a solution", sinkPlacement)
	}
}
