package progress

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite testdata/lines.txtar")

// plain is the Terminal option of a meter that writes plain lines.
var plain = false

// lineCases are the statuses testdata/lines.txtar holds the plain lines of.
var lineCases = []struct {
	name string
	o    Options
	s    Status
}{
	{"queens count start", Options{What: "N=17", Unit: "tasks", RateUnit: "nodes"},
		Status{Done: 0, Total: 4319, Note: "0 solutions so far"}},
	{"queens count running", Options{What: "N=17", Unit: "tasks", RateUnit: "nodes"},
		Status{Done: 1247, Total: 4319, Fraction: 0.289, Rate: 2.3149e8, ETA: 14*time.Second + 400*time.Millisecond, Note: "27598576 solutions so far"}},
	{"queens count done", Options{What: "N=17", Unit: "tasks", RateUnit: "nodes"},
		Status{Done: 4319, Total: 4319, Fraction: 1, Rate: 2.3e8, Note: "95815104 solutions so far"}},
	{"long eta in minutes", Options{What: "N=23", Unit: "tasks", RateUnit: "nodes"},
		Status{Done: 12, Total: 40000, Fraction: 0.0001, Rate: 1e9, ETA: 30*time.Hour + 29*time.Minute + 31*time.Second}},
	{"knight dp", Options{What: "knight 6x6", Unit: "cells", RateUnit: "cells"},
		Status{Done: 20, Total: 36, Rate: 4.5, ETA: 3 * time.Second, Note: "10433 states, 1.2 MiB"}},
	{"solve", Options{What: "solve N=16", Unit: "columns", RateUnit: "solutions"},
		Status{Done: 3, Total: 16, Rate: 5.9e6, ETA: 1600 * time.Millisecond, Note: "1540000 solutions, 120000000 nodes"}},
	{"fraction beyond one is clamped", Options{What: "x", Unit: "tasks", RateUnit: "nodes"},
		Status{Done: 2, Total: 3, Fraction: 1.5}},
}

// TestLineGolden checks the plain line of each case against testdata/lines.txtar, one
// file a case; go test -update rewrites it (then read the diff).
func TestLineGolden(t *testing.T) {
	const path = "testdata/lines.txtar"
	if *update {
		ar := &txtar.Archive{Comment: []byte("Plain progress lines, one per case of TestLineGolden; regenerate with go test ./internal/progress -update.\n")}
		for _, c := range lineCases {
			ar.Files = append(ar.Files, txtar.File{Name: c.name, Data: []byte(Line(c.o, c.s) + "\n")})
		}
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, f := range ar.Files {
		want[f.Name] = string(f.Data)
	}
	if len(ar.Files) != len(lineCases) {
		t.Errorf("%s has %d cases, the test %d", path, len(ar.Files), len(lineCases))
	}
	for _, c := range lineCases {
		t.Run(c.name, func(t *testing.T) {
			if got := Line(c.o, c.s) + "\n"; got != want[c.name] {
				t.Errorf("Line = %q, want %q", got, want[c.name])
			}
		})
	}
}

// TestLineShape: every line is "<what>: <done>/<total> <unit>, <pct>%, <rate> <unit>/s,
// ETA <d>" with an optional note, whatever the status.
func TestLineShape(t *testing.T) {
	for _, c := range lineCases {
		line := Line(c.o, c.s)
		prefix := fmt.Sprintf("%s: %d/%d %s, ", c.o.What, c.s.Done, c.s.Total, c.o.Unit)
		if !strings.HasPrefix(line, prefix) || !strings.Contains(line, " "+c.o.RateUnit+"/s, ETA ") || !strings.Contains(line, "%, ") {
			t.Errorf("%s: Line = %q, want the shape %q…%%, <rate> %s/s, ETA …", c.name, line, prefix, c.o.RateUnit)
		}
	}
}

func TestPlainEvery(t *testing.T) {
	var buf bytes.Buffer
	m := New(&buf, Options{What: "N=8", Unit: "tasks", RateUnit: "nodes", Terminal: &plain, Every: time.Hour})
	m.Update(Status{Done: 1, Total: 10})
	if buf.Len() != 0 {
		t.Errorf("a line before Every passed: %q", buf.String())
	}
	m.shown = m.shown.Add(-time.Hour) // due now
	m.Update(Status{Done: 2, Total: 10})
	m.Update(Status{Done: 3, Total: 10}) // not due again
	m.Finish()
	m.Update(Status{Done: 4, Total: 10}) // after Finish: ignored
	if got, want := buf.String(), "N=8: 2/10 tasks, 20.0%, ? nodes/s, ETA ?\n"; got != want {
		t.Errorf("plain progress = %q, want %q", got, want)
	}
	// Log lines go straight through.
	fmt.Fprintf(m, "a log line\n")
	if !strings.HasSuffix(buf.String(), "ETA ?\na log line\n") {
		t.Errorf("after a log line through the meter: %q", buf.String())
	}
}

func TestQuiet(t *testing.T) {
	for _, tty := range []bool{false, true} {
		var buf bytes.Buffer
		m := New(&buf, Options{What: "N=8", Unit: "tasks", RateUnit: "nodes", Quiet: true, Terminal: &tty, Every: time.Nanosecond})
		stop := m.Follow(func() Status { return Status{Done: 1, Total: 2} })
		for i := range 3 {
			m.Update(Status{Done: int64(i), Total: 2})
			time.Sleep(time.Millisecond)
		}
		stop()
		m.Finish()
		if buf.Len() != 0 {
			t.Errorf("terminal %v: --quiet meter wrote %q", tty, buf.String())
		}
	}
}

// TestBar draws on a pretended terminal: the bar line carries the same text as a plain
// line, and log lines written through the meter are not lost.
func TestBar(t *testing.T) {
	var buf syncBuffer
	tty := true
	m := New(&buf, Options{What: "N=9", Unit: "tasks", RateUnit: "nodes", Terminal: &tty})
	m.Update(Status{Done: 5, Total: 10, Rate: 1000, ETA: 2 * time.Second})
	fmt.Fprintf(m, "a log line\n")
	m.Update(Status{Done: 10, Total: 10, Rate: 1000})
	time.Sleep(300 * time.Millisecond) // one redraw
	m.Finish()
	out := buf.String()
	for _, want := range []string{"N=9:", "10/10 tasks, 100.0%, 1e+03 nodes/s, ETA 0s", "a log line\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar output lacks %q:\n%q", want, out)
		}
	}
}

// TestFollow polls a counter until stopped.
func TestFollow(t *testing.T) {
	var buf syncBuffer
	m := New(&buf, Options{What: "solve N=8", Unit: "columns", RateUnit: "solutions", Terminal: &plain, Every: time.Nanosecond})
	stop := m.Follow(func() Status { return Status{Done: 4, Total: 8} })
	time.Sleep(600 * time.Millisecond)
	stop()
	n := strings.Count(buf.String(), "solve N=8: 4/8 columns, 50.0%, ? solutions/s, ETA ?\n")
	if n < 1 || n*len("solve N=8: 4/8 columns, 50.0%, ? solutions/s, ETA ?\n") != len(buf.String()) {
		t.Errorf("Follow wrote %q, want lines of 4/8 columns", buf.String())
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestFinishErases: on a terminal Finish leaves no bar behind and draws nothing after it
// returns, whether the run got to the end or not (issue 27: a bar redrawn after the
// answer wiped it off the screen). mpb erases its previous frame at the start of the next
// one, so the output ends with that erase: cursor up one line, erase to the end.
func TestFinishErases(t *testing.T) {
	for _, last := range []Status{{Done: 10, Total: 10}, {Done: 4, Total: 10}} {
		var buf syncBuffer
		tty := true
		m := New(&buf, Options{What: "N=9", Unit: "tasks", RateUnit: "nodes", Terminal: &tty})
		m.Update(Status{Done: 1, Total: 10})
		time.Sleep(300 * time.Millisecond) // one redraw
		m.Update(last)
		m.Finish()
		out := buf.String()
		if !strings.Contains(out, "N=9:") {
			t.Fatalf("%d/%d: no bar drawn: %q", last.Done, last.Total, out)
		}
		if !strings.HasSuffix(out, "\x1b[1A\x1b[J") {
			t.Errorf("%d/%d: after Finish the bar is still on the screen: the output ends %q", last.Done, last.Total, out[max(len(out)-120, 0):])
		}
		time.Sleep(300 * time.Millisecond)
		if later := buf.String(); later != out {
			t.Errorf("%d/%d: written after Finish returned: %q", last.Done, last.Total, later[len(out):])
		}
	}
}
