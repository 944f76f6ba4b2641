package frames

import (
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

var sinkResult count.Result

// BenchmarkPlan14 runs every task of the n = 14 plan once per iteration, single goroutine.
func BenchmarkPlan14(b *testing.B) {
	p, err := newPlan(14)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, t := range p.tasks {
			sinkResult = t.Count()
		}
	}
}
