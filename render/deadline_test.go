package render

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// TestPNGDeadline: a deadline stops the drawing of a large picture (a path over every
// square of 200×200 at 14 pixels a square, 7.9 M pixels, about a second to draw) within a
// fraction of it, and MaxPixels refuses a larger one before any work.
func TestPNGDeadline(t *testing.T) {
	sz := board.SquareBoard(200)
	var path []board.Square
	for r := range 200 {
		for c := range 200 {
			if r%2 == 1 {
				c = 199 - c
			}
			path = append(path, board.Square{Row: r, Col: c})
		}
	}
	tour := Tour{Size: sz, Path: path}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := PNG(ctx, io.Discard, tour, Options{Square: 14, MaxPixels: 8 << 20})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("PNG past its deadline = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 700*time.Millisecond {
		t.Errorf("PNG returned %v after the start, deadline 30 ms", d)
	}
	start = time.Now()
	err = PNG(context.Background(), io.Discard, tour, Options{Square: 128, MaxPixels: 8 << 20})
	if err == nil || time.Since(start) > 300*time.Millisecond {
		t.Errorf("PNG of 25,632² pixels with MaxPixels 8 Mi = %v after %v, want an error at once", err, time.Since(start))
	}
	if err := CheckPNG(sz, Options{Square: 14, MaxPixels: 8 << 20}); err != nil {
		t.Errorf("CheckPNG(200×200 at 14) = %v, want nil (7.9 M pixels)", err)
	}
}
