package web

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// apiMention matches an endpoint as the documents name it: "GET /api/queens/count" (then
// "?", a space, a backquote or the end), or "GET /api/queens/picture.svg|.png" and
// "GET /api/queens/picture.svg` and `.png", which name the .png twin too.
var apiMention = regexp.MustCompile("(GET|POST) (/api/[a-z/]*[a-z](?:\\.svg|\\.png)?)(\\|\\.png|` and `\\.png)?")

// mentions returns the endpoints a text names, by apiMention, each with its method.
func mentions(text string) map[string]string {
	got := map[string]string{}
	for _, m := range apiMention.FindAllStringSubmatch(text, -1) {
		got[m[2]] = m[1]
		if m[3] != "" {
			got[strings.TrimSuffix(m[2], ".svg")+".png"] = m[1]
		}
	}
	return got
}

// TestEndpointsDocumented walks the API the server registers and fails on an endpoint
// missing from the package comment (web.go) or from docs/api.md, or named there but not
// served; and it checks docs/api.md's example of GET /api against the answer itself. An
// endpoint added without its line in both, or removed with its line left, fails here.
func TestEndpointsDocumented(t *testing.T) {
	s := New(Options{})
	var served []string
	for p := range s.api {
		served = append(served, p)
	}
	slices.Sort(served)
	if len(served) < 10 {
		t.Fatalf("the server registers %d endpoints: this test no longer reads them", len(served))
	}
	src, err := os.ReadFile("web.go")
	if err != nil {
		t.Fatal(err)
	}
	comment, _, ok := bytes.Cut(src, []byte("\npackage web"))
	if !ok {
		t.Fatal("web.go has no package clause")
	}
	api, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	// The endpoints docs/api.md describes, not counting its example of GET /api's list.
	var described strings.Builder
	for line := range strings.Lines(string(api)) {
		if !strings.HasPrefix(line, `{"docs":`) {
			described.WriteString(line)
		}
	}
	for _, doc := range []struct{ name, text string }{
		{"web.go's package comment", string(comment)},
		{"docs/api.md", described.String()},
	} {
		named := mentions(doc.text)
		for _, p := range served {
			if named[p] != s.api[p] {
				t.Errorf("%s does not list %s %s, which the server serves", doc.name, s.api[p], p)
			}
		}
		for p, method := range named {
			if s.api[p] != method {
				t.Errorf("%s lists %s %s, which the server does not serve", doc.name, method, p)
			}
		}
	}

	// docs/api.md shows what GET /api answers: the list of endpoints, as served.
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /api: %d %s", rec.Code, rec.Body)
	}
	answer := strings.TrimSpace(rec.Body.String())
	_, after, ok := strings.Cut(string(api), "$ curl -s 'http://127.0.0.1:8080/api'\n")
	if !ok {
		t.Fatal("docs/api.md has no example of GET /api")
	}
	if shown, _, _ := strings.Cut(after, "\n"); shown != answer {
		t.Errorf("docs/api.md shows GET /api answering\n%s\nit answers\n%s", shown, answer)
	}
}
