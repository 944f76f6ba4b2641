package web

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestRegionsPage plays the Regions tab in a real browser, opened by a link: a conflict
// marked, a hint with its sentence, the solution placed by clicks (two a cell: empty, ✕,
// queen) and the solved message; then keys, undo, the tab at a phone's width in dark mode,
// and today's puzzle. CHESSPUZZLES_SCREENSHOTS=DIR keeps regions-*.png.
func TestRegionsPage(t *testing.T) {
	h := New(Options{})
	srv := httptest.NewServer(h.Handler())
	defer srv.Close()
	p := regionsPuzzleOf(t, h.Handler(), "n=6&seed=1&level=easy")
	checkRegionsAnswer(t, p)
	ctx := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?tab=regions&n=6&seed=1&level=easy")); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	click := func(t *testing.T, sel string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
			t.Fatalf("clicking %s: %v", sel, err)
		}
	}
	cell := func(r, c int) string {
		return `#regions-board rect.rg-cell[data-r="` + itoa(r) + `"][data-c="` + itoa(c) + `"]`
	}
	text := func(t *testing.T, id string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('`+id+`').textContent`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	waitFor(t, ctx, "the 6×6 grid", `document.querySelectorAll('#regions-board rect.rg-cell').length === 36`)
	// The grid drawn is the API's: the region of every cell.
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('#regions-board rect.rg-cell')].map(e => e.dataset.region).join('')`))
	if want := strings.ReplaceAll(grid(p.Regions), "/", ""); err != nil || got != want {
		t.Fatalf("the page's regions %q (%v), want %q", got, err, want)
	}

	t.Run("a conflict is marked", func(t *testing.T) {
		// Two queens in row 1: both marked, and the status says why.
		for _, c := range []int{0, 2} {
			click(t, cell(0, c))
			click(t, cell(0, c))
		}
		waitFor(t, ctx, "two queens in conflict", `document.querySelectorAll('#regions-board .rg-queen.conflict').length === 2`)
		if s := text(t, "regions-status"); !strings.Contains(s, "share row 1") {
			t.Errorf("status %q, want it to say the queens share row 1", s)
		}
		click(t, "#regions-hint")
		waitFor(t, ctx, "the hint refusing", `document.getElementById('regions-hint-text').textContent.startsWith('First take back')`)
		click(t, "#regions-undo")
		click(t, "#regions-undo")
		waitFor(t, ctx, "one queen left", `document.querySelectorAll('#regions-board .rg-queen').length === 1 && document.querySelectorAll('#regions-board .rg-queen.conflict').length === 0`)
		click(t, "#regions-clear")
		waitFor(t, ctx, "an empty grid", `document.querySelectorAll('#regions-board .rg-queen, #regions-board .rg-x').length === 0`)
	})

	t.Run("a hint says where and why", func(t *testing.T) {
		click(t, "#regions-hint")
		// The sentence names a cell, or counts the cells it marks (issue 36: a few names, in
		// the labels the board shows, the rest marked).
		waitFor(t, ctx, "the hint's sentence", `/: .*(r\dc\d|\d+ marked cells)/.test(document.getElementById('regions-hint-text').textContent)`)
		if n := evalInt(t, ctx, `document.querySelectorAll('#regions-board .rg-because, #regions-board .rg-target').length`); n == 0 {
			t.Error("the hint highlights no cell")
		}
		hint := text(t, "regions-hint-text")
		if m := regexp.MustCompile(`(\d+) marked cells ruled out`).FindStringSubmatch(hint); m != nil {
			if got := evalInt(t, ctx, `document.querySelectorAll('#regions-board .rg-ruled').length`); itoa(got) != m[1] {
				t.Errorf("the hint says %s cells are ruled out and marks %d: %s", m[1], got, hint)
			}
		}
		if len(regexp.MustCompile(`r\dc\d`).FindAllString(hint, -1)) > 5 {
			t.Errorf("the hint names more than a few cells: %s", hint)
		}
		// The labels the names refer to: rows 1…6 on the left, columns 1…6 on top.
		for _, cls := range []string{"rg-label-row", "rg-label-col"} {
			got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('#regions-board .`+cls+`')].map(e => e.textContent).join(',')`))
			if err != nil || got != "1,2,3,4,5,6" {
				t.Errorf("the board's %s labels are %q (%v), want 1,2,3,4,5,6", cls, got, err)
			}
		}
		screenshot(t, ctx, "regions-hint.png")
	})

	t.Run("the solution by clicks", func(t *testing.T) {
		for r, c := range p.Solution {
			click(t, cell(r, c))
			click(t, cell(r, c))
		}
		waitFor(t, ctx, "solved", `document.getElementById('regions-status').textContent.startsWith('Solved in')`)
		if got := evalInt(t, ctx, `document.querySelectorAll('#regions-board .rg-queen').length`); got != p.N {
			t.Errorf("%d queens on the solved grid, want %d", got, p.N)
		}
		if live, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('regions-status').getAttribute('aria-live')`)); err != nil || live != "polite" {
			t.Errorf("the status's aria-live is %q (%v)", live, err)
		}
		loc, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.search`))
		for _, want := range []string{"tab=regions", "n=6", "seed=1", "level=easy"} {
			if err != nil || !strings.Contains(loc, want) {
				t.Errorf("the link %q (%v) lacks %s", loc, err, want)
			}
		}
		screenshot(t, ctx, "regions-solved.png")
	})

	t.Run("keys and undo", func(t *testing.T) {
		// Undo takes the last queen back; from the focused grid, the arrows and Q put it again.
		click(t, "#regions-undo")
		waitFor(t, ctx, "one queen fewer", `document.querySelectorAll('#regions-board .rg-queen').length === 5`)
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#regions-board svg"))); err != nil {
			t.Fatal(err)
		}
		last := p.Solution[p.N-1]
		// The cursor is on the last cell clicked, the last queen's: Q toggles it back.
		if err := chromedp.Do(ctx, chromedp.KeyEvent("q")); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the queen back by key", `document.querySelectorAll('#regions-board .rg-queen[data-r="5"][data-c="`+itoa(last)+`"]').length === 1`)
		keys := kb.ArrowUp + "x"
		if err := chromedp.Do(ctx, chromedp.KeyEvent(keys)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "a cross by key", `document.querySelectorAll('#regions-board .rg-x').length === 1`)
	})

	t.Run("letters, phone width, dark mode", func(t *testing.T) {
		click(t, "#regions-letters")
		waitFor(t, ctx, "letters", `document.querySelectorAll('#regions-board .rg-letter').length === 36`)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(375, 760)); err != nil {
			t.Fatal(err)
		}
		dark := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
			return err
		})
		if err := chromedp.Do(ctx, dark); err != nil {
			t.Fatal(err)
		}
		if w := evalInt(t, ctx, `document.documentElement.scrollWidth`); w > 375 {
			t.Errorf("the page is %d px wide at a 375 px window: it scrolls sideways", w)
		}
		if w := evalInt(t, ctx, `Math.round(document.querySelector('#regions-board svg').getBoundingClientRect().width)`); w > 375 || w < 250 {
			t.Errorf("the grid is %d px wide on a 375 px phone", w)
		}
		screenshot(t, ctx, "regions-phone-dark.png")
	})

	t.Run("today's puzzle", func(t *testing.T) {
		click(t, "#regions-daily")
		waitFor(t, ctx, "today's puzzle", `/^20\d\d(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.test(document.getElementById('regions-seed').value) && document.getElementById('regions-status').textContent.startsWith('Puzzle #' + document.getElementById('regions-seed').value)`)
		waitFor(t, ctx, "its link", `location.search.includes('seed=' + document.getElementById('regions-seed').value) && location.search.includes('tab=regions')`)
		if n := evalInt(t, ctx, `document.querySelectorAll('#regions-board .rg-queen, #regions-board .rg-x').length`); n != 0 {
			t.Errorf("today's puzzle starts with %d marks", n)
		}
	})
}
