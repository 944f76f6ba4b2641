package main

import (
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/render"
)

// pictureFormat is a --format value that draws a board instead of writing a notation.
type pictureFormat int

const (
	noPicture      pictureFormat = iota
	pictureSVG                   // an SVG document (package render)
	picturePNG                   // a PNG image
	pictureUnicode               // a Unicode board: ♛ and shaded squares, coloured unless NO_COLOR
)

// maxPictureN bounds the boards drawn as SVG or PNG: past it the picture is millions of squares.
const maxPictureN = render.MaxSide

func parsePictureFormat(s string) pictureFormat {
	switch s {
	case "svg":
		return pictureSVG
	case "png":
		return picturePNG
	case "unicode":
		return pictureUnicode
	}
	return noPicture
}

// unicodeBoard draws pos as a Unicode board, its conflicts marked, in colour when colour
// is allowed and out is a terminal. The result ends with a newline.
func unicodeBoard(out io.Writer, pos queens.Position, attacks []queens.Attack) string {
	var b strings.Builder
	render.QueensText(&b, pos, render.TextOptions{Unicode: true, Color: render.ColorAllowed() && isTerminal(out), Attacks: attacks})
	return b.String()
}

// refusePNGOnTerminal refuses a PNG picture bound for a terminal (output "" and stdout a
// terminal), which it would fill with binary; commands call it before any work.
func refusePNGOnTerminal(png bool, output string, stdout io.Writer) error {
	if png && output == "" && isTerminal(stdout) {
		return usageErrorf("will not write a PNG image to a terminal: give -o FILE or redirect standard output")
	}
	return nil
}

// draw renders pic into memory as SVG, or as PNG when png is set, so that a picture is
// written whole or not at all. A PNG stops once ctx is done.
func draw(ctx context.Context, pic render.Picture, png bool) ([]byte, error) {
	var b bytes.Buffer
	var err error
	if png {
		err = render.PNG(ctx, &b, pic, render.Options{})
	} else {
		err = render.SVG(&b, pic, render.Options{})
	}
	return b.Bytes(), err
}

// writeBytes writes b to the file output (atomically) or, when output is "", to stdout.
func writeBytes(output string, stdout io.Writer, b []byte) error {
	return writeTo(output, stdout, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// writeQueensPicture writes the SVG or PNG picture of pos, with the given conflicts marked,
// to the file output (atomically) or, when output is "", to stdout; PNG never to a terminal.
func writeQueensPicture(ctx context.Context, pos queens.Position, attacks []queens.Attack, format pictureFormat, output string, stdout io.Writer) error {
	if pos.N > maxPictureN {
		return usageErrorf("pictures are drawn for boards of up to %d×%d, got %d×%d", maxPictureN, maxPictureN, pos.N, pos.N)
	}
	if err := refusePNGOnTerminal(format == picturePNG, output, stdout); err != nil {
		return err
	}
	b, err := draw(ctx, render.Queens{N: pos.N, Queens: pos.Queens, Attacks: attacks}, format == picturePNG)
	if err != nil {
		return err
	}
	return writeBytes(output, stdout, b)
}

// maxDrawnOne is the largest board "one --format board" draws.
const maxDrawnOne = 1000
