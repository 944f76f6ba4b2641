package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens/regions"
	"github.com/chesspuzzles/chesspuzzles/queens/regions/scan"
	"github.com/spf13/cobra"
)

func newQueensRegionsReadCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "read IMAGE|-",
		Short: "Read a region-queens puzzle from a screenshot or a picture (PNG, JPEG or GIF)",
		Long: `Read a picture of a region-queens puzzle — a screenshot of the daily game on a phone or a
desktop, of another app, or a picture "queens regions --format png" or the web page drew —
and print the grid it shows: as region letters, one row a line, A the top-left cell's region
and the others lettered as they are met row by row (the form "regions solve" reads), or with
--format json as {"n":N,"regions":[[…],…]}, region ids 0…N−1, as "queens regions --format
json" writes them.

The grid is found by its frame, wherever it is on the page; N by its lines; the regions by
their colours and by the thick borders between them. A region of one colour in several
pieces is read as one region. A picture in which no grid is found, whose grid has more
columns than rows, or whose regions do not add up to N is refused with one line and exit 2:
"no grid found", "found 9 columns but 8 rows", "two regions share a colour and a border".
Cells should be at least 20 pixels wide; pictures have at most 40 megapixels.`,
		Example: `  chesspuzzles queens regions read screenshot.png
  chesspuzzles queens regions read --format json screenshot.jpg
  chesspuzzles queens regions solve --explain screenshot.png`,
		Args: exactArgs(1, "one picture file (or - for standard input)"),
	}, func(cmd *cobra.Command, o *queensRegionsReadOpts) {
		cmd.Flags().StringVar(&o.format, "format", "text", "text or json")
	}, func(cmd *cobra.Command, o *queensRegionsReadOpts, args []string) error {
		return runQueensRegionsRead(cmd.Context(), *o, args[0], cmd.InOrStdin(), cmd.OutOrStdout())
	})
}

// queensRegionsReadOpts are the options of "queens regions read".
type queensRegionsReadOpts struct {
	format string
}

// maxPictureInput bounds the size of a picture file "regions read" and "regions solve" read;
// scan refuses more than 40 megapixels besides.
const maxPictureInput = 32 << 20

func runQueensRegionsRead(ctx context.Context, o queensRegionsReadOpts, file string, stdin io.Reader, stdout io.Writer) error {
	if o.format != "text" && o.format != "json" {
		return usageErrorf("--format must be text or json, got %q", board.Clip(o.format))
	}
	p, err := readRegionsPuzzle(ctx, file, stdin, true)
	if err != nil {
		return err
	}
	if o.format == "json" {
		return json.NewEncoder(stdout).Encode(struct {
			N       int     `json:"n"`
			Regions [][]int `json:"regions"`
		}{p.N(), p.Rows()})
	}
	_, err = io.WriteString(stdout, p.String())
	return err
}

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
// unless picture is set, a grid of region letters. Errors about the input are usage errors
// (exit 2) naming the file.
func readRegionsPuzzle(ctx context.Context, file string, stdin io.Reader, picture bool) (*regions.Puzzle, error) {
	kind := "grid"
	if picture {
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
	if picture || isPicture(data) {
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
