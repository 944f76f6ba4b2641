package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/regions"
)

func regionsGet(t *testing.T, h http.Handler, u string) (int, map[string]any, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, u, nil))
	var m map[string]any
	body := rec.Body.String()
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("GET %s: %d, not JSON: %q", u, rec.Code, body)
	}
	return rec.Code, m, body
}

// regionsPuzzleOf fetches a puzzle with its solution.
func regionsPuzzleOf(t *testing.T, h http.Handler, q string) regions.Record {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/regions?"+q+"&solution=1", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /api/regions?%s: %d %s", q, rec.Code, rec.Body)
	}
	var p regions.Record
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkRegionsAnswer checks the rules of the game on its own: n regions, each in one
// piece, and one queen in every row, column and region, no two touching.
func checkRegionsAnswer(t *testing.T, p regions.Record) {
	t.Helper()
	n := p.N
	if len(p.Regions) != n || len(p.Solution) != n {
		t.Fatalf("n = %d with %d rows and a solution of %d", n, len(p.Regions), len(p.Solution))
	}
	cols, regs := map[int]bool{}, map[int]bool{}
	for r, c := range p.Solution {
		if len(p.Regions[r]) != n {
			t.Fatalf("row %d has %d cells", r, len(p.Regions[r]))
		}
		if c < 0 || c >= n || cols[c] || regs[p.Regions[r][c]] {
			t.Fatalf("solution %v: row %d's queen shares a column or region", p.Solution, r)
		}
		cols[c], regs[p.Regions[r][c]] = true, true
		if r > 0 && (p.Solution[r-1]-c)*(p.Solution[r-1]-c) <= 1 {
			t.Fatalf("solution %v: the queens of rows %d and %d touch", p.Solution, r, r+1)
		}
	}
	if len(regs) != n {
		t.Fatalf("%d regions hold a queen, want %d", len(regs), n)
	}
}

func TestRegionsPuzzle(t *testing.T) {
	h := New(Options{}).Handler()
	for _, q := range []string{"n=6&seed=1&level=easy", "n=8&seed=20261125&level=medium", "n=5&seed=0&level=easy", "n=12&seed=3&level=hard"} {
		p := regionsPuzzleOf(t, h, q)
		checkRegionsAnswer(t, p)
		again := regionsPuzzleOf(t, h, q)
		if a, b := grid(p.Regions), grid(again.Regions); a != b {
			t.Errorf("%s: two requests gave two puzzles:\n%s\n%s", q, a, b)
		}
	}
	// Without solution=1 the answer is not given away.
	_, m, _ := regionsGet(t, h, "/api/regions?n=6&seed=1&level=easy")
	if _, ok := m["solution"]; ok {
		t.Errorf("the solution is sent without solution=1: %v", m)
	}
	if m["level"] != "easy" || m["n"] != 6.0 || m["seed"] != 1.0 {
		t.Errorf("n, level, seed = %v, %v, %v; want 6, easy, 1", m["n"], m["level"], m["seed"])
	}
}

// grid writes region ids as the letters the hint endpoint reads, rows joined by "/".
func grid(rows [][]int) string {
	var b strings.Builder
	for i, row := range rows {
		if i > 0 {
			b.WriteByte('/')
		}
		for _, id := range row {
			b.WriteByte(byte('A' + id))
		}
	}
	return b.String()
}

func TestRegionsHint(t *testing.T) {
	h := New(Options{}).Handler()
	p := regionsPuzzleOf(t, h, "n=6&seed=1&level=easy")
	g := url.QueryEscape(grid(p.Regions))
	cell := func(r int) string { return "r" + itoa(r+1) + "c" + itoa(p.Solution[r]+1) }

	// From the empty grid, by grid and by seed: the same step, with a sentence.
	_, a, _ := regionsGet(t, h, "/api/regions/hint?grid="+g)
	_, b, _ := regionsGet(t, h, "/api/regions/hint?n=6&seed=1&level=easy&queens=")
	if a["status"] != "step" {
		t.Fatalf("hint from the empty grid: %v", a)
	}
	sa, _ := json.Marshal(a)
	sb, _ := json.Marshal(b)
	if string(sa) != string(sb) {
		t.Errorf("grid and seed give different hints:\n%s\n%s", sa, sb)
	}
	step := a["step"].(map[string]any)
	if text, _ := step["text"].(string); len(text) < 20 {
		t.Errorf("the hint's sentence is %q", text)
	}

	// All the queens but the last: a step remains; all of them: solved.
	var qs []string
	for r := range p.N {
		qs = append(qs, cell(r))
	}
	_, m, _ := regionsGet(t, h, "/api/regions/hint?grid="+g+"&queens="+url.QueryEscape(strings.Join(qs[:p.N-1], " ")))
	if m["status"] != "step" {
		t.Errorf("one queen short of the solution: %v, want a step", m)
	}
	_, m, _ = regionsGet(t, h, "/api/regions/hint?grid="+g+"&queens="+url.QueryEscape(strings.Join(qs, ",")))
	if m["status"] != "solved" {
		t.Errorf("the whole solution: %v, want solved", m)
	}

	// A queen off the solution, not attacking the others: wrong.
	for c := range p.N {
		if c == p.Solution[0] || (c-p.Solution[1])*(c-p.Solution[1]) <= 1 {
			continue
		}
		_, m, _ = regionsGet(t, h, "/api/regions/hint?grid="+g+"&queens=r1c"+itoa(c+1))
		if m["status"] != "wrong" && m["status"] != "step" {
			t.Errorf("a queen at r1c%d: %v, want wrong (or a step, if the techniques have not yet seen it)", c+1, m)
		}
		if m["status"] == "wrong" {
			break
		}
	}
}

// TestRegionsPieces: a published level whose regions B and F are each in two pieces gets
// hints and a picture like any other grid.
func TestRegionsPieces(t *testing.T) {
	h := New(Options{}).Handler()
	g := "AAAAABAAA/AAAAAAACA/AADAAAAAA/EAAAFAAAA/AAAAAAGAA/AAAAAAAAF/AAAAABAAA/AAAHAAAAA/AIAAAAAAA"
	code, m, body := regionsGet(t, h, "/api/regions/hint?grid="+g)
	if code != http.StatusOK || m["status"] != "step" {
		t.Errorf("hint on the split level: %d %s; want a step", code, strings.TrimSpace(body))
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/regions/picture.svg?solution=1&grid="+g, nil))
	if rec.Code != http.StatusOK {
		t.Errorf("picture of the split level: %d %s", rec.Code, rec.Body)
	}
}

func TestRegionsBadInput(t *testing.T) {
	h := New(Options{}).Handler()
	g := "/api/regions/hint?grid=AAABBB/ACAADD/ECADDD/ECCDDD/CCCDDD/CCCCCF"
	for _, tc := range []struct{ url, want string }{
		{"/api/regions?n=4", "n must be a whole number from 5 to 20"},
		{"/api/regions?n=21", "n must be a whole number from 5 to 20"},
		{"/api/regions?n=x", "n must be"},
		{"/api/regions?n=8&n=9", "n is given 2 times"},
		{"/api/regions?seed=-1", "seed must be"},
		{"/api/regions?seed=9007199254740992", "seed must be"},
		{"/api/regions?level=impossible", `level must be easy, medium or hard, got "impossible"`},
		{"/api/regions?level=easy&level=hard", "level is given 2 times"},
		{"/api/regions?solution=maybe", "solution must be true or false"},
		{"/api/regions/hint?grid=AB/BA", "grid"},
		{"/api/regions/hint?grid=AAAA/BBBB/CCCC/DDDD", "grid has 4 rows; from 5 to 20"},
		{"/api/regions/hint?grid=AAAAA/BBBBB/CCCCC/DDDDD/DDDDD", "grid: bad region grid: a 5×5 grid has 5 regions, A to E; missing E"},
		{g + "&n=6", "not both"},
		{g + "&queens=r1", `queens: "r1" is not a cell`},
		{g + "&queens=r7c1", `queens: "r7c1" is off the 6×6 grid`},
		{g + "&queens=r0c1", "off the"},
		{g + "&queens=r1c1+r1c2", "queens:"},
		{g + "&queens=r1c1+r2c2", "queens:"},
		{g + "&queens=r1c1&queens=r2c3", "queens is given 2 times"},
		{g + "&queens=r1c1+r2c3+r3c5+r4c2+r5c4+r6c6+r1c1", "at most 6"},
		{"/api/regions/hint?grid=" + strings.Repeat("A", maxParam+1), "grid is longer than"},
		{"/api/regions/hint?n=3", "n must be"},
	} {
		code, m, body := regionsGet(t, h, tc.url)
		msg, _ := m["error"].(string)
		if code != http.StatusBadRequest || !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") || len(m) != 1 {
			t.Errorf("GET %s: %d %s; want 400 and one line with %q", clip(tc.url), code, strings.TrimSpace(body), tc.want)
		}
	}
}

func TestRegionsPicture(t *testing.T) {
	h := New(Options{}).Handler()
	p := regionsPuzzleOf(t, h, "n=6&seed=1&level=easy")
	g := url.QueryEscape(grid(p.Regions))
	for _, tc := range []struct{ url, ctype, magic string }{
		{"/api/regions/picture.svg?grid=" + g + "&queens=r1c" + itoa(p.Solution[0]+1), "image/svg+xml", "<svg"},
		{"/api/regions/picture.svg?n=6&seed=1&level=easy&solution=1", "image/svg+xml", "<svg"},
		{"/api/regions/picture.png?grid=" + g, "image/png", "\x89PNG"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.url, nil))
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != tc.ctype || !strings.Contains(rec.Body.String()[:min(200, rec.Body.Len())], tc.magic) {
			t.Errorf("GET %s: %d %s, %d bytes; want 200 %s", tc.url, rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len(), tc.ctype)
		}
	}
	// The solution drawn has a queen on each row: the SVG's queens are as many as N.
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/regions/picture.svg?grid="+g+"&solution=1", nil))
	withSol := rec.Body.String()
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/regions/picture.svg?grid="+g, nil))
	if withSol == rec.Body.String() {
		t.Error("the picture with the solution is the picture without")
	}
	for _, tc := range []struct{ url, want string }{
		{"/api/regions/picture.svg?grid=" + g + "&queens=r1c1+r1c3", "two queens on row 1"},
		{"/api/regions/picture.svg?grid=" + g + "&queens=r1c1&solution=1", "not both"},
		{"/api/regions/picture.png?n=99", "n must be"},
		{"/api/regions/picture.svg?grid=AB/BA", "grid"},
	} {
		code, m, body := regionsGet(t, h, tc.url)
		msg, _ := m["error"].(string)
		if code != http.StatusBadRequest || !strings.Contains(msg, tc.want) {
			t.Errorf("GET %s: %d %s; want 400 with %q", tc.url, code, strings.TrimSpace(body), tc.want)
		}
	}
}

// TestSeedBeyond32Bits: a seed past 2³² − 1 is read as itself on every platform (an int of
// 32 bits once wrapped 4294967297 to 1), up to the largest, 2⁵³ − 1; one past it is refused.
func TestSeedBeyond32Bits(t *testing.T) {
	h := New(Options{}).Handler()
	for _, path := range []string{"/api/regions?n=6&level=easy&seed=", "/api/queens/puzzle?n=8&level=easy&seed="} {
		_, one, _ := regionsGet(t, h, path+"1")
		_, big, _ := regionsGet(t, h, path+"4294967297")
		if big["seed"] != 4294967297.0 {
			t.Errorf("%s4294967297: seed %v in the answer", path, big["seed"])
		}
		delete(one, "seed")
		delete(big, "seed")
		if reflect.DeepEqual(one, big) {
			t.Errorf("%s4294967297 gave seed 1's puzzle", path)
		}
		if code, m, _ := regionsGet(t, h, path+"9007199254740991"); code != http.StatusOK {
			t.Errorf("%s9007199254740991: %d %v", path, code, m)
		}
		if code, _, _ := regionsGet(t, h, path+"9007199254740992"); code != http.StatusBadRequest {
			t.Errorf("%s9007199254740992: %d, want 400", path, code)
		}
	}
}
