package scan

import (
	"context"
	"image"
	"image/color"
	"os"
	"testing"
)

// hovered darkens cell (r, c) of img, drawn by drawGrid in look l, to f of its colour, as
// the game's page does to the cell under the mouse: the cell's fill only, not the lines on it.
func hovered(img *image.RGBA, l look, r, c int, f float64) *image.RGBA {
	fillCol := img.RGBAAt(l.margin+c*l.cell+l.cell/2, l.margin+r*l.cell+l.cell/2)
	for y := l.margin + r*l.cell; y < l.margin+(r+1)*l.cell; y++ {
		for x := l.margin + c*l.cell; x < l.margin+(c+1)*l.cell; x++ {
			if img.RGBAAt(x, y) == fillCol {
				img.SetRGBA(x, y, color.RGBA{uint8(f * float64(fillCol.R)), uint8(f * float64(fillCol.G)), uint8(f * float64(fillCol.B)), 0xff})
			}
		}
	}
	return img
}

// TestHover reads grids in the game's look with one cell darkened to 0.8 of its colour, as
// under the mouse on the game's page: at the cells of a 9×9 puzzle in turn, framed and
// cropped inside the frame, PNG and JPEG, and in a dark app's look lightened to 1.2
// instead. Each reads right or is refused; none reads wrong, and most read right. With
// CHESSPUZZLES_LONG set it reads all 179 pictures (about 50 CPU-s under -race, 29 Nov);
// by default one framed or cropped picture in seven (the one of cell (r, c) and kind k
// when 9r+c+k is 0 mod 7: every row and every column hovered) and one dark one in ten, 33
// pictures; with -short one in nineteen and one in fifteen.
func TestHover(t *testing.T) {
	p := puzzle(t, 9, 5)
	want := letters(p.Rows())
	rows := recoloured(p, len(gameLook.palette))
	step, darkStep := 7, 10
	switch {
	case testing.Short():
		step, darkStep = 19, 15
	case os.Getenv("CHESSPUZZLES_LONG") != "":
		step, darkStep = 1, 5
	}
	right, refused := 0, 0
	for r := range 9 {
		for c := range 9 {
			for k, kind := range []string{"framed", "crop jpeg"} {
				if (r*9+c+k)%step != 0 {
					continue
				}
				img := image.Image(hovered(drawGrid(rows, gameLook), gameLook, r, c, 0.8))
				if k == 1 {
					img = jpegOf(t, cropInside(img.(*image.RGBA), 9, gameLook, 2), 80)
				}
				got, err := Image(context.Background(), img)
				switch {
				case err != nil:
					refused++
					t.Logf("%s, r%dc%d hovered: %v", kind, r+1, c+1, err)
				case got.String() != want:
					t.Errorf("%s, r%dc%d hovered: read\n%swant\n%s", kind, r+1, c+1, got, want)
				default:
					right++
				}
			}
		}
	}
	// A dark page may lighten the cell under the mouse instead.
	dark := recoloured(p, len(darkLook.palette))
	for i := 0; i < 81; i += 5 {
		if i%darkStep != 0 {
			continue
		}
		got, err := Image(context.Background(), hovered(drawGrid(dark, darkLook), darkLook, i/9, i%9, 1.2))
		switch {
		case err != nil:
			refused++
			t.Logf("dark, r%dc%d lightened: %v", i/9+1, i%9+1, err)
		case got.String() != want:
			t.Errorf("dark, r%dc%d lightened: read\n%swant\n%s", i/9+1, i%9+1, got, want)
		default:
			right++
		}
	}
	if refused > right/20 {
		t.Errorf("%d read right, %d refused, want at most 1 in 20 refused", right, refused)
	}
}

// TestCloseColours reads grids whose palette has the game's green (188, 222, 166) and tan
// (184, 178, 160), 54 apart, which 8-level bins once put 40 apart and merged: every
// region its own colour, so a merged colour is a wrong count; PNG and JPEG, framed and
// cropped, at N = 7 to 10.
func TestCloseColours(t *testing.T) {
	l := gameLook
	l.palette = []color.RGBA{
		{188, 222, 166, 0xff}, {184, 178, 160, 0xff}, {0xbb, 0xa3, 0xe2, 0xff}, {0xff, 0xc9, 0x92, 0xff},
		{0x96, 0xbe, 0xff, 0xff}, {0xdf, 0xdf, 0xdf, 0xff}, {0xff, 0x7b, 0x60, 0xff}, {0xe6, 0xf3, 0x88, 0xff},
		{0xdf, 0xa0, 0xbf, 0xff}, {0xa3, 0xd2, 0xd8, 0xff},
	}
	l.thick = 1 // thin borders too, so that colour alone must tell the two regions apart
	for n := 7; n <= 10; n++ {
		p := puzzle(t, n, uint64(40+n))
		want := letters(p.Rows())
		img := drawGrid(p.Rows(), l)
		for k, pic := range []image.Image{img, jpegOf(t, img, 80), cropInside(img, n, l, 1)} {
			got, err := Image(context.Background(), pic)
			if err != nil {
				t.Errorf("n%d picture %d: %v", n, k, err)
				continue
			}
			if got.String() != want {
				t.Errorf("n%d picture %d: read\n%swant\n%s", n, k, got, want)
			}
		}
	}
}
