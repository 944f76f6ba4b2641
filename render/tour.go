package render

import (
	"fmt"
	"strconv"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// Tour is a picture of a knight's path: the squares in the order visited. The path may be a
// whole tour or its first moves (a tour being drawn move by move). Closed draws the move from
// the last square back to the first.
type Tour struct {
	Size   board.Size
	Path   []board.Square
	Closed bool
}

// checkPNG refuses a PNG of t above opts.MaxPixels, or of a board out of range.
func (t Tour) checkPNG(opts Options) error {
	return checkPixels(t.Size, opts, t.Size.Rows <= MaxDetailed && t.Size.Cols <= MaxDetailed)
}

// draw lays t out. It fails when the board is out of range (1 to [MaxSide] a side) or a
// square of the path is off the board. It does not check that the moves are knight's
// moves: it draws what it is given.
func (t Tour) draw(opts Options) (*scene, error) {
	detailed := t.Size.Rows <= MaxDetailed && t.Size.Cols <= MaxDetailed
	l, err := newLayout(t.Size, opts, detailed)
	if err != nil {
		return nil, err
	}
	if len(t.Path) > t.Size.Squares() {
		return nil, fmt.Errorf("path of %d squares is longer than the %s board has squares", len(t.Path), t.Size)
	}
	for i, sq := range t.Path {
		if !t.Size.Contains(sq) {
			return nil, fmt.Errorf("move %d, row %d, column %d, is off the %s board", i+1, sq.Row, sq.Col, t.Size)
		}
	}
	s := &scene{w: l.w, h: l.h}
	if detailed {
		l.board(s)
	} else {
		s.add(shape{kind: kindRect, class: "board", x: l.left, y: l.top, w: float64(t.Size.Cols) * l.sq, h: float64(t.Size.Rows) * l.sq, fill: colorLight})
	}
	if len(t.Path) == 0 {
		return s, nil
	}
	width := max(0.6, l.sq*0.06)
	if t.Closed && len(t.Path) > 2 {
		s.add(shape{kind: kindLine, class: "closing", pts: []pt{l.center(t.Path[len(t.Path)-1]), l.center(t.Path[0])}, stroke: colorClosing, width: width, dashed: true})
	}
	path := make([]pt, len(t.Path))
	for i, sq := range t.Path {
		path[i] = l.center(sq)
	}
	if len(path) > 1 {
		s.add(shape{kind: kindLine, class: "path", pts: path, stroke: colorPath, width: width})
	}
	ring := max(0.8, l.sq*0.08)
	r := l.sq*0.42 - ring/2
	if !detailed {
		r = max(1.5, l.sq*0.6)
	}
	start, end := path[0], path[len(path)-1]
	s.add(shape{kind: kindCircle, class: "start", x: start.x, y: start.y, r: r, stroke: colorStart, width: ring})
	if len(path) > 1 {
		s.add(shape{kind: kindCircle, class: "end", x: end.x, y: end.y, r: r, stroke: colorEnd, width: ring})
	}
	if !detailed {
		return s, nil
	}
	// Numbers sized for the widest one: four digits still fit a 32×32 board's squares.
	digits := len(strconv.Itoa(t.Size.Squares()))
	size := l.sq * min(0.42, 0.85/(0.6*float64(digits)))
	for i, p := range path {
		s.add(shape{kind: kindText, class: "move", x: p.x, y: p.y, size: size, text: strconv.Itoa(i + 1), fill: colorNumber, bold: true, halo: true})
	}
	return s, nil
}
