package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
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
	guardGroups(root)
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
		c, rest, err := root.Find(words)
		if err != nil || c.HasSubCommands() {
			t.Errorf("overview example %q: names no command (%v)", words, err)
			continue
		}
		if err := c.ParseFlags(rest); err != nil {
			t.Errorf("overview example %q: %v", words, err)
		} else if err := c.ValidateArgs(c.Flags().Args()); err != nil {
			t.Errorf("overview example %q: %v", words, err)
		}
	}
}
