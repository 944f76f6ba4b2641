package count

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/knight/internal/frontier"
)

// TestJoinMatchesDP checks the mirror join against the plain frontier sweep on every
// closed board it takes that the sweep counts in a few seconds (both orientations), and
// against the search (which walks every tour) on those of at most 30 squares.
func TestJoinMatchesDP(t *testing.T) {
	type b2 struct{ rows, cols int }
	var boards []b2
	for c := 4; c <= 16; c += 2 {
		boards = append(boards, b2{3, c}, b2{4, c})
	}
	boards = append(boards, b2{1, 4}, b2{2, 6}, b2{5, 6}, b2{6, 5}, b2{6, 4}, b2{6, 6}, b2{5, 8}, b2{8, 5}, b2{6, 8}, b2{5, 10})
	ctx := context.Background()
	for _, b := range boards {
		t.Run(fmt.Sprintf("%dx%d", b.rows, b.cols), func(t *testing.T) {
			if b.rows == 6 && b.cols == 8 {
				skipUnlessLong(t, "6×8 takes minutes under -race (5×8, 8×5 and 5×10 run by default)")
			}
			if testing.Short() && b.rows*b.cols > 30 {
				t.Skip("-short joins boards of at most 30 squares")
			}
			if !frontier.JoinPossible(b.rows, b.cols) {
				t.Fatalf("frontier.JoinPossible(%d, %d) = false", b.rows, b.cols)
			}
			got, err := countJoin(ctx, b.rows, b.cols, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, err := countDP(ctx, b.rows, b.cols, true, -1, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("countJoin(%d×%d) = %v; countDP = %v", b.rows, b.cols, got, want)
			}
			if b.rows*b.cols <= 30 {
				s, err := Tours64(ctx, b.rows, b.cols, Options{Closed: true, Method: MethodSearch})
				if err != nil {
					t.Fatal(err)
				}
				if !got.IsInt64() || got.Int64() != s {
					t.Errorf("countJoin(%d×%d) = %v; search = %d", b.rows, b.cols, got, s)
				}
			}
		})
	}
}

// TestJoinKnownValues checks the join on the published closed counts it can reach in CI
// time, through Tours with MethodJoin.
func TestJoinKnownValues(t *testing.T) {
	for _, k := range readKnownCounts(t, "testdata/known-values.txt") {
		if !k.opts.Closed || !frontier.JoinPossible(k.size.Rows, k.size.Cols) {
			continue
		}
		t.Run(k.line, func(t *testing.T) {
			if k.size.Squares() > 42 {
				skipUnlessLong(t, "the join's published counts past 42 squares take minutes under -race (6×6 runs by default, TestJoinMatchesDP up to 5×10)")
			}
			if testing.Short() && k.size.Squares() > 30 {
				t.Skip("-short joins boards of at most 30 squares")
			}
			opts := k.opts
			opts.Method = MethodJoin
			got, err := Tours64(context.Background(), k.size.Rows, k.size.Cols, opts)
			if err != nil || got != k.want {
				t.Errorf("Tours64(%s, join) = %d, %v; want %d", k.line, got, err, k.want)
			}
		})
	}
}

// TestJoinRefuses checks the boards and options the join does not take.
func TestJoinRefuses(t *testing.T) {
	for _, tt := range []struct {
		rows, cols int
		closed     bool
	}{{6, 6, false}, {5, 7, true}, {5, 4, true}, {7, 6, true}, {3, 3, true}, {9, 10, true}, {2, 2, true}} {
		if _, err := ChooseMethod(tt.rows, tt.cols, Options{Closed: tt.closed, Method: MethodJoin}); err == nil {
			t.Errorf("ChooseMethod(%d×%d, closed %v, join) = nil error, want one", tt.rows, tt.cols, tt.closed)
		}
	}
	if _, err := countJoin(context.Background(), 5, 7, 0, nil); err == nil {
		t.Errorf("countJoin(5×7) = nil error, want one")
	}
}

// TestJoinCancel checks that a join stops when its context is done.
func TestJoinCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := countJoin(ctx, 6, 8, 0, nil); err == nil {
		t.Errorf("countJoin with a cancelled context = nil error")
	}
}

// TestJoinWide checks the join on long boards whose counts pass 2^64 (products of the two
// halves' counts added in 128 bits) against the plain sweep. (Its 128-bit sweeps, taken
// when a half's counts carry out of 64 bits, are not reached by a board whose count fits
// the plain sweep's 128 bits: 3×100 closed already overflows those.)
func TestJoinWide(t *testing.T) {
	ctx := context.Background()
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	for _, b := range [][2]int{{5, 30}, {3, 80}, {80, 3}} {
		if b[0] == 80 && testing.Short() {
			t.Log("-short leaves out 80×3 (3×80 runs)")
			continue
		}
		if b[0] == 5 && !longTests() {
			t.Log("5×30 takes minutes under -race; CHESSPUZZLES_LONG=1 runs it (3×80 and 80×3 run by default)")
			continue
		}
		got, err := countJoin(ctx, b[0], b[1], 0, nil)
		if err != nil {
			t.Fatalf("countJoin(%d×%d): %v", b[0], b[1], err)
		}
		want, err := countDP(ctx, b[0], b[1], true, -1, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(want) != 0 || got.Cmp(two64) <= 0 {
			t.Errorf("countJoin(%d×%d) = %v; countDP = %v (want equal, past 2^64)", b[0], b[1], got, want)
		}
	}
}

// TestAutoMethod checks what auto takes for closed tours past 42 squares: the join on
// oblong boards with an even long side, dp on square ones and odd long sides.
func TestAutoMethod(t *testing.T) {
	for _, tt := range []struct {
		rows, cols int
		want       string
	}{{6, 8, MethodJoin}, {8, 7, MethodJoin}, {6, 10, MethodJoin}, {8, 8, MethodDP}, {7, 7, MethodDP}, {5, 9, MethodDP}, {6, 6, MethodSearch}} {
		if got, err := ChooseMethod(tt.rows, tt.cols, Options{Closed: true}); err != nil || got != tt.want {
			t.Errorf("ChooseMethod(%d×%d, closed) = %q, %v; want %q", tt.rows, tt.cols, got, err, tt.want)
		}
	}
}
