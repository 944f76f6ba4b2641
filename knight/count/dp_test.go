package count

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// TestDPMatchesSearch checks the frontier count against the meet-in-the-middle search (a
// separate algorithm: it walks every tour) on every board of at most 30 squares, open and
// closed, and on the closed 3×n boards up to 3×16; and the open counts from each start
// square on a few boards.
func TestDPMatchesSearch(t *testing.T) {
	type board2 struct{ rows, cols int }
	var boards []board2
	for r := 1; r <= 30; r++ {
		for c := 1; r*c <= 30; c++ {
			boards = append(boards, board2{r, c})
		}
	}
	for c := 11; c <= 16; c++ {
		boards = append(boards, board2{3, c}, board2{c, 3})
	}
	ctx := context.Background()
	for _, b := range boards {
		for _, closed := range []bool{false, true} {
			if !closed && b.rows*b.cols > 30 {
				continue
			}
			t.Run(fmt.Sprintf("%dx%d closed=%v", b.rows, b.cols, closed), func(t *testing.T) {
				if testing.Short() && b.rows*b.cols > 24 {
					t.Skip("-short compares boards of at most 24 squares")
				}
				dp, err := countDP(ctx, b.rows, b.cols, closed, -1, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Tours64(ctx, b.rows, b.cols, Options{Closed: closed, Method: MethodSearch})
				if err != nil {
					t.Fatal(err)
				}
				if !dp.IsInt64() || dp.Int64() != want {
					t.Errorf("countDP(%d×%d, closed %v) = %v; search = %d", b.rows, b.cols, closed, dp, want)
				}
			})
		}
	}
	for _, b := range []board2{{5, 5}, {4, 5}, {5, 4}, {3, 7}, {5, 6}, {6, 5}, {3, 8}} {
		t.Run(fmt.Sprintf("%dx%d each start", b.rows, b.cols), func(t *testing.T) {
			if b.rows*b.cols == 30 {
				skipUnlessLong(t, "each start of 5×6 and 6×5 takes a minute under -race (5×5, 4×5, 5×4, 3×7 and 3×8 run by default)")
			}
			if testing.Short() && b.rows*b.cols > 21 {
				t.Skip("-short tries each start on boards of at most 21 squares")
			}
			for v := range b.rows * b.cols {
				dp, err := countDP(ctx, b.rows, b.cols, false, v, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				want, err := countMITM(ctx, b.rows, b.cols, false, v, nil)
				if err != nil {
					t.Fatal(err)
				}
				if dp.Int64() != want {
					t.Errorf("countDP(%d×%d from square %d) = %v; search = %d", b.rows, b.cols, v, dp, want)
				}
			}
		})
	}
}

// TestDPBeyond64 checks boards of more than 64 squares, which only the dp method counts
// (in 128 bits): both orientations agree. (That a 64-bit sweep asks for 128 bits when a
// count carries is checked in internal/frontier.)
func TestDPBeyond64(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		rows, cols int
		closed     bool
	}{{3, 24, true}, {4, 17, false}, {5, 14, true}} {
		t.Run(fmt.Sprintf("%dx%d", tt.rows, tt.cols), func(t *testing.T) {
			if tt.rows == 5 {
				skipUnlessLong(t, "5×14 takes half a minute under -race (3×24 and 4×17 run by default)")
			}
			if testing.Short() && tt.rows == 4 {
				t.Skip("-short leaves out 4×17 (3×24 runs)")
			}
			a, err := Tours(ctx, tt.rows, tt.cols, Options{Closed: tt.closed})
			if err != nil {
				t.Fatal(err)
			}
			b, err := Tours(ctx, tt.cols, tt.rows, Options{Closed: tt.closed})
			if err != nil {
				t.Fatal(err)
			}
			if a.Cmp(b) != 0 || a.Sign() <= 0 {
				t.Errorf("Tours(%d×%d) = %v, Tours(%d×%d) = %v; want equal and positive", tt.rows, tt.cols, a, tt.cols, tt.rows, b)
			}
		})
	}
}

// TestDPWide checks a count whose weights pass 2^64 (kept in 128 bits, as on every board
// past 64 squares): the directed open tours of 3×40 and 40×3 agree and exceed 2^64, and
// Tours, limited to an int64, says so. CHESSPUZZLES_LONG=1 checks 4×40 and 40×4 too
// (minutes under -race).
func TestDPWide(t *testing.T) {
	ctx := context.Background()
	sizes := [][2]int{{3, 40}}
	if longTests() {
		sizes = append(sizes, [2]int{4, 40})
	}
	for _, sz := range sizes {
		rows, cols := sz[0], sz[1]
		a, err := Tours(ctx, rows, cols, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if a.Cmp(new(big.Int).Lsh(big.NewInt(1), 64)) <= 0 {
			t.Errorf("Tours(%d×%d) = %v, want more than 2^64", rows, cols, a)
		}
		b, err := Tours(ctx, cols, rows, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if a.Cmp(b) != 0 {
			t.Errorf("Tours(%d×%d) = %v, Tours(%d×%d) = %v", rows, cols, a, cols, rows, b)
		}
		if _, err := Tours64(ctx, rows, cols, Options{}); !errors.Is(err, errCountOverflow) {
			t.Errorf("Tours64(%d×%d) error = %v, want errCountOverflow", rows, cols, err)
		}
	}
}

// TestDPMemoryLimit checks that a count needing more memory than allowed stops with a
// *MemoryError.
func TestDPMemoryLimit(t *testing.T) {
	_, err := Tours64(context.Background(), 6, 6, Options{Closed: true, Method: MethodDP, MaxMemory: 1 << 20})
	var me *MemoryError
	if !errors.As(err, &me) || me.Limit != 1<<20 || me.Need <= me.Limit {
		t.Errorf("Tours64(6×6 closed, 1 MiB) error = %v, want a *MemoryError over 1 MiB", err)
	}
}

// TestMemoryCheckOnTheWay checks the memory check Tours makes itself on boards of more
// than MaxQuickSquares squares: a store that passes the bound in the first cells stops the
// count with an Estimated *MemoryError whose need is at least what the store asked for;
// within the bound (and on small boards) nothing changes.
//
// Within the bound: 5×10 closed by the join (50 squares, past MaxQuickSquares, so the check
// runs) gives the count it gives with no bound; 6×8 (55,488,142, the literature's) in 1 GiB
// with CHESSPUZZLES_LONG, 20 CPU-s under -race beside 2 for 5×10 (the join's known values
// are checked on 5×8 and 8×5 in TestCountKnownValues, 6×8 there too with CHESSPUZZLES_LONG).
func TestMemoryCheckOnTheWay(t *testing.T) {
	type memoryCase struct {
		name       string
		rows, cols int
		opts       Options
		want       int64 // 0: a *MemoryError; -1: the count with no MaxMemory
		estimated  bool
	}
	tests := []memoryCase{
		{"8x8 closed dp in 1 MiB", 8, 8, Options{Closed: true, Method: MethodDP, MaxMemory: 1 << 20}, 0, true},
		{"6x8 closed join in 1 MiB", 6, 8, Options{Closed: true, Method: MethodJoin, MaxMemory: 1 << 20}, 0, true},
		{"6x6 closed dp in 1 MiB", 6, 6, Options{Closed: true, Method: MethodDP, MaxMemory: 1 << 20}, 0, false},
		{"5x10 closed join in 1 GiB", 5, 10, Options{Closed: true, Method: MethodJoin, MaxMemory: 1 << 30}, -1, false},
	}
	if longTests() {
		tests = append(tests, memoryCase{"6x8 closed join in 1 GiB", 6, 8, Options{Closed: true, Method: MethodJoin, MaxMemory: 1 << 30}, 55488142, false})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == -1 {
				unbounded := tt.opts
				unbounded.MaxMemory = 0
				want, err := Tours64(context.Background(), tt.rows, tt.cols, unbounded)
				if err != nil || want == 0 {
					t.Fatalf("Tours64 with no MaxMemory = %d, %v; want some tours", want, err)
				}
				tt.want = want
			}
			got, err := Tours64(context.Background(), tt.rows, tt.cols, tt.opts)
			if tt.want != 0 {
				if err != nil || got != tt.want {
					t.Errorf("Tours64 = %d, %v; want %d", got, err, tt.want)
				}
				return
			}
			var me *MemoryError
			if !errors.As(err, &me) || me.Limit != tt.opts.MaxMemory || me.Need <= me.Limit || me.Estimated != tt.estimated {
				t.Errorf("Tours64 error = %#v, want a *MemoryError over %d, Estimated %v", err, tt.opts.MaxMemory, tt.estimated)
			}
		})
	}
}

// TestDPStatus checks the dp method's Status calls: one per cell, in order, with states
// and memory.
func TestDPStatus(t *testing.T) {
	var got []Status
	_, err := Tours64(context.Background(), 5, 6, Options{Closed: true, Method: MethodDP, Status: func(s Status) {
		got = append(got, s)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 30 {
		t.Fatalf("Status called %d times, want 30", len(got))
	}
	for i, s := range got {
		if s.Done != i+1 || s.Total != 30 || s.Method != MethodDP || s.Bytes <= 0 {
			t.Errorf("Status call %d = %+v", i, s)
		}
		// a forecast before the last cell, none after it
		if last := i == len(got)-1; (s.ETA == 0) != last || s.ETA < 0 || s.ETA > time.Hour {
			t.Errorf("Status call %d: ETA %v", i, s.ETA)
		}
	}
}

// TestCountLong checks the long counts of testdata/known-values-long.txt, with at most
// 8 GiB, by the method Tours chooses and by the dp method's run store where that is
// another: 7×8 closed (join and dp, about a minute of CPU each), 5×10 and 6×8 open (dp: a few
// seconds, under a minute) when CHESSPUZZLES_LONG=1;
// 7×7 open and 8×8 closed too with CHESSPUZZLES_LONG=all (hundreds of millions of states
// in the middle columns: about half an hour of CPU each; see the package doc).
func TestCountLong(t *testing.T) {
	long := os.Getenv("CHESSPUZZLES_LONG")
	if long != "1" && long != "all" {
		t.Skip("set CHESSPUZZLES_LONG=1 to run the long counts")
	}
	for _, k := range readKnownCounts(t, "testdata/known-values-long.txt") {
		t.Run(k.line, func(t *testing.T) {
			if (k.size.Rows == k.size.Cols) && long != "all" {
				t.Skip("7×7 open and 8×8 closed run only with CHESSPUZZLES_LONG=all")
			}
			// the method chosen, and the dp method's run store too where that is another
			methods := []string{k.opts.Method}
			if m, err := ChooseMethod(k.size.Rows, k.size.Cols, k.opts); err == nil && m != MethodDP {
				methods = append(methods, MethodDP)
			}
			for _, m := range methods {
				t0 := time.Now()
				opts := k.opts
				opts.Method = m
				opts.MaxMemory = 8 << 30 // the bound for 8×8
				got, err := Tours64(context.Background(), k.size.Rows, k.size.Cols, opts)
				if err != nil || got != k.want {
					t.Errorf("Tours64(%s, method %q) = %d, %v; want %d", k.line, m, got, err, k.want)
				}
				t.Logf("Tours64(%s, method %q) = %d in %v", k.line, m, got, time.Since(t0))
			}
		})
	}
}

var _ = board.Square{}
