package scan

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/regions"
)

// cellRect is cell (r, c) of a grid drawGrid drew in look l.
func cellRect(l look, r, c int) image.Rectangle {
	x, y := l.margin+c*l.cell, l.margin+r*l.cell
	return image.Rect(x, y, x+l.cell, y+l.cell)
}

// stroke draws a line of width w from (x0, y0) to (x1, y1).
func stroke(img *image.RGBA, x0, y0, x1, y1, w float64, c color.RGBA) {
	steps := int(math.Hypot(x1-x0, y1-y0)) * 2
	for i := 0; i <= steps; i++ {
		f := float64(i) / float64(max(1, steps))
		x, y := x0+f*(x1-x0), y0+f*(y1-y0)
		fill(img, image.Rect(int(x-w/2), int(y-w/2), int(x+w/2)+1, int(y+w/2)+1), c)
	}
}

// The marks a player's screenshot may show on cells, each drawn in the middle of cell b:
// the game's X (two thin dark strokes over the middle third), a dot (a filled disc a quarter
// of the cell across), a number (a digit in seven-segment strokes, half the cell high) and a
// crown (the game's queen: a black crown over half the cell).
func xMark(img *image.RGBA, b image.Rectangle) {
	s, cx, cy := float64(b.Dx()), float64(b.Min.X+b.Max.X)/2, float64(b.Min.Y+b.Max.Y)/2
	c := color.RGBA{0x33, 0x33, 0x33, 0xff}
	stroke(img, cx-s/6, cy-s/6, cx+s/6, cy+s/6, 2, c)
	stroke(img, cx-s/6, cy+s/6, cx+s/6, cy-s/6, 2, c)
}

func dot(img *image.RGBA, b image.Rectangle) {
	s, cx, cy := float64(b.Dx()), float64(b.Min.X+b.Max.X)/2, float64(b.Min.Y+b.Max.Y)/2
	r := s / 8
	for y := int(cy - r); y <= int(cy+r); y++ {
		for x := int(cx - r); x <= int(cx+r); x++ {
			if math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy) <= r {
				img.SetRGBA(x, y, color.RGBA{0x20, 0x20, 0x20, 0xff})
			}
		}
	}
}

// segments[d] are the seven segments of digit d: top, top right, bottom right, bottom,
// bottom left, top left, middle.
var segments = [10][7]bool{
	{true, true, true, true, true, true, false}, {false, true, true, false, false, false, false},
	{true, true, false, true, true, false, true}, {true, true, true, true, false, false, true},
	{false, true, true, false, false, true, true}, {true, false, true, true, false, true, true},
	{true, false, true, true, true, true, true}, {true, true, true, false, false, false, false},
	{true, true, true, true, true, true, true}, {true, true, true, true, false, true, true},
}

func number(img *image.RGBA, b image.Rectangle, d int) {
	s, cx, cy := float64(b.Dx()), float64(b.Min.X+b.Max.X)/2, float64(b.Min.Y+b.Max.Y)/2
	w, h := s/5, s/4 // half the digit's width and height
	x0, x1, y0, y1, y2 := cx-w, cx+w, cy-h, cy, cy+h
	c := color.RGBA{0x10, 0x10, 0x10, 0xff}
	lines := [7][4]float64{{x0, y0, x1, y0}, {x1, y0, x1, y1}, {x1, y1, x1, y2}, {x0, y2, x1, y2}, {x0, y1, x0, y2}, {x0, y0, x0, y1}, {x0, y1, x1, y1}}
	for k, on := range segments[d] {
		if on {
			stroke(img, lines[k][0], lines[k][1], lines[k][2], lines[k][3], 3, c)
		}
	}
}

func crown(img *image.RGBA, b image.Rectangle) {
	s, cx, cy := float64(b.Dx()), float64(b.Min.X+b.Max.X)/2, float64(b.Min.Y+b.Max.Y)/2
	black := color.RGBA{0, 0, 0, 0xff}
	fill(img, image.Rect(int(cx-s/4), int(cy+s/12), int(cx+s/4), int(cy+s/5)), black)
	for _, px := range []float64{cx - s/4, cx, cx + s/4} {
		// A spike from the band up to a point s/4 above it.
		for y := cy - s/6; y <= cy+s/12; y++ {
			half := (y - (cy - s/6)) / (s / 4) * s / 10
			fill(img, image.Rect(int(px-half), int(y), int(px+half)+1, int(y)+1), black)
		}
	}
}

// TestMarks reads grids in the game's look with marks on cells, as a player's screenshot
// shows them: X marks on a third of the cells, dots, numbers in every cell, and crowns on a
// solution's cells beside X marks; each in JPEG cropped inside the frame, and the X marks
// framed in PNG and the crowns framed in JPEG. Each must be read right, or refused: never wrong. Every picture of X marks
// and crowns (which real screenshots have) must be read right, and so must most of the rest.
// With -short, the crops only.
func TestMarks(t *testing.T) {
	right, refused := 0, 0
	for _, n := range []int{9} {
		p := puzzle(t, n, uint64(20+n))
		want := letters(p.Rows())
		rows := recoloured(p, len(gameLook.palette))
		sol, err := regions.Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		marks := []struct {
			name string
			draw func(img *image.RGBA)
			must bool // must be read right
		}{
			{"X marks", func(img *image.RGBA) {
				for i := 0; i < n*n; i += 3 {
					xMark(img, cellRect(gameLook, i/n, i%n))
				}
			}, true},
			{"crowns and X marks", func(img *image.RGBA) {
				for r, c := range sol {
					crown(img, cellRect(gameLook, r, c))
					for dc := -1; dc <= 1; dc += 2 {
						if c+dc >= 0 && c+dc < n {
							xMark(img, cellRect(gameLook, r, c+dc))
						}
					}
				}
			}, true},
			{"dots", func(img *image.RGBA) {
				for i := 0; i < n*n; i += 2 {
					dot(img, cellRect(gameLook, i/n, i%n))
				}
			}, false},
			{"numbers", func(img *image.RGBA) {
				for i := range n * n {
					number(img, cellRect(gameLook, i/n, i%n), (i*7+3)%10)
				}
			}, false},
		}
		for mi, m := range marks {
			for k, kind := range []string{"framed png", "framed jpeg", "crop jpeg"} {
				// Each mark cropped; X marks framed in PNG, crowns framed in JPEG; with
				// -short, the crops only.
				if k != 2 && (k != mi || testing.Short()) {
					continue
				}
				img := drawGrid(rows, gameLook)
				m.draw(img)
				var pic image.Image = img
				switch k {
				case 1:
					pic = jpegOf(t, img, 80)
				case 2:
					pic = jpegOf(t, cropInside(img, n, gameLook, 1), 80)
				}
				name := fmt.Sprintf("%d×%d %s, %s", n, n, m.name, kind)
				got, err := Image(context.Background(), pic)
				switch {
				case err != nil:
					refused++
					t.Logf("%s: refused: %v", name, err)
					if m.must {
						t.Errorf("%s: refused (%v), want read", name, err)
					}
				case got.String() != want:
					t.Errorf("%s: read WRONG\n%swant\n%s", name, got, want)
				default:
					right++
				}
			}
		}
	}
	t.Logf("%d read right, %d refused", right, refused)
	if refused > right/4 {
		t.Errorf("%d read right, %d refused: want at most one in five refused", right, refused)
	}
	if right+refused == 0 {
		t.Error("no picture read")
	}
}
