package render

import "image/color"

// A scene is a picture as a list of shapes in pixel coordinates (y down), drawn in order.
// Every picture is built once as a scene and then written by one of two back ends, SVG or
// PNG, so the two formats always show the same thing.
type scene struct {
	w, h   int
	shapes []shape
}

type pt struct{ x, y float64 }

type shapeKind uint8

const (
	kindRect   shapeKind = iota // x, y, w, h
	kindPoly                    // closed polygon pts
	kindLine                    // open polyline pts, width, maybe dashed
	kindCircle                  // centre x, y, radius r; ring when width > 0 and fill is zero
	kindText                    // text centred on x, y, font size size
	kindQueen                   // the queen figure in the square x, y, w (= h)
)

// shape is one element of a scene. Fields that a kind does not use are zero.
type shape struct {
	kind       shapeKind
	class      string // the SVG class, naming what the shape shows (square, queen, conflict…)
	x, y, w, h float64
	r          float64
	pts        []pt
	fill       color.NRGBA // zero: no fill
	stroke     color.NRGBA // zero: no stroke
	width      float64     // stroke width
	dashed     bool
	text       string
	size       float64 // font size
	bold       bool
	halo       bool // text drawn over a light halo, for numbers on top of the path
}

func (s *scene) add(sh shape) { s.shapes = append(s.shapes, sh) }

// The palette: the classic brown board, near-black queens with a white edge, red conflicts.
var (
	colorBackground = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	colorLight      = color.NRGBA{0xf0, 0xd9, 0xb5, 0xff}
	colorDark       = color.NRGBA{0xb5, 0x88, 0x63, 0xff}
	colorLabel      = color.NRGBA{0x33, 0x33, 0x33, 0xff}
	colorQueen      = color.NRGBA{0x1a, 0x1a, 0x1a, 0xff}
	colorQueenEdge  = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	colorConflict   = color.NRGBA{0xd0, 0x10, 0x10, 0xff}
	colorAttacked   = color.NRGBA{0xd0, 0x10, 0x10, 0x40}
	colorPath       = color.NRGBA{0x1f, 0x5f, 0xbf, 0xb0}
	colorClosing    = color.NRGBA{0x7a, 0x1f, 0xa2, 0xd0}
	colorStart      = color.NRGBA{0x1a, 0x9a, 0x3a, 0xff}
	colorEnd        = color.NRGBA{0xd0, 0x10, 0x10, 0xff}
	colorNumber     = color.NRGBA{0x11, 0x11, 0x11, 0xff}
	colorHalo       = color.NRGBA{0xff, 0xff, 0xff, 0xc0}
)

// The queen figure in a unit square (y down): a crown of five points with a ball on each,
// on a base. The same outline is drawn by the web page (web/static/board.js).
var (
	queenCrown = []pt{
		{0.22, 0.74}, {0.13, 0.34}, {0.32, 0.54}, {0.33, 0.26}, {0.44, 0.50}, {0.50, 0.20},
		{0.56, 0.50}, {0.67, 0.26}, {0.68, 0.54}, {0.87, 0.34}, {0.78, 0.74},
	}
	queenBase  = []pt{{0.20, 0.77}, {0.80, 0.77}, {0.83, 0.87}, {0.17, 0.87}}
	queenBalls = []pt{{0.13, 0.32}, {0.33, 0.24}, {0.50, 0.18}, {0.67, 0.24}, {0.87, 0.32}}
)

const (
	queenBallRadius = 0.06
	queenEdgeWidth  = 0.035
)
