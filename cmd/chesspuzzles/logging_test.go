package main

import (
	"encoding/json"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// checkJSONLog checks that every line of a --log-format json log is one JSON object with a
// full timestamp, a level, a message and the component that wrote it, and returns the
// messages. The one line the program writes when it ends with an error
// ("chesspuzzles: worker: interrupted") is not a log line and is left out.
func checkJSONLog(t *testing.T, who, log, component string) []string {
	t.Helper()
	var msgs []string
	for line := range strings.Lines(log) {
		if strings.HasPrefix(line, "chesspuzzles: ") {
			continue
		}
		var rec struct {
			Time      string `json:"time"`
			Level     string `json:"level"`
			Msg       string `json:"msg"`
			Component string `json:"component"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("%s log line %q is not JSON: %v", who, line, err)
			continue
		}
		if _, err := time.Parse(time.RFC3339Nano, rec.Time); err != nil {
			t.Errorf("%s log line %q: time %q is not RFC 3339: %v", who, line, rec.Time, err)
		}
		if rec.Level == "" || rec.Msg == "" || rec.Component != component {
			t.Errorf("%s log line %q: want level, msg and component %q", who, line, component)
		}
		msgs = append(msgs, rec.Msg)
	}
	if len(msgs) == 0 {
		t.Errorf("%s wrote no log lines", who)
	}
	return msgs
}

// TestJSONLogs runs a coordinator and a worker with --log-format json and parses every
// line they log.
func TestJSONLogs(t *testing.T) {
	state := t.TempDir()
	coord := start(t, "coordinator", "queens", "count", "9", "--distributed", "--workers", "0", "--json",
		"--nats-listen", "127.0.0.1:0", "--state", state, "--log-format", "json")
	w := start(t, "worker", "worker", "--nats", workerURL(coord), "--creds", addWorker(t, state, "w1"),
		"--log-format", "json", "-v", "--name", "w1")
	if code := coord.wait(60 * time.Second); code != 0 {
		t.Fatalf("coordinator exited %d", code)
	}
	if got, want := coord.total(), knownQ(t, 9); got != want {
		t.Errorf("Q(9) = %s, want %s", got, want)
	}
	w.waitFor(`task q9v\d+\.\d+ done`, 30*time.Second)
	w.signal(2) // SIGINT: hand back and exit
	w.wait(30 * time.Second)
	checkJSONLog(t, "coordinator", coord.stderr.String(), "coordinator")
	msgs := checkJSONLog(t, "worker", w.stderr.String(), "worker")
	if !strings.Contains(strings.Join(msgs, "\n"), " done") {
		t.Errorf("worker's -v log has no task done: %q", msgs)
	}
}

// TestJSONLogsWithProgress: with --log-format json the coordinator's meter writes its lines
// as records of the logger, so that every line on stderr is one JSON object; a plain
// progress line among them (seen when Q(9) ran past the meter's 5 s at load) broke log
// collectors. The text format keeps the meter's plain lines.
func TestJSONLogsWithProgress(t *testing.T) {
	var stderr strings.Builder
	m := newCountMeter(&stderr, "N=9", false)
	l, err := m.logger("json", "coordinator")
	if err != nil {
		t.Fatal(err)
	}
	l.Info("job q9v1: 0 of 147 tasks have results")
	m.update(work.Status{N: 9, Tasks: 147, Done: 3, Resumed: 3, Solutions: big.NewInt(40)})
	m.Finish()
	msgs := checkJSONLog(t, "coordinator", stderr.String(), "coordinator")
	if !slices.ContainsFunc(msgs, func(s string) bool { return strings.HasPrefix(s, "N=9: resuming from the checkpoint") }) {
		t.Errorf("the meter's line is not among the records: %q", msgs)
	}

	stderr.Reset()
	m = newCountMeter(&stderr, "N=9", false)
	if _, err := m.logger("text", "coordinator"); err != nil {
		t.Fatal(err)
	}
	m.update(work.Status{N: 9, Tasks: 147, Done: 3, Resumed: 3, Solutions: big.NewInt(40)})
	m.Finish()
	if !strings.HasPrefix(stderr.String(), "N=9: resuming from the checkpoint") {
		t.Errorf("text: the meter's line is %q, want it plain", stderr.String())
	}
	if _, err := m.logger("yaml", "coordinator"); err == nil {
		t.Errorf("--log-format yaml accepted")
	}
}
