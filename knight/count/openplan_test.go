package count

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// TestOpenPlanClasses checks the plans' classes of end pairs against counts that do not
// depend on the sweep: 8×8 has Chernov's 136 classes of its 32·32 pairs of a light and a
// dark square, and on every board the weights add up to two directions times the pairs an
// open tour can end on.
func TestOpenPlanClasses(t *testing.T) {
	tests := []struct {
		name        string
		rows, cols  int
		tasks       int // -1: not known independently
		weightTotal int64
	}{
		{"8x8", 8, 8, 136, 2 * 32 * 32},
		{"7x7", 7, 7, -1, 2 * 25 * 24 / 2},
		{"6x6", 6, 6, -1, 2 * 18 * 18},
		{"6x8", 6, 8, -1, 2 * 24 * 24},
		{"5x5", 5, 5, -1, 2 * 13 * 12 / 2},
		{"1x2", 1, 2, 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewOpenPlan(tt.rows, tt.cols)
			if err != nil {
				t.Fatal(err)
			}
			if tt.tasks >= 0 && len(p.Tasks) != tt.tasks {
				t.Errorf("NewOpenPlan(%d, %d) has %d tasks, want %d", tt.rows, tt.cols, len(p.Tasks), tt.tasks)
			}
			var w int64
			for i, task := range p.Tasks {
				w += task.Weight
				if task.ID != i || task.Start == task.End {
					t.Errorf("task %d: %+v", i, task)
				}
			}
			if w != tt.weightTotal {
				t.Errorf("NewOpenPlan(%d, %d): weights add up to %d, want %d", tt.rows, tt.cols, w, tt.weightTotal)
			}
		})
	}
	for _, b := range [][2]int{{1, 1}, {9, 9}, {0, 5}} {
		if _, err := NewOpenPlan(b[0], b[1]); err == nil {
			t.Errorf("NewOpenPlan(%d, %d): no error", b[0], b[1])
		}
	}
}

// planTotal counts every task of the plan of a rows×cols board and returns the total.
func planTotal(t *testing.T, rows, cols int) *big.Int {
	t.Helper()
	p, err := NewOpenPlan(rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	return tasksTotal(t, p)
}

// tasksTotal counts every task of p and returns the total by p.Total.
func tasksTotal(t *testing.T, p *OpenPlan) *big.Int {
	t.Helper()
	rows, cols := p.Rows, p.Cols
	var rs []OpenResult
	for _, task := range p.Tasks {
		r, err := CountOpenTask(context.Background(), rows, cols, task, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	total, err := p.Total(rs)
	if err != nil {
		t.Fatal(err)
	}
	return total
}

// TestOpenPlanKnown sums the plans of small boards against the published counts
// (testdata/known-values-open.txt, known-values.txt), and of boards with no published
// count copied here against the whole sweep. With CHESSPUZZLES_LONG=1 it takes the boards
// of up to 40 squares too (5×7, 4×9, 5×8, 6×6: 15 CPU-s), with CHESSPUZZLES_LONG=all the
// open boards of known-values-long.txt (6×8, 5×10 and 7×7, the plan of 7×7 about 20
// CPU-minutes: bench/log/2026-11-27.md, "Issue 35 item 3").
func TestOpenPlanKnown(t *testing.T) {
	known := append(readKnownCounts(t, "testdata/known-values-open.txt"), readKnownCounts(t, "testdata/known-values.txt")...)
	if os.Getenv("CHESSPUZZLES_LONG") == "all" {
		known = append(known, readKnownCounts(t, "testdata/known-values-long.txt")...)
	}
	for _, k := range known {
		if k.opts.Closed || k.opts.Start != nil || k.size.Rows*k.size.Cols < 2 {
			continue
		}
		if n := k.size.Rows * k.size.Cols; n > 30 && !longTests() || n > 40 && os.Getenv("CHESSPUZZLES_LONG") != "all" {
			continue
		}
		t.Run(k.line, func(t *testing.T) {
			if got := planTotal(t, k.size.Rows, k.size.Cols); got.Cmp(big.NewInt(k.want)) != 0 {
				t.Errorf("plan of %s: %v directed open tours, want %d", k.line, got, k.want)
			}
		})
	}
	for _, b := range [][2]int{{3, 4}, {3, 7}, {2, 5}, {7, 3}} {
		t.Run(fmt.Sprintf("%dx%d", b[0], b[1]), func(t *testing.T) {
			want, err := Tours(context.Background(), b[0], b[1], Options{Method: MethodDP})
			if err != nil {
				t.Fatal(err)
			}
			if got := planTotal(t, b[0], b[1]); got.Cmp(want) != 0 {
				t.Errorf("plan of %d×%d: %v directed open tours, the whole sweep %v", b[0], b[1], got, want)
			}
		})
	}
}

// TestOpenPlanTotalRefuses gives Total incomplete, doubled and impossible results.
func TestOpenPlanTotalRefuses(t *testing.T) {
	p, err := NewOpenPlan(4, 5)
	if err != nil {
		t.Fatal(err)
	}
	var rs []OpenResult
	for _, task := range p.Tasks {
		r, err := CountOpenTask(context.Background(), 4, 5, task, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	again, err := CountOpenTask(context.Background(), 4, 5, p.Tasks[3], 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[3]; again.Tours.Cmp(r.Tours) != 0 || again.States != r.States || again.Peak != r.Peak {
		t.Errorf("task 3 counted twice: %+v, then %+v", r, again)
	}
	if _, err := p.Total(append(rs, again)); err != nil {
		t.Errorf("Total with a task given twice, the same: %v", err)
	}
	changed := rs[3]
	changed.Tours = new(big.Int).Add(changed.Tours, big.NewInt(1))
	tests := []struct {
		name    string
		results []OpenResult
		want    string
	}{
		{"missing", rs[1:], "without a result"},
		{"two results", append(rs[:len(rs):len(rs)], changed), "two different results"},
		{"no such task", append(rs[:len(rs):len(rs)], OpenResult{ID: len(p.Tasks), Tours: big.NewInt(1)}), "has tasks 0 to"},
		{"negative", append(rs[:len(rs):len(rs)], OpenResult{ID: 0, Tours: big.NewInt(-1)}), "not negative"},
		{"peak past the sum", append(rs[:len(rs):len(rs)], OpenResult{ID: 0, Tours: big.NewInt(1), States: 3, Peak: 4}), "impossible"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Total(tt.results)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Total: error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestOpenTaskCornerClosed counts the tours from a corner to one of its two neighbours: a
// closed tour passes both of the corner's edges, so cutting the edge to that neighbour
// makes it one such open tour, and back; their number is the board's closed tours
// (testdata/known-values.txt). 5×8 and 6×8 (55,488,142) run with CHESSPUZZLES_LONG.
func TestOpenTaskCornerClosed(t *testing.T) {
	boards := []struct {
		rows, cols int
		closed     int64
	}{{5, 6, 8}, {6, 5, 8}, {6, 6, 9862}}
	if longTests() {
		boards = append(boards, []struct {
			rows, cols int
			closed     int64
		}{{5, 8, 44202}, {6, 8, 55488142}}...)
	}
	for _, b := range boards {
		sz := board.Size{Rows: b.rows, Cols: b.cols}
		// the corner last in the sweep's order (the first one costs ten times more)
		for _, corner := range []board.Square{{Row: b.rows - 1, Col: b.cols - 1}} {
			for _, m := range [][2]int{{1, 2}, {2, 1}} {
				nb := board.Square{Row: corner.Row + m[0], Col: corner.Col + m[1]}
				if corner.Row > 0 {
					nb = board.Square{Row: corner.Row - m[0], Col: corner.Col - m[1]}
				}
				r, err := CountOpenTask(context.Background(), b.rows, b.cols, OpenTask{Start: corner, End: nb}, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				if r.Tours.Cmp(big.NewInt(b.closed)) != 0 {
					t.Errorf("%s from %s to %s: %v tours, want the %d closed tours", sz, sz.Name(corner), sz.Name(nb), r.Tours, b.closed)
				}
			}
		}
	}
}
