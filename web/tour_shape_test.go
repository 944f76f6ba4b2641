package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
)

// TestTourShapeMatchesCLI: a tour has one JSON shape. The API's /api/knight/tour answer
// and knight.WriteJSON (what "chesspuzzles knight tour --format json" prints) carry the
// same fields with the same values for the same tour.
func TestTourShapeMatchesCLI(t *testing.T) {
	for _, tt := range []struct {
		name, query string
		rows, cols  int
		start       board.Square
		closed      bool
	}{
		{"5x5 from a1", "size=5&start=a1", 5, 5, board.Square{Row: 4, Col: 0}, false},
		{"6x6 closed from c3", "size=6&start=c3&closed=true", 6, 6, board.Square{Row: 3, Col: 2}, true},
		{"3x4 from a1", "size=3x4&start=a1", 3, 4, board.Square{Row: 2, Col: 0}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			New(Options{}).Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/api/knight/tour?"+tt.query, nil))
			if rec.Code != 200 {
				t.Fatalf("GET %s: status %d; body %s", tt.query, rec.Code, rec.Body)
			}
			var api map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &api); err != nil {
				t.Fatalf("API answer is not JSON: %v", err)
			}
			tour, err := knight.Find(context.Background(), board.Size{Rows: tt.rows, Cols: tt.cols}, tt.start, knight.Options{Closed: tt.closed})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := knight.WriteJSON(t.Context(), &b, tour); err != nil {
				t.Fatal(err)
			}
			var cli map[string]any
			if err := json.Unmarshal(b.Bytes(), &cli); err != nil {
				t.Fatalf("WriteJSON wrote no JSON: %v", err)
			}
			if !reflect.DeepEqual(keys(api), keys(cli)) {
				t.Errorf("fields differ: API %v, CLI %v", keys(api), keys(cli))
			}
			for _, k := range []string{"rows", "cols", "start", "closed", "found", "path", "squares"} {
				if !reflect.DeepEqual(api[k], cli[k]) {
					t.Errorf("%s: API %v, CLI %v", k, api[k], cli[k])
				}
			}
		})
	}
}

func keys(m map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}
