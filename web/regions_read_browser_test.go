package web

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/regions/scan"
	"github.com/chesspuzzles/chesspuzzles/render"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// letterRows is rows (in reading order) as the page's event writes them: a string of region
// letters a row.
func letterRows(rows [][]int) []string {
	out := make([]string, len(rows))
	for r, row := range rows {
		for _, k := range row {
			out[r] += string(rune('A' + k))
		}
	}
	return out
}

// TestRegionsReadPage reads screenshots in the Regions tab of a real browser: a picture
// picked with the file button, pasted (Ctrl-V) and dropped on the tab each fire
// 'regions:load' with the grid read, which the editor shows and plays with a hint, and a
// picture of no puzzle says why. Then the page's
// own screenshots, at a desktop's and a phone's size, in light and dark mode, letters shown
// or not, are read back by package scan as the grids the page drew.
func TestRegionsReadPage(t *testing.T) {
	h := New(Options{})
	srv := httptest.NewServer(h.Handler())
	defer srv.Close()
	p := regionsPuzzleOf(t, h.Handler(), "n=8&seed=3&level=easy")
	want := letterRows(readingOrder(p.Regions))
	ctx := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?tab=regions&n=8&seed=3&level=easy")); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	waitFor(t, ctx, "the 8×8 grid", `document.querySelectorAll('#regions-board rect.rg-cell').length === 64`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.reads = []; document.addEventListener('regions:load', (e) => window.reads.push(e.detail)); true`)); err != nil {
		t.Fatal(err)
	}
	// A picture of the puzzle with its queens, as render draws it, in a file.
	var buf bytes.Buffer
	if err := render.PNG(context.Background(), &buf, render.Regions{Region: p.Regions, Queens: p.Solution}, render.Options{Square: 40}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "puzzle.png")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	blank := filepath.Join(dir, "blank.png")
	if err := os.WriteFile(blank, []byte("\x89PNG\r\n\x1a\nnot really"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkRead := func(t *testing.T, k int) {
		t.Helper()
		waitFor(t, ctx, fmt.Sprintf("read %d", k), fmt.Sprintf(`window.reads.length === %d`, k))
		got, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
			N       int      `json:"n"`
			Regions []string `json:"regions"`
		}](fmt.Sprintf(`window.reads[%d]`, k-1)))
		if err != nil || got.N != 8 || !reflect.DeepEqual(got.Regions, want) {
			t.Fatalf("regions:load detail %+v (%v), want n 8 and %v", got, err, want)
		}
		if s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('regions-read-status').textContent`)); !strings.HasPrefix(s, "Read a 8×8 grid") {
			t.Errorf("status %q", s)
		}
		if s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('regions-read-text').textContent`)); s != strings.Join(want, "\n") {
			t.Errorf("the grid read as text %q, want %q", s, strings.Join(want, "\n"))
		}
	}
	// The picture, fetched in the page as a File, for paste and drop.
	const asFile = `fetch('/api/regions/picture.png?grid=` + "%s" + `&square=40').then((r) => r.blob()).then((b) => { const dt = new DataTransfer(); dt.items.add(new File([b], 'shot.png', {type: 'image/png'})); return dt; })`
	grid := strings.Join(want, "/")

	t.Run("pick", func(t *testing.T) {
		if err := chromedp.Do(ctx, chromedp.SetUploadFiles("#regions-read-file", []string{file}, chromedp.NodeReady)); err != nil {
			t.Fatal(err)
		}
		checkRead(t, 1)
		screenshot(t, ctx, "regions-read.png")
	})
	t.Run("paste", func(t *testing.T) {
		js := fmt.Sprintf(asFile, grid) + `.then((dt) => { document.dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true})); return true; })`
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		checkRead(t, 2)
	})
	t.Run("drop", func(t *testing.T) {
		js := fmt.Sprintf(asFile, grid) + `.then((dt) => { document.getElementById('regions').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true})); return true; })`
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		checkRead(t, 3)
	})
	t.Run("the editor shows it, played with a hint", func(t *testing.T) {
		// The tab's editor (regions-editor.js) listens for the event: it shows the grid
		// read, and plays it with hints.
		waitFor(t, ctx, "the editor", `document.getElementById('rg-ed-note').textContent.startsWith('Loaded a 8×8 grid')`)
		cells, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('#rg-ed-board rect.rg-ed-cell')].map(e => e.dataset.region).join('')`))
		if err != nil || cells != strings.Join(want, "") {
			t.Fatalf("the editor shows %q (%v), want %q", cells, err, strings.Join(want, ""))
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#rg-ed-play"), chromedp.NodeVisible)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the game on it", `document.querySelectorAll('#regions-board rect.rg-cell').length === 64 && document.getElementById('regions-status').textContent.startsWith('Your puzzle, 8×8')`)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#regions-hint"), chromedp.NodeVisible)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "a hint", `document.querySelectorAll('#regions-board .rg-because, #regions-board .rg-target').length > 0 && document.getElementById('regions-hint-text').textContent.length > 0`)
		screenshot(t, ctx, "regions-read-hint.png")
	})
	t.Run("no puzzle", func(t *testing.T) {
		if err := chromedp.Do(ctx, chromedp.SetUploadFiles("#regions-read-file", []string{blank}, chromedp.NodeReady)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the refusal", `document.getElementById('regions-read-status').textContent.startsWith('No puzzle read: ')`)
		if n := evalInt(t, ctx, `window.reads.length`); n != 3 {
			t.Errorf("%d reads after a picture of no puzzle, want 3", n)
		}
		// The grid of the picture before is gone: from the editor and from the text.
		waitFor(t, ctx, "the editor closed", `document.getElementById('regions-editor').hidden`)
		if s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('regions-read-text').textContent`)); s != "" {
			t.Errorf("after a picture of no puzzle, the grid read as text is %q, want none", s)
		}
	})

	// The page's own screenshots, read back.
	setDark := func(dark bool) chromedp.Action[chromedp.Void] {
		v := "light"
		if dark {
			v = "dark"
		}
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}}})
			return err
		})
	}
	for _, c := range []struct {
		name          string
		n             int
		seed          int
		width, height int64
		dark, letters bool
	}{
		{"desktop light n8", 8, 3, 1280, 1000, false, false},
		{"desktop dark n12 letters", 12, 5, 1280, 1000, true, true},
		{"phone light n10 letters", 10, 7, 375, 760, false, true},
		{"phone dark n14", 14, 9, 375, 760, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := fmt.Sprintf("n=%d&seed=%d&level=easy", c.n, c.seed)
			pz := regionsPuzzleOf(t, h.Handler(), q)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(c.width, c.height)); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, setDark(c.dark)); err != nil {
				t.Fatal(err)
			}
			// A blank page between two: the next page's grid is never the last one's.
			if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?tab=regions&"+q)); err != nil {
				t.Fatal(err)
			}
			// The seeded puzzle, not today's of the same size drawn first: wait for its number too.
			waitFor(t, ctx, "the grid", fmt.Sprintf(`document.querySelectorAll('#regions-board rect.rg-cell').length === %d && document.getElementById('regions-status').textContent.startsWith('Puzzle #%d,')`, c.n*c.n, c.seed))
			if c.letters {
				if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#regions-letters"), chromedp.NodeVisible)); err != nil {
					t.Fatal(err)
				}
				waitFor(t, ctx, "letters", fmt.Sprintf(`document.querySelectorAll('#regions-board .rg-letter').length === %d`, c.n*c.n))
			}
			shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if dir := os.Getenv("CHESSPUZZLES_SCREENSHOTS"); dir != "" {
				os.WriteFile(filepath.Join(dir, "regions-read-"+strings.ReplaceAll(c.name, " ", "-")+".png"), shot, 0o644)
			}
			img, err := png.Decode(bytes.NewReader(shot))
			if err != nil {
				t.Fatal(err)
			}
			got, err := scan.Image(context.Background(), img)
			if err != nil {
				t.Fatalf("reading the page's screenshot (%v): %v", img.Bounds().Size(), err)
			}
			if g, w := strings.Fields(got.String()), letterRows(readingOrder(pz.Regions)); !reflect.DeepEqual(g, w) {
				t.Errorf("read %v, want %v", g, w)
			}
		})
	}
}
