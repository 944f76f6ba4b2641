package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzQueryValues sends arbitrary query values to every endpoint: whatever they hold, the
// answer is 200, 400, 404 or 503, never a crash or a 500, and errors are JSON.
func FuzzQueryValues(f *testing.F) {
	for _, seed := range [][2]string{
		{"8", "15863724"}, {"8", "a8 e8 h1"}, {"", "(1,1) (5,2)"}, {"abc", ""}, {"-1", "Q...\n..Q."},
		{"99999999999999999999", "1,3,5"}, {"4", "e9"}, {"27", "27,1"}, {"0", "perm:0,0,0"}, {"5x5", "a1 b3 c5"},
	} {
		f.Add(seed[0], seed[1])
	}
	h := New(Options{Timeout: 200 * time.Millisecond}).Handler()
	paths := []string{
		"/api/queens/count?n=%N", "/api/queens/solutions?n=%N&after=%P&limit=%N&unique=%N",
		"/api/queens/check?n=%N&position=%P", "/api/queens/complete?n=%N&position=%P",
		"/api/queens/picture.svg?n=%N&position=%P&square=%N", "/api/knight/tour?size=%N&start=%P&closed=%N",
		"/api/knight/accessibility?size=%N&visited=%P", "/api/knight/picture.svg?size=%N&path=%P",
		"/api/knight/picture.svg?rows=%N&cols=%N&path=%P",
	}
	f.Fuzz(func(t *testing.T, n, pos string) {
		for _, p := range paths {
			u := strings.ReplaceAll(strings.ReplaceAll(p, "%N", url.QueryEscape(n)), "%P", url.QueryEscape(pos))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", u, nil))
			switch rec.Code {
			case http.StatusOK:
			case http.StatusBadRequest, http.StatusNotFound, http.StatusServiceUnavailable:
				var v map[string]string
				if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || v["error"] == "" {
					t.Errorf("GET %s: %d with body %q, want a JSON error", u, rec.Code, rec.Body.String())
				}
			default:
				t.Errorf("GET %s: status %d: %s", u, rec.Code, rec.Body.String())
			}
		}
	})
}

// FuzzPlainInt: plainInt accepts exactly the strings of 1 to 18 ASCII digits, and reads
// them as strconv.ParseInt does; a sign, a space, a line break or anything else is refused.
func FuzzPlainInt(f *testing.F) {
	for _, s := range []string{"8", "+8", "8 ", " 8", "8\n", "-8", "08", "", "0x8", "1_0", "999999999999999999", "1000000000000000000", "٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := plainInt(s)
		digits := s != "" && len(s) <= 18 && strings.Trim(s, "0123456789") == ""
		if ok != digits {
			t.Fatalf("plainInt(%q) ok = %v, want %v", s, ok, digits)
		}
		if want, err := strconv.ParseInt(s, 10, 64); ok && (err != nil || n != want) {
			t.Fatalf("plainInt(%q) = %d, strconv.ParseInt says %d, %v", s, n, want, err)
		}
	})
}
