//go:build unix

package scan

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/regions"
)

// cpuTime is the process's CPU time so far, user and system.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestAccuracy reads many pictures — 8 sizes from 5 to 20, 10 seeds each, in 17 kinds
// (package render's at two cell sizes, with queens, JPEG, scaled and in page chrome; the
// game's look, with rounded corners, on a black phone page, a dark app's, borders alone and colours alone, plain
// and JPEG) — and logs, per
// kind, how many were read right, read wrong (the worst: a wrong puzzle) and refused, with
// the CPU time (user and system, of the whole process while it reads: the machine is shared,
// so wall time says little) of a read, on average and at most. It fails on any wrong read or
// any read of more than a CPU-second. It takes minutes, so it runs only with
// CHESSPUZZLES_LONG set; bench/README.md has its figures.
func TestAccuracy(t *testing.T) {
	if os.Getenv("CHESSPUZZLES_LONG") == "" {
		t.Skip("CHESSPUZZLES_LONG=1 runs this check of about a minute")
	}
	type tally struct {
		right, wrong, refused int
		slowest, total        time.Duration
		pixels                int
		refusals              []string
	}
	kinds := map[string]*tally{}
	var order []string
	page, ink := color.RGBA{0xfa, 0xfa, 0xf7, 0xff}, color.RGBA{0x44, 0x44, 0x44, 0xff}
	for _, n := range []int{5, 6, 7, 8, 9, 11, 14, 20} {
		for seed := uint64(100); seed < 110; seed++ {
			p := puzzle(t, n, seed)
			want := letters(p.Rows())
			sq := 48
			if n > 14 {
				sq = 30
			}
			queens := rendered(t, p, sq, true)
			plain := rendered(t, p, 24, false)
			game := drawGrid(recoloured(p, len(gameLook.palette)), gameLook)
			dark := drawGrid(recoloured(p, len(darkLook.palette)), darkLook)
			for _, c := range []struct {
				kind string
				img  image.Image
			}{
				{"render 24 px", plain},
				{"render 24 px, JPEG 75", jpegOf(t, plain, 75)},
				{"render with queens", queens},
				{"render with queens, JPEG 75", jpegOf(t, queens, 75)},
				{"render with queens, ×0.6", scaled(queens, 0.6)},
				{"render with queens, ×1.7, JPEG 80", jpegOf(t, scaled(queens, 1.7), 80)},
				{"render with queens, in chrome", inChrome(queens, page, ink)},
				{"game look", game},
				{"game look, JPEG 70", jpegOf(t, game, 70)},
				{"game look, ×0.7", scaled(game, 0.7)},
				{"game look, in chrome, JPEG 80", jpegOf(t, inChrome(game, page, ink), 80)},
				{"game look, rounded corners, JPEG 80", jpegOf(t, rounded(drawGrid(recoloured(p, len(gameLook.palette)), gameLook), n, gameLook, 14), 80)},
				{"game look, black frame on a black phone page, JPEG 80", jpegOf(t, onPhone(drawGrid(recoloured(p, len(blackLook.palette)), blackLook), blackLook.bg), 80)},
				{"dark app, in chrome, JPEG 80", jpegOf(t, inChrome(dark, darkLook.bg, color.RGBA{0xcc, 0xcc, 0xcc, 0xff}), 80)},
				{"borders alone, JPEG 75", jpegOf(t, drawGrid(p.Rows(), borderLook), 75)},
				{"colours alone, JPEG 75", jpegOf(t, drawGrid(recoloured(p, len(colourLook.palette)), colourLook), 75)},
				{"game look, ×0.45 (cells of 20 px)", scaled(game, 0.45)},
			} {
				k := kinds[c.kind]
				if k == nil {
					k = &tally{}
					kinds[c.kind] = k
					order = append(order, c.kind)
				}
				start := cpuTime(t)
				got, err := Image(context.Background(), c.img)
				d := cpuTime(t) - start
				k.total += d
				k.slowest = max(k.slowest, d)
				k.pixels = max(k.pixels, c.img.Bounds().Dx()*c.img.Bounds().Dy())
				switch {
				case err != nil:
					k.refused++
					if !slices.Contains(k.refusals, err.Error()) && len(k.refusals) < 3 {
						k.refusals = append(k.refusals, fmt.Sprintf("n%d seed %d: %v", n, seed, err))
					}
				case got.String() == want:
					k.right++
				default:
					k.wrong++
					t.Errorf("%s, n = %d, seed %d: read a wrong puzzle\n%s\nwant\n%s", c.kind, n, seed, got, want)
				}
				if d > time.Second {
					t.Errorf("%s, n = %d, seed %d: read in %v of CPU time, more than a second", c.kind, n, seed, d)
				}
			}
		}
	}
	all := tally{}
	t.Logf("| pictures | read right | wrong | refused | CPU mean | CPU most | largest |")
	t.Logf("|---|---:|---:|---:|---:|---:|---:|")
	for _, kind := range order {
		k := kinds[kind]
		m := k.right + k.wrong + k.refused
		t.Logf("| %s | %d/%d | %d | %d | %.0f ms | %.0f ms | %.2f Mpx |", kind, k.right, m, k.wrong, k.refused,
			float64(k.total.Microseconds())/1000/float64(m), float64(k.slowest.Microseconds())/1000, float64(k.pixels)/1e6)
		for _, r := range k.refusals {
			t.Logf("    refused: %s", r)
		}
		all.right, all.wrong, all.refused = all.right+k.right, all.wrong+k.wrong, all.refused+k.refused
	}
	t.Logf("all: %d right, %d wrong, %d refused of %d", all.right, all.wrong, all.refused, all.right+all.wrong+all.refused)
}

// TestWritePictures writes, with CHESSPUZZLES_SCAN_PICTURES=DIR, the pictures
// bench/regread.sh times the command on: a phone's screenshot (1170×2532, the game's look,
// JPEG), a desktop's (1920×1080, package render's grid with queens, PNG) and a large
// picture (a 20×20 grid of 120-pixel cells, 2.5k×2.5k, PNG), with each puzzle's letters.
func TestWritePictures(t *testing.T) {
	dir := os.Getenv("CHESSPUZZLES_SCAN_PICTURES")
	if dir == "" {
		t.Skip("CHESSPUZZLES_SCAN_PICTURES=DIR writes the pictures bench/regread.sh reads")
	}
	place := func(img image.Image, w, h, x, y int, bg color.RGBA) image.Image {
		page := image.NewRGBA(image.Rect(0, 0, w, h))
		fill(page, page.Bounds(), bg)
		fill(page, image.Rect(0, 0, w, 140), color.RGBA{0x30, 0x40, 0x70, 0xff})
		words(page, 40, 50, 40, 6, color.RGBA{0xff, 0xff, 0xff, 0xff})
		words(page, 40, y-80, 30, 8, color.RGBA{0x20, 0x20, 0x20, 0xff})
		b := img.Bounds()
		dst := image.Rect(x, y, x+b.Dx(), y+b.Dy())
		drawOver(page, dst, img)
		words(page, 40, dst.Max.Y+60, 30, 10, color.RGBA{0x20, 0x20, 0x20, 0xff})
		return page
	}
	phone := puzzle(t, 9, 7)
	l := gameLook
	l.cell, l.thin, l.thick, l.frame, l.margin = 118, 2, 7, 8, 6
	desk := puzzle(t, 14, 7)
	big := puzzle(t, 20, 7)
	for _, f := range []struct {
		name string
		p    *regions.Puzzle
		img  image.Image
		jpeg bool
	}{
		{"phone", phone, place(drawGrid(recoloured(phone, len(l.palette)), l), 1170, 2532, 20, 700, color.RGBA{0xff, 0xff, 0xff, 0xff}), true},
		{"desktop", desk, place(rendered(t, desk, 48, true), 1920, 1080, 600, 220, color.RGBA{0xfa, 0xfa, 0xf7, 0xff}), false},
		{"large", big, rendered(t, big, 120, true), false},
	} {
		var buf bytes.Buffer
		ext := ".png"
		if f.jpeg {
			ext = ".jpg"
			if err := jpeg.Encode(&buf, f.img, &jpeg.Options{Quality: 85}); err != nil {
				t.Fatal(err)
			}
		} else if err := png.Encode(&buf, f.img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.name+ext), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.name+".txt"), []byte(letters(f.p.Rows())), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func drawOver(dst *image.RGBA, r image.Rectangle, src image.Image) {
	draw.Draw(dst, r, src, src.Bounds().Min, draw.Src)
}
