// Package web is the local web app of chesspuzzles: one page and a JSON API over the
// queens and knight engines, served with net/http.
//
// Usage:
//
//	srv := web.New(web.Options{})
//	http.ListenAndServe("127.0.0.1:8080", srv.Handler())
//
// The page (web/static: plain HTML, CSS and ES modules, embedded with embed, no build step)
// has three tabs: browse the solutions of N queens, solve by hand, and watch a knight's
// tour. Everything it shows comes from the API:
//
//	GET /api/queens/count?n=8                      Q(n) and U(n), from a table of known values
//	GET /api/queens/solutions?n=8&after=&limit=&unique=  a page of solutions and the next cursor
//	GET /api/queens/check?position=15863724        conflicts and per-line counts
//	GET /api/queens/complete?n=8&position=a8       a solution extending the queens, or "no"
//	GET /api/queens/picture.svg|.png?n=&position=  the board as a picture
//	GET /api/knight/tour?size=8&start=a1&closed=1  a knight's tour
//	GET /api/knight/accessibility?size=8&visited=  onward moves from every square
//	GET /api/knight/picture.svg|.png?size=&start=  the tour as a picture
//
// Limits. Every request runs under a deadline ([Options.Timeout]); searches that may run
// long (listing, completing, touring, PNG pictures) also take one of [Options.MaxHeavy]
// slots, and a request that finds none free within a second gets 503 with a JSON error
// and Retry-After. Sizes are bounded (board sides, page sizes, input lengths); a value
// out of bounds or unreadable gets 400 with a message saying what is allowed. A search cut
// by the deadline gets 503. Errors are always JSON: {"error": "..."}.
package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
)

//go:embed static
var static embed.FS

// Options configures a Server. Zero values choose the defaults.
type Options struct {
	// Timeout bounds each request's work; default 10 s.
	Timeout time.Duration
	// MaxHeavy is how many heavy requests may run at once; default the number of CPUs.
	MaxHeavy int
	// QueueWait is how long a heavy request waits for a free slot before it gets 503;
	// default 1 s.
	QueueWait time.Duration
}

// Server serves the page and the API. It is safe for concurrent use.
type Server struct {
	opts  Options
	heavy chan struct{}
	mux   *http.ServeMux
}

// New returns a Server with the given options.
func New(opts Options) *Server {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.MaxHeavy <= 0 {
		opts.MaxHeavy = runtime.NumCPU()
	}
	if opts.QueueWait <= 0 {
		opts.QueueWait = time.Second
	}
	s := &Server{opts: opts, heavy: make(chan struct{}, opts.MaxHeavy), mux: http.NewServeMux()}
	s.routes()
	return s
}

// Handler returns the handler of the page and the API.
func (s *Server) Handler() http.Handler { return s.mux }

func (s *Server) routes() {
	sub, _ := fs.Sub(static, "static") // static is embedded: Sub cannot fail
	files := http.FileServerFS(sub)
	s.mux.Handle("GET /", files)
	s.handle("GET /api/queens/count", false, s.queensCount)
	s.handle("GET /api/queens/solutions", true, s.queensSolutions)
	s.handle("GET /api/queens/check", false, s.queensCheck)
	s.handle("GET /api/queens/complete", true, s.queensComplete)
	s.handle("GET /api/queens/picture.svg", false, s.queensPicture(false))
	s.handle("GET /api/queens/picture.png", true, s.queensPicture(true))
	s.handle("GET /api/knight/tour", true, s.knightTour)
	s.handle("GET /api/knight/accessibility", false, s.knightAccessibility)
	s.handle("GET /api/knight/picture.svg", true, s.knightPicture(false))
	s.handle("GET /api/knight/picture.png", true, s.knightPicture(true))
	s.teachRoutes() // the Learn tab: teach.go
	s.mux.HandleFunc("GET /api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API endpoint %q (GET /api/queens/… or /api/knight/…)", r.URL.Path)
	})
}

// apiFunc is a handler that returns its error instead of writing it.
type apiFunc func(w http.ResponseWriter, r *http.Request) error

// handle registers an API handler: under the request deadline, in a heavy slot if heavy,
// with its error written as JSON.
func (s *Server) handle(pattern string, heavy bool, h apiFunc) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.opts.Timeout)
		defer cancel()
		r = r.WithContext(ctx)
		if heavy {
			release, err := s.acquire(ctx)
			if err != nil {
				w.Header().Set("Retry-After", "1")
				writeError(w, http.StatusServiceUnavailable, "%v", err)
				return
			}
			defer release()
		}
		if err := h(w, r); err != nil {
			var he *httpError
			switch {
			case errors.As(err, &he):
				writeError(w, he.code, "%s", he.msg)
			case errors.Is(err, context.DeadlineExceeded):
				writeError(w, http.StatusServiceUnavailable, "not done within the server's time limit of %v; try a smaller board", s.opts.Timeout)
			case errors.Is(err, context.Canceled):
				// The client went away: nobody reads the answer.
			default:
				writeError(w, http.StatusInternalServerError, "%v", err)
			}
		}
	})
}

// acquire takes a heavy slot, waiting at most QueueWait.
func (s *Server) acquire(ctx context.Context) (release func(), err error) {
	t := time.NewTimer(s.opts.QueueWait)
	defer t.Stop()
	select {
	case s.heavy <- struct{}{}:
		return func() { <-s.heavy }, nil
	case <-t.C:
		return nil, fmt.Errorf("server busy: %d heavy requests are running, the most it allows; try again", cap(s.heavy))
	case <-ctx.Done():
		return nil, fmt.Errorf("server busy: no search slot came free within the request's time limit: %w", ctx.Err())
	}
}

// httpError is an error with the status to answer it with.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

// badRequest reports bad input: 400.
func badRequest(format string, args ...any) error {
	return &httpError{code: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

func writeError(w http.ResponseWriter, code int, format string, args ...any) {
	writeJSON(w, code, map[string]string{"error": fmt.Sprintf(format, args...)})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.Encode(v) // a failed write means the client went away
}

// maxParam bounds the length of any query value.
const maxParam = 16 << 10

// param returns the query value name, trimmed, or 400 when it is too long.
func param(r *http.Request, name string) (string, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if len(v) > maxParam {
		return "", badRequest("%s is longer than %d bytes", name, maxParam)
	}
	return v, nil
}

// intParam reads a whole number from lo to hi; def when absent.
func intParam(r *http.Request, name string, lo, hi, def int) (int, error) {
	v, err := param(r, name)
	if err != nil {
		return 0, err
	}
	if v == "" {
		if def < lo {
			return 0, badRequest("%s is required: a whole number from %d to %d", name, lo, hi)
		}
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, badRequest("%s must be a whole number from %d to %d, got %q", name, lo, hi, clip(v))
	}
	return n, nil
}

// boolParam reads a flag: 1/true/yes/on or 0/false/no/off (or empty) .
func boolParam(r *http.Request, name string, def bool) (bool, error) {
	v, err := param(r, name)
	if err != nil {
		return false, err
	}
	switch strings.ToLower(v) {
	case "":
		return def, nil
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, badRequest("%s must be true or false (1 or 0), got %q", name, clip(v))
}

func clip(s string) string { return board.Clip(s) }
