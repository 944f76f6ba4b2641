package web

import (
	"net/http/httptest"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

var sinkCode int

// BenchmarkSolutionsPage times one page of 50 solutions: the first page of N = 8, and a
// page of N = 16 deep in its listing (after a cursor whose top queen is in column 9). With
// the cursor as a starting point both cost about the same; the ratio is what matters.
func BenchmarkSolutionsPage(b *testing.B) {
	h := New(Options{}).Handler()
	for _, bc := range []struct{ name, url string }{
		{"n=8/first", "/api/queens/solutions?n=8&limit=50"},
		{"n=16/deep", "/api/queens/solutions?n=16&limit=50&after=9,1,3,5,2,4,6,8,10,12,14,16,7,11,13,15"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest("GET", bc.url, nil))
				if rec.Code != 200 {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
				sinkCode = rec.Code
			}
		})
	}
}

// BenchmarkSolutionsSkip is the baseline the cursor avoids: reaching the same depth of N = 16
// by listing from the start and skipping every solution before the cursor.
func BenchmarkSolutionsSkip(b *testing.B) {
	cursor := queens.Placement{8, 0, 2, 4, 1, 3, 5, 7, 9, 11, 13, 15, 6, 10, 12, 14}
	for b.Loop() {
		skipped := 0
		for p := range queens.Solutions(16) {
			if p.Compare(cursor) > 0 {
				break
			}
			skipped++
		}
		sinkCode = skipped
	}
}
