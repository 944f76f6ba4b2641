package main

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func key(code rune, text string) tea.KeyPressMsg {
	return tea.KeyPressMsg{Code: code, Text: text}
}

// selected returns the list line marked as selected (starting with ">"), without the mark.
func selected(view string) string {
	for _, line := range strings.Split(view, "\n") {
		if strings.HasPrefix(line, ">") {
			f := strings.Fields(line)
			if len(f) >= 3 {
				return f[1] + " " + f[2]
			}
		}
	}
	return ""
}

func press(m *browseModel, keys ...tea.KeyPressMsg) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		_, cmd = m.Update(k)
	}
	return cmd
}

func TestBrowseModel(t *testing.T) {
	ctx := context.Background()
	t.Run("opens on the first solution", func(t *testing.T) {
		m := newBrowseModel(ctx, 8, false, false)
		view := m.View()
		if !view.AltScreen {
			t.Errorf("view not on the alternate screen")
		}
		s := view.Content
		if got := selected(s); got != "1 15863724" {
			t.Errorf("selected line %q, want 1 15863724", got)
		}
		for _, want := range []string{"8 queens: 92 solutions", "solution 1 of 92", "8 ♛"} {
			if !strings.Contains(s, want) {
				t.Errorf("view lacks %q:\n%s", want, s)
			}
		}
		if got := strings.Count(s, "♛"); got != 8 {
			t.Errorf("%d queens drawn, want 8", got)
		}
	})
	t.Run("arrows move", func(t *testing.T) {
		m := newBrowseModel(ctx, 8, false, false)
		press(m, key(tea.KeyDown, ""), key(tea.KeyDown, ""), key(tea.KeyUp, ""), key(tea.KeyDown, ""))
		if got := selected(m.View().Content); m.cursor != 2 || got != "3 17468253" {
			t.Errorf("after ↓↓↑↓ cursor = %d, want 2 (17468253):\n%s", m.cursor, m.View().Content)
		}
		press(m, key(tea.KeyUp, ""), key(tea.KeyUp, ""), key(tea.KeyUp, ""))
		if m.cursor != 0 {
			t.Errorf("cursor %d after moving up past the top, want 0", m.cursor)
		}
		press(m, key(tea.KeyPgDown, ""), key(tea.KeyPgDown, ""), key(tea.KeyPgDown, ""), key(tea.KeyPgDown, ""), key(tea.KeyPgDown, ""), key(tea.KeyPgDown, ""))
		if m.cursor != 91 || !m.done {
			t.Errorf("cursor %d after paging past the end, want 91 and the listing done", m.cursor)
		}
		if !strings.Contains(m.View().Content, "84136275") {
			t.Errorf("the last solution 84136275 is not on screen:\n%s", m.View().Content)
		}
	})
	t.Run("u toggles fundamental", func(t *testing.T) {
		m := newBrowseModel(ctx, 8, false, false)
		press(m, key(tea.KeyDown, ""), key('u', "u"))
		if !m.unique || m.cursor != 0 {
			t.Fatalf("after u: unique %v cursor %d", m.unique, m.cursor)
		}
		press(m, key(tea.KeyEnd, ""))
		for range 20 {
			press(m, key(tea.KeyDown, ""))
		}
		if len(m.items) != 12 || m.cursor != 11 {
			t.Errorf("fundamental: %d listed, cursor %d; want 12 and 11", len(m.items), m.cursor)
		}
		if s := m.View().Content; !strings.Contains(s, "12 fundamental solutions") {
			t.Errorf("title lacks the fundamental count:\n%s", s)
		}
		press(m, key('u', "u"))
		if m.unique || len(m.items) == 0 || m.items[0].Format(0) != "15863724" {
			t.Errorf("u again should list all solutions from 15863724")
		}
	})
	t.Run("lazy paging on N = 16", func(t *testing.T) {
		m := newBrowseModel(ctx, 16, false, false)
		if len(m.items) != browsePage || m.done {
			t.Fatalf("N = 16 opened with %d solutions listed, want one page of %d", len(m.items), browsePage)
		}
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		for range browsePage {
			press(m, key(tea.KeyDown, ""))
		}
		if m.cursor != browsePage || len(m.items) < browsePage+m.height {
			t.Errorf("after %d moves: cursor %d, %d listed; want the next page loaded", browsePage, m.cursor, len(m.items))
		}
		for i := 1; i < len(m.items); i++ {
			if m.items[i-1].Compare(m.items[i]) >= 0 {
				t.Fatalf("solutions %d and %d out of order", i-1, i)
			}
		}
		if s := m.View().Content; !strings.Contains(s, "of 14772512") {
			t.Errorf("N = 16 view lacks the known total:\n%s", s)
		}
	})
	t.Run("no solutions", func(t *testing.T) {
		m := newBrowseModel(ctx, 3, false, false)
		press(m, key(tea.KeyDown, ""))
		if s := m.View().Content; !strings.Contains(s, "has no solutions") {
			t.Errorf("N = 3 view:\n%s", s)
		}
	})
	t.Run("colour", func(t *testing.T) {
		m := newBrowseModel(ctx, 4, false, true)
		if s := m.View().Content; !strings.Contains(s, "\x1b[") {
			t.Errorf("colour view has no ANSI styles:\n%q", s)
		}
	})
	t.Run("q quits", func(t *testing.T) {
		m := newBrowseModel(ctx, 4, false, false)
		cmd := press(m, key('q', "q"))
		if cmd == nil {
			t.Fatal("q returned no command")
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("q did not quit")
		}
	})
}
