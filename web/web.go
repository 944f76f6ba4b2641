// Package web is the local web app of chesspuzzles: one page and a JSON API over the
// queens and knight engines, served with net/http.
//
// Usage:
//
//	srv := web.New(web.Options{})
//	http.ListenAndServe("127.0.0.1:8080", srv.Handler())
//
// The page (web/static: plain HTML, CSS and ES modules, embedded with embed, no build step)
// has five tabs: browse the solutions of N queens, solve by hand, watch a knight's tour,
// learn (the backtracking search, puzzles, Warnsdorff's rule step by step: teach.go) and
// region queens (regions.go). Everything it shows comes from the API, every endpoint GET
// (and HEAD); GET /api lists them:
//
//	GET /api/queens/count?n=8                      Q(n) and U(n), from a table of known values
//	GET /api/queens/solutions?n=8&after=&limit=&unique=  a page of solutions and the next cursor
//	GET /api/queens/check?position=15863724        conflicts and per-line counts
//	GET /api/queens/complete?n=8&position=a8       a solution extending the queens, or "no"
//	GET /api/queens/picture.svg|.png?n=&position=  the board as a picture
//	GET /api/queens/trace?n=8&from=0&limit=5000    events of the backtracking search, a page at a time
//	GET /api/queens/puzzle?n=10&level=hard&seed=7  a puzzle with exactly one completion
//	GET /api/knight/tour?size=8&start=a1&closed=1  a knight's tour
//	GET /api/knight/accessibility?size=8&visited=  onward moves from every square
//	GET /api/knight/picture.svg|.png?size=&start=  the tour as a picture
//	GET /api/knight/explain?size=8&start=a1        Warnsdorff's rule step by step
//	GET /api/knight/next?size=8&path=a1+b3         the step Warnsdorff's rule takes from a path (hint)
//	GET /api/knight/complete?size=8&path=a1+b3     a tour that begins with path, or why none
//	GET /api/knight/replay?size=8&start=b5&method=article  a method's path, also when it gets stuck
//	GET /api/regions?n=8&seed=1&level=easy         a region puzzle with exactly one solution
//	GET /api/regions/hint?grid=&queens=            the next step a person can make, in words
//	GET /api/regions/picture.svg|.png?grid=&queens=  the grid as a picture
//	POST /api/regions/read                         the puzzle in a screenshot (regions_read.go)
//
// Limits. Every request runs under a deadline ([Options.Timeout]), which the searches look at
// inside their loops, so no work outlives its request. Searches are admitted by estimated
// cost: heavy ones take one of [Options.MaxHeavy] slots, cheap ones (small boards) one of
// [Options.MaxCheap] slots of their own, so that they never wait behind heavy ones; a
// request that finds no slot within [Options.QueueWait] gets 503 with Retry-After. Sizes
// are bounded (board sides, squares of a tour, page sizes, input lengths); a value out of
// bounds or unreadable gets 400 with a message saying what is allowed. A search cut by the
// deadline gets 503, except a page of solutions that has some: it comes with truncated
// true and the cursor to continue. With [Options.LoopbackOnly] only loopback host names
// (and [Options.AllowHosts]) are answered, against DNS rebinding. Every API answer is JSON,
// errors too: {"error": "..."}, with 404 for an unknown path and 405 for another method.
// docs/api.md documents each endpoint.
package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

//go:embed static
var static embed.FS

// Options configures a Server. Zero values choose the defaults.
type Options struct {
	// Timeout bounds each request's work; default 10 s.
	Timeout time.Duration
	// MaxHeavy is how many heavy requests may run at once; default runtime.GOMAXPROCS(0),
	// which since Go 1.25 follows a container's CPU limit.
	MaxHeavy int
	// MaxCheap is how many cheap requests (small boards, see [Server]) may run at once,
	// apart from the heavy ones, so that they never wait behind them; default 4×MaxHeavy.
	MaxCheap int
	// QueueWait is how long a request waits for a free slot before it gets 503;
	// default 1 s.
	QueueWait time.Duration
	// LoopbackOnly makes the server answer only requests whose Host header names the
	// loopback interface (localhost, 127.0.0.1, [::1], with any port) or one of
	// AllowHosts; others get 403. A server bound to loopback sets it: a web page the user
	// visits cannot then reach it through a DNS name that resolves to 127.0.0.1 (DNS
	// rebinding).
	LoopbackOnly bool
	// AllowHosts are further host names (without port, any case) that LoopbackOnly lets in.
	AllowHosts []string
}

// Server serves the page and the API. It is safe for concurrent use.
type Server struct {
	opts  Options
	heavy chan struct{}
	cheap chan struct{}
	mux   *http.ServeMux
	api   map[string]string // the API's paths and their methods (GET or POST), for 405 against 404
	hosts map[string]bool   // allowed Host names when LoopbackOnly
}

// New returns a Server with the given options.
func New(opts Options) *Server {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.MaxHeavy <= 0 {
		opts.MaxHeavy = runtime.GOMAXPROCS(0)
	}
	if opts.MaxCheap <= 0 {
		opts.MaxCheap = 4 * opts.MaxHeavy
	}
	if opts.QueueWait <= 0 {
		opts.QueueWait = time.Second
	}
	s := &Server{
		opts:  opts,
		heavy: make(chan struct{}, opts.MaxHeavy),
		cheap: make(chan struct{}, opts.MaxCheap),
		mux:   http.NewServeMux(),
		api:   map[string]string{},
		hosts: map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true},
	}
	for _, h := range opts.AllowHosts {
		s.hosts[strings.ToLower(strings.TrimSuffix(h, "."))] = true
	}
	s.routes()
	return s
}

// Handler returns the handler of the page and the API.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostPortValid(r.Host) {
			writeError(w, http.StatusBadRequest, "host %q has a port that is no port: want a whole number from 0 to 65535, in digits alone", clip(r.Host))
			return
		}
		if s.opts.LoopbackOnly && !s.hostAllowed(r.Host) {
			writeError(w, http.StatusForbidden, "host %q is not allowed: this server listens on loopback and answers only localhost, 127.0.0.1 and [::1]; name other hosts with serve --allow-host", clip(r.Host))
			return
		}
		s.mux.ServeHTTP(w, r)
	})
}

// hostPortValid reports whether the Host header host has no port, an empty one (RFC 3986
// allows "host:"), or one from 0 to 65535 in digits alone.
func hostPortValid(host string) bool {
	_, port, err := net.SplitHostPort(host)
	if err != nil || port == "" {
		return true // no port: what the name is, hostAllowed decides
	}
	p, ok := plainInt(port)
	return ok && p <= 65535
}

// hostAllowed reports whether the Host header host (with or without a port) is a loopback
// name or one of AllowHosts.
func (s *Server) hostAllowed(host string) bool {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	} else {
		h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	}
	return s.hosts[strings.ToLower(strings.TrimSuffix(h, "."))]
}

func (s *Server) routes() {
	sub, _ := fs.Sub(static, "static") // static is embedded: Sub cannot fail
	files := http.FileServerFS(sub)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "only GET and HEAD are allowed", http.StatusMethodNotAllowed)
			return
		}
		files.ServeHTTP(w, r)
	})
	s.handle("/api/queens/count", nil, s.queensCount)
	s.handle("/api/queens/solutions", heavyQueens, s.queensSolutions)
	s.handle("/api/queens/check", nil, s.queensCheck)
	s.handle("/api/queens/complete", heavyQueens, s.queensComplete)
	s.handle("/api/queens/picture.svg", nil, s.queensPicture(false))
	s.handle("/api/queens/picture.png", heavyQueensPNG, s.queensPicture(true))
	s.handle("/api/knight/tour", heavyKnight, s.knightTour)
	s.handle("/api/knight/accessibility", nil, s.knightAccessibility)
	s.handle("/api/knight/picture.svg", heavyKnight, s.knightPicture(false))
	s.handle("/api/knight/picture.png", heavyKnight, s.knightPicture(true))
	s.teachRoutes()       // the Learn tab: teach.go
	s.regionsRoutes()     // the Regions tab: regions.go
	s.regionsReadRoutes() // reading a screenshot: regions_read.go
	index := func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "%s %s: only GET and HEAD are allowed", clip(r.Method), r.URL.Path)
			return
		}
		paths := make([]string, 0, len(s.api))
		for p, method := range s.api {
			paths = append(paths, method+" "+p)
		}
		slices.Sort(paths)
		writeJSON(w, http.StatusOK, map[string]any{"endpoints": paths, "docs": "docs/api.md"})
	}
	s.mux.HandleFunc("/api", index)
	s.mux.HandleFunc("/api/{$}", index)
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		if method := s.api[r.URL.Path]; method == "POST" {
			// The path is known, so the method is what is wrong.
			w.Header().Set("Allow", "POST")
			writeError(w, http.StatusMethodNotAllowed, "%s %s: only POST is allowed", clip(r.Method), r.URL.Path)
			return
		} else if method != "" {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "%s %s: only GET and HEAD are allowed", clip(r.Method), r.URL.Path)
			return
		}
		writeError(w, http.StatusNotFound, "no such API endpoint %q (GET /api lists them)", clip(r.URL.Path))
	})
}

// apiFunc is a handler that returns its error instead of writing it.
type apiFunc func(w http.ResponseWriter, r *http.Request) error

// costFunc estimates a request's cost before it runs: true when it may be heavy. It reads
// only the query, leaving its checking to the handler; unreadable input is cheap, since
// the handler refuses it at once.
type costFunc func(r *http.Request) bool

// handle registers the GET API handler of path: under the request deadline; when cost is
// not nil, in a heavy slot if cost says so and in a cheap slot otherwise, so that cheap
// requests never queue behind heavy ones; with its error written as JSON.
func (s *Server) handle(path string, cost costFunc, h apiFunc) { s.handleMethod("GET", path, cost, h) }

// handleMethod is handle for another method than GET (POST).
func (s *Server) handleMethod(method, path string, cost costFunc, h apiFunc) {
	s.api[path] = method
	s.mux.HandleFunc(method+" "+path, func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.opts.Timeout)
		defer cancel()
		r = r.WithContext(ctx)
		if err := onceEach(r); err != nil {
			writeError(w, http.StatusBadRequest, "%s", err.msg)
			return
		}
		if cost != nil {
			pool, kind := s.cheap, "cheap"
			if cost(r) {
				pool, kind = s.heavy, "heavy"
			}
			release, err := s.acquire(ctx, pool, kind)
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

// acquire takes a slot of pool, waiting at most QueueWait.
func (s *Server) acquire(ctx context.Context, pool chan struct{}, kind string) (release func(), err error) {
	t := time.NewTimer(s.opts.QueueWait)
	defer t.Stop()
	select {
	case pool <- struct{}{}:
		return func() { <-pool }, nil
	case <-t.C:
		return nil, fmt.Errorf("server busy: %d %s requests are running, the most it allows; try again", cap(pool), kind)
	case <-ctx.Done():
		return nil, fmt.Errorf("server busy: no %s slot came free within the request's time limit: %w", kind, ctx.Err())
	}
}

// The cost estimates. Cheap means: done in milliseconds whatever the other values say.
const (
	cheapQueensN  = 12   // a listing or completion up to N = 12 (Q(12) = 14,200 in all)
	cheapPNGN     = 16   // a PNG picture of up to 16×16 squares at the default size
	cheapKnightSq = 1024 // a tour or its picture up to 32×32, the page's boards
)

// queryInt reads name as plainInt does, refusing what an int cannot hold (beyond 2³¹ − 1
// on 32-bit platforms), so that no value wraps around.
func queryInt(r *http.Request, name string) (int, bool) {
	n, ok := plainInt(r.URL.Query().Get(name))
	if !ok || n > math.MaxInt {
		return 0, false
	}
	return int(n), true
}

// plainInt reads s as a whole number written plainly: ASCII digits alone, no sign, space,
// line break or other mark, at most 18 of them (so that it fits an int64).
func plainInt(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := range len(s) {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// queensN is the board size of a queens request: n, or else the size its position is read
// on (0 when neither can be read).
func queensN(r *http.Request) int {
	if n, ok := queryInt(r, "n"); ok {
		return n
	}
	pos, err := param(r, "position")
	if err != nil || pos == "" {
		return 0
	}
	p, err := queens.Parse(pos, 0)
	if err != nil {
		return 0
	}
	return p.N
}

// heavyQueens: listings and completions above cheapQueensN.
func heavyQueens(r *http.Request) bool { return queensN(r) > cheapQueensN }

// heavyQueensPNG: pictures above cheapPNGN, or at a chosen square size.
func heavyQueensPNG(r *http.Request) bool {
	return r.URL.Query().Get("square") != "" || queensN(r) > cheapPNGN
}

func heavyKnight(r *http.Request) bool {
	if v := strings.TrimSpace(r.URL.Query().Get("size")); v != "" {
		sz, err := board.ParseSize(v, 0)
		return err == nil && sz.Rows*sz.Cols > cheapKnightSq
	}
	rows, ok1 := queryInt(r, "rows")
	cols, ok2 := queryInt(r, "cols")
	return ok1 && ok2 && rows > 0 && cols > 0 && rows*cols > cheapKnightSq
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

// respond writes v as the JSON answer of a request that succeeded (200), and returns nil,
// so that a handler ends with "return respond(w, v)".
func respond(w http.ResponseWriter, v any) error {
	writeJSON(w, http.StatusOK, v)
	return nil
}

// onceEach refuses a query that gives a parameter more than once (n=8&n=9): which one
// would count is a guess, so none does.
func onceEach(r *http.Request) *httpError {
	q := r.URL.Query()
	names := make([]string, 0, len(q))
	for name, vs := range q {
		if len(vs) > 1 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	name := names[0]
	return &httpError{code: http.StatusBadRequest, msg: fmt.Sprintf("%s is given %d times, give it once", clip(name), len(q[name]))}
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

// paramOr is param, with def when the value is absent or empty.
func paramOr(r *http.Request, name, def string) (string, error) {
	v, err := param(r, name)
	if v == "" && err == nil {
		v = def
	}
	return v, err
}

// intParam reads a whole number from lo to hi (lo ≥ 0), written plainly in digits alone
// (plainInt: "+8", "8 " and "8\n" are refused, not read as 8); def when absent or empty.
func intParam(r *http.Request, name string, lo, hi, def int) (int, error) {
	n, err := wholeParam(r, name, int64(lo), int64(hi), int64(def))
	return int(n), err
}

// seedParam is intParam for a seed from 0 to hi, which may pass 2³¹ − 1: it reads the same
// seed on 32-bit platforms as on 64-bit ones.
func seedParam(r *http.Request, name string, hi, def uint64) (uint64, error) {
	n, err := wholeParam(r, name, 0, int64(hi), int64(def))
	return uint64(n), err
}

// wholeParam is intParam in int64, which holds every number plainInt reads.
func wholeParam(r *http.Request, name string, lo, hi, def int64) (int64, error) {
	v := r.URL.Query().Get(name)
	if len(v) > maxParam {
		return 0, badRequest("%s is longer than %d bytes", name, maxParam)
	}
	if v == "" {
		if def < lo {
			return 0, badRequest("%s is required: a whole number from %d to %d", name, lo, hi)
		}
		return def, nil
	}
	n, ok := plainInt(v)
	if !ok {
		return 0, badRequest("%s must be a whole number from %d to %d, in digits alone (no sign, space or line break), got %q", name, lo, hi, clip(v))
	}
	if n < lo || n > hi {
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
