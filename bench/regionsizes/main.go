// Command regionsizes prints the region-size statistics of generated region-queens
// puzzles, per N and level, over seeds 1…S: the share of puzzles with a 1-cell region, the
// mean number of regions of at most 3 cells a puzzle, the share of puzzles with any such
// region, the smallest and the mean region size, the largest region, and the CPU seconds
// that generation took in all. bench/regions.sh -z runs it; its output is a table of
// bench/README.md, beside the published game's levels' figures.
//
// Usage:
//
//	go run ./bench/regionsizes [-s SEEDS] [-from 7] [-to 11] [-levels easy,medium,hard]
package main

import (
	"context"
	"flag"
	"fmt"
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
				size := make([]int, n)
				for _, row := range p.Rows() {
					for _, k := range row {
						size[k]++
					}
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
}

// cpu returns the process's CPU time, user and system.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
