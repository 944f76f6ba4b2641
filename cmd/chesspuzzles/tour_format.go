package main

import (
	"context"
	"io"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
	"github.com/chesspuzzles/chesspuzzles/render"
)

// This file holds the --format of a knight's tour, shared by knight tour and knight
// complete.

// tourWriter returns the writer of a tour in format, a --format value.
func tourWriter(format string) (func(context.Context, io.Writer, knight.Tour) error, error) {
	switch format {
	case "board":
		return knight.WriteBoard, nil
	case "squares":
		return knight.WriteSquares, nil
	case "json":
		return knight.WriteJSON, nil
	case "none":
		return func(context.Context, io.Writer, knight.Tour) error { return nil }, nil
	case "svg", "png":
		return tourPicture(format == "png"), nil
	}
	return nil, usageErrorf("--format must be board, squares, json, svg, png or none, got %q", board.Clip(format))
}

// tourPicture returns a writer of the tour as an SVG or PNG picture (package render): the
// path with move numbers, start and end marked, the closing move of a closed tour.
func tourPicture(png bool) func(context.Context, io.Writer, knight.Tour) error {
	return func(ctx context.Context, w io.Writer, t knight.Tour) error {
		if err := refusePNGOnTerminal(png, "", w); err != nil {
			return err
		}
		pic := render.Tour{Size: t.Size(), Path: make([]board.Square, t.Len()), Closed: t.Closed()}
		for i := range pic.Path {
			pic.Path[i] = t.Square(i)
		}
		b, err := draw(ctx, pic, png)
		if err != nil {
			return usageErrorf("cannot draw the tour: %v", err)
		}
		_, err = w.Write(b)
		return err
	}
}
