// Package render draws the puzzles: chessboards with queens, and knight's tours, as SVG, PNG
// or text.
//
// Usage:
//
//	pos, _ := queens.Parse("15863724", 0)
//	render.SVG(w, render.CheckedQueens(pos), render.Options{})
//	render.PNG(ctx, w, render.Tour{Size: board.SquareBoard(5), Path: path}, render.Options{})
//	render.QueensText(w, pos, render.TextOptions{Unicode: true, Color: true})
//
// Queens. A [Queens] picture is a board with light and dark squares, file letters along the
// bottom and rank numbers on the left, and a queen figure (a vector crown, not a letter) on
// each queen's square. [CheckedQueens] fills in the conflicts of a position as
// [queens.Check] finds them: each attacking pair is joined by a red line and both queens are
// drawn red. Boards larger than [MaxDetailed] squares a side lose their labels and draw
// queens as dots, so the picture stays a sensible size.
//
// Tours. A [Tour] picture is the knight's path from square to square, the move number in
// every square, the start ringed in green and the end in red, and, for a closed tour, the
// closing move from the last square back to the first as a dashed line. The tour is plain
// data (a board size and a list of squares), so this package does not depend on how tours
// are found. Up to [MaxDetailed] squares a side every part is drawn; beyond, the path alone.
//
// Formats. [SVG] and [PNG] draw any [Picture]. SVG is written as text, rounded to two decimals, and parses as XML; queens are
// one <use> of a figure defined once. PNG is rasterized with golang.org/x/image/vector and
// set in the Go fonts, so it needs no system fonts. Both come from one list of shapes, so
// they show the same picture. Drawing takes time proportional to the number of squares.
//
// Text. [QueensText] draws a board for a terminal: the plain "Q" and "." board, or a
// Unicode one with ♛ and shaded squares, in colour unless told not to (NO_COLOR).
package render

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// MaxDetailed is the largest number of rows or columns drawn in full: squares, labels, move
// numbers. A 32×32 tour's numbers (up to 1024) still fit their squares at the default size.
const MaxDetailed = 32

// MaxSide is the largest number of rows or columns any picture may have.
const MaxSide = 1000

// A Picture is what this package draws: a [Queens] placement, a knight's [Tour] or a
// [Regions] grid.
type Picture interface {
	// checkPNG refuses, before any work, a PNG above opts.MaxPixels.
	checkPNG(opts Options) error
	// draw lays the picture out, or says why it cannot be drawn.
	draw(opts Options) (*scene, error)
}

// SVG writes p as an SVG document, in time proportional to what it draws. It fails when p
// is out of range (a side from 1 to [MaxSide], pieces on the board; see each picture's
// type) or w fails.
func SVG(w io.Writer, p Picture, opts Options) error {
	s, err := p.draw(opts)
	if err != nil {
		return err
	}
	return writeSVG(w, s)
}

// PNG writes p as a PNG image, in time proportional to its pixels. It fails as SVG does,
// and refuses a picture above opts.MaxPixels before any work. It returns ctx.Err() soon
// after ctx is done: it looks between shapes, every 1024 segments of a path, and between
// writes of the encoded image.
func PNG(ctx context.Context, w io.Writer, p Picture, opts Options) error {
	if err := p.checkPNG(opts); err != nil {
		return err
	}
	s, err := p.draw(opts)
	if err != nil {
		return err
	}
	return writePNG(ctx, w, s)
}

// Options sets the size of a picture.
type Options struct {
	// Square is the side of one square in pixels (SVG user units). Zero chooses 48 for
	// boards up to 16 squares a side, less for larger ones, so that no picture is much more
	// than 1600 pixels wide; at least 2.
	Square int
	// MaxPixels, if not 0, bounds a PNG picture's width × height: a larger one is refused
	// before any work (a server sets it; a PNG holds about 8 bytes a pixel while drawn).
	MaxPixels int
}

// layout places a board of rows×cols squares in a picture: the square size, the margin
// left of and below the board that holds the labels, and the picture size.
type layout struct {
	rows, cols int
	sq         float64 // square side
	left, top  float64 // where the board's top-left corner is
	labels     bool
	w, h       int
}

func newLayout(sz board.Size, opts Options, detailed bool) (layout, error) {
	if sz.Rows < 1 || sz.Cols < 1 || sz.Rows > MaxSide || sz.Cols > MaxSide {
		return layout{}, fmt.Errorf("board %s out of range: each side must be from 1 to %d", sz, MaxSide)
	}
	if opts.Square < 0 || opts.Square > 512 {
		return layout{}, fmt.Errorf("square size %d out of range: want 0 (automatic) or 2 to 512 pixels", opts.Square)
	}
	side := max(sz.Rows, sz.Cols)
	sq := opts.Square
	if sq == 0 {
		sq = 48
		if side > 16 {
			sq = max(2, 1600/side)
		}
	}
	sq = max(sq, 2)
	l := layout{rows: sz.Rows, cols: sz.Cols, sq: float64(sq), labels: detailed}
	pad := max(2, sq/8)
	margin := pad
	if detailed {
		margin = max(12, sq*3/5)
	}
	l.left, l.top = float64(margin), float64(pad)
	l.w = margin + sz.Cols*sq + pad
	l.h = pad + sz.Rows*sq + margin
	return l, nil
}

// center returns the centre of a square.
func (l layout) center(s board.Square) pt {
	return pt{l.left + (float64(s.Col)+0.5)*l.sq, l.top + (float64(s.Row)+0.5)*l.sq}
}

// board adds the squares (a8-style colouring: the top-left square is light, as on a real
// board where a1 bottom-left is dark for even sizes) and the labels.
func (l layout) board(s *scene) {
	s.add(shape{kind: kindRect, class: "board", x: l.left, y: l.top, w: float64(l.cols) * l.sq, h: float64(l.rows) * l.sq, fill: colorLight})
	for r := range l.rows {
		for c := range l.cols {
			if isDark(l.rows, r, c) {
				s.add(shape{kind: kindRect, class: "dark", x: l.left + float64(c)*l.sq, y: l.top + float64(r)*l.sq, w: l.sq, h: l.sq, fill: colorDark})
			}
		}
	}
	if !l.labels {
		return
	}
	size := max(8, l.sq*0.36)
	if l.cols > 26 || l.rows > 99 {
		size = max(7, l.sq*0.3)
	}
	sz := board.Size{Rows: l.rows, Cols: l.cols}
	for c := range l.cols {
		name := strconv.Itoa(c + 1)
		if sz.HasAlgebraic() {
			name = string(rune('a' + c))
		}
		x := l.left + (float64(c)+0.5)*l.sq
		y := l.top + float64(l.rows)*l.sq + (float64(l.h)-l.top-float64(l.rows)*l.sq)/2
		s.add(shape{kind: kindText, class: "file", x: x, y: y, size: size, text: name, fill: colorLabel})
	}
	for r := range l.rows {
		s.add(shape{kind: kindText, class: "rank", x: l.left / 2, y: l.top + (float64(r)+0.5)*l.sq, size: size, text: strconv.Itoa(l.rows - r), fill: colorLabel})
	}
}

// isDark reports whether the square at row r, column c of a board of the given number of
// rows is dark. As in chess, the bottom-left square (a1) is dark: row r counted from the
// bottom is rows-1-r.
func isDark(rows, r, c int) bool { return (rows-1-r+c)%2 == 0 }

// CheckPNG returns the error PNG would return for a Tour or Queens for a board of sz at
// opts because of its size (a side out of range, a square size out of range, more than
// opts.MaxPixels pixels), or nil: so that a server refuses a picture before it does the
// work of finding what to draw. It takes no time.
func CheckPNG(sz board.Size, opts Options) error {
	return checkPixels(sz, opts, sz.Rows <= MaxDetailed && sz.Cols <= MaxDetailed)
}

// checkPixels refuses, when opts.MaxPixels is set, a PNG of sz whose layout has more pixels.
func checkPixels(sz board.Size, opts Options, detailed bool) error {
	if opts.MaxPixels <= 0 {
		return nil
	}
	l, err := newLayout(sz, opts, detailed)
	if err != nil {
		return err
	}
	if px := l.w * l.h; px > opts.MaxPixels {
		return fmt.Errorf("a picture of %s at %d pixels a square is %d×%d pixels, more than the %d allowed; ask for smaller squares", sz, int(l.sq), l.w, l.h, opts.MaxPixels)
	}
	return nil
}
