package main

import (
	"bytes"
	"context"
	img "image"
	"image/color"
	imgdraw "image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQueensRegionsReadBadPictures: pictures that hold no puzzle get one line and exit 2,
// from "regions read" and "regions solve" alike.
func TestQueensRegionsReadBadPictures(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, pic img.Image) string {
		var buf bytes.Buffer
		if err := png.Encode(&buf, pic); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	fill := func(dst *img.RGBA, r img.Rectangle, c color.RGBA) {
		imgdraw.Draw(dst, r, img.NewUniform(c), img.Point{}, imgdraw.Src)
	}
	blank := img.NewRGBA(img.Rect(0, 0, 200, 120))
	fill(blank, blank.Bounds(), color.RGBA{0xf0, 0xf0, 0xf0, 0xff})
	// 8 columns and 9 rows of 30-pixel cells, each its own region, black lines 3 pixels wide.
	tall := img.NewRGBA(img.Rect(0, 0, 8*30+23, 9*30+23))
	fill(tall, tall.Bounds(), color.RGBA{0xff, 0xff, 0xff, 0xff})
	pastel := []color.RGBA{{0xf2, 0xb8, 0x4b, 0xff}, {0x8f, 0xcd, 0xf0, 0xff}, {0x5c, 0xc4, 0xa4, 0xff}}
	for r := range 9 {
		for c := range 8 {
			fill(tall, img.Rect(10+c*30, 10+r*30, 10+(c+1)*30, 10+(r+1)*30), pastel[(r+c)%3])
		}
	}
	for c := range 9 {
		fill(tall, img.Rect(9+c*30, 9, 12+c*30, 12+9*30), color.RGBA{0, 0, 0, 0xff})
	}
	for r := range 10 {
		fill(tall, img.Rect(9, 9+r*30, 12+8*30, 12+r*30), color.RGBA{0, 0, 0, 0xff})
	}
	for _, tt := range []struct {
		name, file, want string
	}{
		{"blank", write("blank.png", blank), "no grid found"},
		{"8 columns, 9 rows", write("tall.png", tall), "found 8 columns but 9 rows"},
	} {
		for _, cmd := range []string{"read", "solve"} {
			t.Run(tt.name+" "+cmd, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				code := execute(context.Background(), []string{"queens", "regions", cmd, tt.file}, nil, &stdout, &stderr)
				want := "chesspuzzles: queens regions " + cmd + ": \"" + tt.file + "\": " + tt.want + "\n"
				if code != exitUsage || stderr.String() != want || stdout.Len() != 0 {
					t.Errorf("exit %d, stderr %q, stdout %q; want exit %d, stderr %q", code, stderr.String(), stdout.String(), exitUsage, want)
				}
				if strings.Count(stderr.String(), "\n") != 1 {
					t.Errorf("stderr has %d lines, want 1", strings.Count(stderr.String(), "\n"))
				}
			})
		}
	}
}

// TestQueensRegionsSolveZero: regions solve refuses /dev/zero at its first piece, as the
// text it is not.
func TestQueensRegionsSolveZero(t *testing.T) {
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer zero.Close()
	var out, errb bytes.Buffer
	code := execute(context.Background(), []string{"queens", "regions", "solve", "-"}, zero, &out, &errb)
	if want := "chesspuzzles: queens regions solve: grid on standard input is not text (a NUL byte at offset 0) nor a PNG, JPEG or GIF picture\n"; code != exitUsage || errb.String() != want {
		t.Errorf("regions solve < /dev/zero: exit %d, %q; want exit 2, %q", code, errb.String(), want)
	}
}
