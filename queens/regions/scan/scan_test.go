package scan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/regions"
	"github.com/chesspuzzles/chesspuzzles/render"
	xdraw "golang.org/x/image/draw"
)

// letters returns rows as region letters in reading order (A the top-left cell's region, B
// the next met, …): the lettering Image uses, so that two gridings compare as strings.
func letters(rows [][]int) string {
	names := map[int]byte{}
	var b strings.Builder
	for _, row := range rows {
		for _, k := range row {
			if _, ok := names[k]; !ok {
				names[k] = byte('A' + len(names))
			}
			b.WriteByte(names[k])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// puzzle returns a generated puzzle.
func puzzle(t testing.TB, n int, seed uint64) *regions.Puzzle {
	t.Helper()
	p, err := regions.Generate(context.Background(), n, seed, regions.Easy)
	if err != nil {
		t.Fatalf("Generate(%d, %d): %v", n, seed, err)
	}
	return p
}

// rendered is package render's PNG of p, decoded.
func rendered(t testing.TB, p *regions.Puzzle, square int, queens bool) image.Image {
	t.Helper()
	var qs []int
	if queens {
		var err error
		if qs, err = regions.Solve(p); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := render.PNG(context.Background(), &buf, render.Regions{Region: p.Rows(), Queens: qs}, render.Options{Square: square}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// jpegOf is img compressed as a JPEG of the quality given, decoded.
func jpegOf(t testing.TB, img image.Image, quality int) image.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality}); err != nil {
		t.Fatal(err)
	}
	out, err := jpeg.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// scaled is img resized by f, smoothly (Catmull-Rom), as a phone or a browser would.
func scaled(img image.Image, f float64) image.Image {
	b := img.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, int(float64(b.Dx())*f), int(float64(b.Dy())*f)))
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), img, b, xdraw.Src, nil)
	return dst
}

// inChrome puts img on a page: a title bar with words, a row of buttons above the grid and a
// status bar with words below, on a background of bg.
func inChrome(img image.Image, bg, ink color.RGBA) image.Image {
	b := img.Bounds()
	w, h := b.Dx()+160, b.Dy()+260
	page := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(page, page.Bounds(), bg)
	fill(page, image.Rect(0, 0, w, 56), color.RGBA{0x30, 0x40, 0x70, 0xff})
	words(page, 20, 18, 20, 9, color.RGBA{0xff, 0xff, 0xff, 0xff})
	for i := range 4 {
		r := image.Rect(20+i*110, 76, 120+i*110, 110)
		outline(page, r, 2, ink)
		words(page, r.Min.X+12, r.Min.Y+10, 12, 3, ink)
	}
	draw.Draw(page, image.Rect(80, 130, 80+b.Dx(), 130+b.Dy()), img, b.Min, draw.Src)
	fill(page, image.Rect(0, h-50, w, h), color.RGBA{0xe0, 0xe0, 0xe0, 0xff})
	fill(page, image.Rect(0, h-51, w, h-50), color.RGBA{0x90, 0x90, 0x90, 0xff})
	words(page, 20, h-36, 14, 12, color.RGBA{0x20, 0x20, 0x20, 0xff})
	return page
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

func outline(img *image.RGBA, r image.Rectangle, t int, c color.RGBA) {
	fill(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t), c)
	fill(img, image.Rect(r.Min.X, r.Max.Y-t, r.Max.X, r.Max.Y), c)
	fill(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+t, r.Max.Y), c)
	fill(img, image.Rect(r.Max.X-t, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// words draws k blocks of "text": letter-sized strokes of height h.
func words(img *image.RGBA, x, y, h, k int, c color.RGBA) {
	for i := range k {
		for j := range 4 + i%3 {
			fill(img, image.Rect(x, y+(j%2)*h/4, x+h/3, y+h-(j%3)*h/5), c)
			x += h/3 + 2
		}
		x += h / 2
	}
}

// look is how a synthetic picture draws a grid.
type look struct {
	cell, thin, thick, frame, margin int
	palette                          []color.RGBA
	thinCol, thickCol, bg            color.RGBA
}

// The published game's look: light pastel colours, thin grey cell lines, thick black region
// borders and frame (drawn here from that description, not from its pictures).
var gameLook = look{cell: 44, thin: 1, thick: 3, frame: 4, margin: 10,
	palette: []color.RGBA{
		{0xbb, 0xa3, 0xe2, 0xff}, {0xff, 0xc9, 0x92, 0xff}, {0x96, 0xbe, 0xff, 0xff}, {0xb3, 0xdf, 0xa0, 0xff},
		{0xdf, 0xdf, 0xdf, 0xff}, {0xff, 0x7b, 0x60, 0xff}, {0xe6, 0xf3, 0x88, 0xff}, {0xb9, 0xb2, 0x9e, 0xff},
		{0xdf, 0xa0, 0xbf, 0xff}, {0xa3, 0xd2, 0xd8, 0xff}, {0x62, 0xef, 0xea, 0xff}, {0xff, 0x93, 0xf3, 0xff},
	},
	thinCol: color.RGBA{0x80, 0x80, 0x80, 0xff}, thickCol: color.RGBA{0, 0, 0, 0xff}, bg: color.RGBA{0xff, 0xff, 0xff, 0xff}}

// A dark app: muted colours, light grey borders on a near-black page.
var darkLook = look{cell: 36, thin: 1, thick: 4, frame: 4, margin: 16,
	palette: []color.RGBA{
		{0x6a, 0x4c, 0x93, 0xff}, {0x9c, 0x6b, 0x30, 0xff}, {0x2f, 0x6f, 0x9e, 0xff}, {0x4f, 0x80, 0x3a, 0xff},
		{0x80, 0x80, 0x80, 0xff}, {0xa0, 0x40, 0x40, 0xff}, {0x8a, 0x8a, 0x2a, 0xff}, {0x2a, 0x8a, 0x8a, 0xff},
		{0x8a, 0x3a, 0x70, 0xff}, {0x50, 0x50, 0xa8, 0xff}, {0x30, 0x90, 0x60, 0xff}, {0xb0, 0x70, 0x90, 0xff},
	},
	thinCol: color.RGBA{0x30, 0x30, 0x30, 0xff}, thickCol: color.RGBA{0xe8, 0xe8, 0xe8, 0xff}, bg: color.RGBA{0x12, 0x12, 0x14, 0xff}}

// A printed puzzle: white cells, the regions told by their thick borders alone.
var borderLook = look{cell: 40, thin: 1, thick: 4, frame: 5, margin: 12,
	palette: []color.RGBA{{0xff, 0xff, 0xff, 0xff}},
	thinCol: color.RGBA{0xb0, 0xb0, 0xb0, 0xff}, thickCol: color.RGBA{0x10, 0x10, 0x10, 0xff}, bg: color.RGBA{0xff, 0xff, 0xff, 0xff}}

// An app that tells the regions by colour alone: the same thin grey line between every two
// cells, a grey frame.
var colourLook = look{cell: 40, thin: 2, thick: 2, frame: 3, margin: 12,
	palette:  gameLook.palette,
	thinCol:  color.RGBA{0x70, 0x70, 0x70, 0xff},
	thickCol: color.RGBA{0x70, 0x70, 0x70, 0xff}, bg: color.RGBA{0xf4, 0xf4, 0xf4, 0xff}}

// The game's look in a dark page whose colour is the frame's: black on black.
var blackLook = look{cell: 44, thin: 1, thick: 3, frame: 4, margin: 10,
	palette: gameLook.palette,
	thinCol: color.RGBA{0x80, 0x80, 0x80, 0xff}, thickCol: color.RGBA{0, 0, 0, 0xff}, bg: color.RGBA{0, 0, 0, 0xff}}

// onPhone puts img on a phone's page of its colour bg, 12 pixels either side of it, with
// lines of grey words above and below, as a phone's screenshot of the game.
func onPhone(img image.Image, bg color.RGBA) image.Image {
	b := img.Bounds()
	page := image.NewRGBA(image.Rect(0, 0, b.Dx()+24, b.Dy()+360))
	fill(page, page.Bounds(), bg)
	grey := color.RGBA{0xa0, 0xa0, 0xa0, 0xff}
	words(page, 16, 30, 24, 5, grey)
	words(page, 16, 80, 16, 9, grey)
	draw.Draw(page, image.Rect(12, 180, 12+b.Dx(), 180+b.Dy()), img, b.Min, draw.Src)
	words(page, 16, 200+b.Dy(), 16, 12, grey)
	return page
}

// drawGrid draws rows (any number of rows and columns) in look l, each region its own
// palette colour (regions k and k+len(palette) share one).
func drawGrid(rows [][]int, l look) *image.RGBA {
	nr, nc := len(rows), len(rows[0])
	w, h := 2*l.margin+nc*l.cell, 2*l.margin+nr*l.cell
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, img.Bounds(), l.bg)
	x0, y0 := l.margin, l.margin
	for r := range nr {
		for c := range nc {
			fill(img, image.Rect(x0+c*l.cell, y0+r*l.cell, x0+(c+1)*l.cell, y0+(r+1)*l.cell), l.palette[rows[r][c]%len(l.palette)])
		}
	}
	line := func(r image.Rectangle, t int, col color.RGBA, vertical bool) {
		if vertical {
			r.Min.X -= t / 2
			r.Max.X = r.Min.X + t
		} else {
			r.Min.Y -= t / 2
			r.Max.Y = r.Min.Y + t
		}
		fill(img, r, col)
	}
	for r := range nr {
		for c := 1; c < nc; c++ {
			x, y := x0+c*l.cell, y0+r*l.cell
			if rows[r][c] == rows[r][c-1] {
				line(image.Rect(x, y, x, y+l.cell), l.thin, l.thinCol, true)
			}
		}
	}
	for r := 1; r < nr; r++ {
		for c := range nc {
			x, y := x0+c*l.cell, y0+r*l.cell
			if rows[r][c] == rows[r-1][c] {
				line(image.Rect(x, y, x+l.cell, y), l.thin, l.thinCol, false)
			}
		}
	}
	for r := range nr {
		for c := 1; c < nc; c++ {
			x, y := x0+c*l.cell, y0+r*l.cell
			if rows[r][c] != rows[r][c-1] {
				line(image.Rect(x, y-l.thick/2, x, y+l.cell+l.thick/2+1), l.thick, l.thickCol, true)
			}
		}
	}
	for r := 1; r < nr; r++ {
		for c := range nc {
			x, y := x0+c*l.cell, y0+r*l.cell
			if rows[r][c] != rows[r-1][c] {
				line(image.Rect(x-l.thick/2, y, x+l.cell+l.thick/2+1, y), l.thick, l.thickCol, false)
			}
		}
	}
	outline(img, image.Rect(x0-l.frame/2, y0-l.frame/2, x0+nc*l.cell+l.frame-l.frame/2, y0+nr*l.cell+l.frame-l.frame/2), l.frame, l.thickCol)
	return img
}

// cropInside is the part of img, drawn by drawGrid in look l around an n×n grid, inside its
// frame, and a further in pixels in from each side: a crop with no outer border, as some
// solvers ask their users to take.
func cropInside(img *image.RGBA, n int, l look, in int) image.Image {
	lo, hi := l.margin+l.frame-l.frame/2+in, l.margin+n*l.cell-(l.frame-l.frame/2)-in
	return img.SubImage(image.Rect(lo, lo, hi, hi))
}

// rounded rounds the corners of the frame drawGrid drew in look l around an n×n grid: the
// frame's arc of radius r, and outside it the background.
func rounded(img *image.RGBA, n int, l look, r int) *image.RGBA {
	x0, y0 := l.margin-l.frame/2, l.margin-l.frame/2
	x1, y1 := l.margin+n*l.cell+l.frame-l.frame/2, l.margin+n*l.cell+l.frame-l.frame/2
	for _, c := range [][2]int{{x0 + r, y0 + r}, {x1 - r, y0 + r}, {x0 + r, y1 - r}, {x1 - r, y1 - r}} {
		for y := c[1] - r; y < c[1]+r; y++ {
			for x := c[0] - r; x < c[0]+r; x++ {
				if x < x0 || x >= x1 || y < y0 || y >= y1 || (x >= x0+r && x < x1-r) || (y >= y0+r && y < y1-r) {
					continue
				}
				dx, dy := float64(x)+0.5-float64(c[0]), float64(y)+0.5-float64(c[1])
				switch d := math.Hypot(dx, dy); {
				case d > float64(r):
					img.Set(x, y, l.bg)
				case d > float64(r-l.frame):
					img.Set(x, y, l.thickCol)
				}
			}
		}
	}
	return img
}

// recoloured gives each region of p a colour that no neighbour has, from a palette of k.
func recoloured(p *regions.Puzzle, k int) [][]int {
	n := p.N()
	pick := make([]int, n)
	for reg := range n {
		used := map[int]bool{}
		for r := range n {
			for c := range n {
				if p.Region(r, c) != reg {
					continue
				}
				for _, d := range [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
					rr, cc := r+d[0], c+d[1]
					if rr >= 0 && rr < n && cc >= 0 && cc < n && p.Region(rr, cc) < reg && p.Region(rr, cc) != reg {
						used[pick[p.Region(rr, cc)]] = true
					}
				}
			}
		}
		for i := range k {
			if !used[(reg+i)%k] {
				pick[reg] = (reg + i) % k
				break
			}
		}
	}
	rows := p.Rows()
	for r := range rows {
		for c := range rows[r] {
			rows[r][c] = pick[rows[r][c]]
		}
	}
	return rows
}

// TestImage reads pictures of 20 kinds, each at two of four sizes from N = 5 to 14 and
// three also at N = 20 (TestAccuracy has them all, at more seeds): package render's at 20, 30 and 48 pixels a cell, with
// queens, JPEG, scaled and in page chrome; the game's look (also with rounded corners, and
// with a black frame on a black phone page), a dark app's, borders alone and colours alone.
func TestImage(t *testing.T) {
	page, ink := color.RGBA{0xfa, 0xfa, 0xf7, 0xff}, color.RGBA{0x44, 0x44, 0x44, 0xff}
	game := func(t *testing.T, p *regions.Puzzle) *image.RGBA {
		return drawGrid(recoloured(p, len(gameLook.palette)), gameLook)
	}
	dark := func(t *testing.T, p *regions.Puzzle) *image.RGBA {
		return drawGrid(recoloured(p, len(darkLook.palette)), darkLook)
	}
	kinds := []struct {
		name string
		draw func(t *testing.T, p *regions.Puzzle) image.Image
	}{
		{"render sq20", func(t *testing.T, p *regions.Puzzle) image.Image { return rendered(t, p, 20, false) }},
		{"render sq20 jpeg", func(t *testing.T, p *regions.Puzzle) image.Image { return jpegOf(t, rendered(t, p, 20, false), 80) }},
		{"render sq30 queens", func(t *testing.T, p *regions.Puzzle) image.Image { return rendered(t, p, 30, true) }},
		{"render sq30 queens jpeg", func(t *testing.T, p *regions.Puzzle) image.Image { return jpegOf(t, rendered(t, p, 30, true), 75) }},
		{"render sq30 queens scaled 1.7 jpeg", func(t *testing.T, p *regions.Puzzle) image.Image {
			return jpegOf(t, scaled(rendered(t, p, 30, true), 1.7), 80)
		}},
		{"render sq30 queens in chrome", func(t *testing.T, p *regions.Puzzle) image.Image {
			return inChrome(rendered(t, p, 30, true), page, ink)
		}},
		{"render sq48 jpeg", func(t *testing.T, p *regions.Puzzle) image.Image { return jpegOf(t, rendered(t, p, 48, false), 75) }},
		{"render sq48 scaled 0.6", func(t *testing.T, p *regions.Puzzle) image.Image { return scaled(rendered(t, p, 48, false), 0.6) }},
		{"game", func(t *testing.T, p *regions.Puzzle) image.Image { return game(t, p) }},
		{"game jpeg", func(t *testing.T, p *regions.Puzzle) image.Image { return jpegOf(t, game(t, p), 70) }},
		{"game scaled 0.7", func(t *testing.T, p *regions.Puzzle) image.Image { return scaled(game(t, p), 0.7) }},
		{"game in chrome", func(t *testing.T, p *regions.Puzzle) image.Image {
			return inChrome(game(t, p), color.RGBA{0xff, 0xff, 0xff, 0xff}, color.RGBA{0x20, 0x20, 0x20, 0xff})
		}},
		{"game rounded corners jpeg", func(t *testing.T, p *regions.Puzzle) image.Image {
			return jpegOf(t, rounded(game(t, p), p.N(), gameLook, 14), 80)
		}},
		{"borders only", func(t *testing.T, p *regions.Puzzle) image.Image { return drawGrid(p.Rows(), borderLook) }},
		{"borders only jpeg", func(t *testing.T, p *regions.Puzzle) image.Image {
			return jpegOf(t, drawGrid(p.Rows(), borderLook), 75)
		}},
		{"colours only", func(t *testing.T, p *regions.Puzzle) image.Image {
			return drawGrid(recoloured(p, len(colourLook.palette)), colourLook)
		}},
		{"colours only jpeg", func(t *testing.T, p *regions.Puzzle) image.Image {
			return jpegOf(t, drawGrid(recoloured(p, len(colourLook.palette)), colourLook), 75)
		}},
		{"black frame on a black phone page jpeg", func(t *testing.T, p *regions.Puzzle) image.Image {
			return jpegOf(t, onPhone(drawGrid(recoloured(p, len(blackLook.palette)), blackLook), blackLook.bg), 80)
		}},
		{"dark", func(t *testing.T, p *regions.Puzzle) image.Image { return dark(t, p) }},
		{"game cropped inside the frame", func(t *testing.T, p *regions.Puzzle) image.Image {
			return cropInside(game(t, p), p.N(), gameLook, 0)
		}},
		{"game cropped into the outer cells jpeg", func(t *testing.T, p *regions.Puzzle) image.Image {
			return jpegOf(t, cropInside(game(t, p), p.N(), gameLook, 4), 75)
		}},
		{"dark cropped inside the frame", func(t *testing.T, p *regions.Puzzle) image.Image {
			return cropInside(dark(t, p), p.N(), darkLook, 1)
		}},
		{"dark in chrome jpeg", func(t *testing.T, p *regions.Puzzle) image.Image {
			return jpegOf(t, inChrome(dark(t, p), darkLook.bg, color.RGBA{0xcc, 0xcc, 0xcc, 0xff}), 80)
		}},
	}
	// N = 20 makes the largest pictures, slow to draw, scale and read under -race: three
	// kinds have it here, TestAccuracy all.
	sizes := []int{5, 8, 11, 14}
	puzzles := map[int]*regions.Puzzle{}
	for _, n := range append(sizes, 20) {
		puzzles[n] = puzzle(t, n, uint64(n))
	}
	for k, kind := range kinds {
		ns := []int{sizes[k%len(sizes)], sizes[(k+2)%len(sizes)]}
		if kind.name == "render sq20" || kind.name == "game" || kind.name == "borders only" {
			ns = append(ns, 20)
		}
		for _, n := range ns {
			p := puzzles[n]
			t.Run(fmt.Sprintf("%s n%d", kind.name, n), func(t *testing.T) {
				got, err := Image(context.Background(), kind.draw(t, p))
				if err != nil {
					t.Fatalf("Image: %v", err)
				}
				if g, w := got.String(), letters(p.Rows()); g != w {
					t.Fatalf("Image read\n%s\nwant\n%s", g, w)
				}
			})
		}
	}
}

func TestImageErrors(t *testing.T) {
	p := puzzle(t, 8, 3)
	nine := p.Rows()
	nine = append(nine, append([]int(nil), nine[7]...)) // 9 rows of 8 columns
	blank := image.NewRGBA(image.Rect(0, 0, 300, 200))
	fill(blank, blank.Bounds(), color.RGBA{0xff, 0xff, 0xff, 0xff})
	// Two regions of one colour with a thick border between them: the top row cut in two.
	same := make([][]int, 6)
	for r := range same {
		same[r] = []int{1, 2, 3, 4, 5, 0}
	}
	same[0] = []int{0, 0, 0, 0, 0, 0}
	sameImg := drawGrid(same, gameLook)
	// Draw a thick border down the middle of the top row.
	fill(sameImg, image.Rect(gameLook.margin+3*gameLook.cell-1, gameLook.margin, gameLook.margin+3*gameLook.cell+2, gameLook.margin+gameLook.cell), gameLook.thickCol)
	for _, c := range []struct {
		name string
		img  image.Image
		want string
	}{
		{"blank", blank, "no grid found"},
		{"9 rows of 8", drawGrid(nine, gameLook), "found 8 columns but 9 rows"},
		{"one colour, two regions", sameImg, "two regions share a colour and a border"},
		{"3×3", drawGrid([][]int{{0, 0, 1}, {0, 2, 1}, {2, 2, 1}}, gameLook), "want at least 4×4"},
		{"3×3 crop", cropInside(drawGrid([][]int{{0, 0, 1}, {0, 2, 1}, {2, 2, 1}}, gameLook), 3, gameLook, 0), "want at least 4×4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Image(context.Background(), c.img)
			if err == nil || !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Image: %v, want an ErrUnreadable saying %q", err, c.want)
			}
		})
	}
}

// gridOf is the grid of region letters s, rows joined by "/", as region ids (A is 0).
func gridOf(s string) [][]int {
	var rows [][]int
	for _, line := range strings.Split(s, "/") {
		var row []int
		for _, ch := range line {
			row = append(row, int(ch-'A'))
		}
		rows = append(rows, row)
	}
	return rows
}

// TestClosedBlock reads a crop inside the frame of an 8×8 grid whose middle 4×4 block, four
// regions, is closed all round by thick borders, like a frame (it was read as a 4×4 grid):
//
//	AAAAAAAA
//	AAAAAAAA
//	BBCCDDEE
//	BBCCDDEE
//	BBFFGGEE
//	BBFFGGEE
//	HHHHHHHH
//	HHHHHHHH
func TestClosedBlock(t *testing.T) {
	rows := gridOf("AAAAAAAA/AAAAAAAA/BBCCDDEE/BBCCDDEE/BBFFGGEE/BBFFGGEE/HHHHHHHH/HHHHHHHH")
	for _, in := range []int{0, 3} {
		got, err := read(context.Background(), cropInside(drawGrid(rows, gameLook), 8, gameLook, in))
		if err != nil {
			t.Fatalf("crop %d pixels in: read: %v", in, err)
		}
		if g, w := letters(got), letters(rows); g != w {
			t.Fatalf("crop %d pixels in: read\n%s\nwant\n%s", in, g, w)
		}
	}
}

// TestPieces reads a published level of the daily game whose region B is in two pieces (from
// issue 36; it has exactly one solution), drawn in the game's look: the cells of each colour
// are one region, however many pieces it has.
func TestPieces(t *testing.T) {
	rows := gridOf("AAAAABAAA/AAAAAAACA/AADAAAAAA/EAAAFAAAA/AAAAAAGAA/AAAAAAAAF/AAAAABAAA/AAAHAAAAA/AIAAAAAAA")
	for _, img := range []image.Image{drawGrid(rows, gameLook), jpegOf(t, drawGrid(rows, gameLook), 75)} {
		got, err := read(context.Background(), img)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if g, w := letters(got), letters(rows); g != w {
			t.Fatalf("read\n%s\nwant\n%s", g, w)
		}
	}
}

func TestRead(t *testing.T) {
	p := puzzle(t, 7, 2)
	var buf bytes.Buffer
	if err := png.Encode(&buf, rendered(t, p, 40, false)); err != nil {
		t.Fatal(err)
	}
	got, err := Read(context.Background(), bytes.NewReader(buf.Bytes()))
	if err != nil || got.String() != letters(p.Rows()) {
		t.Fatalf("Read = %v, %v; want\n%s", got, err, letters(p.Rows()))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Read(ctx, bytes.NewReader(buf.Bytes())); !errors.Is(err, context.Canceled) {
		t.Errorf("Read with a cancelled context: %v, want context.Canceled", err)
	}
	for _, c := range []struct{ name, data, want string }{
		{"text", "AAB\nABB\nCCC\n", "not a PNG, JPEG or GIF picture"},
		{"empty", "", "not a PNG, JPEG or GIF picture"},
		{"truncated", buf.String()[:200], "decoding the picture"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(context.Background(), strings.NewReader(c.data))
			if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Read: %v, want an ErrUnreadable saying %q", err, c.want)
			}
		})
	}
}

// TestFaintLines reads grids drawn as the web page draws them in dark mode at phone size
// (issue 36: its screenshot of a 14×14 puzzle was refused): cells of 24 pixels in ten
// colours, repeated across 14 regions, so that only the borders tell some regions apart;
// 2-pixel near-black borders in a grey frame; and thin lines that only darken their cells a little, less on the
// first lines than on the last, so that some thin edges measure no ink at all and others
// tens; grey label strokes beside the frame, on a near-black page.
func TestFaintLines(t *testing.T) {
	page := look{cell: 24, thin: 0, thick: 2, frame: 2, margin: 24,
		// The page's dark-mode colours, as its screenshot has them.
		palette: []color.RGBA{
			{206, 158, 69, 0xff}, {125, 176, 204, 0xff}, {83, 168, 141, 0xff}, {205, 196, 96, 0xff},
			{93, 142, 187, 0xff}, {201, 128, 90, 0xff}, {187, 141, 171, 0xff}, {169, 169, 169, 0xff},
			{200, 189, 161, 0xff}, {160, 190, 139, 0xff},
		},
		thickCol: color.RGBA{26, 26, 26, 0xff}, bg: color.RGBA{27, 24, 21, 0xff}}
	for _, n := range []int{12, 14} {
		p := puzzle(t, n, uint64(n))
		rows := recoloured(p, len(page.palette))
		img := drawGrid(rows, page)
		// The frame is grey, the borders inside it near-black.
		f0, f1 := page.margin-page.frame/2, page.margin+n*page.cell+page.frame-page.frame/2
		outline(img, image.Rect(f0, f0, f1, f1), page.frame, color.RGBA{138, 127, 115, 0xff})
		// Thin lines: line k darkens the pixel column (row) on it by 2% + 2.5k%.
		darken := func(x, y int, k int) {
			c := img.RGBAAt(x, y)
			if c == page.thickCol {
				return
			}
			f := 0.98 - 0.025*float64(k)
			img.SetRGBA(x, y, color.RGBA{uint8(f * float64(c.R)), uint8(f * float64(c.G)), uint8(f * float64(c.B)), 0xff})
		}
		m, s := page.margin, page.cell
		for r := range n {
			for c := 1; c < n; c++ {
				if p.Region(r, c) == p.Region(r, c-1) {
					for y := m + r*s; y < m+(r+1)*s; y++ {
						darken(m+c*s, y, c)
					}
				}
			}
		}
		for r := 1; r < n; r++ {
			for c := range n {
				if p.Region(r, c) == p.Region(r-1, c) {
					for x := m + c*s; x < m+(c+1)*s; x++ {
						darken(x, m+r*s, r)
					}
				}
			}
		}
		// Row and column numbers beside the frame.
		grey := color.RGBA{0xb0, 0xb0, 0xb0, 0xff}
		for k := range n {
			words(img, m+k*s+s/3, 8, 6, 1, grey)
			words(img, 4, m+k*s+s/3, 6, 1, grey)
		}
		t.Run(fmt.Sprintf("n%d", n), func(t *testing.T) {
			got, err := Image(context.Background(), img)
			if err != nil {
				t.Fatalf("Image: %v", err)
			}
			if g, w := got.String(), letters(p.Rows()); g != w {
				t.Fatalf("Image read\n%s\nwant\n%s", g, w)
			}
		})
	}
}
