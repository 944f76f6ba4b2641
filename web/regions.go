package web

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens/regions"
	"github.com/chesspuzzles/chesspuzzles/render"
)

// The endpoints of the Regions tab (the daily "Queens" game, package queens/regions):
//
//	GET /api/regions?n=8&seed=20261125&level=easy&solution=0   a puzzle with exactly one answer
//	GET /api/regions/hint?grid=AAB/ACB/…&queens=r1c2 r3c4        the next step from the player's queens
//	GET /api/regions/hint?n=8&seed=S&level=easy&queens=…         the same, the puzzle named by its seed
//	GET /api/regions/picture.svg|.png?grid=…&queens=…            the grid as a picture (package render)
//
// A puzzle is generated anew for each request (nothing is cached): its cost is bounded by n
// and the request's deadline. The page sends the grid with its hints, so that a hint costs
// one step of the technique solver, not a generation.

// Bounds of the Regions endpoints.
const (
	minRegionsN    = 5  // regions.MinGenerateN
	maxRegionsN    = 20 // generation takes up to seconds here, for some seeds past the default time limit
	defRegionsN    = 8
	cheapRegionsN  = 10 // a hint up to here is one step of the technique solver on at most 100 cells: milliseconds
	maxRegionsSeed = 1<<53 - 1
)

func (s *Server) regionsRoutes() {
	s.handle("/api/regions", alwaysHeavy, s.regionsPuzzle)
	s.handle("/api/regions/hint", heavyRegionsHint, s.regionsHint)
	s.handle("/api/regions/picture.svg", heavyRegionsPicture, s.regionsPicture(false))
	s.handle("/api/regions/picture.png", heavyRegionsPicture, s.regionsPicture(true))
}

// heavyRegionsHint: hints on grids above cheapRegionsN, or on a puzzle that must be
// generated first.
func heavyRegionsHint(r *http.Request) bool {
	g := r.URL.Query().Get("grid")
	if g == "" {
		return true
	}
	rows := strings.FieldsFunc(g, func(c rune) bool { return c == '/' || c == '\n' || c == ',' })
	return len(rows) > cheapRegionsN
}

// heavyRegionsPicture: pictures of a puzzle that must be generated first.
func heavyRegionsPicture(r *http.Request) bool { return r.URL.Query().Get("grid") == "" }

// readRegionsSpec reads n, seed and level, with their defaults 8, 1 and easy.
func readRegionsSpec(r *http.Request) (n int, seed uint64, level regions.Level, err error) {
	if n, err = intParam(r, "n", minRegionsN, maxRegionsN, defRegionsN); err != nil {
		return
	}
	if seed, err = seedParam(r, "seed", maxRegionsSeed, 1); err != nil {
		return
	}
	lv, err := paramOr(r, "level", "easy")
	if err != nil {
		return
	}
	if level, err = regions.ParseLevel(lv); err != nil {
		err = badRequest("level must be easy, medium or hard, got %q", clip(lv))
	}
	return
}

// generateRegions is regions.Generate with its errors sorted into 400 and the deadline's.
func generateRegions(ctx context.Context, n int, seed uint64, level regions.Level) (*regions.Puzzle, error) {
	p, err := regions.Generate(ctx, n, seed, level)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return nil, err
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, badRequest("%v", err)
	}
	return p, nil
}

// regionsPuzzle answers GET /api/regions?n=&seed=&level=&solution=: the puzzle's regions,
// and its solution (the column of each row's queen) when solution is true.
func (s *Server) regionsPuzzle(w http.ResponseWriter, r *http.Request) error {
	n, seed, level, err := readRegionsSpec(r)
	if err != nil {
		return err
	}
	withSol, err := boolParam(r, "solution", false)
	if err != nil {
		return err
	}
	p, err := generateRegions(r.Context(), n, seed, level)
	if err != nil {
		return err
	}
	out := p.Record(level, seed, nil)
	if withSol {
		sol, err := regions.SolveContext(r.Context(), p)
		if err != nil {
			return err // out of time: Generate proved one solution
		}
		out.Solution = sol
	}
	return respond(w, out)
}

// readRegionsGrid reads the grid parameter: rows of region letters separated by "/" (or
// newlines), as Parse reads them.
func readRegionsGrid(r *http.Request) (*regions.Puzzle, error) {
	g, err := param(r, "grid")
	if err != nil {
		return nil, err
	}
	p, err := regions.Parse(strings.NewReader(strings.ReplaceAll(g, "/", "\n")))
	if err != nil {
		return nil, badRequest("grid: %v", err)
	}
	if p.N() < minRegionsN || p.N() > maxRegionsN {
		return nil, badRequest("grid has %d rows; from %d to %d here", p.N(), minRegionsN, maxRegionsN)
	}
	return p, nil
}

// parseCells reads cells written rRcC (1-based, as in the hint's sentences), separated by
// spaces or commas, on an n×n grid.
func parseCells(text string, n int) ([]board.Square, error) {
	fields := strings.FieldsFunc(text, func(c rune) bool { return c == ' ' || c == ',' || c == '+' })
	if len(fields) > n {
		return nil, badRequest("queens has %d cells; at most %d on a %d×%d grid", len(fields), n, n, n)
	}
	cells := make([]board.Square, 0, len(fields))
	for _, f := range fields {
		lf := strings.ToLower(f)
		rs, cs, ok := strings.Cut(strings.TrimPrefix(lf, "r"), "c")
		row, err1 := strconv.Atoi(rs)
		col, err2 := strconv.Atoi(cs)
		if !strings.HasPrefix(lf, "r") || !ok || err1 != nil || err2 != nil {
			return nil, badRequest("queens: %q is not a cell; write cells as r3c5 (row 3 from the top, column 5 from the left)", clip(f))
		}
		if row < 1 || row > n || col < 1 || col > n {
			return nil, badRequest("queens: %q is off the %d×%d grid", clip(f), n, n)
		}
		cells = append(cells, board.Square{Row: row - 1, Col: col - 1})
	}
	return cells, nil
}

// regionStepJSON is a step of the technique solver as the page shows it: cells are [row, col],
// 0-based; the text is the step's short sentence (regions.Step.Short), which names at most
// three cells a list and counts the rest, which the page marks.
type regionStepJSON struct {
	Technique string   `json:"technique"`
	Level     string   `json:"level"`
	Queen     *[2]int  `json:"queen,omitempty"`
	Ruled     [][2]int `json:"ruled"`
	Because   [][2]int `json:"because"`
	Text      string   `json:"text"`
}

func regionCellsJSON(sq []board.Square) [][2]int {
	out := make([][2]int, 0, len(sq))
	for _, s := range sq {
		out = append(out, [2]int{s.Row, s.Col})
	}
	return out
}

// readRegionsPuzzle reads the puzzle of a request: the grid parameter, or else n, seed and
// level, generated (not both).
func readRegionsPuzzle(r *http.Request) (*regions.Puzzle, error) {
	if r.URL.Query().Has("grid") {
		for _, name := range []string{"n", "seed", "level"} {
			if r.URL.Query().Has(name) {
				return nil, badRequest("give the puzzle either as grid or as n, seed and level, not both (%s is given with grid)", name)
			}
		}
		return readRegionsGrid(r)
	}
	n, seed, level, err := readRegionsSpec(r)
	if err != nil {
		return nil, err
	}
	return generateRegions(r.Context(), n, seed, level)
}

// regionsPicture answers GET /api/regions/picture.svg|.png?grid=|n=&seed=&level=,
// queens=&solution=: the grid with the given queens (at most one a row), or with its
// solution when solution is true.
func (s *Server) regionsPicture(png bool) apiFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, err := readRegionsPuzzle(r)
		if err != nil {
			return err
		}
		withSol, err := boolParam(r, "solution", false)
		if err != nil {
			return err
		}
		qtext, err := param(r, "queens")
		if err != nil {
			return err
		}
		if withSol && qtext != "" {
			return badRequest("give queens or solution, not both")
		}
		qs, err := parseCells(qtext, p.N())
		if err != nil {
			return err
		}
		pic := render.Regions{Region: p.Rows()}
		if withSol {
			pic.Queens, err = regions.SolveContext(r.Context(), p)
			if errors.Is(err, regions.ErrNoSolution) {
				return badRequest("%v", err)
			}
			if err != nil {
				return err // out of time
			}
		} else if len(qs) > 0 {
			pic.Queens = make([]int, p.N())
			for i := range pic.Queens {
				pic.Queens[i] = -1
			}
			for _, q := range qs {
				if pic.Queens[q.Row] >= 0 {
					return badRequest("queens: two queens on row %d; a picture shows at most one a row", q.Row+1)
				}
				pic.Queens[q.Row] = q.Col
			}
		}
		return writePicture(w, r, pic, png, render.Options{})
	}
}

// regionsHint answers GET /api/regions/hint?grid=|n=&seed=&level=, queens=: the step the
// technique solver takes next from the player's queens, as {status: "step", step}; or
// status "solved", "wrong" (the queens cannot all be in the solution) or "stuck" (no
// technique applies), each with a sentence. Queens that break the rules get 400.
func (s *Server) regionsHint(w http.ResponseWriter, r *http.Request) error {
	p, err := readRegionsPuzzle(r)
	if err != nil {
		return err
	}
	qtext, err := param(r, "queens")
	if err != nil {
		return err
	}
	qs, err := parseCells(qtext, p.N())
	if err != nil {
		return err
	}
	step, err := regions.Hint(p, qs)
	switch {
	case err == nil:
	case errors.Is(err, regions.ErrSolved):
		return respond(w, map[string]any{"status": "solved", "text": "The puzzle is solved: every row, column and region has its queen."})
	case errors.Is(err, regions.ErrNoSolution):
		return respond(w, map[string]any{"status": "wrong", "text": "Some of your queens are not in the solution: no way to complete them exists. Undo back to where you were sure."})
	case errors.Is(err, regions.ErrStuck):
		return respond(w, map[string]any{"status": "stuck", "text": "No technique applies from here: " + err.Error() + "."})
	default:
		return badRequest("queens: %v", err)
	}
	out := regionStepJSON{
		Technique: step.Technique.String(), Level: step.Technique.Level().String(),
		Ruled: regionCellsJSON(step.Ruled), Because: regionCellsJSON(step.Because), Text: step.Short,
	}
	if step.Placed {
		out.Queen = &[2]int{step.Queen.Row, step.Queen.Col}
	}
	return respond(w, map[string]any{"status": "step", "step": out})
}
