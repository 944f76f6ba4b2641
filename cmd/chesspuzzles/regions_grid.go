// Reading and drawing region grids, shared by "queens regions", "regions solve" and
// "regions read".

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/internal/picture"
	"github.com/chesspuzzles/chesspuzzles/queens/regions"
	"github.com/chesspuzzles/chesspuzzles/queens/regions/scan"
	"github.com/chesspuzzles/chesspuzzles/render"
)

// maxPictureInput bounds the size of a picture file "regions read" and "regions solve" read;
// scan refuses more than 40 megapixels besides. maxPictureDecoded bounds the bytes its
// pixels take once decoded, which its header tells (package picture): 40 megapixels of 8
// bits a channel, 20 of 16 bits; so that a small file (a 16-bit PNG of one colour
// compresses a thousandfold) is refused before it is decoded, and reading one stays within
// a few hundred megabytes.
const (
	maxPictureInput   = 32 << 20
	maxPictureDecoded = 4 * scan.MaxPixels
)

// isPicture tells a PNG, JPEG or GIF file by its first bytes.
func isPicture(data []byte) bool {
	for _, magic := range []string{"\x89PNG\r\n\x1a\n", "\xff\xd8\xff", "GIF87a", "GIF89a"} {
		if bytes.HasPrefix(data, []byte(magic)) {
			return true
		}
	}
	return false
}

// readRegionsPuzzle reads the puzzle in file ("-": stdin): a picture (package scan), or,
// unless onlyPicture is set, a grid of region letters. Errors about the input are usage errors
// (exit 2) naming the file.
func readRegionsPuzzle(ctx context.Context, file string, stdin io.Reader, onlyPicture bool) (*regions.Puzzle, error) {
	kind := "grid"
	if onlyPicture {
		kind = "picture"
	}
	name, what := "standard input", kind+" on standard input"
	if file != "-" {
		name, what = fmt.Sprintf("%q", file), fmt.Sprintf("%s %q", kind, file)
	}
	data, err := readGridOrPicture(ctx, file, stdin, what)
	if err != nil {
		return nil, err
	}
	if onlyPicture || isPicture(data) {
		if size, err := picture.Measure(data); err == nil && size.Bytes > maxPictureDecoded {
			return nil, usageErrorf("%s: the picture is %v, want at most %d MiB (%d megapixels of 8 bits a channel)", name, size, maxPictureDecoded>>20, scan.MaxPixels>>20)
		}
		p, err := scan.Read(ctx, bytes.NewReader(data))
		if errors.Is(err, scan.ErrUnreadable) {
			return nil, usageErrorf("%s: %v", name, err)
		}
		return p, err
	}
	p, err := regions.Parse(bytes.NewReader(data)) // at most 64 KiB of it
	if errors.Is(err, regions.ErrBadGrid) {
		return nil, usageErrorf("%s: %v", name, err)
	}
	return p, err
}

// readGridOrPicture reads file ("-": stdin) whole: a picture, told by its first bytes, of at
// most maxPictureInput bytes, or else text, which a NUL byte ends at once (/dev/zero, a
// binary file) and which is cut at 1 MiB (regions.Parse reads 64 KiB of it, and says so);
// what names the input in errors. The open and the reads run aside, so that Ctrl-C stops a
// wait for a FIFO's writer or a terminal at once.
func readGridOrPicture(ctx context.Context, file string, stdin io.Reader, what string) ([]byte, error) {
	var data []byte
	err := aside(ctx, func() error {
		r := stdin
		if file != "-" || stdin == nil {
			f, err := os.Open(file)
			if err != nil {
				return usageError(fmt.Errorf("reading %s: %w", what, pathErr(err)))
			}
			defer f.Close()
			if fi, err := f.Stat(); err == nil && fi.IsDir() {
				return usageErrorf("reading %s: a directory, want a file name", what)
			}
			r = f
		}
		lr := io.LimitReader(r, maxPictureInput+1)
		buf := make([]byte, 64<<10)
		for ctx.Err() == nil {
			n, err := io.ReadFull(lr, buf)
			text := !isPicture(data) && !isPicture(buf[:n])
			if i := bytes.IndexByte(buf[:n], 0); text && i >= 0 {
				return usageErrorf("%s is not text (a NUL byte at offset %d) nor a PNG, JPEG or GIF picture", what, len(data)+i)
			}
			data = append(data, buf[:n]...)
			switch {
			case text && len(data) > 1<<20:
				return nil // enough for Parse to say the grid is too long
			case len(data) > maxPictureInput:
				return usageErrorf("%s is larger than %d bytes", what, maxPictureInput)
			case err == io.EOF || err == io.ErrUnexpectedEOF:
				return nil
			case err != nil:
				return fmt.Errorf("reading %s: %w", what, err)
			}
		}
		return ctx.Err()
	})
	return data, err
}

// regionsBoard draws a solution over the grid: Q for a queen, the region letter in lower
// case elsewhere.
func regionsBoard(p *regions.Puzzle, sol []int) string {
	var b strings.Builder
	for r := range p.N() {
		for c := range p.N() {
			if sol[r] == c {
				b.WriteByte('Q')
			} else {
				b.WriteString(strings.ToLower(regions.Letter(p.Region(r, c))))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// writeRegionsPicture writes the SVG or PNG picture of p's grid, with queens on it, to the
// file output (atomically) or, when output is "", to stdout.
func writeRegionsPicture(ctx context.Context, p *regions.Puzzle, queens []int, png bool, output string, stdout io.Writer) error {
	b, err := draw(ctx, render.Regions{Region: p.Rows(), Queens: queens}, png)
	if err != nil {
		return err
	}
	return writeBytes(output, stdout, b)
}
