package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fetch GETs url from a live test server and decodes its JSON object.
func fetch(t *testing.T, url string) (int, map[string]any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Errorf("GET %s: %v", url, err)
		return 0, nil
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Errorf("GET %s: status %d, body not JSON: %.200s", url, res.StatusCode, body)
	}
	return res.StatusCode, v
}

// TestTourTimeoutsHoldLimit sends tours that run past a tiny time limit, many at once, to a
// server with one heavy slot. The searches stop with their requests: at no moment does more
// than one run, and none runs once every answer is in.
func TestTourTimeoutsHoldLimit(t *testing.T) {
	s := New(Options{Timeout: 2 * time.Millisecond, MaxHeavy: 1, QueueWait: 20 * time.Millisecond})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	stop := make(chan struct{})
	maxRunning := make(chan int64, 1)
	go func() {
		var most int64
		for {
			select {
			case <-stop:
				maxRunning <- most
				return
			default:
			}
			most = max(most, toursRunning.Load())
			time.Sleep(50 * time.Microsecond)
		}
	}()
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	timedOut := 0
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, v := fetch(t, fmt.Sprintf("%s/api/knight/tour?size=500&start=%s&closed=%d", srv.URL, []string{"a1", "e5", "b3"}[i%3], i%2))
			mu.Lock()
			defer mu.Unlock()
			codes[code]++
			if msg, _ := v["error"].(string); strings.Contains(msg, "time limit") {
				timedOut++
			}
		}()
	}
	wg.Wait()
	if n := toursRunning.Load(); n != 0 {
		t.Errorf("%d tour searches still running after every answer came back, want 0", n)
	}
	close(stop)
	if most := <-maxRunning; most > 1 {
		t.Errorf("%d tour searches ran at once, want at most MaxHeavy = 1", most)
	}
	if timedOut == 0 {
		t.Errorf("no request hit the 2 ms time limit (statuses %v); the test proves nothing", codes)
	}
	for code := range codes {
		if code != 200 && code != 503 {
			t.Errorf("status %d (statuses %v), want 200 or 503", code, codes)
		}
	}
	t.Logf("statuses %v, %d past the time limit", codes, timedOut)
}

// TestCheapNotBehindHeavy fills both heavy slots with listings that run until the test
// ends them; a small listing is still answered at once, while a heavy one is turned away.
// The listings hold their slots until their requests are cancelled, not for a time limit:
// with a limit of 2 s and a second to take both slots, a loaded machine could start the
// second listing after the first had ended.
func TestCheapNotBehindHeavy(t *testing.T) {
	s := New(Options{Timeout: time.Minute, MaxHeavy: 2, QueueWait: 50 * time.Millisecond})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close() // waits for the listings' handlers, ended below
	slow, endSlow := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(slow, http.MethodGet, srv.URL+"/api/queens/solutions?n=32&limit=500", nil)
			if res, err := http.DefaultClient.Do(req); err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
		}()
	}
	defer wg.Wait()
	defer endSlow() // before wg.Wait: the client hangs up, the handlers see their contexts end
	deadline := time.Now().Add(30 * time.Second)
	for len(s.heavy) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the two slow listings did not take the heavy slots within 30 s")
		}
		time.Sleep(time.Millisecond)
	}
	code, v := fetch(t, srv.URL+"/api/queens/solutions?n=8&limit=5")
	if sols, _ := v["solutions"].([]any); code != 200 || len(sols) != 5 {
		t.Errorf("n=8&limit=5 with every heavy slot taken: status %d, %v; want 200 and 5 solutions", code, v)
	}
	code, v = fetch(t, srv.URL+"/api/knight/tour?size=8&start=a1")
	if code != 200 || v["found"] != true {
		t.Errorf("an 8×8 tour with every heavy slot taken: status %d, %v; want 200 and a tour", code, v)
	}
	if len(s.heavy) == 2 {
		code, v = fetch(t, srv.URL+"/api/queens/solutions?n=20&limit=5")
		if msg, _ := v["error"].(string); code != 503 || !strings.Contains(msg, "busy") {
			t.Errorf("n=20 with every heavy slot taken: status %d, %v; want 503 busy", code, v)
		}
	}
}

// TestTruncatedPage lists a page of 500 under time limits growing from 25 ms until one cuts
// the page short; that page must say so, and its cursor must continue the listing exactly.
func TestTruncatedPage(t *testing.T) {
	const url = "/api/queens/solutions?n=24&limit=500"
	full := getJSON(t, New(Options{Timeout: time.Minute}).Handler(), url, 200)
	want := full["solutions"].([]any)
	if full["truncated"] != false || len(want) != 500 {
		t.Fatalf("untimed page: truncated %v, %d solutions; want false, 500", full["truncated"], len(want))
	}
	for limit := 25 * time.Millisecond; limit < 20*time.Second; limit *= 2 {
		h := New(Options{Timeout: limit}).Handler()
		code, _, body := get(t, h, url)
		if code == http.StatusServiceUnavailable {
			continue // not one solution within the limit
		}
		var page struct {
			Solutions []struct{ Code string }
			Next      *string
			Truncated bool
		}
		if err := json.Unmarshal(body, &page); err != nil || code != 200 {
			t.Fatalf("limit %v: status %d, %v: %.200s", limit, code, err, body)
		}
		if len(page.Solutions) == 500 {
			if page.Truncated {
				t.Errorf("limit %v: a full page says truncated", limit)
			}
			break
		}
		if !page.Truncated || page.Next == nil || *page.Next != page.Solutions[len(page.Solutions)-1].Code {
			t.Fatalf("limit %v: %d of 500 solutions with truncated %v, next %v; want truncated true and next the last code", limit, len(page.Solutions), page.Truncated, page.Next)
		}
		for i, s := range page.Solutions {
			if s.Code != want[i].(map[string]any)["code"] {
				t.Fatalf("limit %v: solution %d is %s, want %s", limit, i, s.Code, want[i].(map[string]any)["code"])
			}
		}
		rest := getJSON(t, New(Options{Timeout: time.Minute}).Handler(), url+"&after="+*page.Next, 200)
		got := rest["solutions"].([]any)
		if first := got[0].(map[string]any)["code"]; first != want[len(page.Solutions)].(map[string]any)["code"] {
			t.Errorf("the page after the cursor starts with %v, want %v", first, want[len(page.Solutions)].(map[string]any)["code"])
		}
		t.Logf("limit %v: %d of 500 solutions, truncated, and the cursor continues", limit, len(page.Solutions))
		return
	}
	t.Error("no time limit from 25 ms to 20 s cut the page short: it went from no solution to all 500")
}

// TestHostPort: a Host header whose port is past 65535, or no number, is refused with 400
// on a server of either kind (loopback only or open); a port from 0 to 65535, or none,
// goes on to the host check.
func TestHostPort(t *testing.T) {
	for _, h := range []http.Handler{New(Options{LoopbackOnly: true}).Handler(), New(Options{}).Handler()} {
		for _, tc := range []struct {
			host string
			code int
		}{
			{"localhost:65535", 200},
			{"localhost:0", 200},
			{"localhost:", 200},
			{"[::1]:8080", 200},
			{"localhost:65536", 400},
			{"127.0.0.1:99999", 400},
			{"[::1]:4294967297", 400},
			{"localhost:+80", 400},
			{"localhost:8o8o", 400},
		} {
			req := httptest.NewRequest("GET", "/api/queens/count?n=8", nil)
			req.Host = tc.host
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			var v map[string]any
			_ = json.Unmarshal(rec.Body.Bytes(), &v)
			msg, _ := v["error"].(string)
			if rec.Code != tc.code || tc.code == 400 && !strings.Contains(msg, "from 0 to 65535") {
				t.Errorf("Host %q: status %d, error %q; want %d (and, refused, the ports allowed)", tc.host, rec.Code, msg, tc.code)
			}
		}
	}
}

func TestHostCheck(t *testing.T) {
	h := New(Options{LoopbackOnly: true, AllowHosts: []string{"Chess.Local"}}).Handler()
	open := New(Options{}).Handler()
	tests := []struct {
		host string
		ok   bool
	}{
		{"localhost", true},
		{"localhost:8080", true},
		{"LOCALHOST:8080", true},
		{"localhost.:8080", true},
		{"127.0.0.1:8080", true},
		{"127.0.0.1", true},
		{"[::1]:8080", true},
		{"[::1]", true},
		{"chess.local:9000", true},
		{"evil.example", false},
		{"evil.example:8080", false},
		{"localhost.evil.example:8080", false},
		{"127.0.0.1.nip.io:8080", false},
		{"[::2]:8080", false},
		{"0.0.0.0:8080", false},
		{"", false},
	}
	for _, tc := range tests {
		for _, path := range []string{"/api/queens/count?n=8", "/"} {
			req := httptest.NewRequest("GET", path, nil)
			req.Host = tc.host
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			switch {
			case tc.ok && rec.Code != 200:
				t.Errorf("Host %q, GET %s: status %d, want 200", tc.host, path, rec.Code)
			case !tc.ok && rec.Code != http.StatusForbidden:
				t.Errorf("Host %q, GET %s: status %d, want 403", tc.host, path, rec.Code)
			case !tc.ok:
				var v map[string]string
				if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || !strings.Contains(v["error"], "--allow-host") {
					t.Errorf("Host %q: body %s (%v), want a JSON error naming --allow-host", tc.host, rec.Body, err)
				}
			}
			// Without LoopbackOnly (a server bound to the network) every host is answered.
			rec = httptest.NewRecorder()
			open.ServeHTTP(rec, req)
			if rec.Code != 200 {
				t.Errorf("Host %q, GET %s without LoopbackOnly: status %d, want 200", tc.host, path, rec.Code)
			}
		}
	}
}

// TestEveryAPIAnswerIsJSON: unknown paths, wrong methods and the API's root answer JSON too.
func TestEveryAPIAnswerIsJSON(t *testing.T) {
	h := New(Options{}).Handler()
	tests := []struct {
		method, path string
		code         int
		has          string // in the error, or a key of the answer
	}{
		{"GET", "/api", 200, "endpoints"},
		{"GET", "/api/", 200, "endpoints"},
		{"HEAD", "/api", 200, ""},
		{"GET", "/api/nope", 404, "no such API endpoint"},
		{"GET", "/api/queens", 404, "no such API endpoint"},
		{"GET", "/api/queens/count/extra", 404, "no such API endpoint"},
		{"POST", "/api/nope", 404, "no such API endpoint"},
		{"POST", "/api/queens/count?n=8", 405, "only GET"},
		{"DELETE", "/api/knight/tour", 405, "only GET"},
		{"PUT", "/api/queens/picture.svg", 405, "only GET"},
		{"POST", "/api", 405, "only GET"},
		{"GET", "/api/queens/count", 400, "n is required"},
	}
	for _, tc := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != tc.code {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, rec.Code, tc.code)
		}
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s %s: Content-Type %q, want JSON", tc.method, tc.path, ct)
		}
		if tc.code == 405 && rec.Header().Get("Allow") == "" {
			t.Errorf("%s %s: 405 without an Allow header", tc.method, tc.path)
		}
		if tc.method == "HEAD" {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Errorf("%s %s: body is not a JSON object: %v: %s", tc.method, tc.path, err, rec.Body)
			continue
		}
		if msg, ok := v["error"].(string); ok {
			if !strings.Contains(msg, tc.has) {
				t.Errorf("%s %s: error %q, want it to contain %q", tc.method, tc.path, msg, tc.has)
			}
		} else if _, ok := v[tc.has]; !ok {
			t.Errorf("%s %s: answer %v has no %q", tc.method, tc.path, v, tc.has)
		}
	}
}
