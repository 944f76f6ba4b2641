package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/web"
)

// TestCheckJSONSameAsAPI: "queens check --json" and the web API's /api/queens/check write
// one type (queens.CheckRecord), so for a position whose attacks all fit the listing they
// write the same object, attacks_total included (the API's lacked it, issue 37).
func TestCheckJSONSameAsAPI(t *testing.T) {
	h := web.New(web.Options{}).Handler()
	for _, tc := range []struct {
		name string
		args []string // the position as check's arguments, then flags
		n    string   // the API's n, "" to infer it
	}{
		{"three queens, two attacks", []string{"a8", "e8", "h1", "--n", "8"}, "8"},
		{"a solution", []string{"15863724"}, ""},
		{"perm with attacks", []string{"0,1,2,3,4"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"queens", "check", "--json"}, tc.args...)
			code := execute(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
			if code != exitOK && code != exitNo {
				t.Fatalf("queens check: exit %d, %s", code, &stderr)
			}
			var pos []string
			for _, a := range tc.args {
				if strings.HasPrefix(a, "--") {
					break
				}
				pos = append(pos, a)
			}
			q := url.Values{"position": {strings.Join(pos, " ")}}
			if tc.n != "" {
				q.Set("n", tc.n)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/queens/check?"+q.Encode(), nil))
			if rec.Code != 200 {
				t.Fatalf("GET /api/queens/check?%s: status %d, %s", q.Encode(), rec.Code, rec.Body)
			}
			if got, want := strings.TrimSpace(rec.Body.String()), strings.TrimSpace(stdout.String()); got != want || !strings.Contains(got, `"attacks_total":`) {
				t.Errorf("the API wrote\n%s\nqueens check --json wrote\n%s\nwant the same object, with attacks_total", got, want)
			}
		})
	}
}
