package join

import (
	"context"
	"math/bits"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestRowTableMatchesWhole checks that every row of a partial table holds, cell by cell
// and class by class, the pieces of the whole table in the same order.
func TestRowTableMatchesWhole(t *testing.T) {
	for _, h := range []int{1, 4, 8} {
		whole, err := buildQuarterTable(h)
		if err != nil {
			t.Fatal(err)
		}
		part, err := newRowTable(h, 0)
		if err != nil {
			t.Fatal(err)
		}
		var total int
		for rows := range uint32(1) << h {
			ms := []uint32{rows}
			if err := part.acquire(context.Background(), ms); err != nil {
				t.Fatal(err)
			}
			for cols := range uint32(1) << h {
				if whole.emptyCell(rows, cols) != part.emptyCell(rows, cols) {
					t.Fatalf("h=%d cell %b,%b: empty %v in the whole table, %v in the partial", h, rows, cols, whole.emptyCell(rows, cols), part.emptyCell(rows, cols))
				}
				for class := range 4 {
					w, p := whole.run(rows, cols, class, class+1), part.run(rows, cols, class, class+1)
					if !slices.Equal(w, p) {
						t.Fatalf("h=%d cell %b,%b class %d: partial %x, whole %x", h, rows, cols, class, p, w)
					}
					total += len(p)
				}
			}
			part.release(ms)
		}
		if uint64(total) != quarterPieceCount(h) {
			t.Errorf("h=%d: %d pieces in the rows, want %d", h, total, quarterPieceCount(h))
		}
		// Budget 0: every row not held is dropped as soon as another is built.
		if part.cache.used > 8*maxRowBytes(h) {
			t.Errorf("h=%d: %d bytes of rows held after all were released, budget 0", h, part.cache.used)
		}
	}
}

// TestRowTableCounts checks that join tasks counted on a partial table, with a budget of
// nothing (every row built anew for each row set) and of a few rows, give the very
// results (sums and counters) of the whole table, for N = 12, 13 (every task) and 16 (a
// spread of six); with CHESSPUZZLES_LONG for N = 12–18, every task to 16 (two minutes
// under -race on a loaded machine), with two goroutines sharing the partial table at once.
func TestRowTableCounts(t *testing.T) {
	long := os.Getenv("CHESSPUZZLES_LONG") != ""
	ns := []int{12, 13, 16}
	if long {
		ns = []int{12, 13, 14, 15, 16, 17, 18}
	}
	for _, n := range ns {
		p, err := newJoinPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := buildQuarterTable(n / 2)
		if err != nil {
			t.Fatal(err)
		}
		step := 1
		if n > 16 || n > 13 && !long {
			step = len(p.allTasks()) / 6
		}
		for _, budget := range []uint64{0, 6 * maxRowBytes(n/2)} {
			part, err := newRowTable(n/2, budget)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			for g := range 2 {
				wg.Go(func() {
					for i := g * step; i < len(p.allTasks())-1; i += 2 * step {
						task := p.allTasks()[i]
						want, err1 := task.countJoinTable(context.Background(), whole)
						got, err2 := task.countJoinTable(context.Background(), part)
						if err1 != nil || err2 != nil || got != want {
							t.Errorf("N=%d task %d, budget %d: partial table %+v (%v), whole %+v (%v)", n, i, budget, got, err2, want, err1)
							return
						}
					}
				})
			}
			wg.Wait()
			c := part.cache
			if c.used > max(budget, 8*maxRowBytes(n/2)) {
				t.Errorf("N=%d: %d bytes of rows held at the end, budget %d", n, c.used, budget)
			}
			if budget > 0 && c.built > uint64(4*p.Len()*step+(1<<(n/2))) {
				t.Logf("N=%d: %d rows built", n, c.built)
			}
		}
	}
}

// TestJoinTableByLimit checks that tableFor gives the whole table where the memory limit
// holds it and a partial one where it does not, and that the count is exact either way.
func TestJoinTableByLimit(t *testing.T) {
	tab, err := tableFor(context.Background(), 16)
	if err != nil || tab.cache != nil {
		t.Fatalf("tableFor(16) with the default limit: partial %v, %v; want the whole table", tab != nil && tab.cache != nil, err)
	}
	// Two workers in 2 GiB to N = 25; from N = 26 (stores of up to 2²³ half-boards a
	// worker, about 1 GiB with their tables) one.
	for _, c := range []struct{ n, workers int }{{24, 2}, {25, 2}, {26, 1}, {27, 1}, {28, 1}, {29, 1}} {
		need, fits := (&plan{n: c.n}).Memory(c.workers, 2<<30)
		if !fits || need > 2<<30 {
			t.Errorf("N=%d: Memory(%d workers, 2 GiB) = %d, %v; want at most 2 GiB", c.n, c.workers, need, fits)
		}
	}
}

// TestQuarterPiecesByQueens recounts the known pieces by number of queens for h = 8, 9
// from the table, and checks that each known row of counts sums to P(h) and ends with
// Q(h), the solutions of the h×h board (OEIS A000170, through Known).
func TestQuarterPiecesByQueens(t *testing.T) {
	for _, h := range []int{8, 9} {
		tab, err := buildQuarterTable(h)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]uint64, h+1)
		for rows := range uint32(1) << h {
			k := bits.OnesCount32(rows)
			for cols := range uint32(1) << h {
				got[k] += uint64(len(tab.run(rows, cols, 0, 4)))
			}
		}
		if want := knownPiecesByQueens[h]; !slices.Equal(got, want) {
			t.Errorf("h=%d: pieces by queens %v, known %v", h, got, want)
		}
	}
	for h, v := range knownPiecesByQueens {
		var sum uint64
		for _, x := range v {
			sum += x
		}
		q, _ := count.Known(h)
		if sum != quarterPieceCount(h) || v[h] != q.Total.Uint64() || len(v) != h+1 {
			t.Errorf("h=%d: pieces by queens sum to %d (P(h) %d), %d of h queens (Q(h) %v)", h, sum, quarterPieceCount(h), v[h], q.Total)
		}
	}
}

// TestJoinPlanTasks checks the cut of plan version 102 at N = 24 (25 and 26 with
// CHESSPUZZLES_LONG; 27 holds 8·10⁶ tasks: seconds and gigabytes, left out): by the cost model no row-set task is more than three
// times the mean nor over a core-hour (Plan.CoreSeconds shared by Cost), and the row sets
// of the tasks add up to every counted row set once.
func TestJoinPlanTasks(t *testing.T) {
	ns := []int{24}
	if os.Getenv("CHESSPUZZLES_LONG") != "" {
		ns = []int{24, 25, 26} // 25 and 26: 10⁷ and 10⁸ row sets walked twice
	}
	for _, n := range ns {
		p, err := newJoinPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		tasks := p.allTasks()[:len(p.allTasks())-1]
		var total, top uint64
		rowSets := 0
		for _, task := range tasks {
			total += task.Cost
			top = max(top, task.Cost)
			rowSets += task.Run.RowSets
		}
		mean := float64(total) / float64(len(tasks))
		secs := p.CoreSeconds() * float64(top) / float64(total)
		if float64(top) > 3*mean || secs > 3600 {
			t.Errorf("N=%d: %d tasks, largest %.2f× the mean, %.0f s by the model", n, len(tasks), float64(top)/mean, secs)
		}
		want := 0
		for sub := range subproblemCount(n) {
			j := newSubproblem(n, sub)
			for e := j.firstRowSet(); e != 0; e = j.nextRowSet(e) {
				if w, _ := j.rowSetWeight(e); w != 0 {
					want++
				}
			}
		}
		if rowSets != want {
			t.Errorf("N=%d: the tasks hold %d row sets, want %d", n, rowSets, want)
		}
	}
}
