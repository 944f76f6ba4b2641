package web

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens/regions"
)

// regionsRoutes registers the API of the Regions game (package queens/regions).
func (s *Server) regionsRoutes() {
	s.handle("/api/regions", alwaysHeavy, s.regionsPuzzle)
	s.handle("/api/regions/hint", nil, s.regionsHint)
}

// regionsPuzzleJSON is a generated puzzle, in the fields of "queens regions --format json".
type regionsPuzzleJSON struct {
	N        int     `json:"n"`
	Level    string  `json:"level"`
	Seed     uint64  `json:"seed"`
	Regions  [][]int `json:"regions"`
	Grid     string  `json:"grid"` // the regions as letters, rows joined by "/": what hint reads
	Solution []int   `json:"solution"`
}

// regionsPuzzle answers GET /api/regions?n=&seed=&level=: a puzzle with exactly one
// solution, the same for the same n, seed and level. Generation takes milliseconds up to
// N = 15 and around a second at N = 20, so every request takes a heavy slot.
func (s *Server) regionsPuzzle(w http.ResponseWriter, r *http.Request) error {
	n, err := intParam(r, "n", regions.MinGenerateN, regions.MaxGenerateN, 8)
	if err != nil {
		return err
	}
	lv, err := param(r, "level")
	if err != nil {
		return err
	}
	if lv == "" {
		lv = "easy"
	}
	level, err := regions.ParseLevel(lv)
	if err != nil {
		return badRequest("%v", err)
	}
	seed, err := intParam(r, "seed", 0, maxPuzzleSeed, 1)
	if err != nil {
		return err
	}
	p, err := regions.Generate(r.Context(), n, uint64(seed), level)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return err
		}
		return badRequest("%v", err)
	}
	sol, err := regions.Solve(p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, regionsPuzzleJSON{N: n, Level: level.String(), Seed: uint64(seed), Regions: p.Rows(),
		Grid: strings.ReplaceAll(strings.TrimSuffix(p.String(), "\n"), "\n", "/"), Solution: sol})
	return nil
}

// cellJSON is a cell as [row, col], 0-based, with its name rRcC.
type cellJSON struct {
	At   [2]int `json:"at"`
	Name string `json:"name"`
}

func cellsJSON(sqs []board.Square) []cellJSON {
	out := make([]cellJSON, 0, len(sqs))
	for _, q := range sqs {
		out = append(out, cellJSON{At: [2]int{q.Row, q.Col}, Name: regions.CellName(q)})
	}
	return out
}

// regionsHintJSON is the answer of the hint endpoint: the next step, or the player's
// wrong queens, or that the puzzle is solved.
type regionsHintJSON struct {
	Solved    bool       `json:"solved"`
	Wrong     []cellJSON `json:"wrong"`               // queens not in the solution
	Technique string     `json:"technique,omitempty"` // the step's technique
	Level     string     `json:"level,omitempty"`     // and its level
	Queen     *cellJSON  `json:"queen,omitempty"`     // where the step puts a queen
	Ruled     []cellJSON `json:"ruled"`               // the cells it rules out
	Because   []cellJSON `json:"because"`             // the cells its reasoning looks at
	Text      string     `json:"text"`
}

// regionsHint answers GET /api/regions/hint?grid=&queens=: grid is the puzzle as region
// letters with rows separated by "/" (or newlines), queens the player's queens as cell
// names rRcC separated by spaces or commas (1-based row and column). It answers with the
// player's queens that are not in the solution, if any; otherwise with the next step of the
// technique solver from those queens. A grid without exactly one solution is refused.
// It costs one count and one step of the solver: milliseconds.
func (s *Server) regionsHint(w http.ResponseWriter, r *http.Request) error {
	g, err := param(r, "grid")
	if err != nil {
		return err
	}
	p, err := regions.Parse(strings.NewReader(strings.ReplaceAll(g, "/", "\n")))
	if err != nil {
		return badRequest("grid: %v", err)
	}
	if c := regions.Count(p, 2); c != 1 {
		return badRequest("grid: the puzzle has %s solutions, want exactly one", map[int]string{0: "no", 2: "several"}[c])
	}
	sol, err := regions.Solve(p)
	if err != nil {
		return err
	}
	qs, err := param(r, "queens")
	if err != nil {
		return err
	}
	var queens, wrong []board.Square
	for _, f := range strings.FieldsFunc(qs, func(c rune) bool { return c == ' ' || c == ',' }) {
		q, ok := parseCell(f, p.N())
		if !ok {
			return badRequest("queens: %q is not a cell: want rRcC, row and column from 1 to %d", clip(f), p.N())
		}
		queens = append(queens, q)
		if sol[q.Row] != q.Col {
			wrong = append(wrong, q)
		}
	}
	out := regionsHintJSON{Wrong: cellsJSON(wrong), Ruled: []cellJSON{}, Because: []cellJSON{}}
	if len(wrong) > 0 {
		out.Text = "The queen on " + regions.CellName(wrong[0]) + " is not in the solution: take it away."
		writeJSON(w, http.StatusOK, out)
		return nil
	}
	st, err := regions.Hint(p, queens)
	switch {
	case errors.Is(err, regions.ErrSolved):
		out.Solved, out.Text = true, "Solved: every row, column and region has its queen."
	case errors.Is(err, regions.ErrStuck):
		// From these queens no technique applies (they skipped a step the techniques
		// need): reveal the first missing queen of the solution.
		for row, col := range sol {
			if !slices.Contains(queens, board.Square{Row: row, Col: col}) {
				q := cellsJSON([]board.Square{{Row: row, Col: col}})[0]
				out.Queen, out.Technique = &q, "reveal"
				out.Text = "No technique applies from these queens; the queen of row " + strconv.Itoa(row+1) + " is on " + q.Name + "."
				break
			}
		}
	case err != nil:
		return badRequest("queens: %v", err)
	default:
		out.Technique, out.Level, out.Text = st.Technique.String(), st.Technique.Level().String(), st.Text
		if st.Placed {
			q := cellsJSON([]board.Square{st.Queen})[0]
			out.Queen = &q
		}
		out.Ruled, out.Because = cellsJSON(st.Ruled), cellsJSON(st.Because)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// parseCell reads rRcC (1-based) on an n×n grid.
func parseCell(s string, n int) (board.Square, bool) {
	s = strings.ToLower(s)
	rs, cs, ok := strings.Cut(strings.TrimPrefix(s, "r"), "c")
	if !ok || !strings.HasPrefix(s, "r") {
		return board.Square{}, false
	}
	row, err1 := strconv.Atoi(rs)
	col, err2 := strconv.Atoi(cs)
	if err1 != nil || err2 != nil || row < 1 || row > n || col < 1 || col > n {
		return board.Square{}, false
	}
	return board.Square{Row: row - 1, Col: col - 1}, true
}
