package knight

import (
	"context"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

var sinkTour Tour

func benchFind(b *testing.B, rows, cols int, start board.Square, opts Options) {
	b.ReportAllocs()
	for b.Loop() {
		t, err := Find(context.Background(), board.Size{Rows: rows, Cols: cols}, start, opts)
		if err != nil {
			b.Fatal(err)
		}
		sinkTour = t
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows*cols), "ns/square")
}

// BenchmarkFind1000Closed is the headline figure: a closed 1000×1000 tour from the centre.
func BenchmarkFind1000Closed(b *testing.B) {
	benchFind(b, 1000, 1000, board.Square{Row: 500, Col: 500}, Options{Closed: true})
}

// BenchmarkFind1000Open is an open 1000×1000 tour (a closed one rotated and cut).
func BenchmarkFind1000Open(b *testing.B) {
	benchFind(b, 1000, 1000, board.Square{Row: 3, Col: 7}, Options{})
}

// BenchmarkFind999x1001 is an open tour of an odd×odd rectangle, built from blocks directly.
func BenchmarkFind999x1001(b *testing.B) {
	benchFind(b, 999, 1001, board.Square{Row: 500, Col: 500}, Options{})
}

var sinkPath []int32

// BenchmarkWarnsdorff1000 is the baseline: Warnsdorff's rule with look-ahead on 1000×1000
// from a corner, the classic linear-time greedy walk (it gets stuck 24 squares short there,
// which does not change its cost).
func BenchmarkWarnsdorff1000(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkPath, _ = warnsdorff(context.Background(), 1000, 1000, 0)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/square")
}

// BenchmarkFind8 is an 8×8 tour from e4 (closed tour found once and rotated).
func BenchmarkFind8(b *testing.B) {
	benchFind(b, 8, 8, board.Square{Row: 4, Col: 4}, Options{})
}

// BenchmarkFind3xLongOdd is an open tour of 3×333333 (10^6 squares, the same as the
// Warnsdorff baseline) from the middle: lanes out and back (build_lanes.go).
func BenchmarkFind3xLongOdd(b *testing.B) {
	benchFind(b, 3, 333333, board.Square{Row: 0, Col: 166666}, Options{})
}

// BenchmarkFind3xLongClosed is a closed tour of 3×333334 from the middle: a cycle of lanes.
func BenchmarkFind3xLongClosed(b *testing.B) {
	benchFind(b, 3, 333334, board.Square{Row: 1, Col: 166667}, Options{Closed: true})
}

// BenchmarkFind4xLong is an open tour of 4×250000 from the middle of an outer row: two
// halves of strands (build_four.go).
func BenchmarkFind4xLong(b *testing.B) {
	benchFind(b, 4, 250000, board.Square{Row: 3, Col: 125000}, Options{})
}
