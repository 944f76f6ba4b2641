package web

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
	"github.com/chesspuzzles/chesspuzzles/render"
)

// Bounds of the knight API. A tour is bounded by the size of its answer, not by a guess of
// its search time: the search runs under the request's deadline and stops when it passes.
const (
	// maxTourSquares bounds a tour answer: each square is a name and a [row, col] pair,
	// about 20 bytes of JSON, so 250,000 squares (500×500) make about 5 MB.
	maxTourSquares = 250_000
	maxPictureSide = 200
)

// toursRunning counts the tour searches running, for the tests: none outlives its request.
var toursRunning atomic.Int64

// findTour finds a knight's tour of sz from start, closed if asked, with knight.Find (the
// Auto method) under ctx: an error wrapping knight.ErrNoTour says that none exists, and a
// done ctx stops the search within about a millisecond with ctx.Err().
func findTour(ctx context.Context, sz board.Size, start board.Square, closed bool) ([]board.Square, error) {
	toursRunning.Add(1)
	t, err := knight.Find(ctx, sz, start, knight.Options{Closed: closed})
	toursRunning.Add(-1)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, err
	}
	path := make([]board.Square, t.Len())
	for i := range path {
		path[i] = t.Square(i)
	}
	return path, nil
}

// accessibility returns, for every square of sz, how many knight's moves lead from it to
// squares not in visited: the numbers Warnsdorff's rule reads (knight.Accessibility).
// Visited squares hold knight.Visited (-1), the knight's own square knight.Knight (-2).
func accessibility(sz board.Size, visited []board.Square) ([][]int, error) {
	flat, err := knight.Accessibility(sz, visited)
	if err != nil {
		return nil, badRequest("visited: %v", err)
	}
	out := make([][]int, sz.Rows)
	for r := range out {
		out[r] = flat[r*sz.Cols : (r+1)*sz.Cols]
	}
	return out, nil
}

// readSize reads size=N or size=RxC, or rows= and cols=.
func readSize(r *http.Request, maxSide int) (board.Size, error) {
	size, err := param(r, "size")
	if err != nil {
		return board.Size{}, err
	}
	if size != "" {
		sz, err := board.ParseSize(size, maxSide)
		if err != nil {
			return board.Size{}, badRequest("size: %v", err)
		}
		return sz, nil
	}
	rows, err := intParam(r, "rows", 1, maxSide, -1)
	if err != nil {
		return board.Size{}, badRequest("%v (or give size=N or size=RxC)", err)
	}
	cols, err := intParam(r, "cols", 1, maxSide, -1)
	if err != nil {
		return board.Size{}, err
	}
	return board.Size{Rows: rows, Cols: cols}, nil
}

// readSquares reads a list of square names separated by spaces ("a1 b3 c5").
func readSquares(r *http.Request, name string, sz board.Size) ([]board.Square, error) {
	v, err := param(r, name)
	if err != nil {
		return nil, err
	}
	var out []board.Square
	for _, f := range strings.Fields(v) {
		sq, err := sz.ParseSquare(f)
		if err != nil {
			return nil, badRequest("%s: %v", name, err)
		}
		out = append(out, sq)
	}
	return out, nil
}

// readStart reads start= (default a1, the bottom-left square).
func readStart(r *http.Request, sz board.Size) (board.Square, error) {
	v, err := param(r, "start")
	if err != nil {
		return board.Square{}, err
	}
	if v == "" {
		return board.Square{Row: sz.Rows - 1, Col: 0}, nil
	}
	sq, err := sz.ParseSquare(v)
	if err != nil {
		return board.Square{}, badRequest("start: %v", err)
	}
	return sq, nil
}

// readSizeStart reads the board, sides up to maxSide, and start= on it.
func readSizeStart(r *http.Request, maxSide int) (board.Size, board.Square, error) {
	sz, err := readSize(r, maxSide)
	if err != nil {
		return sz, board.Square{}, err
	}
	start, err := readStart(r, sz)
	return sz, start, err
}

// readSizeSquares reads the board, sides up to maxSide, and the squares on it that the
// parameter name lists.
func readSizeSquares(r *http.Request, maxSide int, name string) (board.Size, []board.Square, error) {
	sz, err := readSize(r, maxSide)
	if err != nil {
		return sz, nil, err
	}
	sqs, err := readSquares(r, name, sz)
	return sz, sqs, err
}

// tourRequest reads what a tour needs and finds it; found is false when none exists. The
// board may have sides up to maxSide and at most maxSquares squares.
func tourRequest(r *http.Request, maxSide, maxSquares int) (sz board.Size, start board.Square, closed bool, path []board.Square, err error) {
	if sz, err = readSize(r, maxSide); err != nil {
		return
	}
	if sz.Rows*sz.Cols > maxSquares {
		err = badRequest("a %d×%d board has %d squares; a tour here may have at most %d (e.g. %d×%d)", sz.Rows, sz.Cols, sz.Rows*sz.Cols, maxSquares, 500, 500)
		return
	}
	if start, err = readStart(r, sz); err != nil {
		return
	}
	if closed, err = boolParam(r, "closed", false); err != nil {
		return
	}
	path, err = findTour(r.Context(), sz, start, closed)
	return
}

// knightTour answers GET /api/knight/tour?size=|rows=&cols=&start=&closed=.
func (s *Server) knightTour(w http.ResponseWriter, r *http.Request) error {
	sz, start, closed, path, err := tourRequest(r, maxTourSquares, maxTourSquares)
	out := map[string]any{"rows": sz.Rows, "cols": sz.Cols, "start": sz.Name(start), "closed": closed}
	return writeTourAnswer(w, out, err, "", func() {
		names := make([]string, len(path))
		squares := make([][2]int, len(path))
		for i, sq := range path {
			names[i] = sz.Name(sq)
			squares[i] = [2]int{sq.Row, sq.Col}
		}
		out["path"] = names
		out["squares"] = squares
	})
}

// writeTourAnswer answers a search for a tour, given out and the search's error: found
// true and what found adds to out; found false and the reason when no tour exists
// (knight.ErrNoTour), with status 200 as well; a search ended by its time limit or by the
// client as it is; any other error as a bad request, its message after prefix.
func writeTourAnswer(w http.ResponseWriter, out map[string]any, err error, prefix string, found func()) error {
	switch {
	case errors.Is(err, knight.ErrNoTour):
		out["found"] = false
		out["reason"] = err.Error()
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return err
	case err != nil:
		return badRequest("%s%v", prefix, err)
	default:
		out["found"] = true
		found()
	}
	return respond(w, out)
}

// knightAccessibility answers GET /api/knight/accessibility?size=&visited=.
func (s *Server) knightAccessibility(w http.ResponseWriter, r *http.Request) error {
	sz, visited, err := readSizeSquares(r, maxPictureSide, "visited")
	if err != nil {
		return err
	}
	counts, err := accessibility(sz, visited)
	if err != nil {
		return err
	}
	return respond(w, map[string]any{"rows": sz.Rows, "cols": sz.Cols, "counts": counts})
}

// knightPicture answers GET /api/knight/picture.svg|.png: path= draws the given squares;
// otherwise size=, start= and closed= find the tour first.
func (s *Server) knightPicture(png bool) apiFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		sq, err := intParam(r, "square", 0, maxPictureSq, defaultPictSq)
		if err != nil {
			return err
		}
		opts := render.Options{Square: sq, MaxPixels: maxPNGPixels}
		if png {
			// The picture's cost is known from its size alone: refuse it before the tour
			// is searched for.
			// (A size that does not read is refused below, as it was.)
			if sz, err := readSize(r, maxPictureSide); err == nil {
				if err := render.CheckPNG(sz, opts); err != nil {
					return badRequest("%v", err)
				}
			}
		}
		var t render.Tour
		if r.URL.Query().Has("path") {
			if t.Size, t.Path, err = readSizeSquares(r, maxPictureSide, "path"); err != nil {
				return err
			}
			if t.Closed, err = boolParam(r, "closed", false); err != nil {
				return err
			}
			// The path must be one a knight can walk: on the board, each square once, each
			// step a knight's move; closed, back to its start.
			if len(t.Path) > t.Size.Squares() {
				return badRequest("path: %d squares is longer than the %s board's %d", len(t.Path), t.Size, t.Size.Squares())
			}
			if _, err := knight.Accessibility(t.Size, t.Path); err != nil {
				return badRequest("path: %v", err)
			}
			if n := len(t.Path); t.Closed && n > 1 && !isKnightMove(t.Path[n-1], t.Path[0]) {
				return badRequest("path: closed, but %s to %s is not a knight's move", t.Size.Name(t.Path[n-1]), t.Size.Name(t.Path[0]))
			}
		} else {
			t.Size, _, t.Closed, t.Path, err = tourRequest(r, maxPictureSide, maxPictureSide*maxPictureSide)
			switch {
			case errors.Is(err, knight.ErrNoTour):
				return &httpError{code: http.StatusNotFound, msg: err.Error()}
			case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
				return err
			case err != nil:
				return badRequest("%v", err)
			}
		}
		return writePicture(w, r, t, png, render.Options{Square: sq})
	}
}

// isKnightMove reports whether a knight goes from a to b in one move.
func isKnightMove(a, b board.Square) bool {
	dr, dc := a.Row-b.Row, a.Col-b.Col
	return dr*dr+dc*dc == 5
}
