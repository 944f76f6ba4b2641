package web

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// get runs one request against h and returns the status and the body.
func get(t *testing.T, h http.Handler, url string) (int, http.Header, []byte) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
	return rec.Code, rec.Header(), rec.Body.Bytes()
}

func getJSON(t *testing.T, h http.Handler, url string, want int) map[string]any {
	t.Helper()
	code, hdr, body := get(t, h, url)
	if code != want {
		t.Fatalf("GET %s: status %d, want %d; body %s", url, code, want, body)
	}
	if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("GET %s: Content-Type %q, want JSON", url, ct)
	}
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("GET %s: body is not a JSON object: %v\n%s", url, err, body)
	}
	return v
}

// isSolution is the test's own check: a permutation with no two queens on a diagonal.
func isSolution(perm []int) bool {
	n := len(perm)
	for i := range n {
		if perm[i] < 0 || perm[i] >= n {
			return false
		}
		for j := range i {
			d := perm[i] - perm[j]
			if d == 0 || d == i-j || d == j-i {
				return false
			}
		}
	}
	return true
}

type page struct {
	Solutions []struct {
		Code string `json:"code"`
		Perm []int  `json:"perm"`
	} `json:"solutions"`
	Next *string `json:"next"`
}

func TestCountTable(t *testing.T) {
	h := New(Options{}).Handler()
	for n := 1; n <= queens.MaxKnownN; n++ {
		c, _ := queens.Known(n)
		v := getJSON(t, h, "/api/queens/count?n="+itoa(n), 200)
		if v["total"] != c.Total.String() || v["unique"] != c.Unique.String() {
			t.Errorf("count?n=%d = %v, %v; want %v, %v", n, v["total"], v["unique"], c.Total, c.Unique)
		}
	}
	getJSON(t, h, "/api/queens/count?n="+itoa(queens.MaxKnownN+1), 400)
	// The engine agrees with the published table where it is quick.
	for n := 1; n <= 10; n++ {
		c, err := queens.Count(context.Background(), n, queens.CountOptions{})
		if err != nil {
			t.Fatal(err)
		}
		k, _ := queens.Known(n)
		if c.Total.Cmp(k.Total) != 0 || c.Unique.Cmp(k.Unique) != 0 {
			t.Errorf("Count(%d) = %v, %v; published %v, %v", n, c.Total, c.Unique, k.Total, k.Unique)
		}
	}
}

func TestSolutionsPaging(t *testing.T) {
	h := New(Options{}).Handler()
	tests := []struct {
		name   string
		n      int
		unique bool
		limit  int
		want   int
	}{
		{"all of 8 in pages of 10", 8, false, 10, 92},
		{"fundamental of 8 in pages of 5", 8, true, 5, 12},
		{"all of 6 in one page", 6, false, 50, 4},
		{"pages of exactly the count", 4, false, 2, 2},
		{"none for 3", 3, false, 10, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen := map[string]bool{}
			after, last := "", ""
			for pages := 0; ; pages++ {
				if pages > 100 {
					t.Fatal("more than 100 pages")
				}
				url := "/api/queens/solutions?n=" + itoa(tt.n) + "&limit=" + itoa(tt.limit)
				if tt.unique {
					url += "&unique=1"
				}
				if after != "" {
					url += "&after=" + after
				}
				code, _, body := get(t, h, url)
				if code != 200 {
					t.Fatalf("GET %s: %d %s", url, code, body)
				}
				var p page
				if err := json.Unmarshal(body, &p); err != nil {
					t.Fatal(err)
				}
				if len(p.Solutions) > tt.limit {
					t.Fatalf("page of %d, limit %d", len(p.Solutions), tt.limit)
				}
				for _, s := range p.Solutions {
					if !isSolution(s.Perm) || len(s.Perm) != tt.n {
						t.Errorf("%s (%v) is not a solution of %d queens", s.Code, s.Perm, tt.n)
					}
					if s.Code <= last && tt.n < 10 {
						t.Errorf("%s after %s: not ascending", s.Code, last)
					}
					if seen[s.Code] {
						t.Errorf("%s listed twice", s.Code)
					}
					seen[s.Code], last = true, s.Code
				}
				if p.Next == nil {
					break
				}
				if len(p.Solutions) != tt.limit || *p.Next != last {
					t.Fatalf("next = %q after a page of %d ending %s", *p.Next, len(p.Solutions), last)
				}
				after = *p.Next
			}
			if len(seen) != tt.want {
				t.Errorf("%d solutions in all, want %d", len(seen), tt.want)
			}
		})
	}
	t.Run("a deep cursor on N = 16 starts at once", func(t *testing.T) {
		v := getJSON(t, h, "/api/queens/solutions?n=16&limit=3&after=16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1", 200)
		if sols := v["solutions"].([]any); len(sols) != 0 {
			t.Errorf("%d solutions after the last possible cursor, want 0", len(sols))
		}
	})
}

func TestCheckAndComplete(t *testing.T) {
	h := New(Options{}).Handler()
	v := getJSON(t, h, "/api/queens/check?position=a8+e8+h1&n=8", 200)
	attacks := v["attacks"].([]any)
	if len(attacks) != 2 || v["attacks_total"] != 2.0 || v["solved"] != false || v["queens"] != 3.0 {
		t.Errorf("check a8 e8 h1 = %v, want 2 attacks (attacks_total 2), not solved, 3 queens", v)
	}
	first := attacks[0].(map[string]any)
	if first["a"] != "a8" || first["b"] != "e8" || first["line"] != "row" {
		t.Errorf("first attack %v, want a8–e8 on a row", first)
	}
	v = getJSON(t, h, "/api/queens/check?position=15863724", 200)
	if v["solved"] != true || v["n"] != 8.0 {
		t.Errorf("check 15863724 = %v, want solved on 8", v)
	}
	v = getJSON(t, h, "/api/queens/check?n=5", 200)
	if v["queens"] != 0.0 || v["n"] != 5.0 {
		t.Errorf("check of the empty 5×5 board = %v", v)
	}

	v = getJSON(t, h, "/api/queens/complete?n=8&position=(1,1)+(5,2)", 200)
	if v["completable"] != true {
		t.Fatalf("complete (1,1) (5,2) = %v, want completable", v)
	}
	var perm []int
	for _, c := range v["solution"].(map[string]any)["perm"].([]any) {
		perm = append(perm, int(c.(float64)))
	}
	if !isSolution(perm) || perm[0] != 0 || perm[1] != 4 {
		t.Errorf("completion %v is not a solution keeping a8 and e7", perm)
	}
	v = getJSON(t, h, "/api/queens/complete?n=8&position=a8+b8", 200)
	if v["completable"] != false || !strings.Contains(v["reason"].(string), "attack") {
		t.Errorf("complete a8 b8 = %v, want not completable because they attack", v)
	}
	v = getJSON(t, h, "/api/queens/complete?n=3", 200)
	if v["completable"] != false {
		t.Errorf("complete of the empty 3×3 board = %v, want not completable", v)
	}
}

func TestPictures(t *testing.T) {
	h := New(Options{}).Handler()
	tests := []struct {
		name, url, ctype string
	}{
		{"queens svg", "/api/queens/picture.svg?position=15863724", "image/svg+xml"},
		{"queens svg with conflicts", "/api/queens/picture.svg?n=8&position=a8+b8&attacked=1", "image/svg+xml"},
		{"empty board png", "/api/queens/picture.png?n=4&square=10", "image/png"},
		{"queens png", "/api/queens/picture.png?position=2413", "image/png"},
		{"knight path svg", "/api/knight/picture.svg?size=5&path=a5+c4+e5&closed=0", "image/svg+xml"},
		{"knight path png", "/api/knight/picture.png?rows=3&cols=4&path=a1+b3", "image/png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, hdr, body := get(t, h, tt.url)
			if code != 200 {
				t.Fatalf("status %d: %s", code, body)
			}
			if got := hdr.Get("Content-Type"); got != tt.ctype {
				t.Errorf("Content-Type %q, want %q", got, tt.ctype)
			}
			if tt.ctype == "image/png" {
				if _, err := png.Decode(bytes.NewReader(body)); err != nil {
					t.Errorf("not a PNG: %v", err)
				}
				return
			}
			d := xml.NewDecoder(bytes.NewReader(body))
			for {
				_, err := d.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("not XML: %v", err)
				}
			}
		})
	}
	_, _, body := get(t, h, "/api/queens/picture.svg?position=a8+b8&n=8")
	if n := bytes.Count(body, []byte(`class="attack"`)); n != 1 {
		t.Errorf("%d attack lines in the picture of a8 b8, want 1", n)
	}
}

func TestBadInput(t *testing.T) {
	h := New(Options{}).Handler()
	long := strings.Repeat("1", maxParam+1)
	tests := []struct {
		name, url string
		code      int
		says      string
	}{
		{"count without n", "/api/queens/count", 400, "n is required"},
		{"count n=abc", "/api/queens/count?n=abc", 400, "whole number from 1 to 27"},
		{"count n=0", "/api/queens/count?n=0", 400, "from 1 to 27"},
		{"count n=28", "/api/queens/count?n=28", 400, "from 1 to 27, got \"28\""},
		{"count n=33", "/api/queens/count?n=33", 400, "from 1 to 27"},
		{"count n=+8", "/api/queens/count?n=%2B8", 400, `line break), got "+8"`},
		{"count n=8 and a space", "/api/queens/count?n=8%20", 400, `line break), got "8 "`},
		{"count n= 8", "/api/queens/count?n=%208", 400, "in digits alone"},
		{"count n=8 and a line break", "/api/queens/count?n=8%0A", 400, "in digits alone"},
		{"count n=-8", "/api/queens/count?n=-8", 400, "in digits alone"},
		{"count n=0x8", "/api/queens/count?n=0x8", 400, "in digits alone"},
		{"count n=8_0", "/api/queens/count?n=8_0", 400, "in digits alone"},
		{"count n of 19 digits", "/api/queens/count?n=1000000000000000008", 400, "in digits alone"},
		{"solutions limit=+5", "/api/queens/solutions?n=8&limit=%2B5", 400, "limit must be a whole number from 1 to 500"},
		{"knight size=+5", "/api/knight/tour?rows=%2B5&cols=5", 400, "rows must be a whole number"},
		{"count n twice", "/api/queens/count?n=8&n=9", 400, "n is given 2 times, give it once"},
		{"solutions n twice", "/api/queens/solutions?n=8&limit=1&n=8", 400, "n is given 2 times, give it once"},
		{"knight picture not a knight path", "/api/knight/picture.svg?size=5&path=a1+b2", 400, "path: a1 to b2 is not a knight's move"},
		{"knight picture square twice", "/api/knight/picture.png?size=5&path=a1+b3+a1", 400, "path: square a1 is visited twice"},
		{"knight picture closed but open", "/api/knight/picture.svg?size=5&path=a1+b3+c5&closed=1", 400, "path: closed, but c5 to a1 is not a knight's move"},
		{"solutions n too large", "/api/queens/solutions?n=33", 400, "from 1 to 32"},
		{"solutions limit 0", "/api/queens/solutions?n=8&limit=0", 400, "limit"},
		{"solutions limit too large", "/api/queens/solutions?n=8&limit=501", 400, "from 1 to 500"},
		{"solutions bad unique", "/api/queens/solutions?n=8&unique=maybe", 400, "true or false"},
		{"solutions bad cursor", "/api/queens/solutions?n=8&after=zz", 400, "after"},
		{"solutions short cursor", "/api/queens/solutions?n=8&after=a8", 400, "each of the 8 rows"},
		{"check unreadable", "/api/queens/check?position=hello", 400, "position"},
		{"check empty without n", "/api/queens/check", 400, "n is required"},
		{"check too long", "/api/queens/check?position=" + long, 400, "longer than"},
		{"check too large", "/api/queens/check?n=5000&position=a1", 400, "from 1 to 4096"},
		{"complete off board", "/api/queens/complete?n=4&position=e5", 400, "position"},
		{"complete n too large", "/api/queens/complete?n=1001", 400, "from 1 to 1000"},
		{"picture n too large", "/api/queens/picture.svg?n=65", 400, "from 1 to 64"},
		{"picture square too large", "/api/queens/picture.png?n=8&square=1000", 400, "square"},
		{"picture bad conflicts", "/api/queens/picture.svg?n=8&conflicts=2", 400, "conflicts"},
		{"knight no size", "/api/knight/tour", 400, "rows is required"},
		{"knight bad size", "/api/knight/tour?size=0", 400, "size"},
		{"knight board too large", "/api/knight/tour?size=501", 400, "at most 250000"},
		{"knight side too large", "/api/knight/tour?rows=1&cols=300000", 400, "from 1 to 250000"},
		{"knight bad start", "/api/knight/tour?size=5&start=z9", 400, "start"},
		{"knight bad closed", "/api/knight/tour?size=5&closed=perhaps", 400, "closed"},
		{"accessibility bad visited", "/api/knight/accessibility?size=5&visited=a1+q7", 400, "visited"},
		{"knight picture path off board", "/api/knight/picture.svg?size=3&path=a1+d4", 400, "path"},
		{"knight picture path too long", "/api/knight/picture.svg?size=1&path=a1+a1", 400, "longer"},
		{"unknown endpoint", "/api/queens/nothing", 404, "no such API endpoint"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := getJSON(t, h, tt.url, tt.code)
			msg, _ := v["error"].(string)
			if !strings.Contains(msg, tt.says) {
				t.Errorf("error %q, want it to say %q", msg, tt.says)
			}
		})
	}
}

func TestDeadline(t *testing.T) {
	h := New(Options{Timeout: time.Nanosecond}).Handler()
	for _, url := range []string{
		"/api/queens/solutions?n=32&limit=500&unique=1",
		"/api/queens/complete?n=64",
	} {
		v := getJSON(t, h, url, http.StatusServiceUnavailable)
		if msg, _ := v["error"].(string); !strings.Contains(msg, "time limit") {
			t.Errorf("GET %s: error %q, want it to name the time limit", url, msg)
		}
	}
}

func TestHeavyLimit(t *testing.T) {
	s := New(Options{MaxHeavy: 1, QueueWait: 50 * time.Millisecond})
	release, err := s.acquire(context.Background(), s.heavy, "heavy")
	if err != nil {
		t.Fatal(err)
	}
	code, hdr, body := get(t, s.Handler(), "/api/queens/solutions?n=20&limit=5")
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" || !bytes.Contains(body, []byte("busy")) {
		t.Errorf("with every slot taken: status %d, Retry-After %q, body %s; want 503 busy", code, hdr.Get("Retry-After"), body)
	}
	// Light requests still run.
	getJSON(t, s.Handler(), "/api/queens/count?n=8", 200)
	// Cheap ones too, on their own slots.
	getJSON(t, s.Handler(), "/api/queens/solutions?n=8&limit=5", 200)
	release()
	getJSON(t, s.Handler(), "/api/queens/solutions?n=20&limit=5", 200)
}

func TestStatic(t *testing.T) {
	h := New(Options{}).Handler()
	for _, tt := range []struct{ path, ctype, has string }{
		{"/", "text/html", `<script type="module" src="app.js">`},
		{"/app.js", "javascript", "import { Board"},
		{"/board.js", "javascript", "export class Board"},
		{"/style.css", "text/css", ".board"},
	} {
		code, hdr, body := get(t, h, tt.path)
		if code != 200 || !strings.Contains(hdr.Get("Content-Type"), tt.ctype) || !bytes.Contains(body, []byte(tt.has)) {
			t.Errorf("GET %s: %d %q, want 200 %s containing %q", tt.path, code, hdr.Get("Content-Type"), tt.ctype, tt.has)
		}
	}
}
