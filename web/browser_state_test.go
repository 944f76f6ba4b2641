package web

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// evalString evaluates a JavaScript expression that gives a string.
func evalString(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

func navigate(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("loading %s: %v", url, err)
	}
}

// TestPageState opens shared links and checks that each shows the state it names, and that
// the page writes its state into the URL as it changes.
func TestPageState(t *testing.T) {
	srv := httptest.NewServer(New(Options{}).Handler())
	defer srv.Close()
	ctx := newBrowser(t)

	t.Run("browse link selects a solution", func(t *testing.T) {
		navigate(t, ctx, srv.URL+"/?tab=browse&n=10&sol=150")
		waitFor(t, ctx, "solution 150 of N=10", `document.getElementById('browse-selected').textContent.startsWith('Solution 150: ')`)
		if got := evalString(t, ctx, `document.getElementById('browse-n').value`); got != "10" {
			t.Errorf("N selector shows %q, want 10", got)
		}
		if got := evalInt(t, ctx, `[...document.querySelectorAll('#solutions li')].findIndex(li => li.getAttribute('aria-selected') === 'true')`); got != 149 {
			t.Errorf("list item %d selected, want 149 (0-based)", got)
		}
		if got := evalInt(t, ctx, `document.querySelectorAll('#browse-board .queen').length`); got != 10 {
			t.Errorf("%d queens drawn, want 10", got)
		}
		// Moving on writes the new selection into the URL, and that link reopens it.
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#solutions li:nth-child(152)`))); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the URL to follow", `location.search.includes('sol=152')`)
		link := evalString(t, ctx, `location.href`)
		code := evalString(t, ctx, `document.getElementById('browse-selected').textContent`)
		navigate(t, ctx, "about:blank")
		navigate(t, ctx, link)
		waitFor(t, ctx, "the same solution", `document.getElementById('browse-selected').textContent === `+jsString(code))
	})

	t.Run("long codes stay readable at N=27", func(t *testing.T) {
		navigate(t, ctx, srv.URL+"/?tab=browse&n=27")
		waitFor(t, ctx, "the N=27 list", `document.querySelectorAll('#solutions li.solution').length >= 100`)
		// No code runs past its row: each wraps within the list's width.
		if got := evalInt(t, ctx, `[...document.querySelectorAll('#solutions li')].filter(li => li.scrollWidth > li.clientWidth + 1).length`); got != 0 {
			t.Errorf("%d list rows overflow their width, want 0", got)
		}
		// And the visible text of the rows differs (it is the whole code, not a shared prefix).
		if got := evalInt(t, ctx, `new Set([...document.querySelectorAll('#solutions li')].slice(0, 20).map(li => li.innerText)).size`); got != 20 {
			t.Errorf("%d different texts among the first 20 rows, want 20", got)
		}
		full := evalString(t, ctx, `document.querySelector('#solutions li').textContent`)
		if strings.Count(full, ",") != 26 {
			t.Errorf("first row reads %q, want 27 comma-separated columns", full)
		}
		screenshot(t, ctx, "browse-27.png")
	})

	t.Run("solve link places the queens", func(t *testing.T) {
		navigate(t, ctx, srv.URL+"/?tab=solve&n=6&queens=b6+d5")
		waitFor(t, ctx, "the solve tab", `!document.getElementById('solve').hidden && document.querySelectorAll('#solve-board rect.sq').length === 36`)
		waitFor(t, ctx, "two queens", `document.querySelectorAll('#solve-board .queen').length === 2`)
		waitFor(t, ctx, "the status", `document.getElementById('solve-status').textContent === '2 of 6 queens placed'`)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#solve-board rect[data-name="f4"]`))); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the URL to follow", `new URLSearchParams(location.search).get('queens') === 'b6 d5 f4'`)
	})

	t.Run("knight link, skip to end", func(t *testing.T) {
		navigate(t, ctx, srv.URL+"/?tab=knight&rows=5&cols=6&start=c3&closed=1")
		waitFor(t, ctx, "the animation to start", `/^move \d+ of 30$/.test(document.getElementById('tour-status').textContent)`)
		if got := evalString(t, ctx, `document.querySelector('#knight-board rect[data-name="c3"]') ? 'ok' : ''`); got != "ok" {
			t.Fatalf("no square c3 on the board")
		}
		if !evalBool(t, ctx, `document.getElementById('knight-closed').checked`) {
			t.Errorf("the closed box is not checked")
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("knight-end"))); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the whole tour", `document.getElementById('tour-status').textContent === 'Tour complete: 30 squares, closed.'`)
		if got := evalInt(t, ctx, `document.querySelectorAll('#knight-board .move').length`); got != 30 {
			t.Errorf("%d numbered squares after skip to end, want 30", got)
		}
		// The tour starts on c3: its ring is there and the number 1 stands on it.
		if got := evalString(t, ctx, `[...document.querySelectorAll('#knight-board .move')].find(e => e.textContent === '1').getAttribute('x') + ',' + [...document.querySelectorAll('#knight-board .move')].find(e => e.textContent === '1').getAttribute('y')`); got != "2.5,2.5" {
			t.Errorf("move 1 drawn at %s, want 2.5,2.5 (c3 on a 5-row board)", got)
		}
		screenshot(t, ctx, "knight-end.png")
	})

	t.Run("a size the page cannot draw is refused", func(t *testing.T) {
		evalBool(t, ctx, `(() => { const i = document.getElementById('knight-rows'); i.value = '40'; i.dispatchEvent(new Event('change')); return true })()`)
		waitFor(t, ctx, "the refusal", `document.getElementById('tour-status').className === 'error' && document.getElementById('tour-status').textContent.includes('1 to 32 squares a side, not "40"')`)
		if got := evalInt(t, ctx, `document.querySelectorAll('#knight-board rect.sq').length`); got != 30 {
			t.Errorf("%d squares drawn after the refusal, want the old 30", got)
		}
		if got := evalString(t, ctx, `document.getElementById('knight-rows').getAttribute('aria-invalid')`); got != "true" {
			t.Errorf("rows input aria-invalid %q, want true", got)
		}
		screenshot(t, ctx, "knight-refused.png")
	})

	t.Run("no tour: the reason once", func(t *testing.T) {
		navigate(t, ctx, srv.URL+"/?tab=knight&rows=5&cols=5&start=b5")
		waitFor(t, ctx, "the answer", `document.getElementById('tour-status').className === 'error'`)
		msg := evalString(t, ctx, `document.getElementById('tour-status').textContent`)
		if !strings.HasPrefix(msg, "No open tour from b5 on 5×5") || strings.Count(strings.ToLower(msg), "no open tour") != 1 {
			t.Errorf("status %q, want one sentence starting No open tour from b5 on 5×5", msg)
		}
		if got := evalString(t, ctx, `new URLSearchParams(location.search).get('start')`); got != "b5" {
			t.Errorf("URL start %q after a failed tour, want b5 kept", got)
		}
	})
}

func evalBool(t *testing.T, ctx context.Context, expr string) bool {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}
