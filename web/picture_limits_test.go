package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"
)

// TestPictureCostBounded is issue 25's probe: GET picture.png?size=200&square=128 asked for
// 25,624² pixels and took 8.3 GB. Such pictures are refused (400) before any work, and the
// allowed pictures are drawn with less than 256 MiB allocated in all (8 bytes a pixel).
func TestPictureCostBounded(t *testing.T) {
	s := New(Options{Timeout: 20 * time.Second})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for _, path := range []string{
		"/api/knight/picture.png?size=200&square=128",
		"/api/knight/picture.png?size=200&square=15",
		"/api/queens/picture.png?n=64&square=128",
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		code, v := fetch(t, srv.URL+path)
		runtime.ReadMemStats(&after)
		if code != http.StatusBadRequest || v["error"] == nil {
			t.Errorf("GET %s: status %d, %v; want 400 and an error", path, code, v)
		}
		if d, a := time.Since(start), after.TotalAlloc-before.TotalAlloc; d > time.Second || a > 16<<20 {
			t.Errorf("GET %s: refused after %v and %d MiB allocated; want at once", path, d, a>>20)
		}
		t.Logf("GET %s: %d %v", path, code, v["error"])
	}
	// size=50 at 56 pixels a square: 2,847² = 8.1 M pixels, near the most allowed (a
	// tour of 50×50 is found in milliseconds; one of 200×200 takes seconds, and its path
	// adds at most 33 MB). The race detector makes drawing ten times slower: under it a
	// picture of 8×8 stands for it.
	path := "/api/knight/picture.png?size=50&square=56"
	if raceEnabled {
		path = "/api/knight/picture.png?size=8"
	}
	start := time.Now()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	runtime.ReadMemStats(&after)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("GET %s: status %d, %s: %.200s", path, res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	a := after.TotalAlloc - before.TotalAlloc
	t.Logf("GET %s: %d bytes of PNG, %d MiB allocated, %v", path, len(body), a>>20, time.Since(start))
	if a > 256<<20 {
		t.Errorf("GET %s allocated %d MiB, more than the 256 a request may hold", path, a>>20)
	}
}
