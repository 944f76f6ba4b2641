package frontier

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"testing"
)

// TestSplitSums counts open tours part by part, at one cell and at two, by each kind of
// key, and checks that the parts sum to the whole sweep's count (the sweep is exact by
// linearity: every state of the split layer goes to one part) and that every part keeps
// fewer states than the whole at the split cell. The widest board, 5 rows, is 5×5 (a
// tenth of 5×6's cost: 13 counts of 5×6 took about 26 CPU-s with -race, 30 Nov), and 5×6
// with CHESSPUZZLES_LONG set.
func TestSplitSums(t *testing.T) {
	ctx := context.Background()
	wide := [2]int{5, 5}
	if os.Getenv("CHESSPUZZLES_LONG") != "" {
		wide = [2]int{5, 6}
	}
	boards := [][2]int{{4, 5}, {4, 6}, {6, 4}, {3, 8}, wide}
	for _, b := range boards {
		n, W := SweepCells(b[0], b[1])
		whole, err := Count(ctx, b[0], b[1], Options{Start: -1})
		if err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name   string
			levels []Split // Part unset
		}{
			{"whole state", []Split{{Cell: n / 3, Parts: 3}}},
			{"far 3", []Split{{Cell: n / 2, Parts: 4, Far: 3}}},
			{"far all", []Split{{Cell: n / 2, Parts: 2, Far: W}}},
			{"two levels", []Split{{Cell: n / 4, Parts: 2, Far: 2}, {Cell: n / 2, Parts: 3}}},
			{"first cell", []Split{{Cell: 1, Parts: 2}}},
			{"last cell", []Split{{Cell: n - 1, Parts: 5, Far: 1}}},
		}
		if b == wide {
			tests = tests[1:4] // 5×6 takes a tenth of a second a part (2 s with -race)
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%dx%d/%s", b[0], b[1], tt.name), func(t *testing.T) {
				parts := 1
				for _, l := range tt.levels {
					parts *= l.Parts
				}
				sum := new(big.Int)
				for id := range parts {
					sp := append([]Split(nil), tt.levels...)
					rest := id
					for i := len(sp) - 1; i >= 0; i-- {
						sp[i].Part = rest % sp[i].Parts
						rest /= sp[i].Parts
					}
					k, err := Count(ctx, b[0], b[1], Options{Start: -1, Splits: sp})
					if err != nil {
						t.Fatal(err)
					}
					sum.Add(sum, k)
				}
				if sum.Cmp(whole) != 0 {
					t.Errorf("%d×%d split %+v: the parts sum to %v, the whole sweep %v", b[0], b[1], tt.levels, sum, whole)
				}
			})
		}
	}
}

// TestSplitRefused gives Count splits it must refuse.
func TestSplitRefused(t *testing.T) {
	ctx := context.Background()
	for _, sp := range [][]Split{
		{{Cell: 0, Parts: 2}},
		{{Cell: 30, Parts: 2}},
		{{Cell: 5, Parts: 0}},
		{{Cell: 5, Parts: 2, Part: 2}},
		{{Cell: 5, Parts: 2, Far: 12}},
	} {
		if _, err := Count(ctx, 5, 6, Options{Start: -1, Splits: sp}); err == nil {
			t.Errorf("Count(5×6, split %+v): no error", sp)
		}
	}
	if _, err := Count(ctx, 5, 6, Options{Start: -1, Closed: true, Splits: []Split{{Cell: 5, Parts: 1}}}); err == nil {
		t.Error("Count(5×6 closed, a split): no error")
	}
}
