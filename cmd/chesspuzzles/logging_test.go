package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
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
	port := freePort(t)
	state := t.TempDir()
	coord := start(t, "coordinator", "queens", "count", "9", "--distributed", "--workers", "0", "--json",
		"--nats-listen", fmt.Sprintf("127.0.0.1:%d", port), "--state", state, "--log-format", "json")
	coord.waitFor(`workers join with`, 30*time.Second)
	w := start(t, "worker", "worker", "--nats", fmt.Sprintf("nats://127.0.0.1:%d", port), "--creds", addWorker(t, state, "w1"),
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
