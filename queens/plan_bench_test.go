package queens

import "testing"

var sinkResult TaskResult

// BenchmarkPlan14 runs every task of the n = 14 plan once per iteration, single goroutine.
func BenchmarkPlan14(b *testing.B) {
	p, err := NewPlan(14)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, t := range p.Tasks {
			sinkResult = t.Count()
		}
	}
}
