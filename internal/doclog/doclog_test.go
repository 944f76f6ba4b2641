package doclog

import "testing"

func TestQuoted(t *testing.T) {
	doc := "text\n\n```text\n$ chesspuzzles queens count 17\n" +
		`time=2026-11-27T16:26:34.112Z level=INFO msg="job q17v1: 0 of 4319 tasks have results" component=coordinator` + "\n" +
		"N=17: 2237/4319 tasks\n```\n\n  ```text\n  job q10v1: worker rogue is quarantined\n  ```\n" +
		"```console\n" + `time=x level=INFO msg="not quoted: a console block" component=worker` + "\n```\n"
	got := Quoted(doc)
	if len(got) != 2 || got[0].Line != 5 || got[1].Line != 10 || got[1].Text != "job q10v1: worker rogue is quarantined" {
		t.Errorf("Quoted = %+v; want the slog line at 5 and the bare message at 10", got)
	}
}

func TestPrinted(t *testing.T) {
	for _, tc := range []struct {
		name, quoted, output string
		want                 bool
	}{
		{"figures differ", `time=2026-11-27T16:26:42.400Z level=INFO msg="worker node1: job q17v1 is done (2100 tasks done by this worker); waiting quietly for the next" component=worker worker=node1`,
			"x\n" + `time=2026-11-29T09:00:00.001Z level=INFO msg="worker node1: job q10v1 is done (140 tasks done by this worker); waiting quietly for the next" component=worker worker=node1` + "\n", true},
		{"a word differs", `time=2026-11-27T16:26:42.400Z level=INFO msg="worker node1: job q17v1 is done (2100 tasks done by this worker); waiting quietly for the next" component=worker worker=node1`,
			`time=2026-11-29T09:00:00.001Z level=INFO msg="worker node1: job q10v1 is done (140 tasks by this worker); waiting quietly for the next" component=worker worker=node1`, false},
		{"more words", `time=2026-11-27T16:26:44.960Z level=INFO msg="worker node1: 2100 tasks done" component=worker worker=node1`,
			`time=2026-11-29T09:00:00.001Z level=INFO msg="worker node1: 140 tasks done; stopped" component=worker worker=node1`, false},
		{"paths and addresses", `time=2026-11-27T16:26:34.088Z level=INFO msg="NATS server on 0.0.0.0:4222, state in /var/lib/chesspuzzles/nats" component=coordinator`,
			`time=2026-11-29T09:00:00.001Z level=INFO msg="NATS server on 127.0.0.1:39211, state in /tmp/TestX/001" component=coordinator`, true},
		{"JSON", `{"time":"2026-11-24T04:29:26.270864067Z","level":"INFO","msg":"task q9v1.108 done in 1ms (0 solutions), 138 done by this worker","component":"worker","worker":"w1"}`,
			`{"time":"2026-11-29T09:00:00.1Z","level":"INFO","msg":"task q10v1.3 done in 512.3µs (4 solutions), 7 done by this worker","component":"worker","worker":"w1"}`, true},
		{"bare in a frame", `job q10v1: worker rogue is quarantined: its 14 stored results are dropped`,
			`time=2026-11-29T09:00:00.001Z level=INFO msg="job q10v1: worker rogue is quarantined: its 3 stored results are dropped" component=coordinator`, true},
		{"bare, another identity", `job q10v1: worker rogue is quarantined: its 14 stored results are dropped`,
			`job q10v1: worker liar is quarantined: its 3 stored results are dropped`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Printed(tc.quoted, tc.output); got != tc.want {
				t.Errorf("Printed(%q, %q) = %v, want %v (pattern %s)", tc.quoted, tc.output, got, tc.want, Pattern(tc.quoted))
			}
		})
	}
}
