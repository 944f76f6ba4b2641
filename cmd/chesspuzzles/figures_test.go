package main

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/internal/figures"
	"github.com/spf13/cobra"
)

// benchReadme is the one home of the project's measured figures (issue 26).
const benchReadme = "bench/README.md"

// TestFigureBlocks holds README.md's tables of measured figures to bench/README.md: each
// is a figure block (internal/figures) whose lines must be those of the block of the same
// name in bench/README.md, so that a figure edited in one of the two only fails here.
// README must quote the blocks named below, so that dropping a marker fails too.
func TestFigureBlocks(t *testing.T) {
	home := readDoc(t, benchReadme)
	doc := readDoc(t, "README.md")
	synced, names, err := figures.Sync(doc, home)
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	for _, want := range []string{"join", "howlong", "knight"} {
		if !slices.Contains(names, want) {
			t.Errorf("README.md does not quote the figure block %q of %s", want, benchReadme)
		}
	}
	if synced == doc {
		return
	}
	got, want := strings.Split(doc, "\n"), strings.Split(synced, "\n")
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("README.md:%d differs from its figure block in %s:\n  README: %s\n  bench:  %s\nedit the figure in %[2]s, then run go run ./scripts/figures",
				i+1, benchReadme, got[i], want[i])
		}
	}
	t.Fatalf("README.md's figure blocks differ in length from %s's: edit them there, then run go run ./scripts/figures", benchReadme)
}

// TestQuotedFigures holds the figures quoted in prose, in README.md, in the manual
// (doc.go, "chesspuzzles --help") and in every command's --help, to bench/README.md: each number with a unit of time or
// memory ("42 min", "3.2 GiB", "255 CPU-seconds") must be written, the same number in the
// same unit, somewhere in bench/README.md. It cannot tell which of bench's figures a
// sentence means, so an edit there fails here only when the old figure is left nowhere in
// it; README's tables are held cell by cell by TestFigureBlocks.
func TestQuotedFigures(t *testing.T) {
	have := map[figures.Figure]bool{}
	for _, f := range figures.Quoted(readDoc(t, benchReadme)) {
		have[f] = true
	}
	for _, doc := range []struct{ name, text string }{
		{"README.md", readDoc(t, "README.md")},
		{"the manual (doc.go)", manual()},
		{"the commands' --help", commandHelp()},
	} {
		quoted := figures.Quoted(doc.text)
		if len(quoted) == 0 {
			t.Errorf("%s quotes no figures: this test no longer reads it", doc.name)
		}
		for _, f := range quoted {
			if !have[f] {
				t.Errorf("%s quotes %q, which %s does not give", doc.name, f, benchReadme)
			}
		}
	}
}

// commandHelp returns the long help and the flags' usage of every command under the root,
// one after another.
func commandHelp() string {
	var b strings.Builder
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		b.WriteString(c.Long + "\n" + c.Example + "\n")
		b.WriteString(c.LocalFlags().FlagUsages())
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(nil, io.Discard, io.Discard))
	return b.String()
}

// TestReadmeSize holds README.md to its budget: short enough to read at one sitting, the
// figures' detail left to bench/README.md.
func TestReadmeSize(t *testing.T) {
	const most = 12 << 10
	if n := len(readDoc(t, "README.md")); n > most {
		t.Errorf("README.md is %d bytes, more than its budget of %d: move detail to docs/ or bench/README.md", n, most)
	}
}
