package main

import (
	"strings"
	"testing"
	"time"
)

// stream is a "go test -json" run of two packages: p passes with a skip and a pass, q fails
// one subtest.
const stream = `{"Action":"start","Package":"m/p"}
{"Action":"run","Package":"m/p","Test":"TestA"}
{"Action":"output","Package":"m/p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Package":"m/p","Test":"TestA","Output":"    a_test.go:3: quiet\n"}
{"Action":"pass","Package":"m/p","Test":"TestA","Elapsed":2.5}
{"Action":"run","Package":"m/p","Test":"TestLong"}
{"Action":"output","Package":"m/p","Test":"TestLong","Output":"    a_test.go:9: set CHESSPUZZLES_LONG=1\n"}
{"Action":"skip","Package":"m/p","Test":"TestLong","Elapsed":0}
{"Action":"output","Package":"m/p","Output":"PASS\n"}
{"Action":"output","Package":"m/p","Output":"ok  \tm/p\t2.6s\n"}
{"Action":"pass","Package":"m/p","Elapsed":2.6}
{"Action":"start","Package":"m/q"}
{"Action":"run","Package":"m/q","Test":"TestB"}
{"Action":"run","Package":"m/q","Test":"TestB/x"}
{"Action":"output","Package":"m/q","Test":"TestB/x","Output":"    b_test.go:7: got 1, want 2\n"}
{"Action":"fail","Package":"m/q","Test":"TestB/x","Elapsed":0.1}
{"Action":"fail","Package":"m/q","Test":"TestB","Elapsed":0.1}
{"Action":"output","Package":"m/q","Output":"FAIL\tm/q\t0.2s\n"}
{"Action":"fail","Package":"m/q","Elapsed":0.2}
`

func newLog(w *strings.Builder) *log {
	return &log{w: w, last: time.Now(), running: map[string]*run{}, pkgs: map[string]bool{}}
}

func TestLog(t *testing.T) {
	var out strings.Builder
	l := newLog(&out)
	if err := l.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	l.summary()
	got := out.String()
	for _, want := range []string{"ok  \tm/p\t2.6s\n", "a_test.go:9: set CHESSPUZZLES_LONG=1\n", "b_test.go:7: got 1, want 2\n", "FAIL\tm/q\t0.2s\n", "slowest tests: m/p TestA 2.5s, "} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"quiet", "=== RUN", "PASS\n"} {
		if strings.Contains(got, not) {
			t.Errorf("output has %q, which only a failing or skipped test's would:\n%s", not, got)
		}
	}
	if !l.failed {
		t.Error("a failed test left failed false")
	}
	if err := l.unfinished(); err != nil {
		t.Errorf("unfinished() = %v after every package ended", err)
	}
}

func TestLogVerdict(t *testing.T) {
	var out strings.Builder
	l := newLog(&out)
	skipped := `{"Action":"start","Package":"m/r"}
{"Action":"output","Package":"m/r","Output":"?   \tm/r\t[no test files]\n"}
{"Action":"skip","Package":"m/r","Elapsed":0}
`
	if err := l.read(strings.NewReader(stream + skipped)); err != nil {
		t.Fatal(err)
	}
	l.verdict(65*time.Second, 90*time.Second)
	// The stream: p passes TestA and skips TestLong; q fails TestB/x and so TestB; r has no tests.
	want := "== tests: done in 1m5s\n1 packages ok, 1 failed, 1 skipped (no tests), in 1.5 min; 1 tests skipped\n1 passed, 2 failed\n"
	if got := out.String(); !strings.HasSuffix(got, want) {
		t.Errorf("verdict:\n%s\nwant it to end with:\n%s", got, want)
	}
}

func TestLogUnfinished(t *testing.T) {
	var out strings.Builder
	l := newLog(&out)
	if err := l.read(strings.NewReader("")); err != nil || l.unfinished() == nil {
		t.Errorf("empty input: read %v, unfinished %v; want an error from unfinished", err, l.unfinished())
	}
	l = newLog(&out)
	cut := stream[:strings.Index(stream, `{"Action":"fail","Package":"m/q","Test":"TestB/x"`)]
	if err := l.read(strings.NewReader(cut)); err != nil {
		t.Fatal(err)
	}
	if err := l.unfinished(); err == nil || !strings.Contains(err.Error(), "m/q") {
		t.Errorf("a stream cut off in m/q: unfinished() = %v, want an error naming m/q", err)
	}
	if s := newLog(&out).status(time.Now()); !strings.Contains(s, "building") {
		t.Errorf("status with no test running = %q, want it to say go test is building", s)
	}
	if s := l.status(time.Now()); !strings.Contains(s, "m/q TestB/x") || strings.Contains(s, "m/q TestB ") {
		t.Errorf("status = %q, want the innermost running test, m/q TestB/x", s)
	}
}
