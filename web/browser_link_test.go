package web

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// colorScheme makes the browser report the system's colour scheme as "light" or "dark".
func colorScheme(t *testing.T, ctx context.Context, scheme string) {
	t.Helper()
	set := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
	if err := chromedp.Do(ctx, set); err != nil {
		t.Fatal(err)
	}
}

// TestPageColorScheme: every tab follows the system's colour scheme, so the page no longer
// flips between light and dark as the tabs change (issue 27.4: only Learn was dark). The
// colours checked are the page's background and text and the browse list's background,
// from style.css.
func TestPageColorScheme(t *testing.T) {
	srv := httptest.NewServer(New(Options{}).Handler())
	defer srv.Close()
	ctx := newBrowser(t)
	for _, c := range []struct{ scheme, bg, ink, card string }{
		{"dark", "rgb(27, 24, 21)", "rgb(232, 228, 222)", "rgb(42, 37, 32)"},
		{"light", "rgb(250, 248, 245)", "rgb(34, 34, 34)", "rgb(255, 255, 255)"},
	} {
		t.Run(c.scheme, func(t *testing.T) {
			colorScheme(t, ctx, c.scheme)
			navigate(t, ctx, srv.URL+"/")
			waitFor(t, ctx, "the solutions", `document.querySelectorAll('#solutions li').length > 0`)
			if got := evalString(t, ctx, `getComputedStyle(document.getElementById('solutions')).backgroundColor`); got != c.card {
				t.Errorf("the browse list's background %s, want %s", got, c.card)
			}
			for _, tab := range []string{"browse", "solve", "knight", "learn", "browse"} {
				if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#tab-"+tab))); err != nil {
					t.Fatal(err)
				}
				waitFor(t, ctx, "the "+tab+" tab", `!document.getElementById('`+tab+`').hidden`)
				bg := evalString(t, ctx, `getComputedStyle(document.body).backgroundColor`)
				ink := evalString(t, ctx, `getComputedStyle(document.getElementById('`+tab+`')).color`)
				if bg != c.bg || ink != c.ink {
					t.Errorf("%s tab: background %s and text %s, want %s and %s", tab, bg, ink, c.bg, c.ink)
				}
			}
			if c.scheme == "dark" {
				screenshot(t, ctx, "browse-dark.png")
			}
		})
	}
	colorScheme(t, ctx, "light")
}

// TestLearnLinks: every tab and every mode of the Learn tab has a link that reopens it,
// and the page keeps the link in its URL as the mode changes (issue 27.4: ?tab=learn
// opened Browse and rewrote the URL).
func TestLearnLinks(t *testing.T) {
	srv := httptest.NewServer(New(Options{}).Handler())
	defer srv.Close()
	ctx := newBrowser(t)
	shows := func(t *testing.T, mode string) {
		t.Helper()
		waitFor(t, ctx, "the "+mode+" mode", `!document.getElementById('learn').hidden && !document.getElementById('mode-`+mode+`').hidden && document.getElementById('learn-`+mode+`').getAttribute('aria-pressed') === 'true'`)
		if got := evalString(t, ctx, `document.querySelector('nav [aria-selected="true"]').id`); got != "tab-learn" {
			t.Errorf("selected tab %s, want tab-learn", got)
		}
	}
	t.Run("tab=learn opens Learn and keeps the URL", func(t *testing.T) {
		navigate(t, ctx, srv.URL+"/?tab=learn")
		shows(t, "watch")
		waitFor(t, ctx, "the URL to name the mode", `location.search === '?tab=learn&mode=watch'`)
	})
	for _, mode := range []string{"watch", "rule", "hand", "puzzle"} {
		t.Run("mode="+mode, func(t *testing.T) {
			navigate(t, ctx, srv.URL+"/?tab=learn&mode="+mode)
			shows(t, mode)
			waitFor(t, ctx, "the URL to keep the mode", `new URLSearchParams(location.search).get('mode') === '`+mode+`' && new URLSearchParams(location.search).get('tab') === 'learn'`)
		})
	}
	t.Run("a puzzle link opens that puzzle", func(t *testing.T) {
		navigate(t, ctx, srv.URL+"/?tab=learn&mode=puzzle&n=10&level=hard&seed=7")
		shows(t, "puzzle")
		waitFor(t, ctx, "the 10×10 hard puzzle", `document.querySelectorAll('#puzzle-board rect.sq').length === 100 && document.getElementById('puzzle-say').textContent.startsWith('10×10, hard')`)
		waitFor(t, ctx, "the URL to keep it", `location.search === '?tab=learn&mode=puzzle&n=10&level=hard&seed=7'`)
	})
	t.Run("changing the mode rewrites the link", func(t *testing.T) {
		navigate(t, ctx, srv.URL+"/?tab=learn&mode=watch")
		shows(t, "watch")
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#learn-hand"))); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "mode=hand in the URL", `location.search === '?tab=learn&mode=hand'`)
		link := evalString(t, ctx, `location.href`)
		navigate(t, ctx, "about:blank")
		navigate(t, ctx, link)
		shows(t, "hand")
		// Another tab and back: the URL follows.
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#tab-solve"))); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "tab=solve in the URL", `new URLSearchParams(location.search).get('tab') === 'solve'`)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#tab-learn"))); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "back to mode=hand", `location.search === '?tab=learn&mode=hand'`)
	})
}
