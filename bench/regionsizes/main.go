// Command regionsizes prints the region-size statistics of generated region-queens
// puzzles, per N and level, over seeds 1…S: the share of puzzles with a 1-cell region, the
// mean number of regions of at most 3 cells a puzzle, the share of puzzles with any such
// region, the smallest and the mean region size, the largest region, and the CPU seconds
// that generation took in all. bench/regions.sh -z runs it; its output is a table of
// bench/README.md, beside the published game's levels' figures.
//
// Then the shape table of issue 45, over all the puzzles, beside the figures the issue gives
// for the game's 608 published levels (cited, not recomputed: the levels are not in this
// repository): the largest region's share of the board (mean), the share of puzzles whose
// largest region holds at least 40 % of the board, how far regions wind (the longest
// shortest path inside one region, in steps between cells, of a puzzle's regions, ÷ N;
// mean), the regions' sizes' coefficient of variation (standard deviation ÷ mean, N; mean)
// and the share of medium and of hard puzzles with a region of at most 3 cells.
//
// Usage:
//
//	go run ./bench/regionsizes [-s SEEDS] [-from 7] [-to 11] [-levels easy,medium,hard]
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/regions"
)

func main() {
	seeds := flag.Int("s", 100, "seeds 1…S")
	from := flag.Int("from", 7, "smallest N")
	to := flag.Int("to", 11, "largest N")
	levels := flag.String("levels", "easy,medium,hard", "levels, comma-separated")
	flag.Parse()
	var all, medium, hard shape
	fmt.Printf("%-3s %-7s %6s %9s %9s %6s %6s %6s %8s\n", "N", "level", "seeds", "one_cell", "small/p", "any_sm", "min", "max", "cpu_s")
	for n := *from; n <= *to; n++ {
		for _, name := range strings.Split(*levels, ",") {
			level, err := regions.ParseLevel(name)
			if err != nil {
				fmt.Fprintln(os.Stderr, "regionsizes:", err)
				os.Exit(2)
			}
			var one, small, anySmall, minSize, maxSize int
			minSize = n * n
			t0 := cpu()
			for s := 1; s <= *seeds; s++ {
				p, err := regions.Generate(context.Background(), n, uint64(s), level)
				if err != nil {
					fmt.Fprintln(os.Stderr, "regionsizes:", err)
					os.Exit(1)
				}
				rows := p.Rows()
				size := make([]int, n)
				for _, row := range rows {
					for _, k := range row {
						size[k]++
					}
				}
				all.add(rows, size)
				switch level {
				case regions.Medium:
					medium.add(rows, size)
				case regions.Hard:
					hard.add(rows, size)
				}
				hasOne, hasSmall := false, false
				for _, z := range size {
					hasOne = hasOne || z == 1
					if z <= 3 {
						small++
						hasSmall = true
					}
					minSize, maxSize = min(minSize, z), max(maxSize, z)
				}
				if hasOne {
					one++
				}
				if hasSmall {
					anySmall++
				}
			}
			f := float64(*seeds)
			fmt.Printf("%-3d %-7s %6d %8.0f%% %9.2f %5.0f%% %6d %6d %8.2f\n", n, name, *seeds,
				100*float64(one)/f, float64(small)/f, 100*float64(anySmall)/f, minSize, maxSize, (cpu() - t0).Seconds())
		}
	}
	fmt.Printf("\n%-58s %10s %8s\n", "shape (issue 45)", "published", "ours")
	fmt.Printf("%-58s %10.2f %8.2f\n", "largest region's share of the board (mean)", 0.36, all.largest/all.count())
	fmt.Printf("%-58s %9.0f%% %7.0f%%\n", "puzzles whose largest region holds >= 40 % of the board", 30.0, 100*all.big/all.count())
	fmt.Printf("%-58s %10.2f %8.2f\n", "winding: longest in-region path / N (mean)", 1.75, all.winding/all.count())
	fmt.Printf("%-58s %10.2f %8.2f\n", "region sizes' coefficient of variation (mean)", 0.87, all.cv/all.count())
	fmt.Printf("%-58s %9.0f%% %7.0f%%\n", "medium puzzles with a region of <= 3 cells", 63.0, 100*medium.small/medium.count())
	fmt.Printf("%-58s %9.0f%% %7.0f%%\n", "hard puzzles with a region of <= 3 cells", 48.0, 100*hard.small/hard.count())
}

// shape sums the figures of issue 45's table over puzzles.
type shape struct {
	n                                int
	largest, big, winding, cv, small float64
}

func (s *shape) count() float64 { return float64(max(1, s.n)) }

// add adds the puzzle of the regions rows, whose region k has size[k] cells.
func (s *shape) add(rows [][]int, size []int) {
	n := len(rows)
	s.n++
	most, small := 0, false
	for _, z := range size {
		most = max(most, z)
		small = small || z <= 3
	}
	share := float64(most) / float64(n*n)
	s.largest += share
	if share >= 0.4 {
		s.big++
	}
	if small {
		s.small++
	}
	mean, sq := float64(n*n)/float64(n), 0.0
	for _, z := range size {
		sq += (float64(z) - mean) * (float64(z) - mean)
	}
	s.cv += math.Sqrt(sq/float64(n)) / mean
	s.winding += float64(longestPath(rows)) / float64(n)
}

// longestPath returns the longest shortest path inside one region of rows, in steps between
// edge-adjacent cells: a breadth-first search from every cell, N⁴ steps at most.
func longestPath(rows [][]int) int {
	n := len(rows)
	dist := make([]int, n*n)
	queue := make([]int, 0, n*n)
	best := 0
	for start := range n * n {
		for i := range dist {
			dist[i] = -1
		}
		dist[start] = 0
		queue = append(queue[:0], start)
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			best = max(best, dist[i])
			r, c := i/n, i%n
			for _, d := range [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
				rr, cc := r+d[0], c+d[1]
				if rr < 0 || cc < 0 || rr >= n || cc >= n || rows[rr][cc] != rows[r][c] || dist[rr*n+cc] >= 0 {
					continue
				}
				dist[rr*n+cc] = dist[i] + 1
				queue = append(queue, rr*n+cc)
			}
		}
	}
	return best
}

// cpu returns the process's CPU time, user and system.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
