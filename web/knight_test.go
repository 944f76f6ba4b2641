package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

type tourJSON struct {
	Rows, Cols int
	Start      string
	Closed     bool
	Found      bool
	Reason     string
	Path       []string
	Squares    [][2]int
}

// isKnightTour is the test's own check: rows·cols squares, each once, each a knight's move
// from the last, and the last a knight's move from the first when closed.
func isKnightTour(sq [][2]int, rows, cols int, closed bool) bool {
	if len(sq) != rows*cols {
		return false
	}
	seen := map[[2]int]bool{}
	move := func(a, b [2]int) bool {
		dr, dc := abs(a[0]-b[0]), abs(a[1]-b[1])
		return dr == 1 && dc == 2 || dr == 2 && dc == 1
	}
	for i, s := range sq {
		if s[0] < 0 || s[0] >= rows || s[1] < 0 || s[1] >= cols || seen[s] {
			return false
		}
		seen[s] = true
		if i > 0 && !move(sq[i-1], s) {
			return false
		}
	}
	return !closed || move(sq[len(sq)-1], sq[0])
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestKnightTour(t *testing.T) {
	h := New(Options{}).Handler()
	tests := []struct {
		name       string
		url        string
		rows, cols int
		closed     bool
		found      bool
		first      [2]int
	}{
		{"8x8 closed from a1", "/api/knight/tour?size=8&start=a1&closed=1", 8, 8, true, true, [2]int{7, 0}},
		{"5x5 open from a corner", "/api/knight/tour?size=5&start=a5", 5, 5, false, true, [2]int{0, 0}},
		{"rows and cols", "/api/knight/tour?rows=3&cols=4&start=a1", 3, 4, false, true, [2]int{2, 0}},
		{"6x5 closed (8 exist)", "/api/knight/tour?size=6x5&start=c3&closed=true", 6, 5, true, true, [2]int{3, 2}},
		{"default start a1", "/api/knight/tour?size=6", 6, 6, false, true, [2]int{5, 0}},
		// On 5×5 no tour starts on one of the 12 minority-colour squares (b5 is one).
		{"5x5 from the minority colour", "/api/knight/tour?size=5&start=b5", 5, 5, false, false, [2]int{}},
		// Both sides odd: no closed tour (Schwenk).
		{"7x7 closed", "/api/knight/tour?size=7&start=a1&closed=1", 7, 7, true, false, [2]int{}},
		{"4x4", "/api/knight/tour?size=4&start=a1", 4, 4, false, false, [2]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v tourJSON
			if err := json.Unmarshal(mustGet(t, h, tt.url), &v); err != nil {
				t.Fatal(err)
			}
			if v.Rows != tt.rows || v.Cols != tt.cols || v.Closed != tt.closed || v.Found != tt.found {
				t.Fatalf("got %d×%d closed %v found %v (%s), want %d×%d closed %v found %v",
					v.Rows, v.Cols, v.Closed, v.Found, v.Reason, tt.rows, tt.cols, tt.closed, tt.found)
			}
			if !tt.found {
				if v.Reason == "" {
					t.Errorf("no tour and no reason")
				}
				return
			}
			if !isKnightTour(v.Squares, tt.rows, tt.cols, tt.closed) {
				t.Errorf("not a %s knight's tour of %d×%d: %v", map[bool]string{true: "closed", false: "open"}[tt.closed], tt.rows, tt.cols, v.Squares)
			}
			if v.Squares[0] != tt.first || len(v.Path) != len(v.Squares) {
				t.Errorf("starts at %v (%d names for %d squares), want %v", v.Squares[0], len(v.Path), len(v.Squares), tt.first)
			}
		})
	}
}

func mustGet(t *testing.T, h http.Handler, url string) []byte {
	t.Helper()
	code, _, body := get(t, h, url)
	if code != http.StatusOK {
		t.Fatalf("GET %s: status %d: %s", url, code, body)
	}
	return body
}

func TestKnightAccessibility(t *testing.T) {
	h := New(Options{}).Handler()
	// After a1 and b3 on 5×5: the test counts onward moves itself.
	var v struct {
		Rows, Cols int
		Counts     [][]int
	}
	if err := json.Unmarshal(mustGet(t, h, "/api/knight/accessibility?size=5&visited=a1+b3"), &v); err != nil {
		t.Fatal(err)
	}
	visited := map[[2]int]bool{{4, 0}: true, {2, 1}: true}
	for r := range 5 {
		for c := range 5 {
			want := 0
			for _, d := range [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
				rr, cc := r+d[0], c+d[1]
				if rr >= 0 && rr < 5 && cc >= 0 && cc < 5 && !visited[[2]int{rr, cc}] {
					want++
				}
			}
			switch {
			case r == 2 && c == 1:
				want = -2 // the knight
			case visited[[2]int{r, c}]:
				want = -1
			}
			if got := v.Counts[r][c]; got != want {
				t.Errorf("square row %d col %d: %d, want %d", r, c, got, want)
			}
		}
	}
	// Not a knight's path: 400.
	code, _, body := get(t, h, "/api/knight/accessibility?size=5&visited=a1+a2")
	if code != 400 || !strings.Contains(string(body), "knight's move") {
		t.Errorf("visited a1 a2: %d %s, want 400 about the knight's move", code, body)
	}
}

func TestKnightPicture(t *testing.T) {
	h := New(Options{}).Handler()
	body := mustGet(t, h, "/api/knight/picture.svg?size=6&start=a1&closed=1")
	for _, want := range []string{`class="closing"`, `class="start"`, `class="end"`, `>36</text>`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("closed 6×6 tour picture lacks %s", want)
		}
	}
	if n := strings.Count(string(body), `class="move"`); n != 36 {
		t.Errorf("%d move numbers, want 36", n)
	}
	code, _, body := get(t, h, "/api/knight/picture.png?size=7&closed=1")
	if code != 404 || !strings.Contains(string(body), "no closed tour") {
		t.Errorf("closed 7×7 picture: %d %s, want 404: no closed tour", code, body)
	}
}
