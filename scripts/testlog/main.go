// Command testlog turns the event stream of "go test -json" into a short log that shows the
// tests are moving: each package's result line as go test prints it, the whole output of every
// test that fails or is skipped, a line naming the tests still running whenever nothing has
// been printed for 30 seconds, and at the end the ten slowest tests and a verdict:
//
//	== tests: done in 5m12s
//	32 packages ok, 0 failed, 3 skipped (no tests), in 7.2 min; 41 tests skipped
//	1811 passed, 0 failed
//
// the last in the form CI's reader counts tests by (subtests included). The minutes are since -start (Unix seconds: when the whole test
// command began, as scripts/test.sh passes it), else since testlog started. It exits 1 if a
// test, a package or a build failed, or if a package started gives no result or none is
// tested (go test stopped or could not run), 0 otherwise:
//
//	go test -race -json ./... | go run ./scripts/testlog
//
// It holds only the output of the tests still running, and prints as events arrive.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// quiet is how long testlog waits without printing before it names the tests still running.
const quiet = 30 * time.Second

// event is one line of "go test -json" (see "go doc test2json").
type event struct {
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	ImportPath  string
	FailedBuild string
}

// run is a test under way: when it started and what it has printed so far.
type run struct {
	start time.Time
	out   []string
}

// finished is a test that ended, for the list of the slowest.
type finished struct {
	name    string
	elapsed float64
}

// log is testlog's state, shared by the reader and the timer that names running tests.
type log struct {
	mu      sync.Mutex
	w       io.Writer
	last    time.Time       // when a line was last printed
	running map[string]*run // by "package Test/sub"
	done    []finished      // top-level tests
	pkgs    map[string]bool // packages started, true once they have a result
	failed  bool

	// The verdict's counts: packages by their result, tests (subtests too) by theirs.
	pkgOK, pkgFailed, pkgSkipped        int
	testPassed, testFailed, testSkipped int
}

func main() {
	startUnix := flag.Int64("start", 0, "when the test command began, in Unix `seconds` (default: now)")
	flag.Parse()
	began, start := time.Now(), time.Now()
	if *startUnix > 0 {
		start = time.Unix(*startUnix, 0)
	}
	l := &log{w: os.Stdout, last: time.Now(), running: map[string]*run{}, pkgs: map[string]bool{}}
	stop := make(chan struct{})
	go l.tick(stop)
	err := l.read(os.Stdin)
	close(stop)
	l.summary()
	l.verdict(time.Since(began), time.Since(start))
	if err == nil {
		err = l.unfinished()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "testlog: %v\n", err)
		os.Exit(1)
	}
	if l.failed {
		os.Exit(1)
	}
}

// unfinished returns an error if no package was tested or one started without a result
// (go test was stopped or could not run): silence is not success.
func (l *log) unfinished() error {
	if len(l.pkgs) == 0 {
		return fmt.Errorf("no test results on stdin (is it the output of \"go test -json\"?)")
	}
	var open []string
	for p, done := range l.pkgs {
		if !done {
			open = append(open, p)
		}
	}
	if len(open) > 0 {
		slices.Sort(open)
		return fmt.Errorf("no result for %s", strings.Join(open, ", "))
	}
	return nil
}

// read handles every event of r; a line that is not an event (a message go test printed
// before it ran any test) is printed as it is.
func (l *log) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			l.print(sc.Text() + "\n")
			continue
		}
		l.handle(e)
	}
	return sc.Err()
}

// handle takes one event: it keeps a test's output until the test ends and prints it if the
// test failed or was skipped; a package's own output (its ok or FAIL line) and a build's
// output are printed at once. It notes when each package starts and ends.
func (l *log) handle(e event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	short := strings.TrimPrefix(e.Package, "github.com/chesspuzzles/chesspuzzles/")
	key := short + " " + e.Test
	switch {
	case e.Action == "build-output":
		l.printLocked(e.Output)
	case e.Action == "build-fail":
		l.failed = true
	case e.Test == "":
		switch e.Action {
		case "start":
			l.pkgs[short] = false
		case "pass", "fail", "skip":
			if !l.pkgs[short] {
				l.pkgs[short] = true
				switch e.Action {
				case "pass":
					l.pkgOK++
				case "fail":
					l.pkgFailed++
				default:
					l.pkgSkipped++
				}
			}
		}
		if e.Action == "output" && !strings.HasPrefix(e.Output, "=== ") && e.Output != "PASS\n" {
			l.printLocked(e.Output)
		}
		if e.Action == "fail" {
			l.failed = true
			for k, r := range l.running { // a package that panicked or timed out: what its tests said
				if strings.HasPrefix(k, short+" ") {
					l.printLocked(strings.Join(r.out, ""))
					delete(l.running, k)
				}
			}
		}
	case e.Action == "run":
		l.running[key] = &run{start: time.Now()}
	case e.Action == "output":
		if r := l.running[key]; r != nil && !strings.HasPrefix(e.Output, "=== ") {
			r.out = append(r.out, e.Output)
		}
	case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
		r := l.running[key]
		delete(l.running, key)
		switch e.Action {
		case "pass":
			l.testPassed++
		case "fail":
			l.failed = true
			l.testFailed++
		default:
			l.testSkipped++
		}
		if r != nil && (e.Action == "fail" || e.Action == "skip") {
			l.printLocked(strings.Join(r.out, ""))
		}
		if !strings.Contains(e.Test, "/") {
			l.done = append(l.done, finished{short + " " + e.Test, e.Elapsed})
		}
	}
}

// tick names the tests still running whenever nothing has been printed for quiet.
func (l *log) tick(stop <-chan struct{}) {
	t := time.NewTicker(quiet / 6)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			l.mu.Lock()
			if now.Sub(l.last) >= quiet {
				l.printLocked(l.status(now))
			}
			l.mu.Unlock()
		}
	}
}

// status is one line naming the longest-running tests, innermost first when a test runs
// subtests, e.g. "… running: knight TestJoinMatchesDP/6x8 12s, queens TestCount 40s"; or,
// when none runs, that go test is building.
func (l *log) status(now time.Time) string {
	if len(l.running) == 0 {
		done := 0
		for _, d := range l.pkgs {
			if d {
				done++
			}
		}
		return fmt.Sprintf("… no test running: go test is building (%d packages tested so far)\n", done)
	}
	var names []string
	for k := range l.running {
		if !l.hasChild(k) {
			names = append(names, k)
		}
	}
	slices.SortFunc(names, func(a, b string) int { return l.running[a].start.Compare(l.running[b].start) })
	var parts []string
	for _, k := range names[:min(len(names), 4)] {
		parts = append(parts, fmt.Sprintf("%s %s", k, now.Sub(l.running[k].start).Round(time.Second)))
	}
	if len(names) > 4 {
		parts = append(parts, fmt.Sprintf("and %d more", len(names)-4))
	}
	return "… running: " + strings.Join(parts, ", ") + "\n"
}

// hasChild reports whether a subtest of k is running.
func (l *log) hasChild(k string) bool {
	for c := range l.running {
		if strings.HasPrefix(c, k+"/") {
			return true
		}
	}
	return false
}

// summary prints the ten slowest top-level tests of the run.
func (l *log) summary() {
	l.mu.Lock()
	defer l.mu.Unlock()
	slices.SortFunc(l.done, func(a, b finished) int {
		switch {
		case a.elapsed > b.elapsed:
			return -1
		case a.elapsed < b.elapsed:
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	if len(l.done) == 0 {
		return
	}
	var parts []string
	for _, f := range l.done[:min(len(l.done), 10)] {
		parts = append(parts, fmt.Sprintf("%s %.1fs", f.name, f.elapsed))
	}
	l.printLocked("slowest tests: " + strings.Join(parts, ", ") + "\n")
}

// verdict prints the run's closing lines: how long the tests took, packages by result and
// the time since the test command began, then tests passed and failed, the last line of all.
func (l *log) verdict(tests, took time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.printLocked(fmt.Sprintf("== tests: done in %s\n", tests.Round(time.Second)))
	skipped := ""
	if l.testSkipped > 0 {
		skipped = fmt.Sprintf("; %d tests skipped", l.testSkipped)
	}
	l.printLocked(fmt.Sprintf("%d packages ok, %d failed, %d skipped (no tests), in %.1f min%s\n", l.pkgOK, l.pkgFailed, l.pkgSkipped, took.Minutes(), skipped))
	l.printLocked(fmt.Sprintf("%d passed, %d failed\n", l.testPassed, l.testFailed))
}

func (l *log) print(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.printLocked(s)
}

// printLocked writes s, if any, and notes the time; l.mu is held.
func (l *log) printLocked(s string) {
	if s == "" {
		return
	}
	io.WriteString(l.w, s)
	l.last = time.Now()
}
