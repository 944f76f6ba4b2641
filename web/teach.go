package web

import (
	"context"
	"errors"
	"net/http"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

// The endpoints of the Learn tab (docs/teach.md):
//
//	GET /api/queens/trace?n=8&from=0&limit=5000   events of the backtracking search, a page at a time
//	GET /api/queens/puzzle?n=10&level=hard&seed=7  a puzzle with exactly one completion
//	GET /api/knight/explain?size=8&start=a1        Warnsdorff's rule step by step
//	GET /api/knight/next?size=8&path=a1 b3         the step Warnsdorff's rule takes from a path (hint)
//	GET /api/knight/complete?size=8&path=a1 b3&closed=0  a tour that begins with path, or why none
//	GET /api/knight/replay?size=8&start=b5&method=article  a method's path, also when it gets stuck

// Bounds of the Learn endpoints.
const (
	maxTraceLimit  = 20000    // events a page
	maxTraceFrom   = 30000000 // past every event of N = 12 (21,378,654)
	maxTeachSide   = 32       // explain, next, replay
	maxPuzzleSeed  = 1<<53 - 1
	defTraceLimit  = 5000
	maxCompleteLen = 32 * 32
)

// alwaysHeavy marks an endpoint whose every request takes a heavy slot: searches whose cost
// the request's size does not bound tightly (puzzle generation, completing a tour, traces).
func alwaysHeavy(*http.Request) bool { return true }

func (s *Server) teachRoutes() {
	s.handle("/api/queens/trace", alwaysHeavy, s.queensTrace)
	s.handle("/api/queens/puzzle", alwaysHeavy, s.queensPuzzle)
	s.handle("/api/knight/explain", nil, s.knightExplain)
	s.handle("/api/knight/next", nil, s.knightNext)
	s.handle("/api/knight/complete", alwaysHeavy, s.knightComplete)
	s.handle("/api/knight/replay", nil, s.knightReplay)
}

// queensTrace answers GET /api/queens/trace?n=&from=&limit=: the events from number from
// (0-based) on, at most limit of them, each as [kind, row, col, by, placed, deadEnds,
// solutions] with kind an index into kinds; done when the search has ended. Skipping to
// from replays the search, a few ns an event.
func (s *Server) queensTrace(w http.ResponseWriter, r *http.Request) error {
	n, err := intParam(r, "n", queens.MinTraceN, queens.MaxTraceN, 8)
	if err != nil {
		return err
	}
	from, err := intParam(r, "from", 0, maxTraceFrom, 0)
	if err != nil {
		return err
	}
	limit, err := intParam(r, "limit", 1, maxTraceLimit, defTraceLimit)
	if err != nil {
		return err
	}
	events := make([][7]int64, 0, min(limit, 1024))
	i, done := 0, true
	for e := range queens.Trace(r.Context(), n) {
		if i >= from {
			if len(events) == limit {
				done = false
				break
			}
			events = append(events, [7]int64{int64(e.Kind), int64(e.Row), int64(e.Col), int64(e.By), e.Placed, e.DeadEnds, e.Solutions})
		}
		i++
	}
	if err := r.Context().Err(); err != nil {
		return err
	}
	nv, _ := queens.NaiveCount(n)
	return respond(w, map[string]any{
		"n": n, "from": from, "events": events, "done": done,
		"kinds": []string{queens.Try.String(), queens.Attacked.String(), queens.Place.String(), queens.DeadEnd.String(), queens.Remove.String(), queens.Solution.String()},
		"naive": nv,
	})
}

// queensPuzzle answers GET /api/queens/puzzle?n=&level=&seed=.
func (s *Server) queensPuzzle(w http.ResponseWriter, r *http.Request) error {
	n, err := intParam(r, "n", queens.MinPuzzleN, queens.MaxPuzzleN, 8)
	if err != nil {
		return err
	}
	lv, err := paramOr(r, "level", "easy")
	if err != nil {
		return err
	}
	level, err := queens.ParseLevel(lv)
	if err != nil {
		return badRequest("%v", err)
	}
	seed, err := seedParam(r, "seed", maxPuzzleSeed, 1)
	if err != nil {
		return err
	}
	p, err := queens.NewPuzzle(r.Context(), n, level, seed)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return err
		}
		return badRequest("%v", err)
	}
	return respond(w, p)
}

// squareJSON is a square as the page uses it: [row, col] and its name.
type squareJSON struct {
	At   [2]int `json:"at"`
	Name string `json:"name"`
}

func sqJSON(sz board.Size, sq board.Square) squareJSON {
	return squareJSON{At: [2]int{sq.Row, sq.Col}, Name: sz.Name(sq)}
}

type candidateJSON struct {
	squareJSON
	Onward    int `json:"onward"`
	LookAhead int `json:"lookAhead"`
}

type stepJSON struct {
	Knight     squareJSON      `json:"knight"`
	Candidates []candidateJSON `json:"candidates"`
	Min        int             `json:"min"`
	Tie        bool            `json:"tie"`
	Chosen     int             `json:"chosen"`
}

func stepOut(sz board.Size, st knight.Step) stepJSON {
	out := stepJSON{Knight: sqJSON(sz, st.Knight), Candidates: []candidateJSON{}, Min: st.Min, Tie: st.Tie, Chosen: st.Chosen}
	for _, c := range st.Candidates {
		out.Candidates = append(out.Candidates, candidateJSON{sqJSON(sz, c.Square), c.Onward, c.LookAhead})
	}
	return out
}

// knightExplain answers GET /api/knight/explain?size=&start=: every step of Warnsdorff's
// rule with its candidates; stuck and message when it gets stuck.
func (s *Server) knightExplain(w http.ResponseWriter, r *http.Request) error {
	sz, start, err := readSizeStart(r, maxTeachSide)
	if err != nil {
		return err
	}
	steps, err := knight.Explain(sz.Rows, sz.Cols, start)
	out := map[string]any{"rows": sz.Rows, "cols": sz.Cols, "stuck": false}
	switch {
	case errors.Is(err, knight.ErrDeadEnd):
		out["stuck"] = true
		out["message"] = err.Error()
	case err != nil:
		return badRequest("%v", err)
	}
	js := make([]stepJSON, len(steps))
	for i, st := range steps {
		js[i] = stepOut(sz, st)
	}
	out["steps"] = js
	return respond(w, out)
}

// knightNext answers GET /api/knight/next?size=&path=: the knight's candidates from the end
// of path with their accessibility numbers and Warnsdorff's choice, and whether it is stuck.
func (s *Server) knightNext(w http.ResponseWriter, r *http.Request) error {
	sz, path, err := readSizeSquares(r, maxTeachSide, "path")
	if err != nil {
		return err
	}
	st, err := knight.NextStep(sz.Rows, sz.Cols, path)
	if err != nil {
		return badRequest("path: %v", err)
	}
	left := sz.Squares() - len(path)
	return respond(w, map[string]any{
		"rows": sz.Rows, "cols": sz.Cols, "step": stepOut(sz, st),
		"left": left, "done": left == 0, "stuck": left > 0 && len(st.Candidates) == 0,
	})
}

// knightComplete answers GET /api/knight/complete?size=&path=&closed=: found and the whole
// tour, or found false and why (no tour begins with path).
func (s *Server) knightComplete(w http.ResponseWriter, r *http.Request) error {
	sz, path, err := readSizeSquares(r, maxTeachSide, "path")
	if err != nil {
		return err
	}
	if sz.Squares() > maxCompleteLen {
		return badRequest("size: completing a tour takes boards of at most %d squares, got %s", maxCompleteLen, sz)
	}
	closed, err := boolParam(r, "closed", false)
	if err != nil {
		return err
	}
	t, err := knight.Complete(r.Context(), sz.Rows, sz.Cols, path, closed)
	out := map[string]any{"rows": sz.Rows, "cols": sz.Cols, "closed": closed}
	return writeTourAnswer(w, out, err, "path: ", func() { out["squares"] = tourSquares(t) })
}

func tourSquares(t knight.Tour) [][2]int {
	out := make([][2]int, t.Len())
	for i := range out {
		sq := t.Square(i)
		out[i] = [2]int{sq.Row, sq.Col}
	}
	return out
}

// knightReplay answers GET /api/knight/replay?size=&start=&method=warnsdorff|article: the
// squares the method visits, all of them, or up to where it got stuck (stuck and message).
func (s *Server) knightReplay(w http.ResponseWriter, r *http.Request) error {
	sz, start, err := readSizeStart(r, maxTeachSide)
	if err != nil {
		return err
	}
	m, err := paramOr(r, "method", knight.Warnsdorff.String())
	if err != nil {
		return err
	}
	method, err := knight.ParseMethod(m)
	if err != nil || method == knight.Auto {
		return badRequest("method must be warnsdorff or article, got %q", clip(m))
	}
	out := map[string]any{"rows": sz.Rows, "cols": sz.Cols, "method": method.String(), "stuck": false}
	var squares [][2]int
	switch method {
	case knight.Warnsdorff:
		steps, err := knight.Explain(sz.Rows, sz.Cols, start)
		if err != nil && !errors.Is(err, knight.ErrDeadEnd) {
			return badRequest("%v", err)
		}
		if err != nil {
			out["stuck"], out["message"] = true, err.Error()
		}
		for _, st := range steps {
			squares = append(squares, [2]int{st.Knight.Row, st.Knight.Col})
		}
	case knight.Article:
		t, err := knight.Find(r.Context(), sz, start, knight.Options{Method: knight.Article})
		var de *knight.DeadEndError
		switch {
		case errors.As(err, &de):
			out["stuck"], out["message"] = true, err.Error()
			t = de.Stuck
		case errors.Is(err, knight.ErrNoTour):
			out["stuck"], out["message"] = true, err.Error()
		case err != nil:
			return badRequest("%v", err)
		}
		squares = tourSquares(t)
	}
	out["squares"] = squares
	return respond(w, out)
}
