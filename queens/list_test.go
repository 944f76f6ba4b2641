package queens_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// collect clones every placement seq yields.
func collect(seq func(func(queens.Placement) bool)) [][]int {
	var out [][]int
	for p := range seq {
		out = append(out, ints(p))
	}
	return out
}

func TestSolutions8(t *testing.T) {
	got := collect(queens.Solutions(8))
	if len(got) != 92 {
		t.Fatalf("Solutions(8) yielded %d placements, want 92", len(got))
	}
	for i, p := range got {
		if !valid(p) {
			t.Errorf("Solutions(8)[%d] = %s is not a solution", i, codeOf(p))
		}
		if i > 0 && slices.Compare(got[i-1], p) >= 0 {
			t.Errorf("Solutions(8)[%d] = %s does not come after [%d] = %s", i, codeOf(p), i-1, codeOf(got[i-1]))
		}
	}
	seen := make(map[string]bool)
	for _, p := range got {
		c := codeOf(p)
		if seen[c] {
			t.Errorf("Solutions(8) yields %s twice", c)
		}
		seen[c] = true
	}
	if c := codeOf(got[0]); c != "15863724" {
		t.Errorf("first of Solutions(8) = %s, want 15863724", c)
	}
	if c := codeOf(got[len(got)-1]); c != "84136275" {
		t.Errorf("last of Solutions(8) = %s, want 84136275", c)
	}
}

// TestSolutionsMatchBrute compares the listing with the test's own backtracking, which
// tests every new queen against every earlier one, and the count with Q(n).
func TestSolutionsMatchBrute(t *testing.T) {
	kv := loadKnown(t)
	for n := 1; n <= 10; n++ {
		t.Run("n="+itoa(n), func(t *testing.T) {
			got := collect(queens.Solutions(n))
			if int64(len(got)) != kv[n].total.Int64() {
				t.Errorf("Solutions(%d) yielded %d, want Q(%d) = %v", n, len(got), n, kv[n].total)
			}
			want := bruteSolutions(n)
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("Solutions(%d) differs from the brute-force listing (%d vs %d placements)", n, len(got), len(want))
			}
		})
	}
}

func TestSolutionsBadN(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
	}{
		{"zero", 0},
		{"negative", -3},
		{"too large", queens.MaxN + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := collect(queens.Solutions(tc.n)); len(got) != 0 {
				t.Errorf("Solutions(%d) yielded %d placements, want none", tc.n, len(got))
			}
			if err := queens.ValidateList(tc.n, queens.ListOptions{}); err == nil {
				t.Errorf("ValidateList(%d) = nil, want an error", tc.n)
			}
		})
	}
}

func TestFundamental(t *testing.T) {
	kv := loadKnown(t)
	for n := 1; n <= 10; n++ {
		t.Run("n="+itoa(n), func(t *testing.T) {
			got := collect(queens.Fundamental(n))
			if int64(len(got)) != kv[n].unique.Int64() {
				t.Errorf("Fundamental(%d) yielded %d, want U(%d) = %v", n, len(got), n, kv[n].unique)
			}
			classOf := make(map[string]string) // code of a solution → code of its first listed representative
			covered := 0
			for i, p := range got {
				if !valid(p) {
					t.Errorf("Fundamental(%d)[%d] = %s is not a solution", n, i, codeOf(p))
					continue
				}
				if i > 0 && slices.Compare(got[i-1], p) >= 0 {
					t.Errorf("Fundamental(%d)[%d] = %s does not come after %s", n, i, codeOf(p), codeOf(got[i-1]))
				}
				best, size := smallestImage(p)
				if !slices.Equal(best, p) {
					t.Errorf("Fundamental(%d) yields %s, but its image %s is smaller", n, codeOf(p), codeOf(best))
				}
				covered += size
				for _, im := range images(p) {
					c := codeOf(im)
					if rep, ok := classOf[c]; ok && rep != codeOf(p) {
						t.Errorf("Fundamental(%d) yields %s and %s, of one class (both map to %s)", n, rep, codeOf(p), c)
					}
					classOf[c] = codeOf(p)
				}
			}
			if int64(covered) != kv[n].total.Int64() {
				t.Errorf("classes of Fundamental(%d) hold %d solutions, want Q(%d) = %v", n, covered, n, kv[n].total)
			}
		})
	}
}

// after lists what List with After = cursor must yield: the tail of all strictly greater.
func after(all [][]int, cursor []int) [][]int {
	i, _ := slices.BinarySearchFunc(all, cursor, slices.Compare)
	for i < len(all) && slices.Compare(all[i], cursor) <= 0 {
		i++
	}
	return all[i:]
}

func TestListAfter(t *testing.T) {
	for _, n := range []int{1, 4, 5, 6, 8, 9} {
		t.Run("n="+itoa(n), func(t *testing.T) {
			all := bruteSolutions(n)
			var cursors [][]int
			cursors = append(cursors, all...)
			zeros, tops := make([]int, n), make([]int, n)
			ident, rev := make([]int, n), make([]int, n)
			for i := range n {
				tops[i] = n - 1
				ident[i] = i
				rev[i] = n - 1 - i
			}
			cursors = append(cursors, zeros, tops, ident, rev)
			rng := rand.New(rand.NewPCG(uint64(n), 2))
			for range 300 {
				p := rng.Perm(n)
				cursors = append(cursors, p)
				q := make([]int, n) // not a permutation
				for i := range q {
					q[i] = rng.IntN(n)
				}
				cursors = append(cursors, q)
			}
			for _, cur := range cursors {
				opts := queens.ListOptions{After: placement(cur)}
				if err := queens.ValidateList(n, opts); err != nil {
					t.Fatalf("ValidateList(%d, After %v) = %v, want nil", n, cur, err)
				}
				got := collect(queens.List(context.Background(), n, opts))
				want := after(all, cur)
				if !slices.EqualFunc(got, want, slices.Equal) {
					t.Fatalf("List(%d, After %v) yielded %d placements %v…, want %d %v…", n, cur, len(got), head(got), len(want), head(want))
				}
				if !slices.Equal(ints(opts.After), cur) {
					t.Fatalf("List(%d, After %v) changed its cursor to %v", n, cur, opts.After)
				}
			}
		})
	}
}

func head(ps [][]int) [][]int { return ps[:min(len(ps), 3)] }

func TestListAfterFundamental(t *testing.T) {
	for _, n := range []int{8, 10} {
		full := bruteSolutions(n)
		var fund [][]int
		for _, p := range full {
			if best, _ := smallestImage(p); slices.Equal(best, p) {
				fund = append(fund, p)
			}
		}
		for _, cur := range full {
			opts := queens.ListOptions{After: placement(cur), Fundamental: true}
			got := collect(queens.List(context.Background(), n, opts))
			want := after(fund, cur)
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("List(%d, Fundamental, After %s) yielded %d placements, want %d", n, codeOf(cur), len(got), len(want))
			}
		}
	}
}

func TestListBadAfter(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		after queens.Placement
	}{
		{"short", 8, queens.Placement{0, 4, 7}},
		{"long", 4, queens.Placement{1, 3, 0, 2, 0}},
		{"column too large", 8, queens.Placement{0, 4, 7, 5, 2, 6, 1, 8}},
		{"negative column", 8, queens.Placement{0, 4, 7, 5, 2, 6, 1, -1}},
		{"empty", 8, queens.Placement{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := queens.ListOptions{After: tc.after}
			if err := queens.ValidateList(tc.n, opts); err == nil {
				t.Errorf("ValidateList(%d, After %v) = nil, want an error", tc.n, tc.after)
			}
			if got := collect(queens.List(context.Background(), tc.n, opts)); len(got) != 0 {
				t.Errorf("List(%d, After %v) yielded %d placements, want none", tc.n, tc.after, len(got))
			}
		})
	}
}

// TestListAfterLarge resumes a listing of a board far too large to list in full: what follows
// a cursor is found without visiting what comes before it.
func TestListAfterLarge(t *testing.T) {
	const n = 20
	var first []int
	for p := range queens.Solutions(n) {
		first = ints(p)
		break
	}
	if first == nil || !valid(first) {
		t.Fatalf("Solutions(%d) first = %v, not a solution", n, first)
	}
	// Cursor: column 18 on the top row and 0 below; the listing resumes there at once
	// instead of walking the top columns 0 to 17.
	cur := make([]int, n)
	cur[0] = 18
	i := 0
	var prev []int
	for p := range queens.List(context.Background(), n, queens.ListOptions{After: placement(cur)}) {
		if !valid(ints(p)) {
			t.Fatalf("List(%d, After %v) yields %v, not a solution", n, cur, p)
		}
		if slices.Compare(ints(p), cur) <= 0 || (prev != nil && slices.Compare(prev, ints(p)) >= 0) {
			t.Fatalf("List(%d, After %v) yields %v out of order", n, cur, p)
		}
		prev = ints(p)
		if i++; i == 100 {
			break
		}
	}
	if i != 100 {
		t.Errorf("List(%d, After %v) yielded %d, want at least 100", n, cur, i)
	}
}

func TestListProgress(t *testing.T) {
	var pr queens.Progress
	if pr.TopColumn() != -1 {
		t.Errorf("TopColumn() before the search = %d, want -1", pr.TopColumn())
	}
	got := collect(queens.List(context.Background(), 8, queens.ListOptions{Progress: &pr}))
	if pr.Found() != 92 || len(got) != 92 {
		t.Errorf("after List(8): Found() = %d, yielded %d, want 92", pr.Found(), len(got))
	}
	if want := bruteNodes(8); pr.Nodes() == 0 || pr.Nodes() > want {
		t.Errorf("after List(8): Nodes() = %d, want from 1 to %d", pr.Nodes(), want)
	}

	// On n = 12 the search visits enough nodes for the top-row column to be published.
	var pr12 queens.Progress
	top, found := -1, uint64(0)
	for range queens.List(context.Background(), 12, queens.ListOptions{Progress: &pr12}) {
		if tc := pr12.TopColumn(); tc < top || tc > 11 {
			t.Fatalf("TopColumn() went from %d to %d", top, tc)
		} else {
			top = tc
		}
		if f := pr12.Found(); f < found {
			t.Fatalf("Found() went from %d down to %d", found, f)
		} else {
			found = f
		}
	}
	if top < 1 {
		t.Errorf("TopColumn() at the end of List(12) = %d, want it to have moved past 0", top)
	}
	if pr12.Found() != 14200 {
		t.Errorf("Found() after List(12) = %d, want 14200", pr12.Found())
	}
	if want := bruteNodes(12); pr12.Nodes() < 1<<16 || pr12.Nodes() > want {
		t.Errorf("Nodes() after List(12) = %d, want from %d to %d", pr12.Nodes(), 1<<16, want)
	}
}

func TestListCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k := 0
	for range queens.List(ctx, 16, queens.ListOptions{}) {
		k++
		if k == 10 {
			cancel()
		}
	}
	if ctx.Err() == nil {
		t.Fatal("ctx.Err() = nil after cancel")
	}
	// The search checks its context every 65536 nodes; it must stop long before the
	// 14,772,512 solutions of n = 16.
	if k > 100000 {
		t.Errorf("List(16) yielded %d placements after being cancelled at 10, want it to stop soon", k)
	}
}

// TestListCancelledBeforeStart: List "stops early, without yielding more, when ctx is done";
// a context cancelled before the call yields nothing, however small the board.
func TestListCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := collect(queens.List(ctx, 8, queens.ListOptions{})); len(got) != 0 {
		t.Errorf("List(cancelled ctx, 8) yielded %d placements, want 0", len(got))
	}
}

func TestListBreak(t *testing.T) {
	k := 0
	for range queens.Solutions(10) {
		if k++; k == 5 {
			break
		}
	}
	if k != 5 {
		t.Errorf("breaking out of Solutions(10) after 5: loop ran %d times", k)
	}
}
