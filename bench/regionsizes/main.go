// Command regionsizes prints the region-size statistics of generated region-queens
// puzzles, per N and level, over seeds 1…S: the share of puzzles with a 1-cell region, the
// mean number of regions of at most 3 cells a puzzle, the share of puzzles with any such
// region, the smallest and the mean region size, the largest region, and the CPU seconds
// that generation took in all. bench/regions.sh -z runs it; its output is a table of
// bench/README.md, beside the published game's levels' figures.
//
// Then the shape table of issue 45 over all the puzzles, each line with its target, the
// published game's figure and ours: the largest region's share of the board (mean), the
// share of puzzles whose largest region holds at least 40 % of the board, how far regions
// wind (the longest shortest path inside one region, in steps between cells, of a puzzle's
// regions, ÷ N; mean), the regions' sizes' coefficient of variation (standard deviation ÷
// mean, N; mean), the share of medium and of hard puzzles with a region of at most 3 cells,
// and the median CPU time to make one puzzle at N = 8–10 (the issue's target; measured
// only when -from and -to take in N = 8–10).
//
// The published column is computed from the game's levels when -published DIR names a
// directory of them (one letter grid a *.txt file, as scripts/gamelevels writes; not in this
// repository): every level counts, graded by regions.Grade for the medium and hard lines (a
// level that needs guessing counts in neither). Without -published it cites the figures
// issue 45 gives for the 608 levels.
//
// Usage:
//
//	go run ./bench/regionsizes [-s SEEDS] [-from 7] [-to 11] [-levels easy,medium,hard] [-published DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/cputime"
	"github.com/chesspuzzles/chesspuzzles/queens/regions"
)

func main() {
	seeds := flag.Int("s", 100, "seeds 1…S")
	from := flag.Int("from", 7, "smallest N")
	to := flag.Int("to", 11, "largest N")
	levels := flag.String("levels", "easy,medium,hard", "levels, comma-separated")
	published := flag.String("published", "", "directory of the game's levels (*.txt letter grids) to compute the published column from")
	flag.Parse()
	var game *shapes
	if *published != "" {
		var err error
		if game, err = publishedShapes(*published); err != nil {
			fmt.Fprintln(os.Stderr, "regionsizes:", err)
			os.Exit(1)
		}
	}
	var ours shapes
	var gen810 []time.Duration // CPU time of each puzzle made at N = 8–10
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
			t0 := cputime.Process()
			for s := 1; s <= *seeds; s++ {
				t1 := cputime.Process()
				p, err := regions.Generate(context.Background(), n, uint64(s), level)
				if err != nil {
					fmt.Fprintln(os.Stderr, "regionsizes:", err)
					os.Exit(1)
				}
				if n >= 8 && n <= 10 {
					gen810 = append(gen810, cputime.Process()-t1)
				}
				rows := p.Rows()
				size := sizes(rows)
				ours.add(rows, size, level)
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
				100*float64(one)/f, float64(small)/f, 100*float64(anySmall)/f, minSize, maxSize, (cputime.Process() - t0).Seconds())
		}
	}
	pub, pubName := issueFigures, "published (issue 45)"
	if game != nil {
		pub, pubName = game.figures(), fmt.Sprintf("published (%d)", game.all.n)
	}
	ourFigs := ours.figures()
	fmt.Printf("\n%-58s %8s %22s %8s\n", "shape (issue 45)", "target", pubName, "ours")
	for i, l := range figureLines {
		fmt.Printf("%-58s %8s %22s %8s\n", l.name, l.target, l.format(pub[i]), l.format(ourFigs[i]))
	}
	if len(gen810) > 0 {
		slices.Sort(gen810)
		fmt.Printf("%-58s %8s %22s %8.3f\n", "CPU-s to make one puzzle at N = 8-10 (median)", "<= 0.1", "", gen810[len(gen810)/2].Seconds())
	}
	if game != nil && game.stuck > 0 {
		fmt.Printf("\n%d published levels need guessing (counted in neither the medium nor the hard line)\n", game.stuck)
	}
}

// figureLine is a line of issue 45's table: its name, its target, and whether its figure
// is a share printed as a percentage.
type figureLine struct {
	name, target string
	percent      bool
}

// figureLines are the lines of issue 45's table.
var figureLines = []figureLine{
	{"largest region's share of the board (mean)", ">= 0.30", false},
	{"puzzles whose largest region holds >= 40 % of the board", ">= 15 %", true},
	{"winding: longest in-region path / N (mean)", ">= 1.4", false},
	{"region sizes' coefficient of variation (mean)", "", false},
	{"medium puzzles with a region of <= 3 cells", ">= 30 %", true},
	{"hard puzzles with a region of <= 3 cells", "", true},
}

func (l figureLine) format(v float64) string {
	if l.percent {
		return fmt.Sprintf("%.0f %%", 100*v)
	}
	return fmt.Sprintf("%.2f", v)
}

// issueFigures are the published levels' figures as issue 45 gives them, in figureLines' order.
var issueFigures = []float64{0.36, 0.30, 1.75, 0.87, 0.63, 0.48}

// shapes sums issue 45's figures over all puzzles and over the medium and the hard ones.
type shapes struct {
	all, medium, hard shape
	stuck             int // levels Grade could not rate (published levels only)
}

func (s *shapes) add(rows [][]int, size []int, level regions.Level) {
	s.all.add(rows, size)
	switch level {
	case regions.Medium:
		s.medium.add(rows, size)
	case regions.Hard:
		s.hard.add(rows, size)
	}
}

// figures returns the figures in figureLines' order.
func (s *shapes) figures() []float64 {
	a := &s.all
	return []float64{a.largest / a.count(), a.big / a.count(), a.winding / a.count(), a.cv / a.count(),
		s.medium.small / s.medium.count(), s.hard.small / s.hard.count()}
}

// publishedShapes reads every *.txt level in dir and sums its figures, graded by
// regions.Grade. It takes about a millisecond a level.
func publishedShapes(dir string) (*shapes, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no *.txt levels in %s", dir)
	}
	var s shapes
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		p, err := regions.Parse(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		rows := p.Rows()
		level, err := regions.Grade(p)
		if err != nil {
			s.stuck++
			s.all.add(rows, sizes(rows))
			continue
		}
		s.add(rows, sizes(rows), level)
	}
	return &s, nil
}

// sizes returns the number of cells of each region of rows.
func sizes(rows [][]int) []int {
	size := make([]int, len(rows))
	for _, row := range rows {
		for _, k := range row {
			size[k]++
		}
	}
	return size
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
