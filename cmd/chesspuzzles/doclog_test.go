package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/doclog"
)

// TestDocLogLines runs a small distributed count as docs/distributed.md shows it (a
// coordinator with its embedded server, two workers of issued identities, one logging
// JSON with -v) and requires that every log line the page quotes is one the programs
// printed: the same fixed words, any figures (internal/doclog), so that the page cannot
// drift from the program again. The lines of a quarantine, which need a lying worker, are
// internal/work/cluster's TestDocQuarantineLines.
func TestDocLogLines(t *testing.T) {
	var quoted []doclog.Line
	for _, q := range doclog.Quoted(readDoc(t, "docs/distributed.md")) {
		if !strings.Contains(q.Text, "quarantin") {
			quoted = append(quoted, q)
		}
	}
	if len(quoted) < 10 {
		t.Fatalf("docs/distributed.md quotes %d log lines, want the coordinator's and the workers' (10 or more)", len(quoted))
	}
	state := t.TempDir()
	node1, w1 := addWorker(t, state, "node1"), addWorker(t, state, "w1")
	coord := start(t, "coordinator", "queens", "count", "9", "--distributed", "--nats-listen", "127.0.0.1:0",
		"--state", state, "--workers", "0")
	url := workerURL(coord)
	// Each task stalls a little, so that both workers take part and node1 says how many
	// it has done while the job runs.
	a := start(t, "worker node1", "worker", "--nats", url, "--creds", node1, "--name", "node1", "--cores", "2", "--every", "100ms", "--test-stall", "10ms")
	b := start(t, "worker w1", "worker", "--nats", url, "--creds", w1, "--name", "w1", "--cores", "2", "--log-format", "json", "-v", "--test-stall", "10ms")
	if code := coord.wait(2 * time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d, want 0", code)
	}
	a.waitFor(`job q9v1 is done`, 10*time.Second)
	b.waitFor(`job q9v1 is done`, 10*time.Second)
	out := coord.stderr.String() + a.stderr.String() + b.stderr.String()
	for _, q := range quoted {
		if !doclog.Printed(q.Text, out) {
			t.Errorf("docs/distributed.md:%d quotes a log line no program printed:\n\t%s\npattern %s", q.Line, q.Text, doclog.Pattern(q.Text))
		}
	}
	if t.Failed() {
		t.Logf("what they printed:\n%s", out)
	}
}
