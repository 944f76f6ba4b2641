package regions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
	"golang.org/x/tools/txtar"
)

// slowSolutions lists every solution of p by plain backtracking, row by row, with no
// bitmasks and no pruning beyond the rules: written apart from the counter so that the two
// check each other.
func slowSolutions(p *Puzzle, limit int) [][]int {
	n := p.N()
	var out [][]int
	sol := make([]int, n)
	colUsed := make([]bool, n)
	regUsed := make([]bool, n)
	var rec func(r int)
	rec = func(r int) {
		if len(out) >= limit {
			return
		}
		if r == n {
			out = append(out, append([]int(nil), sol...))
			return
		}
		for c := 0; c < n; c++ {
			k := p.Region(r, c)
			if colUsed[c] || regUsed[k] {
				continue
			}
			if r > 0 && (sol[r-1] == c-1 || sol[r-1] == c || sol[r-1] == c+1) {
				continue
			}
			sol[r] = c
			colUsed[c], regUsed[k] = true, true
			rec(r + 1)
			colUsed[c], regUsed[k] = false, false
		}
	}
	rec(0)
	return out
}

// rowRegions returns the n×n grid whose regions are its rows.
func rowRegions(n int) *Puzzle {
	rows := make([][]int, n)
	for r := range rows {
		rows[r] = make([]int, n)
		for c := range rows[r] {
			rows[r][c] = r
		}
	}
	p, err := New(rows)
	if err != nil {
		panic(err)
	}
	return p
}

// TestCountRowRegions: with one region a row, the solutions are the permutations with no
// two neighbours differing by 1 (the kings' problem of Hertzsprung), OEIS A002464: 1, 1, 0,
// 0, 2, 14, 90, 646, 5242 for n = 0…8.
func TestCountRowRegions(t *testing.T) {
	want := []int{1: 1, 2: 0, 3: 0, 4: 2, 5: 14, 6: 90, 7: 646, 8: 5242}
	for n := 1; n <= 8; n++ {
		p := rowRegions(n)
		if got := Count(p, 1<<20); got != want[n] {
			t.Errorf("Count(rows %d) = %d, want %d", n, got, want[n])
		}
		if got := len(slowSolutions(p, 1<<20)); got != want[n] {
			t.Errorf("slowSolutions(rows %d) = %d, want %d", n, got, want[n])
		}
		if got := Count(p, 2); got != min(2, want[n]) {
			t.Errorf("Count(rows %d, 2) = %d, want %d", n, got, min(2, want[n]))
		}
	}
}

type genCase struct {
	n     int
	seed  uint64
	level Level
}

func genCases(long bool) []genCase {
	var cs []genCase
	seeds := 2
	maxN := 10
	if testing.Short() {
		seeds = 1
	}
	if long {
		seeds, maxN = 12, 13
	}
	for n := MinGenerateN; n <= maxN; n++ {
		for lv := Easy; lv <= Hard; lv++ {
			for s := range seeds {
				cs = append(cs, genCase{n, uint64(s) * 7919, lv})
			}
		}
	}
	return cs
}

// TestGenerate re-proves every generated puzzle unique with the slow counter, and checks
// its grade and that the technique solver's every step agrees with the solution.
// CHESSPUZZLES_LONG runs hundreds.
func TestGenerate(t *testing.T) {
	long := os.Getenv("CHESSPUZZLES_LONG") != ""
	for _, tc := range genCases(long) {
		name := fmt.Sprintf("n=%d/seed=%d/%s", tc.n, tc.seed, tc.level)
		p, err := Generate(context.Background(), tc.n, tc.seed, tc.level)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.N() != tc.n {
			t.Fatalf("%s: N() = %d", name, p.N())
		}
		if _, err := New(p.Rows()); err != nil {
			t.Fatalf("%s: generated grid invalid: %v\n%s", name, err, p)
		}
		for k, pieces := range p.Pieces() {
			if pieces != 1 {
				t.Fatalf("%s: region %s is in %d pieces, want 1\n%s", name, Letter(k), pieces, p)
			}
		}
		sols := slowSolutions(p, 2)
		if len(sols) != 1 {
			t.Fatalf("%s: slow counter finds %d solutions, want 1\n%s", name, len(sols), p)
		}
		sol, err := Solve(p)
		if err != nil || fmt.Sprint(sol) != fmt.Sprint(sols[0]) || !IsSolution(p, sol) {
			t.Fatalf("%s: Solve = %v, %v; slow counter's solution %v", name, sol, err, sols[0])
		}
		steps, err := Explain(p)
		if err != nil {
			t.Fatalf("%s: Explain: %v", name, err)
		}
		checkSteps(t, name, p, steps, sols)
		if got := gradeSteps(steps); got != tc.level {
			t.Errorf("%s: graded %s, want %s", name, got, tc.level)
		}
	}
}

// checkSteps checks that every queen a step places is in every solution and every cell it
// rules out is in none, and that its short sentence names at most four cells, each marked
// (the queen, a cell ruled out or one the step looks at).
func checkSteps(t *testing.T, name string, p *Puzzle, steps []Step, sols [][]int) {
	t.Helper()
	cellRE := regexp.MustCompile(`r[0-9]+c[0-9]+`)
	for i, st := range steps {
		if st.Text == "" || st.Short == "" {
			t.Errorf("%s: step %d has no text", name, i+1)
		}
		marked := map[string]bool{}
		for _, q := range append(append([]board.Square(nil), st.Ruled...), st.Because...) {
			marked[CellName(q)] = true
		}
		if st.Placed {
			marked[CellName(st.Queen)] = true
		}
		named := map[string]bool{}
		for _, c := range cellRE.FindAllString(st.Short, -1) {
			named[c] = true
			if !marked[c] {
				t.Errorf("%s: step %d's short sentence names %s, which it does not mark: %s", name, i+1, c, st.Short)
			}
		}
		if len(named) > maxNamed+1 {
			t.Errorf("%s: step %d's short sentence names %d cells, want at most %d: %s", name, i+1, len(named), maxNamed+1, st.Short)
		}
		for _, sol := range sols {
			if st.Placed && sol[st.Queen.Row] != st.Queen.Col {
				t.Fatalf("%s: step %d (%s) places %s, not in solution %v\n%s", name, i+1, st.Technique, CellName(st.Queen), sol, p)
			}
			for _, q := range st.Ruled {
				if sol[q.Row] == q.Col {
					t.Fatalf("%s: step %d (%s) rules out %s, in solution %v: %s\n%s", name, i+1, st.Technique, CellName(q), sol, st.Text, p)
				}
			}
		}
	}
}

func TestGenerateRepeatable(t *testing.T) {
	a, err := Generate(context.Background(), 9, 42, Medium)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(context.Background(), 9, 42, Medium)
	c, _ := Generate(context.Background(), 9, 43, Medium)
	if a.String() != b.String() {
		t.Errorf("Generate(9, 42) differs between calls:\n%s\n%s", a, b)
	}
	if a.String() == c.String() {
		t.Errorf("Generate(9, 42) and Generate(9, 43) are the same:\n%s", a)
	}
}

func TestGenerateBounds(t *testing.T) {
	for _, n := range []int{MinGenerateN - 1, MaxGenerateN + 1} {
		if _, err := Generate(context.Background(), n, 1, Easy); err == nil {
			t.Errorf("Generate(%d) succeeded", n)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Generate(ctx, 12, 1, Hard); !errors.Is(err, context.Canceled) {
		t.Errorf("Generate with a cancelled context = %v, want context.Canceled", err)
	}
}

// TestParseGolden reads testdata/parse.txtar: each "NAME.in" grid parses and prints as
// "NAME.out".
func TestParseGolden(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/parse.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
	}
	n := 0
	for name, in := range files {
		base, ok := strings.CutSuffix(name, ".in")
		if !ok {
			continue
		}
		n++
		want, ok := files[base+".out"]
		if !ok {
			t.Fatalf("%s: no %s.out", name, base)
		}
		p, err := Parse(strings.NewReader(in))
		if err != nil {
			t.Errorf("%s: %v", base, err)
			continue
		}
		if got := p.String(); got != want {
			t.Errorf("%s: printed\n%s\nwant\n%s", base, got, want)
		}
		q, err := Parse(strings.NewReader(p.String()))
		if err != nil || q.String() != p.String() {
			t.Errorf("%s: printed grid does not read back: %v", base, err)
		}
	}
	if n == 0 {
		t.Fatal("no grids in testdata/parse.txtar")
	}
}

func TestParseBad(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "no rows"},
		{"blank", "\n \n", "no rows"},
		{"short row", "AB\nA\n", `row 2 has 1 cells, want 2`},
		{"long row", "AB\nABB\n", `row 2 has 3 cells, want 2`},
		{"not square", "AB\nAB\nAB\n", `row 1 has 2 cells, want 3`},
		{"too few regions", "AAB\nAAB\nAAB\n", "missing C"},
		{"letter past N", "AB\nAD\n", "region D: a 2×2 grid has regions A to B"},
		{"digit", "A1\nBB\n", `row 1 has "1": want region letters A to B`},
		{"too big", strings.Repeat("A\n", 27), "1 to 26 rows, got 27"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.in))
			if err == nil {
				t.Fatalf("Parse(%q) succeeded", tc.in)
			}
			if !errors.Is(err, ErrBadGrid) {
				t.Errorf("Parse(%q) = %v, not ErrBadGrid", tc.in, err)
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Parse(%q) = %q, want one line containing %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestNewBad(t *testing.T) {
	tests := []struct {
		name string
		rows [][]int
		want string
	}{
		{"no rows", nil, "got 0"},
		{"id out of range", [][]int{{0, 2}, {1, 1}}, "r1c2 has region 2"},
		{"negative", [][]int{{0, -1}, {1, 1}}, "r1c2 has region -1"},
		{"ragged", [][]int{{0, 1}, {1}}, "row 2 has 1 cells"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(tc.rows); err == nil || !errors.Is(err, ErrBadGrid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New(%v) = %v, want an ErrBadGrid containing %q", tc.rows, err, tc.want)
			}
		})
	}
}

// splitLevel is a published level of the daily game (in the issue that asked for regions in
// several pieces) whose regions B (r1c6, r7c6) and F (r4c5, r6c9) are each in two pieces;
// its players found one solution.
const splitLevel = `AAAAABAAA
AAAAAAACA
AADAAAAAA
EAAAFAAAA
AAAAAAGAA
AAAAAAAAF
AAAAABAAA
AAAHAAAAA
AIAAAAAAA
`

// TestPieces: regions in several pieces are read, counted by Pieces, and solved, counted,
// explained and hinted like any other; the slow counter, which knows nothing of pieces,
// agrees.
func TestPieces(t *testing.T) {
	tests := []struct {
		name, grid string
		pieces     []int
		solutions  int
	}{
		{"published 9×9, B and F in two pieces", splitLevel, []int{1, 2, 1, 1, 1, 2, 1, 1, 1}, 1},
		{"two pieces", "ABA\nBBC\nCCC\n", []int{2, 1, 1}, 0},
		{"diagonal only", "AB\nBA\n", []int{2, 2}, 0},
		{"one piece each", "ABBBC\nAABCC\nAADCC\nAADCC\nAEECC\n", []int{1, 1, 1, 1, 1}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(strings.NewReader(tc.grid))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := p.Pieces(); fmt.Sprint(got) != fmt.Sprint(tc.pieces) {
				t.Errorf("Pieces() = %v, want %v", got, tc.pieces)
			}
			slow := slowSolutions(p, 3)
			if len(slow) != tc.solutions {
				t.Fatalf("slow counter finds %d solutions, want %d", len(slow), tc.solutions)
			}
			if got := Count(p, 3); got != tc.solutions {
				t.Errorf("Count = %d, want %d", got, tc.solutions)
			}
			if tc.solutions != 1 {
				return
			}
			sol, err := Solve(p)
			if err != nil || fmt.Sprint(sol) != fmt.Sprint(slow[0]) {
				t.Errorf("Solve = %v, %v; want %v", sol, err, slow[0])
			}
			steps, err := Explain(p)
			if err != nil {
				t.Fatalf("Explain: %d steps, %v", len(steps), err)
			}
			checkSteps(t, tc.name, p, steps, slow)
			st, err := Hint(p, nil)
			if err != nil || st.Text != steps[0].Text {
				t.Errorf("Hint(no queens) = %q, %v; want the first step", st.Text, err)
			}
		})
	}
}

// TestExplainManySolutions: on a grid with several solutions the technique solver stops
// (it never guesses), and what it did is true of every solution.
func TestExplainManySolutions(t *testing.T) {
	p := rowRegions(6)
	steps, err := Explain(p)
	if !errors.Is(err, ErrStuck) {
		t.Fatalf("Explain(rows 6) = %d steps, %v; want ErrStuck", len(steps), err)
	}
	checkSteps(t, "rows 6", p, steps, slowSolutions(p, 1<<20))
	// Three rows of one region each: no solution.
	q, err := Parse(strings.NewReader("AAA\nBBB\nCCC\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Explain(q); !errors.Is(err, ErrNoSolution) {
		t.Errorf("Explain(3 rows) = %v, want ErrNoSolution", err)
	}
	if _, err := Solve(q); !errors.Is(err, ErrNoSolution) {
		t.Errorf("Solve(3 rows) = %v, want ErrNoSolution", err)
	}
}

func TestHint(t *testing.T) {
	p, err := Generate(context.Background(), 8, 3, Medium)
	if err != nil {
		t.Fatal(err)
	}
	sol, _ := Solve(p)
	steps, _ := Explain(p)
	st, err := Hint(p, nil)
	if err != nil || st.Text != steps[0].Text {
		t.Errorf("Hint(no queens) = %q, %v; want the first step %q", st.Text, err, steps[0].Text)
	}
	var all []board.Square
	for r, c := range sol {
		all = append(all, board.Square{Row: r, Col: c})
	}
	if _, err := Hint(p, all); !errors.Is(err, ErrSolved) {
		t.Errorf("Hint(solution) = %v, want ErrSolved", err)
	}
	if _, err := Hint(p, []board.Square{{Row: 0, Col: 0}, {Row: 1, Col: 1}}); err == nil {
		t.Error("Hint(touching queens) succeeded")
	}
	if _, err := Hint(p, []board.Square{{Row: 9, Col: 0}}); err == nil {
		t.Error("Hint(off the grid) succeeded")
	}
}

func TestLevelNames(t *testing.T) {
	for l := Easy; l <= Hard; l++ {
		got, err := ParseLevel(strings.ToUpper(l.String()))
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l, got, err)
		}
	}
	if _, err := ParseLevel("extreme"); err == nil {
		t.Error(`ParseLevel("extreme") succeeded`)
	}
}

// FuzzExplain feeds grids to the technique solver and checks it against every solution
// the slow counter finds: no step may contradict one, and a finished explanation means a
// unique solution, the one Solve gives.
func FuzzExplain(f *testing.F) {
	for _, tc := range []genCase{{5, 1, Easy}, {6, 2, Medium}, {7, 3, Hard}, {8, 4, Medium}, {9, 5, Easy}} {
		p, err := Generate(context.Background(), tc.n, tc.seed, tc.level)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(p.String())
	}
	f.Add("AAB\nCAB\nCCB\n")
	f.Fuzz(func(t *testing.T, grid string) {
		p, err := Parse(strings.NewReader(grid))
		if err != nil || p.N() > 9 {
			return
		}
		sols := slowSolutions(p, 1<<16)
		if got := Count(p, 2); got != min(2, len(sols)) {
			t.Fatalf("Count = %d, slow counter %d\n%s", got, len(sols), p)
		}
		steps, err := Explain(p)
		checkSteps(t, "fuzz", p, steps, sols)
		switch {
		case err == nil:
			if len(sols) != 1 {
				t.Fatalf("Explain finished but there are %d solutions\n%s", len(sols), p)
			}
		case errors.Is(err, ErrNoSolution):
			if len(sols) != 0 {
				t.Fatalf("Explain says no solution, slow counter finds %d\n%s", len(sols), p)
			}
		case !errors.Is(err, ErrStuck):
			t.Fatalf("Explain: %v", err)
		}
	})
}

// TestRecordJSON checks the JSON form that the CLI and the web API share: the keys named in
// Record's comment, the grid as Rows, and no "solution" key when there is none.
func TestRecordJSON(t *testing.T) {
	p, err := Generate(context.Background(), 6, 3, Easy)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := Solve(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, withSol := range []bool{false, true} {
		var s []int
		if withSol {
			s = sol
		}
		data, err := json.Marshal(p.Record(Easy, 3, s))
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			N        *int
			Level    *string
			Seed     *uint64
			Regions  [][]int
			Solution []int
		}
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		if got.N == nil || *got.N != 6 || got.Level == nil || *got.Level != "easy" || got.Seed == nil || *got.Seed != 3 {
			t.Errorf("%s: want n 6, level easy, seed 3", data)
		}
		if fmt.Sprint(got.Regions) != fmt.Sprint(p.Rows()) {
			t.Errorf("%s: regions are not the puzzle's rows %v", data, p.Rows())
		}
		if hasSol := strings.Contains(string(data), `"solution"`); hasSol != withSol || withSol && !IsSolution(p, got.Solution) {
			t.Errorf("%s: solution key %v, want %v and a solution", data, hasSol, withSol)
		}
	}
}

// TestShape holds generated puzzles to the published game's shape (issues 36 and 45) over
// seeds 1…6 at N = 7–9, all levels: the largest region holds 0.30 of the board or more on
// average and 40 % of it in at least 15 % of the puzzles; a region winds (its longest
// shortest path, ÷ N) 1.4 or more on average (the published levels: 1.75); a third of the
// medium and hard puzzles or more keep a region of at most three cells; a one-cell region in
// at most 30 % of puzzles, regions of at most three cells at most two a puzzle on average.
func TestShape(t *testing.T) {
	var puzzles, one, small, big, smallHarder, harder int
	var share, winding float64
	for n := 7; n <= 9; n++ {
		for lv := Easy; lv <= Hard; lv++ {
			for seed := uint64(1); seed <= 6; seed++ {
				p, err := Generate(context.Background(), n, seed, lv)
				if err != nil {
					t.Fatal(err)
				}
				rows := p.Rows()
				size := make([]int, n)
				for _, row := range rows {
					for _, k := range row {
						size[k]++
					}
				}
				hasOne, hasSmall := false, false
				for _, z := range size {
					if z <= 3 {
						small++
						hasSmall = true
					}
					hasOne = hasOne || z == 1
				}
				if hasOne {
					one++
				}
				if lv > Easy {
					harder++
					if hasSmall {
						smallHarder++
					}
				}
				most := slices.Max(size)
				share += float64(most) / float64(n*n)
				if 10*most >= 4*n*n {
					big++
				}
				winding += float64(longestInRegion(rows)) / float64(n)
				puzzles++
			}
		}
	}
	f := float64(puzzles)
	t.Logf("%d puzzles: largest region's share %.2f, %d with one of 40 %%, winding %.2f, %d of %d medium and hard with a region of ≤ 3 cells",
		puzzles, share/f, big, winding/f, smallHarder, harder)
	if share/f < 0.30 {
		t.Errorf("the largest region's share of the board is %.2f on average, want at least 0.30", share/f)
	}
	if 100*big < 15*puzzles {
		t.Errorf("%d of %d puzzles have a region of 40 %% of the board, want at least 15 %%", big, puzzles)
	}
	if winding/f < 1.4 {
		t.Errorf("regions wind %.2f on average, want at least 1.4", winding/f)
	}
	if 3*smallHarder < harder {
		t.Errorf("%d of %d medium and hard puzzles have a region of at most three cells, want a third", smallHarder, harder)
	}
	if one*10 > puzzles*3 {
		t.Errorf("%d of %d puzzles have a one-cell region, want at most 30 %%", one, puzzles)
	}
	if small > 2*puzzles {
		t.Errorf("%d regions of at most three cells in %d puzzles, want at most 2 a puzzle", small, puzzles)
	}
}

// longestInRegion is the longest shortest path inside one region of rows, in steps between
// cells that share a side.
func longestInRegion(rows [][]int) int {
	n := len(rows)
	best := 0
	dist := make([]int, n*n)
	for start := range n * n {
		for i := range dist {
			dist[i] = -1
		}
		dist[start] = 0
		queue := []int{start}
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			best = max(best, dist[i])
			for _, d := range [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
				r, c := i/n+d[0], i%n+d[1]
				if r >= 0 && c >= 0 && r < n && c < n && rows[r][c] == rows[i/n][i%n] && dist[r*n+c] < 0 {
					dist[r*n+c] = dist[i] + 1
					queue = append(queue, r*n+c)
				}
			}
		}
	}
	return best
}
