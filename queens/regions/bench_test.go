package regions

import (
	"context"
	"fmt"
	"testing"
)

var sinkPuzzle *Puzzle
var sinkInt int

// BenchmarkGenerate makes puzzles of each size and level, one seed an iteration (seeds
// 1, 2, …), so that the mean over b.N iterations is over different puzzles. The median the
// targets speak of comes from bench/regions.sh, which times seeds one by one.
func BenchmarkGenerate(b *testing.B) {
	for _, n := range []int{8, 10, 15, 20} {
		for lv := Easy; lv <= Hard; lv++ {
			b.Run(fmt.Sprintf("n=%d/%s", n, lv), func(b *testing.B) {
				seed := uint64(0)
				for b.Loop() {
					seed++
					p, err := Generate(context.Background(), n, seed, lv)
					if err != nil {
						b.Fatal(err)
					}
					sinkPuzzle = p
				}
			})
		}
	}
}

// BenchmarkCount counts the solutions (up to 2) of generated puzzles: the cost of proving a
// puzzle unique, and of solving one.
func BenchmarkCount(b *testing.B) {
	for _, n := range []int{8, 15, 20} {
		var ps []*Puzzle
		for seed := range uint64(8) {
			p, err := Generate(context.Background(), n, seed, Hard)
			if err != nil {
				b.Fatal(err)
			}
			ps = append(ps, p)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				sinkInt = Count(ps[i%len(ps)], 2)
				i++
			}
		})
	}
}
