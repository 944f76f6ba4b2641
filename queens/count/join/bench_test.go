package join

import (
	"context"
	"strconv"
	"testing"
)

var benchSink uint64

// BenchmarkCountJoin times the whole join count of n on one goroutine (table built once
// per process and shared, so it is not in the loop after the first run).
func BenchmarkCountJoin(b *testing.B) {
	for _, n := range []int{12, 14, 16} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				c, err := CountJoin(context.Background(), n)
				if err != nil {
					b.Fatal(err)
				}
				benchSink += c.Total.Uint64()
			}
		})
	}
}

// BenchmarkCountJoinOdd times N = 15 and 17, the odd sizes (sub-problems with pre-placed
// middle queens).
func BenchmarkCountJoinOdd(b *testing.B) {
	for _, n := range []int{15, 17} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				c, err := CountJoin(context.Background(), n)
				if err != nil {
					b.Fatal(err)
				}
				benchSink += c.Total.Uint64()
			}
		})
	}
}
