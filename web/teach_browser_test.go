package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestLearnPage drives the Learn tab in a real browser: the search stepped to its first
// solution, three moves by hand and one undone, a puzzle solved, and the page at a phone's
// width in dark mode. CHESSPUZZLES_SCREENSHOTS=DIR keeps the learn-*.png screenshots.
func TestLearnPage(t *testing.T) {
	srv := httptest.NewServer(New(Options{}).Handler())
	defer srv.Close()
	ctx := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	click := func(t *testing.T, sel string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatalf("clicking %s: %v", sel, err)
		}
	}
	text := func(t *testing.T, id string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('`+id+`').textContent`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	t.Run("step the search to the first solution", func(t *testing.T) {
		click(t, "#tab-learn")
		waitFor(t, ctx, "the 6×6 board", `document.querySelectorAll('#watch-board rect.sq').length === 36`)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.getElementById('watch-n'); s.value = '4'; s.dispatchEvent(new Event('change')); return true })()`)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the 4×4 board", `document.querySelectorAll('#watch-board rect.sq').length === 16`)
		click(t, "#watch-naive")
		steps := 0
		for text(t, "watch-solutions") != "1" {
			if steps++; steps > 200 {
				t.Fatalf("no solution after 200 steps; the page says %q", text(t, "watch-say"))
			}
			click(t, "#watch-step")
			waitFor(t, ctx, "step "+strconv.Itoa(steps), `document.getElementById('watch-pos').textContent === '`+strconv.Itoa(steps)+`'`)
		}
		cols, err := chromedp.Run(ctx, chromedp.Evaluate[string](
			`[...document.querySelectorAll('#watch-board .queen')].sort((a, b) => a.dataset.r - b.dataset.r).map(q => Number(q.dataset.c) + 1).join('')`))
		if err != nil || cols != "2413" {
			t.Errorf("first solution shows queens in columns %q (%v), want 2413", cols, err)
		}
		if got := text(t, "watch-placed"); got != "8" {
			t.Errorf("%s queens placed at the first solution, want 8 (the engine's count)", got)
		}
		if got := text(t, "watch-naive-text"); !contains(got, "looks at 11 of the 24 permutations") {
			t.Errorf("naive comparison %q", got)
		}
		screenshot(t, ctx, "learn-watch.png")
		// One step back takes the solution back: the board keeps 4 queens, the counter 0.
		click(t, "#watch-back")
		waitFor(t, ctx, "a step back", `document.getElementById('watch-solutions').textContent === '0'`)
		// Play, fast, stops at the next solution.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.getElementById('watch-speed'); s.value = '200'; s.dispatchEvent(new Event('input')); return true })()`)); err != nil {
			t.Fatal(err)
		}
		// From one step before the first solution, play stops at it again; played on, at
		// the second.
		click(t, "#watch-play")
		waitFor(t, ctx, "the first solution again", `document.getElementById('watch-solutions').textContent === '1' && document.getElementById('watch-play').textContent === 'play'`)
		click(t, "#watch-play")
		waitFor(t, ctx, "the second solution", `document.getElementById('watch-solutions').textContent === '2'`)
		waitFor(t, ctx, "play to stop there", `document.getElementById('watch-play').textContent === 'play'`)
		if got := text(t, "watch-say"); !contains(got, "Solution 2: 3142") {
			t.Errorf("at the second solution the page says %q, want Solution 2: 3142", got)
		}
	})

	t.Run("warnsdorff explained", func(t *testing.T) {
		click(t, "#learn-rule")
		waitFor(t, ctx, "the rule board", `document.querySelectorAll('#rule-board rect.sq').length === 64`)
		click(t, `#rule-board rect[data-name="b5"]`)
		waitFor(t, ctx, "the first step", `document.getElementById('rule-say').textContent.startsWith('Move 1, knight on b5')`)
		click(t, "#rule-step")
		waitFor(t, ctx, "the second step", `document.getElementById('rule-say').textContent.startsWith('Move 2')`)
		if got := text(t, "rule-other-say"); !contains(got, "after 60 of 64 squares") {
			t.Errorf("the article's program from b5: %q, want its dead end after 60 of 64 squares", got)
		}
		screenshot(t, ctx, "learn-rule.png")
	})

	t.Run("three moves by hand, undo one", func(t *testing.T) {
		click(t, "#learn-hand")
		waitFor(t, ctx, "the hand board", `document.querySelectorAll('#hand-board rect.sq').length === 64`)
		click(t, `#hand-board rect[data-name="a1"]`)
		waitFor(t, ctx, "a1's moves", `document.querySelectorAll('#hand-board .t-cand').length === 2`)
		for k := 2; k <= 4; k++ {
			name, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#hand-board .t-cand').dataset.cand`))
			if err != nil {
				t.Fatal(err)
			}
			click(t, `#hand-board rect.sq[data-name="`+name+`"]`)
			waitFor(t, ctx, fmt.Sprintf("move %d", k), fmt.Sprintf(`document.getElementById('hand-say').textContent.startsWith('Move %d on %s')`, k, name))
		}
		click(t, "#hand-undo")
		waitFor(t, ctx, "the undo", `document.getElementById('hand-say').textContent.startsWith('Move 3 on')`)
		if got := evalInt(t, ctx, `document.querySelectorAll('#hand-board .t-num').length`); got != 3 {
			t.Errorf("%d numbered squares after undo, want 3", got)
		}
		if !contains(text(t, "hand-say"), "61 squares left") {
			t.Errorf("status %q, want 61 squares left", text(t, "hand-say"))
		}
		click(t, "#hand-hint")
		waitFor(t, ctx, "the hint", `document.querySelectorAll('#hand-board .t-chosen').length === 1`)
		screenshot(t, ctx, "learn-hand.png")
		click(t, "#hand-finish")
		waitFor(t, ctx, "the finished tour", `document.getElementById('hand-say').textContent.startsWith('Finished from move 3')`)
		if got := evalInt(t, ctx, `document.querySelectorAll('#hand-board .t-num').length`); got != 64 {
			t.Errorf("%d numbered squares after finishing, want 64", got)
		}
	})

	t.Run("open a puzzle and solve it", func(t *testing.T) {
		click(t, "#learn-puzzle")
		waitFor(t, ctx, "the puzzle", `document.getElementById('puzzle-say').textContent.includes('to place')`)
		res, err := http.Get(srv.URL + "/api/queens/puzzle?n=8&level=easy&seed=1")
		if err != nil {
			t.Fatal(err)
		}
		var p struct{ Given, Solution []int }
		err = json.NewDecoder(res.Body).Decode(&p)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		for r, c := range p.Given {
			if c >= 0 {
				continue
			}
			name := string(rune('a'+p.Solution[r])) + strconv.Itoa(8-r)
			click(t, `#puzzle-board rect.sq[data-name="`+name+`"]`)
		}
		waitFor(t, ctx, "solved", `document.getElementById('puzzle-say').textContent.startsWith('Solved!')`)
		if got := evalInt(t, ctx, `document.querySelectorAll('#puzzle-board .queen').length`); got != 8 {
			t.Errorf("%d queens on the solved puzzle, want 8", got)
		}
		if got := evalInt(t, ctx, `document.querySelectorAll('#puzzle-board .queen.conflict').length`); got != 0 {
			t.Errorf("%d queens in conflict on the solved puzzle", got)
		}
		screenshot(t, ctx, "learn-puzzle.png")
	})

	t.Run("phone width, dark mode", func(t *testing.T) {
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
		click(t, "#learn-hand")
		waitFor(t, ctx, "the hand board", `document.querySelectorAll('#hand-board rect.sq').length === 64`)
		if w := evalInt(t, ctx, `document.documentElement.scrollWidth`); w > 375 {
			t.Errorf("the page is %d px wide at a 375 px window: it scrolls sideways", w)
		}
		if w := evalInt(t, ctx, `Math.round(document.querySelector('#hand-board svg').getBoundingClientRect().width)`); w > 375 || w < 250 {
			t.Errorf("the board is %d px wide on a 375 px phone", w)
		}
		bg, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
		if err != nil || bg != "rgb(27, 24, 21)" {
			t.Errorf("body background in dark mode %q (%v), want rgb(27, 24, 21)", bg, err)
		}
		screenshot(t, ctx, "learn-hand-phone.png")
		click(t, "#learn-watch")
		screenshot(t, ctx, "learn-watch-phone.png")
	})
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
