package scan

import (
	"context"
	"fmt"
	"image"
	"os"
	"strings"
	"testing"
)

// cropInto is the part of img, drawn by drawGrid in look l around an n×n grid, inside its
// frame and further in by the given pixels from the left, top, right and bottom: a crop that
// cuts into the outer cells.
func cropInto(img *image.RGBA, n int, l look, left, top, right, bottom int) *image.RGBA {
	lo, hi := l.margin+l.frame-l.frame/2, l.margin+n*l.cell-(l.frame-l.frame/2)
	return img.SubImage(image.Rect(lo+left, lo+top, hi-right, hi-bottom)).(*image.RGBA)
}

// cutInto draws puzzle n (seed n) in look l and crops it into its outer cells by frac of a
// cell on the sides given (left, top, right, bottom: 1 to cut), as PNG or JPEG.
func cutInto(t testing.TB, n int, l look, frac float64, sides [4]int, jpeg bool) (image.Image, string) {
	p := puzzle(t, n, uint64(n))
	img := drawGrid(recoloured(p, len(l.palette)), l)
	in := int(frac * float64(l.cell))
	pic := image.Image(cropInto(img, n, l, in*sides[0], in*sides[1], in*sides[2], in*sides[3]))
	if jpeg {
		pic = jpegOf(t, pic, 80)
	}
	return pic, letters(p.Rows())
}

// TestCropsIntoOuterCells reads crops that cut into the outer cells, by a quarter to over
// half a cell, on two sides to all four, PNG and JPEG, in the game's look and a dark app's:
// each must be read right (the lines are found where the picture has them, and a lattice of
// that pitch is fitted to them, its outer cells cut by the picture's sides). A crop that
// leaves an outer cell a strip under a third of a cell must be refused, saying so; and a 6×6
// crop cut by 0.45 of a cell, once read as a 10×10 grid of half cells (a lattice of half the
// pitch, every other line in the middle of true cells), is read right. With -short, two
// of them; CHESSPUZZLES_LONG=1 runs TestCropSweep, hundreds more.
func TestCropsIntoOuterCells(t *testing.T) {
	for i, tc := range []struct {
		n      int
		l      look
		lname  string
		frac   float64
		sides  [4]int
		jpeg   bool
		refuse string // "" when the crop must be read right
	}{
		{6, darkLook, "dark", 0.45, [4]int{1, 1, 1, 1}, false, ""},
		{8, gameLook, "game", 0.25, [4]int{1, 1, 1, 1}, true, ""},
		{9, gameLook, "game", 0.7, [4]int{1, 0, 0, 1}, false, "too thin to read"},
		{6, gameLook, "game", 0.55, [4]int{1, 1, 0, 0}, false, ""},
		{8, darkLook, "dark", 0.55, [4]int{1, 0, 1, 0}, true, ""},
		{10, darkLook, "dark", 0.4, [4]int{1, 1, 1, 1}, false, ""},
	} {
		if testing.Short() && i%3 != 0 {
			continue
		}
		name := fmt.Sprintf("%d×%d %s cut %.2f %v jpeg=%v", tc.n, tc.n, tc.lname, tc.frac, tc.sides, tc.jpeg)
		t.Run(name, func(t *testing.T) {
			pic, want := cutInto(t, tc.n, tc.l, tc.frac, tc.sides, tc.jpeg)
			got, err := Image(context.Background(), pic)
			switch {
			case tc.refuse != "":
				if err == nil || !strings.Contains(err.Error(), tc.refuse) {
					t.Errorf("read %v (err %v), want refused: %q", got, err, tc.refuse)
				}
			case err != nil:
				t.Errorf("refused: %v", err)
			case got.String() != want:
				t.Errorf("read\n%swant\n%s", got, want)
			}
		})
	}
}

// TestCropSweep reads 448 crops that cut into the outer cells — N = 6, 8, 9, 10; the game's
// look and a dark app's; cuts of 0.08 to 0.7 of a cell on all sides, on one, on two and
// unevenly on three; PNG and JPEG — and logs, per cut, how many were read right, wrong and
// refused. It fails on any wrong read, and on a crop cut by a quarter cell or less that the
// game's look leaves unread. It takes about a minute, so it runs only with
// CHESSPUZZLES_LONG set; bench/log has its figures.
func TestCropSweep(t *testing.T) {
	if os.Getenv("CHESSPUZZLES_LONG") == "" {
		t.Skip("CHESSPUZZLES_LONG=1 runs this sweep of about a minute")
	}
	type result struct{ right, wrong, refused int }
	fracs := []float64{0.08, 0.15, 0.25, 0.35, 0.45, 0.55, 0.7}
	results := make([]result, len(fracs))
	for _, n := range []int{6, 8, 9, 10} {
		for li, l := range []look{gameLook, darkLook} {
			for fi, frac := range fracs {
				for _, sides := range [][4]int{{2, 2, 2, 2}, {2, 0, 0, 0}, {0, 2, 2, 0}, {2, 1, 0, 2}} {
					for _, jpeg := range []bool{false, true} {
						// sides are in halves of the cut: {2, 1, 0, 2} cuts the top by half as much.
						p := puzzle(t, n, uint64(n))
						img := drawGrid(recoloured(p, len(l.palette)), l)
						in := int(frac * float64(l.cell))
						pic := image.Image(cropInto(img, n, l, in*sides[0]/2, in*sides[1]/2, in*sides[2]/2, in*sides[3]/2))
						if jpeg {
							pic = jpegOf(t, pic, 80)
						}
						name := fmt.Sprintf("%d×%d look %d, cut %.2f of a cell %v jpeg=%v", n, n, li, frac, sides, jpeg)
						got, err := Image(context.Background(), pic)
						switch {
						case err != nil:
							results[fi].refused++
							t.Logf("%s: refused: %v", name, err)
							if frac <= 0.25 && li == 0 {
								t.Errorf("%s: refused (%v); in the game's look a cut of a quarter cell or less must be read", name, err)
							}
						case got.String() != letters(p.Rows()):
							results[fi].wrong++
							t.Errorf("%s: read WRONG\n%swant\n%s", name, got, letters(p.Rows()))
						default:
							results[fi].right++
						}
					}
				}
			}
		}
	}
	for fi, frac := range fracs {
		r := results[fi]
		t.Logf("cut %.2f of a cell: %d right, %d wrong, %d refused", frac, r.right, r.wrong, r.refused)
	}
}
