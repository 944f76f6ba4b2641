package web

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/regions"
)

func TestRegionsAPI(t *testing.T) {
	h := New(Options{}).Handler()
	v := getJSON(t, h, "/api/regions?n=8&seed=7&level=medium", 200)
	if v["n"] != 8.0 || v["level"] != "medium" || v["seed"] != 7.0 {
		t.Fatalf("puzzle = %v", v)
	}
	grid := v["grid"].(string)
	p, err := regions.Parse(strings.NewReader(strings.ReplaceAll(grid, "/", "\n")))
	if err != nil {
		t.Fatalf("grid %q: %v", grid, err)
	}
	if regions.Count(p, 2) != 1 {
		t.Fatalf("grid %q has not exactly one solution", grid)
	}
	sol := v["solution"].([]any)
	rows := v["regions"].([]any)
	if len(sol) != 8 || len(rows) != 8 {
		t.Fatalf("solution %v, regions %v", sol, rows)
	}

	// The first hint is the first step of the explanation.
	steps, _ := regions.Explain(p)
	g := url.QueryEscape(grid)
	hint := getJSON(t, h, "/api/regions/hint?grid="+g, 200)
	if hint["text"] != steps[0].Text || hint["technique"] != steps[0].Technique.String() {
		t.Errorf("hint = %v, want step %q", hint, steps[0].Text)
	}
	// A wrong queen is pointed out.
	wrongCol := (int(sol[0].(float64)) + 2) % 8
	hint = getJSON(t, h, fmt.Sprintf("/api/regions/hint?grid=%s&queens=r1c%d", g, wrongCol+1), 200)
	if w := hint["wrong"].([]any); len(w) != 1 {
		t.Errorf("hint with a wrong queen = %v", hint)
	}
	// The whole solution is solved.
	var cells []string
	for r, c := range sol {
		cells = append(cells, fmt.Sprintf("r%dc%d", r+1, int(c.(float64))+1))
	}
	hint = getJSON(t, h, "/api/regions/hint?grid="+g+"&queens="+strings.Join(cells, ","), 200)
	if hint["solved"] != true {
		t.Errorf("hint with the solution = %v", hint)
	}

	for _, bad := range []string{
		"/api/regions?n=4",
		"/api/regions?level=extreme",
		"/api/regions/hint?grid=AB/BA",
		"/api/regions/hint?grid=AAAAA/BBBBB/CCCCC/DDDDD/EEEEE",
		"/api/regions/hint?grid=" + g + "&queens=x9",
	} {
		v := getJSON(t, h, bad, 400)
		if msg, _ := v["error"].(string); msg == "" || strings.Contains(msg, "\n") {
			t.Errorf("GET %s: error %q, want one line", bad, msg)
		}
	}
}
