package regions

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPublishedLevels checks the published game's levels, issue 45's target "still solved
// without guessing": each must have exactly one solution, and [Explain] must reach it with no
// guess. The levels are not in the repository: CHESSPUZZLES_LEVELS=DIR names a directory of
// them, one grid a *.txt file in [Parse]'s form (command scripts/gamelevels writes such files
// from the game's own level files). It prints how many were solved at each level and names
// each that was not, with where [Explain] stopped. About 2 ms a level.
func TestPublishedLevels(t *testing.T) {
	dir := os.Getenv("CHESSPUZZLES_LEVELS")
	if dir == "" {
		t.Skip("set CHESSPUZZLES_LEVELS=DIR (the game's levels, one letter grid a *.txt file) to check them")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no *.txt level files in %s (err %v)", dir, err)
	}
	var byLevel [Hard + 1]int
	var bySize [MaxN + 1]int
	stuck, unsolved := 0, 0
	for _, name := range files {
		base := filepath.Base(name)
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", base, err)
			unsolved++
			continue
		}
		sols := Count(p, 2)
		if sols != 1 {
			t.Errorf("%s: %d solutions (2 means 2 or more), want exactly 1", base, sols)
			unsolved++
			continue
		}
		bySize[p.N()]++
		steps, err := Explain(p)
		if err != nil {
			stuck++
			t.Errorf("%s: %v after %d steps:\n%s", base, err, len(steps), stuckGrid(p, steps))
			continue
		}
		want, _ := Solve(p)
		got := make([]int, p.N())
		for _, st := range steps {
			if st.Placed {
				got[st.Queen.Row] = st.Queen.Col
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: Explain placed %v, the solution is %v", base, got, want)
			continue
		}
		byLevel[gradeSteps(steps)]++
	}
	var sizes []string
	for n, k := range bySize {
		if k > 0 {
			sizes = append(sizes, fmt.Sprintf("%d×%d: %d", n, n, k))
		}
	}
	t.Logf("%d level files in %s: %d solved without guessing (easy %d, medium %d, hard %d), %d need guessing, %d without exactly one solution or unreadable; sizes %s",
		len(files), dir, byLevel[Easy]+byLevel[Medium]+byLevel[Hard], byLevel[Easy], byLevel[Medium], byLevel[Hard],
		stuck, unsolved, strings.Join(sizes, ", "))
}

// stuckGrid draws p as [Explain] left it after steps: Q for a queen, its region's letter for
// a free cell, '.' for a cell ruled out.
func stuckGrid(p *Puzzle, steps []Step) string {
	s := p.start()
	for _, st := range steps {
		apply(p, &s, st)
	}
	queen := make(map[[2]int]bool)
	for _, st := range steps {
		if st.Placed {
			queen[[2]int{st.Queen.Row, st.Queen.Col}] = true
		}
	}
	var b strings.Builder
	for r := range p.n {
		for c := range p.n {
			switch {
			case queen[[2]int{r, c}]:
				b.WriteByte('Q')
			case s.cand[r]&(1<<c) != 0:
				b.WriteString(Letter(p.Region(r, c)))
			default:
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
