package count

import (
	"context"
	"testing"
)

var sinkCount int64

func benchCount(b *testing.B, count func(context.Context, int, int, Options) (int64, error), rows, cols int, opts Options, want int64) {
	b.ReportAllocs()
	for b.Loop() {
		k, err := count(context.Background(), rows, cols, opts)
		if err != nil || k != want {
			b.Fatalf("count(%d×%d) = %d, %v; want %d", rows, cols, k, err, want)
		}
		sinkCount = k
	}
}

// BenchmarkCount6x6 is the headline figure: all 6,637,920 directed open tours of 6×6 by
// Tours, on one goroutine. Compare BenchmarkCount6x6Search, the baseline, in the same run
// (bench/kcount.sh prints the ratio).
func BenchmarkCount6x6(b *testing.B) {
	benchCount(b, Tours64, 6, 6, Options{}, 6637920)
}

// BenchmarkCount6x6Search is the baseline: plain backtracking (countSearch), the counter Tours
// used before, on one goroutine.
func BenchmarkCount6x6Search(b *testing.B) {
	benchCount(b, countSearch, 6, 6, Options{}, 6637920)
}

// BenchmarkCount6x6Closed counts the 9,862 closed tours of 6×6.
func BenchmarkCount6x6Closed(b *testing.B) {
	benchCount(b, Tours64, 6, 6, Options{Closed: true}, 9862)
}

// BenchmarkCount6x6ClosedSearch is the baseline for BenchmarkCount6x6Closed.
func BenchmarkCount6x6ClosedSearch(b *testing.B) {
	benchCount(b, countSearch, 6, 6, Options{Closed: true}, 9862)
}

// BenchmarkCount6x7Closed counts the 1,067,638 closed tours of 6×7.
func BenchmarkCount6x7Closed(b *testing.B) {
	benchCount(b, Tours64, 6, 7, Options{Closed: true}, 1067638)
}
