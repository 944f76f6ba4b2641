package queens

import (
	"context"
	"fmt"
	"iter"
)

// EventKind says what a step of [Trace] did.
type EventKind uint8

// The kinds of [Event], in the order a student's search meets them.
const (
	// Try: the search looks at square (Row, Col) for the queen of Row.
	Try EventKind = iota
	// Attacked: the square just tried is attacked by the queen on row By.
	Attacked
	// Place: a queen is put on (Row, Col); it attacks the squares of its column and
	// diagonals below it.
	Place
	// DeadEnd: no square of Row is free of attack, so the search must go back.
	DeadEnd
	// Remove: the queen on (Row, Col) is taken back, to try the next square of its row.
	Remove
	// Solution: every row holds a queen; Row is the last row.
	Solution
)

var eventNames = [...]string{"try", "attacked", "place", "dead end", "remove", "solution"}

// String returns the kind in words: try, attacked, place, dead end, remove or solution.
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// MarshalText returns the name of k, so that JSON shows "place" rather than 2.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Event is one step of the search that [Trace] shows. The counters are the totals after the
// event: queens placed so far (every Place counts, also those later removed: this is the
// node count of the search), dead ends met and solutions found.
type Event struct {
	Kind      EventKind `json:"kind"`
	Row       int       `json:"row"`
	Col       int       `json:"col"`
	By        int       `json:"by"` // Attacked: the row of the attacking queen (the lowest); else -1
	Placed    int64     `json:"placed"`
	DeadEnds  int64     `json:"deadEnds"`
	Solutions int64     `json:"solutions"`
}

// MinTraceN and MaxTraceN bound the boards [Trace] shows: below 4 there is nothing to see
// (no solution but N = 1) and above 12 the full search runs to tens of millions of events.
const (
	MinTraceN = 4
	MaxTraceN = 12
)

// Trace returns the steps of the row-by-row backtracking search for every solution of an
// n×n board as a student writes it: for each row from the top, each square from the left is
// tried; a square attacked by a queen above is passed over, naming the attacker; otherwise a
// queen is placed and the search goes on with the next row, and when it comes back the queen
// is removed and the next square tried. A row none of whose squares is free is a dead end.
// When the last row gets its queen a Solution event follows, then that queen is removed and
// the search goes on, so the events run through all solutions in ascending code order.
//
// The events are those of the plain recursive search, without bitboards or symmetry: the
// number of Place events is the number of nodes of that search (2,056 for n = 8, 856,188 for
// n = 12, in 34,232 and 21,378,654 events). Each event costs O(n) to produce; memory is O(n). The sequence stops early when
// the consumer stops or ctx is done; it yields nothing for n outside MinTraceN…MaxTraceN
// (check with [ValidateTrace]).
func Trace(ctx context.Context, n int) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		if ValidateTrace(n) != nil {
			return
		}
		col := make([]int, n) // col[r]: the column of row r's queen
		var placed, dead, sols int64
		emit := func(k EventKind, r, c, by int) bool {
			if placed&1023 == 0 && ctx.Err() != nil {
				return false
			}
			return yield(Event{Kind: k, Row: r, Col: c, By: by, Placed: placed, DeadEnds: dead, Solutions: sols})
		}
		// attacker returns the lowest row above r whose queen attacks (r, c), or -1.
		attacker := func(r, c int) int {
			for q := r - 1; q >= 0; q-- {
				d := col[q] - c
				if d == 0 || d == r-q || d == q-r {
					return q
				}
			}
			return -1
		}
		var row func(r int) bool
		row = func(r int) bool {
			free := false
			for c := 0; c < n; c++ {
				if !emit(Try, r, c, -1) {
					return false
				}
				if by := attacker(r, c); by >= 0 {
					if !emit(Attacked, r, c, by) {
						return false
					}
					continue
				}
				free = true
				col[r] = c
				placed++
				if !emit(Place, r, c, -1) {
					return false
				}
				if r == n-1 {
					sols++
					if !emit(Solution, r, c, -1) {
						return false
					}
				} else if !row(r + 1) {
					return false
				}
				if !emit(Remove, r, c, -1) {
					return false
				}
			}
			if !free {
				dead++
				return emit(DeadEnd, r, -1, -1)
			}
			return true
		}
		row(0)
	}
}

// ValidateTrace returns nil when [Trace] shows n, else an error saying what is allowed.
func ValidateTrace(n int) error {
	if n < MinTraceN || n > MaxTraceN {
		return fmt.Errorf("the search is shown for N from %d to %d, got %d", MinTraceN, MaxTraceN, n)
	}
	return nil
}

// Naive is what the naive method, which tests every permutation (a queen a row, a column
// each) in lexicographic order for diagonal attacks, looks at on an n×n board.
type Naive struct {
	N int `json:"n"`
	// Candidates is n!, the permutations tested to find every solution.
	Candidates uint64 `json:"candidates"`
	// ToFirst is the number of permutations tested up to and including the first solution
	// (0 when there is none).
	ToFirst uint64 `json:"toFirst"`
}

// NaiveCount returns the naive method's candidate counts for n from 1 to 20 (20! is the
// largest factorial below 2^64). ToFirst is the lexicographic rank of the first solution
// plus one, computed from that solution (found by backtracking) without enumerating the
// permutations, so it takes O(n²) beyond the search for the first solution.
func NaiveCount(n int) (Naive, error) {
	if n < 1 || n > 20 {
		return Naive{}, fmt.Errorf("the naive count is given for N from 1 to 20, got %d", n)
	}
	nv := Naive{N: n, Candidates: 1}
	for i := 2; i <= n; i++ {
		nv.Candidates *= uint64(i)
	}
	for p := range Solutions(n) {
		// The rank of p among permutations: for each row, the number of unused columns
		// smaller than its column, times the permutations of the rows below.
		fact := nv.Candidates
		rank := uint64(0)
		for r, c := range p {
			fact /= uint64(n - r)
			smaller := 0
			for x := range c {
				used := false
				for _, y := range p[:r] {
					used = used || y == x
				}
				if !used {
					smaller++
				}
			}
			rank += uint64(smaller) * fact
		}
		nv.ToFirst = rank + 1
		break
	}
	return nv, nil
}
