// Package doclog finds the log lines a Markdown document quotes and tells whether a
// program printed each: the same fixed words, any figures. It is how the tests keep the
// log lines that docs/distributed.md shows the same as those the coordinator and the
// workers print.
//
// A quoted log line is a line of a ```text block that is one of log/slog's (text:
// `time=… level=… msg="…"`; JSON: `{"time":…,"msg":…}`), or a bare message of a
// coordinator (`job q10v1: …`). Its pattern ([Pattern]) keeps its words and punctuation
// and lets any token with a digit in it (counts, times, durations, job ids, identities
// such as node1, addresses and ports) or any path stand for any such token.
//
// Usage, in a test:
//
//	for _, q := range doclog.Quoted(doc) {
//		if !doclog.Printed(q.Text, output) {
//			t.Errorf("line %d of the document is not printed: %s", q.Line, q.Text)
//		}
//	}
package doclog

import (
	"regexp"
	"strings"
)

// A Line is a log line a document quotes, with its 1-based line number.
type Line struct {
	Line int
	Text string
}

// bare is a coordinator's message quoted without slog's framing.
var bare = regexp.MustCompile(`^job [a-z0-9-]+: `)

// Quoted returns the log lines the Markdown text quotes in its ```text blocks (indented
// blocks too), in order. It takes time proportional to the text.
func Quoted(doc string) []Line {
	var out []Line
	in := false
	for i, l := range strings.Split(doc, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") {
			in = !in && t == "```text"
			continue
		}
		if !in {
			continue
		}
		if strings.HasPrefix(t, "time=") && strings.Contains(t, ` msg="`) ||
			strings.HasPrefix(t, `{"time":`) && strings.Contains(t, `"msg":`) ||
			bare.MatchString(t) {
			out = append(out, Line{Line: i + 1, Text: t})
		}
	}
	return out
}

// varying are the tokens of a quoted line that stand for any such token: a run of
// letters, digits and . : / @ - _ with a digit in it, or a path.
var varying = regexp.MustCompile(`[A-Za-z0-9_.:/@+-]*[0-9][A-Za-z0-9_.:/@+-]*|/[^\s",;)]+`)

// Pattern returns the regular expression of quoted, a quoted log line: its fixed text
// literally, each varying token as any run of characters other than spaces and quotes,
// from the start of a line to its end (a bare message anywhere in a line: the program
// frames it).
func Pattern(quoted string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`(?m)`)
	if !bare.MatchString(quoted) {
		b.WriteString(`^`)
	}
	last := 0
	for _, m := range varying.FindAllStringIndex(quoted, -1) {
		b.WriteString(regexp.QuoteMeta(quoted[last:m[0]]))
		b.WriteString(`[^\s"]+`)
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(quoted[last:]))
	if bare.MatchString(quoted) {
		b.WriteString(`("|$)`) // the end of slog's msg, or of a plain line
	} else {
		b.WriteString(`$`)
	}
	return regexp.MustCompile(b.String())
}

// Printed reports whether output, what a program printed, has a line that quoted, a
// quoted log line, stands for.
func Printed(quoted, output string) bool {
	return Pattern(quoted).MatchString(output)
}
