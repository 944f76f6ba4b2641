package count

import (
	"math/big"
	"os"
	"strings"
	"testing"
)

// splitTotal counts every task of the split plan of a rows×cols board at levels and
// returns the total by Total.
func splitTotal(t *testing.T, rows, cols int, levels []SplitLevel) *big.Int {
	t.Helper()
	p, err := NewSplitPlan(rows, cols, levels)
	if err != nil {
		t.Fatal(err)
	}
	return tasksTotal(t, p)
}

// TestSplitPlanKnown sums split plans against the published counts
// (testdata/known-values-open.txt: 4×n and 5×n to 5×6 in the default run, 5×7, 4×9, 5×8
// with CHESSPUZZLES_LONG), each at one cell a third of the way and at two, with a tiny
// number of parts; 6×6 (OEIS A165134, 4 CPU-s a part) with CHESSPUZZLES_LONG=1 and 7×7
// (about 30 CPU-minutes) with CHESSPUZZLES_LONG=all.
func TestSplitPlanKnown(t *testing.T) {
	for _, k := range readKnownCounts(t, "testdata/known-values-open.txt") {
		n := k.size.Rows * k.size.Cols
		if n > 30 && !longTests() {
			continue
		}
		for _, levels := range [][]SplitLevel{
			{{Cell: n / 3, Parts: 3, Far: 4}},
			{{Cell: n / 4, Parts: 2}, {Cell: n / 2, Parts: 2, Far: 3}},
		} {
			t.Run(k.line+"/"+splitName(levels), func(t *testing.T) {
				if got := splitTotal(t, k.size.Rows, k.size.Cols, levels); got.Cmp(big.NewInt(k.want)) != 0 {
					t.Errorf("split plan %s of %s: %v directed open tours, want %d", splitName(levels), k.line, got, k.want)
				}
			})
		}
	}
	var big []struct {
		rows, cols int
		levels     []SplitLevel
	}
	if longTests() {
		big = append(big, struct {
			rows, cols int
			levels     []SplitLevel
		}{6, 6, []SplitLevel{{Cell: 14, Parts: 2, Far: 4}}})
	}
	if os.Getenv("CHESSPUZZLES_LONG") == "all" {
		big = append(big, struct {
			rows, cols int
			levels     []SplitLevel
		}{7, 7, []SplitLevel{{Cell: 22, Parts: 4, Far: 4}}})
	}
	for _, b := range big {
		t.Run(splitName(b.levels), func(t *testing.T) {
			want, _ := PublishedOpen(b.rows, b.cols)
			if got := splitTotal(t, b.rows, b.cols, b.levels); got.Cmp(want) != 0 {
				t.Errorf("split plan %s of %d×%d: %v directed open tours, want %v", splitName(b.levels), b.rows, b.cols, got, want)
			}
		})
	}
}

// TestSplitPlanNames checks the plan's tasks and name, and the plans and levels refused.
func TestSplitPlanNames(t *testing.T) {
	levels := []SplitLevel{{Cell: 10, Parts: 3, Far: 2}, {Cell: 20, Parts: 2}}
	p, err := NewSplitPlan(5, 6, levels)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Name(), "5x6 open-split-c10k3f2-c20k2f0 v1"; got != want {
		t.Errorf("Name() = %q, want %q", got, want)
	}
	if len(p.Tasks) != 6 {
		t.Fatalf("%d tasks, want 6", len(p.Tasks))
	}
	if s := p.Tasks[3].Split; s[0].Part != 1 || s[1].Part != 1 || s[0].Cell != 10 || s[1].Parts != 2 {
		t.Errorf("task 3's parts %+v, want part 1 of 3 at cell 10, part 1 of 2 at cell 20", s)
	}
	for _, ls := range [][]SplitLevel{nil, {{Cell: 0, Parts: 2}}, {{Cell: 30, Parts: 2}}, {{Cell: 5, Parts: 0}}, {{Cell: 5, Parts: 2, Far: 12}}, {{Cell: 5, Parts: 1 << 11}, {Cell: 6, Parts: 1 << 11}}} {
		if _, err := NewSplitPlan(5, 6, ls); err == nil {
			t.Errorf("NewSplitPlan(5, 6, %+v): no error", ls)
		}
	}
	for _, s := range []string{"", "c10", "10k2f0", "c10k2f0-", "c10kxf0", "c10k2f0+c20k2f0"} {
		if _, err := ParseSplitLevels(s); err == nil || !strings.Contains(err.Error(), "cCELLkPARTSfFAR") {
			t.Errorf("ParseSplitLevels(%q): error %v", s, err)
		}
	}
}
