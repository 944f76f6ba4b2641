package knight_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
)

func TestExplainMatchesWarnsdorff(t *testing.T) {
	for _, sz := range [][2]int{{5, 5}, {6, 6}, {5, 8}, {7, 7}, {8, 8}, {10, 10}, {12, 9}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			rows, cols := sz[0], sz[1]
			tours, ties := 0, 0
			for r := range rows {
				for c := range cols {
					start := board.Square{Row: r, Col: c}
					steps, err := knight.Explain(rows, cols, start)
					tour, ferr := knight.Find(t.Context(), board.Size{Rows: rows, Cols: cols}, start, knight.Options{Method: knight.Warnsdorff})
					if errors.Is(ferr, knight.ErrNoTour) {
						if !errors.Is(err, knight.ErrDeadEnd) {
							t.Fatalf("from %v: no tour exists, Explain says %v", start, err)
						}
						continue
					}
					if ferr != nil {
						if errors.Is(ferr, knight.ErrDeadEnd) != errors.Is(err, knight.ErrDeadEnd) {
							t.Fatalf("from %v: Find says %v, Explain %v", start, ferr, err)
						}
						continue
					}
					if err != nil {
						t.Fatalf("from %v: Explain: %v", start, err)
					}
					if len(steps) != tour.Len() {
						t.Fatalf("from %v: %d steps, tour of %d", start, len(steps), tour.Len())
					}
					tours++
					for i, st := range steps {
						if st.Knight != tour.Square(i) {
							t.Fatalf("from %v: step %d on %v, Find's tour on %v", start, i+1, st.Knight, tour.Square(i))
						}
						if i+1 < len(steps) {
							ch := st.Candidates[st.Chosen]
							if ch.Square != tour.Square(i+1) || ch.Onward != st.Min {
								t.Fatalf("from %v: step %d chooses %v", start, i+1, ch)
							}
							for _, c := range st.Candidates {
								if c.Onward < st.Min {
									t.Fatalf("from %v: step %d: candidate %v below the minimum %d", start, i+1, c, st.Min)
								}
							}
							if st.Tie {
								ties++
							}
						}
					}
				}
			}
			if tours == 0 || ties == 0 {
				t.Errorf("%d tours and %d ties compared", tours, ties)
			}
		})
	}
}

func TestExplainOnward(t *testing.T) {
	// From a1 on 8×8 the candidates are b3 and c2; each has 5 onward squares besides a1.
	steps, err := knight.Explain(8, 8, board.Square{Row: 7, Col: 0})
	if err != nil {
		t.Fatal(err)
	}
	st := steps[0]
	if len(st.Candidates) != 2 || st.Min != 5 || !st.Tie {
		t.Fatalf("first step %+v, want two candidates with 5 onward squares, a tie", st)
	}
	if _, err := knight.Explain(100, 100, board.Square{}); err == nil {
		t.Error("100×100: no error")
	}
}

func TestNextStepMatchesExplain(t *testing.T) {
	for _, start := range []board.Square{{Row: 7, Col: 0}, {Row: 3, Col: 4}, {Row: 0, Col: 6}} {
		steps, err := knight.Explain(8, 8, start)
		if err != nil {
			t.Fatal(err)
		}
		var path []board.Square
		for i, want := range steps {
			path = append(path, want.Knight)
			got, err := knight.NextStep(8, 8, path)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("from %v, step %d: NextStep %+v, Explain %+v", start, i+1, got, want)
			}
		}
	}
	if _, err := knight.NextStep(8, 8, nil); err == nil {
		t.Error("NextStep(empty path): no error")
	}
}
