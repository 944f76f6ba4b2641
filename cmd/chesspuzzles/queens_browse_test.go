package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

// leastImage is the test's own fundamental form of p: the least code among its images under
// the 8 symmetries of the square, each worked out square by square, compared column by
// column (as numbers: at N ≥ 10 the code's text order is not the solutions' order).
func leastImage(p queens.Placement) string {
	n := len(p)
	var best queens.Placement
	for k := range 8 {
		q := make(queens.Placement, n)
		for r, c := range p {
			rr, cc := r, int(c)
			if k&1 != 0 {
				cc = n - 1 - cc
			}
			if k&2 != 0 {
				rr = n - 1 - rr
			}
			if k&4 != 0 {
				rr, cc = cc, rr
			}
			q[rr] = int32(cc)
		}
		if best == nil || slices.Compare(q, best) < 0 {
			best = q
		}
	}
	return best.Format(queens.Code)
}

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
		if want := leastImage(m.items[m.cursor]); !m.unique || m.items[m.cursor].Format(0) != "16837425" && m.items[m.cursor].Format(0) != want {
			t.Fatalf("after u: unique %v, on %s; want the fundamental form of 16837425", m.unique, m.items[m.cursor].Format(0))
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
	t.Run("ctrl+c quits as interrupted", func(t *testing.T) {
		m := newBrowseModel(ctx, 8, false, false)
		cmd := press(m, tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		if cmd == nil {
			t.Fatal("ctrl+c returned no command")
		}
		if _, ok := cmd().(tea.QuitMsg); !ok || !m.interrupted {
			t.Errorf("ctrl+c: quit %v, interrupted %v; want both", ok, m.interrupted)
		}
		m = newBrowseModel(ctx, 8, false, false)
		press(m, key('q', "q"))
		if m.interrupted {
			t.Errorf("q marked the browser interrupted")
		}
	})
	t.Run("u keeps the position", func(t *testing.T) {
		m := newBrowseModel(ctx, 8, false, false)
		for range 39 {
			press(m, key(tea.KeyDown, ""))
		}
		cur := m.items[m.cursor].Format(0)
		want := leastImage(m.items[m.cursor])
		if want == cur {
			t.Fatalf("solution 40 (%s) is its own fundamental form: pick another for this test", cur)
		}
		press(m, key('u', "u"))
		if got := m.items[m.cursor].Format(0); !m.unique || got != want {
			t.Errorf("after u on %s: unique %v, on %s; want its fundamental form %s", cur, m.unique, got, want)
		}
		// u again goes back to the solution u was pressed on, not to its fundamental form
		// among all (issue 27.6: u seemed to reset the selection).
		press(m, key('u', "u"))
		if got := m.items[m.cursor].Format(0); m.unique || got != cur || m.cursor != 39 {
			t.Errorf("after u again: unique %v, on %s (%d); want %s (39) among all", m.unique, got, m.cursor, cur)
		}
		if s := selected(m.View().Content); s != "40 "+cur {
			t.Errorf("selected line %q, want 40 %s", s, cur)
		}
		// Moved away among the fundamental ones, u goes to the new selection.
		press(m, key('u', "u"), key(tea.KeyUp, ""))
		next := m.items[m.cursor].Format(0)
		press(m, key('u', "u"))
		if got := m.items[m.cursor].Format(0); got != next {
			t.Errorf("after moving among the fundamental ones and u: on %s, want %s", got, next)
		}
	})
	t.Run("End goes to the last", func(t *testing.T) {
		m := newBrowseModel(ctx, 10, false, false)
		press(m, key(tea.KeyEnd, ""))
		// Q(10) = 724 (OEIS A000170); the last solution in code order is the mirror image
		// of the first, 1,3,6,8,10,5,9,2,4,7.
		if got := m.items[m.cursor].Format(0); m.cursor != 723 || got != "10,8,5,3,1,6,2,9,7,4" {
			t.Errorf("after End: cursor %d on %s, want 723 on 10,8,5,3,1,6,2,9,7,4", m.cursor, got)
		}
		if s := m.View().Content; !strings.Contains(s, "solution 724 of 724") {
			t.Errorf("after End the footer lacks solution 724 of 724:\n%s", s)
		}
		press(m, key(tea.KeyHome, ""))
		if m.cursor != 0 {
			t.Errorf("after Home: cursor %d, want 0", m.cursor)
		}
		press(m, key('G', "G"))
		if m.cursor != 723 {
			t.Errorf("after G: cursor %d, want 723", m.cursor)
		}
	})
	t.Run("the footer fits 40 columns", func(t *testing.T) {
		m := newBrowseModel(ctx, 8, false, false)
		m.Update(tea.WindowSizeMsg{Width: 40, Height: 24})
		s := m.View().Content
		footer := s[strings.Index(s, "solution 1 of 92"):]
		for _, line := range strings.Split(strings.TrimRight(footer, "\n"), "\n") {
			if w := len([]rune(line)); w > 40 {
				t.Errorf("footer line %q is %d columns wide, the screen 40", line, w)
			}
		}
		if lines := strings.Count(s, "\n"); lines > 24 {
			t.Errorf("the view has %d lines, the screen 24", lines)
		}
		for _, want := range []string{"solution 1 of 92", "↑↓ move", "PgUp/PgDn", "Home/End", "u all/fundamental", "q quit"} {
			if !strings.Contains(footer, want) {
				t.Errorf("footer lacks %q:\n%s", want, footer)
			}
		}
	})
	t.Run("u keeps the position deep in N = 12", func(t *testing.T) {
		m := newBrowseModel(ctx, 12, false, false)
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		for range 30 {
			press(m, key(tea.KeyPgDown, ""))
		}
		cur := m.items[m.cursor]
		press(m, key('u', "u"))
		if got, want := m.items[m.cursor].Format(0), leastImage(cur); got != want {
			t.Errorf("after u on %s: on %s, want its fundamental form %s", cur.Format(0), got, want)
		}
		if m.cursor < m.top || m.cursor >= m.top+m.height {
			t.Errorf("cursor %d off screen (top %d, height %d)", m.cursor, m.top, m.height)
		}
	})
	t.Run("the selection stays on screen after a resize", func(t *testing.T) {
		m := newBrowseModel(ctx, 10, false, false)
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 50})
		for range 40 {
			press(m, key(tea.KeyDown, ""))
		}
		code := m.items[40].Format(0)
		for _, h := range []int{10, 5, 3, 60, 8} {
			m.Update(tea.WindowSizeMsg{Width: 120, Height: h})
			if m.cursor != 40 {
				t.Fatalf("height %d: cursor moved to %d", h, m.cursor)
			}
			if m.cursor < m.top || m.cursor >= m.top+m.height {
				t.Errorf("height %d: cursor %d off screen (top %d, %d lines)", h, m.cursor, m.top, m.height)
			}
			if s := selected(m.View().Content); s != "41 "+code {
				t.Errorf("height %d: selected line %q, want 41 %s", h, s, code)
			}
		}
	})
}
