package queens_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// plainSearch is the independent search: row by row, every column, tested pair by pair
// against the queens above. It returns the solutions found and the queens placed.
func plainSearch(n int) (sols [][]int, nodes int64) {
	p := make([]int, 0, n)
	var rec func()
	rec = func() {
		if len(p) == n {
			sols = append(sols, slices.Clone(p))
			return
		}
		r := len(p)
		for c := 0; c < n; c++ {
			ok := true
			for q, qc := range p {
				if qc == c || qc-c == r-q || c-qc == r-q {
					ok = false
				}
			}
			if ok {
				nodes++
				p = append(p, c)
				rec()
				p = p[:r]
			}
		}
	}
	rec()
	return sols, nodes
}

func TestTraceReplay(t *testing.T) {
	for n := queens.MinTraceN; n <= 10; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			want, wantNodes := plainSearch(n)
			board := make([]int, n)
			for i := range board {
				board[i] = -1
			}
			var got [][]int
			var places, deads, sols int64
			var last queens.Event
			for e := range queens.Trace(context.Background(), n) {
				switch e.Kind {
				case queens.Try:
					if board[e.Row] != -1 {
						t.Fatalf("try on row %d which holds a queen", e.Row)
					}
					if e.Row > 0 && board[e.Row-1] == -1 {
						t.Fatalf("try on row %d while row %d is empty", e.Row, e.Row-1)
					}
				case queens.Attacked:
					c := board[e.By]
					if !(c == e.Col || c-e.Col == e.Row-e.By || e.Col-c == e.Row-e.By) {
						t.Fatalf("(%d,%d) said attacked by row %d (column %d)", e.Row, e.Col, e.By, c)
					}
				case queens.Place:
					board[e.Row] = e.Col
					places++
				case queens.Remove:
					if board[e.Row] != e.Col {
						t.Fatalf("remove (%d,%d), the queen is on column %d", e.Row, e.Col, board[e.Row])
					}
					board[e.Row] = -1
				case queens.DeadEnd:
					deads++
				case queens.Solution:
					if !valid(board) {
						t.Fatalf("solution %v is not valid", board)
					}
					got = append(got, slices.Clone(board))
					sols++
				}
				if e.Placed != places || e.DeadEnds != deads || e.Solutions != sols {
					t.Fatalf("counters %d/%d/%d, replay counts %d/%d/%d", e.Placed, e.DeadEnds, e.Solutions, places, deads, sols)
				}
				last = e
			}
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("Trace(%d): %d solutions, plain search %d (or a different order)", n, len(got), len(want))
			}
			if last.Placed != wantNodes {
				t.Errorf("Trace(%d) placed %d queens, plain search %d", n, last.Placed, wantNodes)
			}
			if k := loadKnown(t)[n].total.Int64(); int64(len(got)) != k {
				t.Errorf("Trace(%d) found %d solutions, want %d", n, len(got), k)
			}
			for _, b := range board {
				if b != -1 {
					t.Fatalf("board not empty at the end: %v", board)
				}
			}
		})
	}
}

func TestTraceStops(t *testing.T) {
	k := 0
	for e := range queens.Trace(context.Background(), 12) {
		k++
		if e.Kind == queens.Solution {
			break
		}
	}
	if k == 0 {
		t.Fatal("no events for n = 12")
	}
	for range queens.Trace(context.Background(), 3) {
		t.Fatal("Trace(3) yielded an event")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	k = 0
	for range queens.Trace(ctx, 12) {
		k++
	}
	if k != 0 {
		t.Errorf("Trace with a done context yielded %d events", k)
	}
}

func TestNaiveCount(t *testing.T) {
	perms := func(n int) (all, first uint64) {
		p := make([]int, n)
		used := make([]bool, n)
		var rec func(r int)
		rec = func(r int) {
			if r == n {
				all++
				if first == 0 && valid(p) {
					first = all
				}
				return
			}
			for c := 0; c < n; c++ {
				if !used[c] {
					used[c] = true
					p[r] = c
					rec(r + 1)
					used[c] = false
				}
			}
		}
		rec(0)
		return
	}
	for n := 1; n <= 8; n++ {
		got, err := queens.NaiveCount(n)
		if err != nil {
			t.Fatal(err)
		}
		all, first := perms(n)
		if got.Candidates != all || got.ToFirst != first {
			t.Errorf("NaiveCount(%d) = %d, %d; enumeration gives %d, %d", n, got.Candidates, got.ToFirst, all, first)
		}
	}
	if _, err := queens.NaiveCount(21); err == nil {
		t.Error("NaiveCount(21): no error")
	}
}

func ExampleTrace() {
	for e := range queens.Trace(context.Background(), 4) {
		if e.Kind == queens.Solution {
			fmt.Println("first solution after", e.Placed, "queens placed and", e.DeadEnds, "dead ends")
			break
		}
	}
	// Output: first solution after 8 queens placed and 2 dead ends
}
