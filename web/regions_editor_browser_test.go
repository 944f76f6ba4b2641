package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/regions"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// splitLevel is a published 9×9 level of the daily game whose regions B and F are each in
// two pieces (issue 36); it has one solution.
const splitLevel = "AAAAABAAA/AAAAAAACA/AADAAAAAA/EAAAFAAAA/AAAAAAGAA/AAAAAAAAF/AAAAABAAA/AAAHAAAAA/AIAAAAAAA"

// TestRegionsEditor drives the Regions tab's editor in a real browser: painting by a drag
// of the mouse and by touch, the live count held to package regions' Count on every grid
// it shows, where two solutions differ and the suggested change (which must leave one
// solution, by Count), import and export as text and JSON, the "regions:load" event a
// screenshot reader fires, playing the grid with a hint, and its share link.
// CHESSPUZZLES_SCREENSHOTS=DIR keeps regions-editor-*.png.
func TestRegionsEditor(t *testing.T) {
	srv := httptest.NewServer(New(Options{}).Handler())
	defer srv.Close()
	ctx := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?tab=regions&n=6&seed=1&level=easy")); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	waitFor(t, ctx, "the game", `document.querySelectorAll('#regions-board rect.rg-cell').length === 36`)
	click := func(t *testing.T, sel string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
			t.Fatalf("clicking %s: %v", sel, err)
		}
	}
	str := func(t *testing.T, expr string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("evaluating %s: %v", expr, err)
		}
		return s
	}
	// editorGrid is the editor's grid as region letters, rows joined by "/".
	editorGrid := func(t *testing.T) string {
		t.Helper()
		n := evalInt(t, ctx, `Math.round(Math.sqrt(document.querySelectorAll('#rg-ed-board rect.rg-ed-cell').length))`)
		cells := str(t, `[...document.querySelectorAll('#rg-ed-board rect.rg-ed-cell')].map(e => e.dataset.region).join('')`)
		var rows []string
		for r := range n {
			rows = append(rows, cells[r*n:(r+1)*n])
		}
		return strings.Join(rows, "/")
	}
	// checkCount holds the editor's count to regions.Count on the grid it shows.
	checkCount := func(t *testing.T) string {
		t.Helper()
		g := editorGrid(t)
		p, err := regions.Parse(strings.NewReader(strings.ReplaceAll(g, "/", "\n")))
		if err != nil {
			t.Fatalf("the editor's grid %s: %v", g, err)
		}
		want := [...]string{"0", "1", "more"}[regions.Count(p, 2)]
		if got := str(t, `document.getElementById('rg-ed-count').dataset.count`); got != want {
			t.Fatalf("the editor counts %q solutions of %s, regions.Count says %q", got, g, want)
		}
		return want
	}
	importGrid := func(t *testing.T, text string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#rg-ed-text"), text)); err != nil {
			t.Fatal(err)
		}
		// The note is cleared first, so that the wait below sees this import's note and not
		// the last one's; the button is brought to the middle of the view first, so that the
		// click is not aimed at where it stood before the editor's last scroll.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.getElementById('rg-ed-note').textContent = ''; document.getElementById('rg-ed-import').scrollIntoView({block: 'center'}); return true; })()`)); err != nil {
			t.Fatal(err)
		}
		click(t, "#rg-ed-import")
		waitFor(t, ctx, "the import", `document.getElementById('rg-ed-note').textContent.startsWith('Imported')`)
	}

	t.Run("opens on the game's grid", func(t *testing.T) {
		click(t, "#regions-edit")
		waitFor(t, ctx, "the editor", `!document.getElementById('regions-editor').hidden && document.querySelectorAll('#rg-ed-board rect.rg-ed-cell').length === 36`)
		game := str(t, `[...document.querySelectorAll('#regions-board rect.rg-cell')].map(e => e.dataset.region).join('')`)
		if got := strings.ReplaceAll(editorGrid(t), "/", ""); got != game {
			t.Errorf("the editor opened on %s, the game is %s", got, game)
		}
		if got := checkCount(t); got != "1" {
			t.Errorf("a generated puzzle counts %s solutions in the editor", got)
		}
	})

	t.Run("paints by dragging", func(t *testing.T) {
		importGrid(t, "AAAAA\nBBBBB\nCCCCC\nDDDDD\nEEEEE\n")
		if got := checkCount(t); got != "more" {
			t.Fatalf("five row regions: %s solutions, want more", got)
		}
		// Pick region A and drag from r5c1 to r5c3 (the cells' centres in page pixels).
		click(t, `#rg-ed-palette button[data-k="0"]`)
		centre := func(r, c int) (float64, float64) {
			x := evalInt(t, ctx, fmt.Sprintf(`(() => { const b = document.querySelector('#rg-ed-board rect.rg-ed-cell[data-r="%d"][data-c="%d"]').getBoundingClientRect(); return Math.round(b.x + b.width / 2); })()`, r, c))
			y := evalInt(t, ctx, fmt.Sprintf(`(() => { const b = document.querySelector('#rg-ed-board rect.rg-ed-cell[data-r="%d"][data-c="%d"]').getBoundingClientRect(); return Math.round(b.y + b.height / 2); })()`, r, c))
			return float64(x), float64(y)
		}
		x0, y0 := centre(4, 0)
		x1, y1 := centre(4, 1)
		x2, y2 := centre(4, 2)
		if err := chromedp.Do(ctx,
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0, y0),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, chromedp.ButtonLeft),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x1, y1, chromedp.ButtonLeft),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x2, y2, chromedp.ButtonLeft),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x2, y2, chromedp.ButtonLeft),
		); err != nil {
			t.Fatal(err)
		}
		if got := editorGrid(t); got != "AAAAA/BBBBB/CCCCC/DDDDD/AAAEE" {
			t.Errorf("after the drag the grid is %s, want row 5 AAAEE", got)
		}
		checkCount(t)
		// A touch on r4c5 with region E picked paints it.
		click(t, `#rg-ed-palette button[data-k="4"]`)
		x, y := centre(3, 4)
		if err := chromedp.Do(ctx, chromedp.TapXY(x, y)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the touch's paint", `document.querySelector('#rg-ed-board rect.rg-ed-cell[data-r="3"][data-c="4"]').dataset.region === 'E'`)
		checkCount(t)
		// By keys: from the last cell painted (r4c5), left and up to r3c4, B, Space.
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#rg-ed-board svg"))); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft+kb.ArrowUp+"b ")); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the key's paint", `document.querySelector('#rg-ed-board rect.rg-ed-cell[data-r="2"][data-c="3"]').dataset.region === 'B'`)
		checkCount(t)
	})

	t.Run("where solutions differ, and a change that makes one", func(t *testing.T) {
		// A puzzle of one solution with r1c5 repainted from A to D: more than one.
		importGrid(t, "AAAADB\nCAADDB\nCDDDBB\nCCDDEE\nFEEEEE\nFEEEEE\n")
		if got := checkCount(t); got != "more" {
			t.Fatalf("%s solutions, want more", got)
		}
		if n := evalInt(t, ctx, `document.querySelectorAll('#rg-ed-board .rg-ed-diff').length`); n < 4 {
			t.Errorf("%d cells outlined where the solutions differ, want at least 4", n)
		}
		if s := str(t, `document.getElementById('rg-ed-diff').textContent`); !strings.HasPrefix(s, "Two solutions differ in rows") {
			t.Errorf("the difference reads %q", s)
		}
		screenshot(t, ctx, "regions-editor-differ.png")
		if str(t, `String(document.getElementById('rg-ed-apply').hidden)`) == "true" {
			t.Fatalf("no suggestion: %s; grid %s; diff %s", str(t, `document.getElementById('rg-ed-suggest').textContent`), editorGrid(t), str(t, `document.getElementById('rg-ed-diff').textContent`))
		}
		click(t, "#rg-ed-apply")
		waitFor(t, ctx, "one solution", `document.getElementById('rg-ed-count').dataset.count === '1'`)
		checkCount(t)
	})

	t.Run("regions in pieces, export and import as JSON", func(t *testing.T) {
		importGrid(t, strings.ReplaceAll(splitLevel, "/", "\n"))
		if got := checkCount(t); got != "1" {
			t.Errorf("the published split level: %s solutions, want 1", got)
		}
		click(t, "#rg-ed-export-text")
		if got := str(t, `document.getElementById('rg-ed-text').value`); got != strings.ReplaceAll(splitLevel, "/", "\n")+"\n" {
			t.Errorf("exported text %q", got)
		}
		click(t, "#rg-ed-export-json")
		j := str(t, `document.getElementById('rg-ed-text').value`)
		if !strings.HasPrefix(j, `{"n":9,"regions":[[0,0,0,0,0,1,0,0,0],`) {
			t.Errorf("exported JSON %q", j)
		}
		importGrid(t, `{"n":5,"regions":["ABBBC","AABCC","AADCC","AADCC","AEECC"]}`)
		if got := editorGrid(t); got != "ABBBC/AABCC/AADCC/AADCC/AEECC" {
			t.Errorf("JSON import gave %s", got)
		}
		if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#rg-ed-text"), "ABC\nAB\n")); err != nil {
			t.Fatal(err)
		}
		click(t, "#rg-ed-import")
		waitFor(t, ctx, "the refusal", `document.getElementById('rg-ed-note').textContent.startsWith('Not imported: a grid has 5 to 20 rows')`)
	})

	t.Run("counts at N = 12", func(t *testing.T) {
		// Times are logged, not held to a target (bench/README.md has them): a generated
		// puzzle of each level, rows and columns as regions (many solutions), and a grid
		// of no solution, each counted as the editor shows it.
		stripes := make([]string, 12)
		cols := make([]string, 12)
		for r := range 12 {
			stripes[r] = strings.Repeat(regions.Letter(r), 12)
			var b strings.Builder
			for c := range 12 {
				b.WriteString(regions.Letter(c))
			}
			cols[r] = b.String()
		}
		grids := map[string]string{"rows": strings.Join(stripes, "\n"), "columns": strings.Join(cols, "\n")}
		// Regions A and B both in row 1: no solution.
		none := []string{strings.Repeat("A", 6) + strings.Repeat("B", 6), strings.Repeat("C", 12)}
		none = append(none, stripes[2:]...)
		none[2] = strings.Repeat("C", 12)
		none[3] = strings.Repeat("D", 12)
		grids["no solution"] = strings.Join(none, "\n")
		// Seed 2 at medium was the slowest of nine puzzles before the count's matching test.
		for lv := regions.Easy; lv <= regions.Hard; lv++ {
			p, err := regions.Generate(context.Background(), 12, 2, lv)
			if err != nil {
				t.Fatal(err)
			}
			grids[fmt.Sprintf("%s seed 2", lv)] = p.String()
		}
		for name, g := range grids {
			importGrid(t, g)
			checkCount(t)
			t.Logf("N = 12, %s: %s solutions, count %s ms, with the suggestion %s ms", name,
				str(t, `document.getElementById('rg-ed-count').dataset.count`),
				str(t, `document.getElementById('rg-ed-count').dataset.ms`),
				str(t, `document.getElementById('rg-ed-count').dataset.totalMs`))
		}
	})

	t.Run("a screenshot reader's grid, played with a hint and shared", func(t *testing.T) {
		rows := `["` + strings.ReplaceAll(splitLevel, "/", `","`) + `"]`
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.dispatchEvent(new CustomEvent('regions:load', {detail: {n: 9, regions: `+rows+`}}))`)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the loaded grid", `document.getElementById('rg-ed-note').textContent.startsWith('Loaded a 9×9 grid')`)
		if got := editorGrid(t); got != splitLevel {
			t.Fatalf("the event loaded %s", got)
		}
		screenshot(t, ctx, "regions-editor-split.png")
		click(t, "#rg-ed-play")
		waitFor(t, ctx, "the game on it", `document.querySelectorAll('#regions-board rect.rg-cell').length === 81 && document.getElementById('regions-status').textContent.startsWith('Your puzzle, 9×9')`)
		click(t, "#regions-hint")
		waitFor(t, ctx, "a hint", `document.querySelectorAll('#regions-board .rg-because, #regions-board .rg-target').length > 0`)
		waitFor(t, ctx, "the link", `location.search.includes('grid=')`)
		link := str(t, `location.href`)
		if !strings.Contains(link, "grid="+strings.ReplaceAll(splitLevel, "/", "%2F")) && !strings.Contains(link, "grid="+splitLevel) {
			t.Errorf("the link %q does not carry the grid", link)
		}
		// Back to a generated puzzle: the link names it again, not the grid.
		click(t, "#regions-go")
		waitFor(t, ctx, "the generated puzzle's link", `location.search.includes('seed=') && !location.search.includes('grid=')`)
		// The link reopens the grid in a fresh page.
		if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the shared grid", `document.querySelectorAll('#regions-board rect.rg-cell').length === 81`)
		got := str(t, `[...document.querySelectorAll('#regions-board rect.rg-cell')].map(e => e.dataset.region).join('')`)
		if got != strings.ReplaceAll(splitLevel, "/", "") {
			t.Errorf("the shared link opened %s", got)
		}
	})

	t.Run("on a phone", func(t *testing.T) {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(375, 760)); err != nil {
			t.Fatal(err)
		}
		// Closed and scrolled away, the editor opens in view: on a phone it is below the board.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('regions-editor').hidden = true; window.scrollTo(0, 0); true`)); err != nil {
			t.Fatal(err)
		}
		click(t, "#regions-edit")
		waitFor(t, ctx, "the editor", `!document.getElementById('regions-editor').hidden`)
		waitFor(t, ctx, "the editor in view", `(r => r.top >= -1 && r.top < innerHeight - 100)(document.getElementById('regions-editor').getBoundingClientRect())`)
		if w := evalInt(t, ctx, `document.documentElement.scrollWidth`); w > 375 {
			t.Errorf("the page is %d px wide at a 375 px window: it scrolls sideways", w)
		}
		screenshot(t, ctx, "regions-editor-phone.png")
	})
}
