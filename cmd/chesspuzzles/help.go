package main

import (
	_ "embed"
	"strings"
)

// doc is the source of doc.go, whose package comment is the manual. The root command's
// help shows that comment, so that "chesspuzzles --help" and "go doc" say the same thing
// (as golang.org/x/tools/cmd/digraph does).
//
//go:embed doc.go
var doc string

// manual returns the package comment of doc.go as plain text: the text between "/*" and
// "*/", with the "# " of its headings dropped.
func manual() string {
	text := doc
	if i := strings.Index(text, "/*\n"); i >= 0 {
		text = text[i+3:]
	}
	if i := strings.Index(text, "*/"); i >= 0 {
		text = text[:i]
	}
	var b strings.Builder
	for line := range strings.Lines(text) {
		b.WriteString(strings.TrimPrefix(line, "# "))
	}
	return strings.TrimRight(b.String(), "\n")
}
