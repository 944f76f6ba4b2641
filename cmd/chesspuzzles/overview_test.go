package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestOverview checks "chesspuzzles" alone: it prints the short overview, not the manual,
// and exits 0; the overview names every group and command at the top level, and each of
// its five example command lines names a command that exists and flags it has.
func TestOverview(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := execute(context.Background(), nil, strings.NewReader(""), &stdout, &stderr); code != 0 || stderr.Len() > 0 {
		t.Fatalf("chesspuzzles alone: exit %d, stderr %q", code, stderr.String())
	}
	if stdout.String() != overviewText {
		t.Errorf("chesspuzzles alone printed:\n%s\nwant the overview:\n%s", stdout.String(), overviewText)
	}
	if n := strings.Count(overviewText, "\n"); n > 30 {
		t.Errorf("the overview is %d lines; keep it to a screen (the manual is --help)", n)
	}
	root := newRootCmd(nil, nil, nil)
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" {
			continue
		}
		if !strings.Contains(overviewText, "\n  "+c.Name()+" ") {
			t.Errorf("the overview's groups lack %q", c.Name())
		}
	}
	cmds := overviewCommands()
	if len(cmds) != 5 {
		t.Fatalf("the overview gives %d example commands, want 5: %q", len(cmds), cmds)
	}
	for _, words := range cmds {
		if err := parseCommandLine(root, words); err != nil {
			t.Errorf("overview example %q: %v", words, err)
		}
	}
}

// TestManualExampleLines checks the command lines of the manual's last section, Examples:
// each names a command (not a group) whose flags and arguments parse. They are not run
// (some write files, serve runs until stopped, one counts for seconds).
func TestManualExampleLines(t *testing.T) {
	_, after, ok := strings.Cut(manual(), "\nExamples\n\n")
	if !ok {
		t.Fatal("the manual has no Examples section")
	}
	root := newRootCmd(nil, nil, nil)
	root.InitDefaultVersionFlag() // as Execute does
	n := 0
	for line := range strings.Lines(after) {
		rest, ok := strings.CutPrefix(line, "\tchesspuzzles ")
		if !ok {
			continue
		}
		n++
		words, err := splitWords(strings.TrimSpace(rest))
		if err == nil {
			err = parseCommandLine(root, words)
		}
		if err != nil {
			t.Errorf("the manual's example %q: %v", strings.TrimSpace(line), err)
		}
	}
	if n < 5 {
		t.Errorf("the manual's Examples has %d command lines: not read right", n)
	}
	// And the examples of every command's --help, up to a "#" note or a pipe.
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for line := range strings.Lines(c.Example) {
			rest, ok := strings.CutPrefix(strings.TrimSpace(line), "chesspuzzles ")
			if !ok {
				continue
			}
			rest, _, _ = strings.Cut(rest, " #")
			rest, _, _ = strings.Cut(rest, " |")
			rest, _, _ = strings.Cut(rest, " <")
			rest, _, _ = strings.Cut(rest, " >")
			words, err := splitWords(strings.TrimSpace(rest))
			if err == nil {
				err = parseCommandLine(root, words)
			}
			if err != nil {
				t.Errorf("%s --help: example %q: %v", c.CommandPath(), strings.TrimSpace(line), err)
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}

// parseCommandLine returns an error unless words (after "chesspuzzles") name a command
// whose flags and arguments parse, as cobra would before running it.
func parseCommandLine(root *cobra.Command, words []string) error {
	c, rest, err := root.Find(words)
	if err != nil {
		return err
	}
	if err := c.ParseFlags(rest); err != nil {
		return err
	}
	args := c.Flags().Args()
	if c.HasSubCommands() && (len(args) > 0 || c.Flags().NFlag() == 0) {
		return fmt.Errorf("%q is a group: it runs none of its commands with %q", c.CommandPath(), args)
	}
	return c.ValidateArgs(args)
}
