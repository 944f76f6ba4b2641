package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestManualNamesEveryCommand walks the command tree and fails when the manual (doc.go's
// package comment, which "chesspuzzles --help" shows) misses a command or a flag: every
// command that is not hidden has its line in the list of commands, with its path ("queens
// trace"; a shell's name in the line of completion), and every flag that is not hidden
// is named, as --name, somewhere in the manual; and back: every command the list names and
// every --flag the manual names exists. A command or flag added without a word in the
// manual, or removed with its word left behind, fails here (issue 26.3: six commands were
// missing).
func TestManualNamesEveryCommand(t *testing.T) {
	m := manual()
	list := commandList(t, m)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		path := strings.TrimPrefix(c.CommandPath(), "chesspuzzles")
		path = strings.TrimSpace(path)
		switch {
		case path == "":
		case c.Parent() != nil && c.Parent().Name() == "completion":
			if !strings.Contains(list["completion"], c.Name()) {
				t.Errorf("the manual's line for completion does not name the shell %q: %q", c.Name(), list["completion"])
			}
		case c.HasAvailableSubCommands() && path != "completion":
			// A group (queens, knight): its commands are listed, each on its own line.
		case list[path] == "":
			t.Errorf("the manual's list of commands lacks %q", path)
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" {
				return
			}
			if !regexp.MustCompile(`--` + regexp.QuoteMeta(f.Name) + `\b`).MatchString(m) {
				t.Errorf("the manual does not name --%s, a flag of %q", f.Name, c.CommandPath())
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	root := newRootCmd(nil, nil, nil)
	walk(root)
	// Nothing stale: every command the list names exists, and every --flag the manual
	// names is a flag of some command.
	for path := range list {
		if c, rest, err := root.Find(strings.Fields(path)); err != nil || len(rest) > 0 || c == root {
			t.Errorf("the manual's list of commands names %q, which is no command", path)
		}
	}
	flags := map[string]bool{"help": true, "version": true}
	var all func(c *cobra.Command)
	all = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) { flags[f.Name] = true })
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) { flags[f.Name] = true })
		for _, s := range c.Commands() {
			all(s)
		}
	}
	all(root)
	for _, m := range regexp.MustCompile(`(?:^|[\s(\[,"])--([a-z][a-z0-9-]*)`).FindAllStringSubmatch(m, -1) {
		if !flags[m[1]] {
			t.Errorf("the manual names --%s, which no command has", m[1])
		}
	}
	for _, stale := range []string{"out of reach"} {
		if strings.Contains(m, stale) {
			t.Errorf("the manual still says %q", stale)
		}
	}
}

// commandList reads the manual's list of commands, the tab-indented lines after "The
// groups and commands are:", into a map from command path ("queens count") to its line.
func commandList(t *testing.T, manual string) map[string]string {
	_, after, ok := strings.Cut(manual, "The groups and commands are:\n\n")
	if !ok {
		t.Fatal("the manual has no list of commands")
	}
	list := map[string]string{}
	for line := range strings.Lines(after) {
		if !strings.HasPrefix(line, "\t") {
			break
		}
		// The path is the leading lower-case words of the line's first column, which two or
		// more spaces end: "queens count N|FROM-TO  count …", "queens regions solve F  …".
		head, _, _ := strings.Cut(strings.TrimSpace(line), "  ")
		var path []string
		for _, w := range strings.Fields(head) {
			if w != strings.ToLower(w) || strings.ContainsAny(w, "[.|") {
				break
			}
			path = append(path, w)
		}
		list[strings.Join(path, " ")] = line
	}
	if len(list) < 10 {
		t.Fatalf("the manual's list of commands has %d lines: not read right", len(list))
	}
	return list
}
