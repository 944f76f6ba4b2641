package web

import (
	"bytes"
	"context"
	"errors"
	"net/http"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/render"
)

// Bounds of the queens API.
const (
	maxListN      = 32   // solutions: a page of the listing stays fast up to here
	maxCheckN     = 4096 // check: the report lists every line's count
	maxCompleteN  = 1000 // complete: the search may still run to the deadline
	maxPictureN   = 64   // pictures: N² squares drawn
	maxPageLimit  = 500
	defaultLimit  = 50
	maxPictureSq  = 128
	defaultPictSq = 0
	// maxPNGPixels bounds a PNG answer's width × height, checked before any work. Drawing
	// holds about 8 bytes a pixel (the RGBA image and the rasterizer's coverage), 64 MiB
	// here; with a path of at most maxPictureSide² squares (52 polygon points of 16 bytes
	// each, 33 MB) and the encoded image (at most the pixels' 32 MiB, doubled while its
	// buffer grows) a picture request holds under 200 MiB, inside the 256 MiB a request
	// may. (issue 25: size=200&square=128 asked for 25,624² pixels and took 8.3 GB.)
	maxPNGPixels = 8 << 20
)

type solutionJSON struct {
	Code string           `json:"code"`
	Perm queens.Placement `json:"perm"`
}

func solutionOf(p queens.Placement) solutionJSON {
	return solutionJSON{Code: p.Format(queens.Code), Perm: p.Clone()}
}

// queensCount answers GET /api/queens/count?n=N from the table of known counts.
func (s *Server) queensCount(w http.ResponseWriter, r *http.Request) error {
	// The bound is the table's: above it no count is known (nor served).
	n, err := intParam(r, "n", 1, queens.MaxKnownN, -1)
	if err != nil {
		return err
	}
	c, ok := queens.Known(n)
	if !ok {
		return badRequest("n = %d: the number of solutions is known only up to n = %d (Q(27), 2016); count smaller boards with chesspuzzles queens count", n, queens.MaxKnownN)
	}
	// Strings, not numbers: Q(27) > 2^53 and JSON numbers are doubles in browsers.
	return respond(w, map[string]any{"n": n, "total": c.Total.String(), "unique": c.Unique.String()})
}

// queensSolutions answers GET /api/queens/solutions?n=&after=&limit=&unique=: up to limit
// solutions after the cursor, and the cursor of the next page (null at the end). Paging
// costs the same at any depth: the listing starts right after the cursor. A page cut short
// by the time limit says so with truncated true; its next cursor continues right after
// its last solution (a page cut before its first solution is a 503 error instead).
func (s *Server) queensSolutions(w http.ResponseWriter, r *http.Request) error {
	n, err := intParam(r, "n", 1, maxListN, -1)
	if err != nil {
		return err
	}
	limit, err := intParam(r, "limit", 1, maxPageLimit, defaultLimit)
	if err != nil {
		return err
	}
	unique, err := boolParam(r, "unique", false)
	if err != nil {
		return err
	}
	opts := queens.ListOptions{Fundamental: unique}
	after, err := param(r, "after")
	if err != nil {
		return err
	}
	if after != "" {
		pos, err := queens.Parse(after, n)
		if err != nil {
			return badRequest("after: %v", err)
		}
		p, ok := pos.Placement()
		if ok && len(pos.Queens) != n {
			ok = false
		}
		if !ok {
			return badRequest("after must have a queen on each of the %d rows, got %q", n, clip(after))
		}
		opts.After = p
	}
	ctx := r.Context()
	page := []solutionJSON{}
	var next *string
	truncated := false
	// One more than the page tells whether another page follows.
	for p := range queens.List(ctx, n, opts) {
		if len(page) == limit {
			code := page[len(page)-1].Code
			next = &code
			break
		}
		page = append(page, solutionOf(p))
	}
	if err := ctx.Err(); err != nil && next == nil {
		if len(page) == 0 {
			return err
		}
		// Cut by the deadline: what was found is a page, resumable from its last code.
		code := page[len(page)-1].Code
		next = &code
		truncated = true
	}
	return respond(w, map[string]any{"n": n, "unique": unique, "solutions": page, "next": next, "truncated": truncated})
}

// readPosition reads the position and n query values, n inferred when absent; an empty
// position is the empty board of n, which is then required.
func readPosition(r *http.Request, maxN int) (queens.Position, error) {
	text, err := param(r, "position")
	if err != nil {
		return queens.Position{}, err
	}
	n := 0 // inferred from the position
	if text == "" || r.URL.Query().Get("n") != "" {
		if n, err = intParam(r, "n", 1, maxN, -1); err != nil {
			return queens.Position{}, err
		}
	}
	if text == "" {
		return queens.Position{N: n}, nil
	}
	pos, err := queens.Parse(text, n)
	if err != nil {
		return queens.Position{}, badRequest("position: %v", err)
	}
	if pos.N > maxN {
		return queens.Position{}, badRequest("position is on a %d×%d board; at most %d×%d here", pos.N, pos.N, maxN, maxN)
	}
	return pos, nil
}

// queensCheck answers GET /api/queens/check?position=&n=: the report of queens check --json.
func (s *Server) queensCheck(w http.ResponseWriter, r *http.Request) error {
	pos, err := readPosition(r, maxCheckN)
	if err != nil {
		return err
	}
	rep := queens.Check(pos) // every pair listed: at most four a queen
	return respond(w, rep.Record(int64(len(rep.Attacks))))
}

// queensComplete answers GET /api/queens/complete?n=&position=: a solution that keeps
// every given queen, or completable false with the reason.
func (s *Server) queensComplete(w http.ResponseWriter, r *http.Request) error {
	pos, err := readPosition(r, maxCompleteN)
	if err != nil {
		return err
	}
	p, err := completeQueens(r.Context(), pos)
	switch {
	case err == nil:
		return respond(w, map[string]any{"n": pos.N, "completable": true, "solution": solutionOf(p)})
	case errors.Is(err, queens.ErrNoCompletion):
		return respond(w, map[string]any{"n": pos.N, "completable": false, "reason": err.Error()})
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return err
	default:
		return badRequest("%v", err)
	}
}

// completeQueens is the hint: queens.Complete of the beyond branch.
func completeQueens(ctx context.Context, pos queens.Position) (queens.Placement, error) {
	return queens.Complete(ctx, pos)
}

// queensPicture answers GET /api/queens/picture.svg|.png?n=&position=&conflicts=&attacked=&square=.
func (s *Server) queensPicture(png bool) apiFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		pos, err := readPosition(r, maxPictureN)
		if err != nil {
			return err
		}
		conflicts, err := boolParam(r, "conflicts", true)
		if err != nil {
			return err
		}
		attacked, err := boolParam(r, "attacked", false)
		if err != nil {
			return err
		}
		sq, err := intParam(r, "square", 0, maxPictureSq, defaultPictSq)
		if err != nil {
			return err
		}
		pic := render.Queens{N: pos.N, Queens: pos.Queens, Attacked: attacked}
		if conflicts {
			pic = render.CheckedQueens(pos)
			pic.Attacked = attacked
		}
		return writePicture(w, r, pic, png, render.Options{Square: sq})
	}
}

// writePicture answers with pic drawn at opts: as PNG, at most maxPNGPixels and stopping
// when the request ends, or as SVG. A picture that cannot be drawn is a bad request.
func writePicture(w http.ResponseWriter, r *http.Request, pic render.Picture, png bool, opts render.Options) error {
	var b bytes.Buffer
	var err error
	if png {
		opts.MaxPixels = maxPNGPixels
		err = render.PNG(r.Context(), &b, pic, opts)
		if ctxErr := r.Context().Err(); ctxErr != nil {
			return ctxErr
		}
	} else {
		err = render.SVG(&b, pic, opts)
	}
	if err != nil {
		return badRequest("%v", err)
	}
	if png {
		w.Header().Set("Content-Type", "image/png")
	} else {
		w.Header().Set("Content-Type", "image/svg+xml")
	}
	w.Write(b.Bytes())
	return nil
}
