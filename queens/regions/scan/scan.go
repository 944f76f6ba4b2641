// Package scan reads a region-queens puzzle (package queens/regions) from a picture of it: a
// screenshot of the daily game on a phone or a desktop, of another app, or a PNG that
// package render or the web page drew.
//
// Usage:
//
//	p, err := scan.Read(ctx, file)   // a PNG, JPEG or GIF
//	fmt.Print(p)                     // the grid as region letters
//
// Finding the grid. The grid is the largest rectangle in the picture drawn by a frame: a line
// of one colour, straight and unbroken all round (its corners may be rounded), a different
// colour on at least one side along most of its length. Page chrome around it (a title,
// buttons, a status bar) has no such frame, or a smaller one. When one framed rectangle
// holds another almost as large (the page's margin round a frame, a focus ring; a frame of
// another colour need only be as wide or as tall), the inner one is the grid; where the
// frame is the page's colour (a black frame on a black phone
// page), the page's margin round the grid is the frame, as long as the grid spans three
// quarters of the page's width.
//
// Crops inside the frame. A picture cropped inside the frame (its outer border cut off) has
// no frame round the grid, or only a false one: thick borders closing a block of regions.
// So a square-ish picture is also read whole, as a grid whose outer cells touch its edges;
// that reading wins when no framed grid is read, or when it finds a larger grid of the same
// pitch (the frame was a block inside it). A grid of fewer than 4 columns is refused: no
// screenshot of the game shows one. A crop may cut into its outer cells: then its lines are
// found where the picture has them (the columns and rows across which the colour changes in
// most rows), and they must fall every pitch pixels, none between; the outer cells are what
// the picture's sides leave of them, read when at least a third of a cell is left, refused
// when less is left but more than a line's remnant ("the picture cuts the left column of
// cells to a strip of 9 pixels"). In a crop each line of a lattice from side to side must be
// a line of the picture: a lattice of half the pitch, every other line in the middle of true
// cells, would read each cell as four. When a lattice from side to side and one cut by the
// sides fit lines of one pitch with different numbers of cells, the picture is refused.
//
// Finding N. Inside the frame, the columns are where the colour changes in most rows (how
// often, not by how much: every grid line runs the whole height, thin or thick, while a
// queen's sharp edges are in one cell a row). For every N from 2 to [regions.MaxN], the
// most frequent change near each of the N−1 lines of an even N-column lattice, less the most
// frequent inside each of its cells, is its score, and the best N wins (twice the true N
// puts lines inside true cells, half of it puts true lines inside its cells); rows likewise.
// A lattice whose columns and rows disagree is refused ("found 9 columns but 8 rows").
//
// Finding the regions. The grid's palette is the peaks of a histogram of the cells' colours,
// taken from a ring inside each cell clear of the lines and of most of a queen (queens and
// marks drawn in the lines' ink are left out); a peak that is the main colour of no cell (a
// blend at a queen's edge) is dropped, and each cell takes the palette colour most of its
// ring is near. Each edge between two cells is thick or thin by how much ink runs all along
// it (two clusters of ink, split where they are furthest apart; when the picture has no thick
// borders, colour alone tells the regions). Two cells are in one region when they have the
// same colour and no thick border between them. When that gives N regions, they are the
// puzzle (palettes repeat colours on large grids: regions apart may share one; a picture of
// borders alone has one colour) when no thin line runs between two colours. Where the
// picture has thick borders, they alone make regions too, and the two readings are held
// against each other: a thin line between two colours is a disagreement. When the borders
// make N regions, each of one colour but for one cell darker (or lighter) than the rest of
// its region by the same share in each channel (the cell under the mouse on the game's
// page, darkened to about 0.8), the borders are the puzzle. Otherwise, when the cells have exactly N colours,
// each colour is a region, in one piece or several, as long as a piece apart from the rest
// of its colour is walled off by thick borders and no thick border runs between two cells of
// one colour ("two regions share a colour and a border"). Anything else is refused with
// what disagreed.
//
// What it reads. Tested on pictures of grids of 5 to 20 with cells of 20 to 200 pixels:
// package render's (letters in the cells, queens or none), the web page's in light and dark
// mode at desktop and phone sizes, and grids drawn in the published game's look (light
// pastel colours, thin grey lines, thick black borders) and in a dark app's (light borders);
// each as PNG, as JPEG (quality 70 to 80), scaled by 0.6 to 1.7, and inside page chrome.
// Smaller cells, heavier compression, perspective or rotation are not read.
//
// Regions are lettered in reading order: A is the top-left cell's region, B the next region
// met row by row, and so on, the order [regions.Parse] and [regions.Puzzle.String] use.
//
// Cost. Reading takes time proportional to the picture's pixels, a few passes over each
// (bench/README.md has the figures). Pictures of more than [MaxPixels] pixels are refused
// before they are decoded.
package scan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // GIF screenshots
	_ "image/jpeg"
	_ "image/png"
	"io"
	"math"
	"sort"

	"github.com/chesspuzzles/chesspuzzles/queens/regions"
)

// MaxPixels bounds a picture's width × height: 40 megapixels, more than any phone screenshot.
const MaxPixels = 40 << 20

// ErrUnreadable is matched (errors.Is) by every error about the picture itself: not an image,
// too large, no grid found, a lattice whose columns and rows disagree, regions that do not add
// up; their messages say just that ("no grid found"). Other errors are the context's or the
// reader's.
var ErrUnreadable = errors.New("unreadable picture")

// unreadableError is an error about the picture: its message says what is wrong in it,
// ("no grid found") and it is [ErrUnreadable].
type unreadableError struct{ msg string }

func (e *unreadableError) Error() string        { return e.msg }
func (e *unreadableError) Is(target error) bool { return target == ErrUnreadable }

func unreadable(format string, args ...any) error {
	return &unreadableError{fmt.Sprintf(format, args...)}
}

// Read decodes a PNG, JPEG or GIF picture from r, which it reads to the end, and reads the
// puzzle in it as [Image] does. Errors about the picture are [ErrUnreadable] (errors.Is). The
// caller bounds r's size; Read refuses a picture of more than [MaxPixels] pixels before decoding it.
func Read(ctx context.Context, r io.Reader) (*regions.Puzzle, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading picture: %w", err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, unreadable("not a PNG, JPEG or GIF picture")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxPixels/cfg.Height {
		return nil, unreadable("the picture is %d×%d pixels, want at most %d megapixels", cfg.Width, cfg.Height, MaxPixels>>20)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, unreadable("decoding the picture: %v", err)
	}
	return Image(ctx, img)
}

// Image reads the puzzle drawn in img, as the package comment describes, and returns it, or
// an error that is [ErrUnreadable] and says in one line what was not found. It takes time
// proportional to img's pixels and stops early, with the context's error, when ctx is done.
func Image(ctx context.Context, img image.Image) (*regions.Puzzle, error) {
	b := img.Bounds()
	if b.Dx() <= 0 || b.Dy() <= 0 || b.Dx() > MaxPixels/b.Dy() {
		return nil, unreadable("the picture is %d×%d pixels, want at most %d megapixels", b.Dx(), b.Dy(), MaxPixels>>20)
	}
	grid, err := read(ctx, img)
	if err != nil {
		return nil, err
	}
	p, err := regions.New(grid)
	if err != nil {
		return nil, unreadable("%v", err)
	}
	return p, nil
}

// read returns the region ids of the grid in img. It reads the grid inside the frame, when
// there is one, and the whole picture as a crop inside the frame; the whole picture wins when
// it reads as a larger grid of the same pitch (the "frame" was thick borders closing a block
// of regions inside a crop) or when the framed grid is refused.
func read(ctx context.Context, img image.Image) ([][]int, error) {
	pic, err := newPicture(ctx, img)
	if err != nil {
		return nil, err
	}
	frame, ok, err := pic.findFrame(ctx)
	if err != nil {
		return nil, err
	}
	var framed reading
	if ok {
		framed = pic.readBox(ctx, frame)
		if errors.Is(framed.err, context.Canceled) || errors.Is(framed.err, context.DeadlineExceeded) {
			return nil, framed.err
		}
		// A frame with less than a cell of the picture round it leaves no room for a crop
		// around it, and a crop of a square grid is square: a phone's screenshot is not.
		room := 0.8 * framed.pitch
		if framed.err == nil && (float64(frame.x0) < room && float64(pic.w-frame.x1) < room && float64(frame.y0) < room && float64(pic.h-frame.y1) < room ||
			4*pic.w < 3*pic.h || 4*pic.h < 3*pic.w) {
			return framed.grid, nil
		}
	}
	crop := pic.readBox(ctx, box{0, 0, pic.w, pic.h, rgb{}})
	switch {
	case !ok:
		return crop.grid, crop.err
	case framed.err == nil && crop.err == nil && len(crop.grid) > len(framed.grid) &&
		math.Abs(crop.pitch-framed.pitch) <= 0.06*framed.pitch:
		return crop.grid, nil
	case framed.err == nil:
		return framed.grid, nil
	case crop.err == nil:
		return crop.grid, nil
	}
	return nil, framed.err
}

// reading is what readBox read: a grid of pitch pixels a cell, or why not.
type reading struct {
	grid  [][]int
	pitch float64
	err   error
}

// readBox reads the grid that fills b: its lattice, its cells and its regions. A box with no
// frame (b.line unset, a crop inside the frame) takes its lines' colour from the lattice.
func (p *picture) readBox(ctx context.Context, b box) reading {
	cols, xs := p.lattice(b, true)
	rows, ys := p.lattice(b, false)
	if b.line == (rgb{}) {
		// A crop may cut into its outer cells, which an even lattice from side to side does
		// not fit.
		var err error
		if cols, xs, rows, ys, err = p.cropCells(b, cols, xs, rows, ys); err != nil {
			return reading{err: err}
		}
	}
	if cols == 0 || rows == 0 {
		return reading{err: unreadable("no grid found")}
	}
	if cols != rows {
		return reading{err: unreadable("found %d columns but %d rows", cols, rows)}
	}
	if cols < 4 {
		return reading{err: unreadable("found a %d×%d grid, want at least 4×4", cols, rows)}
	}
	if err := ctx.Err(); err != nil {
		return reading{err: err}
	}
	if b.line == (rgb{}) {
		b.line = p.lineColour(xs, ys)
	}
	grid, err := p.cells(b.line, xs, ys).regions()
	pitch := (xs[cols] - xs[0] + ys[rows] - ys[0]) / float64(2*cols)
	return reading{grid, pitch, err}
}

// cropCells chooses the lattice of a crop between the even one (cols, xs; rows, ys: the
// outer cells whole, or cut by a little) and cropLattice's (lines found where the picture
// has them, the outer cells whole or cut into). cropLattice's stands when it finds the same
// number of columns as rows; the even one stands when its columns and rows agree. When
// both stand with lattices of different pitches (by more than 5%), cropLattice's is taken:
// its lines are the picture's, the even one's are where an even lattice from side to side
// would put them. When both stand with one pitch but different numbers of cells, the picture
// is refused. cropLattice's error (an outer cell cut too thin) is returned when the even
// lattice does not stand either.
func (p *picture) cropCells(b box, cols int, xs []float64, rows int, ys []float64) (int, []float64, int, []float64, error) {
	cc, cxs, cerr := p.cropLattice(b, true)
	rc, cys, rerr := p.cropLattice(b, false)
	even := cols > 0 && cols == rows
	if cerr != nil || rerr != nil {
		if even {
			return cols, xs, rows, ys, nil
		}
		return 0, nil, 0, nil, errors.Join(cerr, rerr)
	}
	if cc == 0 || cc != rc {
		return cols, xs, rows, ys, nil
	}
	if even && cc != cols {
		evenPitch := (xs[cols] - xs[0]) / float64(cols)
		if math.Abs(evenPitch-latticePitch(cxs)) <= 0.05*evenPitch {
			return 0, nil, 0, nil, unreadable("the lines fit a grid of %d cells from side to side and one of %d cut by the picture's sides", cols, cc)
		}
	}
	return cc, cxs, rc, cys, nil
}

// latticePitch returns the pitch of a lattice's edges at: the widest of its cells (its
// outer ones may be cut).
func latticePitch(at []float64) float64 {
	w := 0.0
	for k := 1; k < len(at); k++ {
		w = max(w, at[k]-at[k-1])
	}
	return w
}

// lineColour is the colour of the thick borders among the lines at xs and ys: of the pixels
// down the middle of the lines inside the grid, the mean of the quarter furthest in luma
// from the picture's mean (dark borders on a light grid, light ones on a dark grid).
func (p *picture) lineColour(xs, ys []float64) rgb {
	luma := func(c rgb) int { return (2*int(c[0]) + 5*int(c[1]) + int(c[2])) / 8 }
	var px []rgb
	n := len(xs) - 1
	for k := 1; k < n; k++ {
		x, y := int(xs[k]), int(ys[k])
		for t := int(ys[0]); t < int(ys[n]); t += 2 {
			px = append(px, p.at(min(x, p.w-1), min(t, p.h-1)))
		}
		for t := int(xs[0]); t < int(xs[n]); t += 2 {
			px = append(px, p.at(min(t, p.w-1), min(y, p.h-1)))
		}
	}
	if len(px) == 0 {
		return rgb{}
	}
	mean := 0
	for _, c := range px {
		mean += luma(c)
	}
	mean /= len(px)
	sort.Slice(px, func(i, j int) bool { return abs(luma(px[i])-mean) > abs(luma(px[j])-mean) })
	var sum [3]int
	q := max(1, len(px)/4)
	for _, c := range px[:q] {
		for i := range 3 {
			sum[i] += int(c[i])
		}
	}
	return rgb{uint8(sum[0] / q), uint8(sum[1] / q), uint8(sum[2] / q)}
}

// picture is an image as 8-bit RGB, composited over white.
type picture struct {
	w, h int
	rgb  []uint8 // 3 bytes a pixel, row by row
}

func newPicture(ctx context.Context, img image.Image) (*picture, error) {
	b := img.Bounds()
	p := &picture{w: b.Dx(), h: b.Dy(), rgb: make([]uint8, 3*b.Dx()*b.Dy())}
	for y := range p.h {
		if y%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		row := p.rgb[3*y*p.w : 3*(y+1)*p.w]
		switch m := img.(type) {
		case *image.RGBA:
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := range p.w {
				// Premultiplied: over white, c + (255 − a).
				a := 255 - src[4*x+3]
				row[3*x], row[3*x+1], row[3*x+2] = src[4*x]+a, src[4*x+1]+a, src[4*x+2]+a
			}
		case *image.NRGBA:
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := range p.w {
				a := uint32(src[4*x+3])
				for i := range 3 {
					row[3*x+i] = uint8((uint32(src[4*x+i])*a + 255*(255-a) + 127) / 255)
				}
			}
		case *image.YCbCr:
			for x := range p.w {
				yi, ci := m.YOffset(b.Min.X+x, b.Min.Y+y), m.COffset(b.Min.X+x, b.Min.Y+y)
				row[3*x], row[3*x+1], row[3*x+2] = color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
			}
		default:
			for x := range p.w {
				r, g, bl, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
				w := 0xffff - a
				row[3*x], row[3*x+1], row[3*x+2] = uint8((r+w)>>8), uint8((g+w)>>8), uint8((bl+w)>>8)
			}
		}
	}
	return p, nil
}

// rgb is one pixel's colour.
type rgb [3]uint8

func (p *picture) at(x, y int) rgb {
	i := 3 * (y*p.w + x)
	return rgb{p.rgb[i], p.rgb[i+1], p.rgb[i+2]}
}

// dist is the colour distance: the sum of the channels' differences, 0 to 765.
func dist(a, b rgb) int {
	d := 0
	for i := range 3 {
		d += abs(int(a[i]) - int(b[i]))
	}
	return d
}

// lineDist is the distance between colours of lines and what is around them: three times
// the difference in luma, and a quarter of the channels' (dist): JPEG tints a thin dark line
// by its neighbours' colours, each stretch of it its own way, but keeps it dark.
func lineDist(a, b rgb) int {
	luma := func(c rgb) int { return (2*int(c[0]) + 5*int(c[1]) + int(c[2])) / 8 }
	return 3*abs(luma(a)-luma(b)) + dist(a, b)/4
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Colour tolerances, as sums of the three channels' differences: pixels of one line or one
// cell (JPEG noise and anti-aliasing included), and two different region colours, which the
// palettes in use keep further apart than this (the closest pair of the page's tints differs
// by 72, after dark mode's dimming by 62).
const (
	sameLine   = 72
	sameRegion = 40
	inkNoise   = 30
	edgeChange = 40 // a change of colour between pixels two apart that makes an edge
	// minLine is the least share of a lattice's mean line strength (how often the colour
	// changes across it) that each of its lines must have.
	minLine = 0.35
	// sameBin: histogram peaks this close are one colour before they are refined. Bins of 8
	// levels put colours 54 apart (the game's green and tan) 40 apart, so it is below that.
	sameBin = 24
)

// box is a rectangle of pixels: [x0, x1) × [y0, y1), and for a frame the colour of its line.
type box struct {
	x0, y0, x1, y1 int
	line           rgb
}

func (b box) w() int { return b.x1 - b.x0 }
func (b box) h() int { return b.y1 - b.y0 }

// segment is a run of one colour along a row, [lo, hi) at row pos, with a different colour
// above or below along most of it: a horizontal edge of a line.
type segment struct {
	pos, lo, hi int
	col         rgb
}

// findFrame returns the inside of the grid's frame (see the package comment).
func (p *picture) findFrame(ctx context.Context) (box, bool, error) {
	minLen := max(24, min(p.w, p.h)/10)
	var segs []segment
	for y := range p.h {
		if y%64 == 0 {
			if err := ctx.Err(); err != nil {
				return box{}, false, err
			}
		}
		for x := 0; x < p.w; {
			ref := p.at(x, y)
			// The run goes on past a stray pixel or two of JPEG noise.
			e, miss := x+1, 0
			for i := x + 1; i < p.w && miss <= 2; i++ {
				if lineDist(p.at(i, y), ref) <= sameLine {
					e, miss = i+1, 0
				} else {
					miss++
				}
			}
			if e-x >= minLen {
				above, below := 0, 0
				for i := x; i < e; i++ {
					if y > 0 && lineDist(p.at(i, y-1), ref) > sameLine {
						above++
					}
					if y+1 < p.h && lineDist(p.at(i, y+1), ref) > sameLine {
						below++
					}
				}
				if 4*above >= 3*(e-x) || 4*below >= 3*(e-x) {
					// The run's colour is its mean, not its first pixel's: JPEG tints
					// a dark line's pixels each their own way.
					var sum [3]int
					for i := x; i < e; i++ {
						c := p.at(i, y)
						sum[0], sum[1], sum[2] = sum[0]+int(c[0]), sum[1]+int(c[1]), sum[2]+int(c[2])
					}
					k := e - x
					segs = append(segs, segment{y, x, e, rgb{uint8(sum[0] / k), uint8(sum[1] / k), uint8(sum[2] / k)}})
				}
			}
			x = e
		}
	}
	// Group the segments by extent and colour: a frame's top and bottom edges fall in one group.
	sort.Slice(segs, func(i, j int) bool { return segs[i].hi-segs[i].lo > segs[j].hi-segs[j].lo })
	type group struct {
		lo, hi, top, bottom int
		col                 rgb
	}
	var groups []group
	for _, s := range segs {
		tol := max(3, (s.hi-s.lo)/50)
		found := false
		for i := range groups {
			g := &groups[i]
			if abs(g.lo-s.lo) <= tol && abs(g.hi-s.hi) <= tol && lineDist(g.col, s.col) <= sameLine {
				g.top, g.bottom = min(g.top, s.pos), max(g.bottom, s.pos)
				found = true
				break
			}
		}
		if !found {
			groups = append(groups, group{s.lo, s.hi, s.pos, s.pos, s.col})
		}
	}
	var frames []box
	for _, g := range groups {
		w, h := g.hi-g.lo, g.bottom-g.top+1
		// A frame is square-ish. A margin of one colour round the grid makes a frame
		// too, with the true frame inside it, which wins below; where the true frame is
		// the margin's colour (a black frame on a black page), the margin is the frame.
		if 2*h < w || h > 2*w {
			continue
		}
		if b, ok := p.frameInside(g.lo, g.top, g.hi, g.bottom+1, g.col); ok {
			frames = append(frames, b)
		}
	}
	if len(frames) == 0 {
		return box{}, false, nil
	}
	sort.Slice(frames, func(i, j int) bool { return frames[i].w()*frames[i].h() > frames[j].w()*frames[j].h() })
	// A frame inside the best one wins when it is nearly as large both ways, or, drawn in
	// another colour, one way: the page's margin round a grid on a phone is as wide as the
	// grid but may be much taller. (A band of regions across the grid, outlined by thick
	// borders of the frame's colour, is not a frame inside it.)
	best := frames[0]
	for _, f := range frames[1:] {
		inside := f.x0 >= best.x0 && f.y0 >= best.y0 && f.x1 <= best.x1 && f.y1 <= best.y1
		wide, tall := 20*f.w() >= 17*best.w(), 20*f.h() >= 17*best.h()
		if inside && (wide && tall || (wide || tall) && lineDist(f.line, best.line) > sameLine) {
			best = f
		}
	}
	return best, true, nil
}

// frameInside checks that the rectangle [x0, x1) × [y0, y1), whose top and bottom lines
// are known, is drawn by an unbroken line of colour col all round, and returns what lies
// inside the line. The frame's corners may be rounded: the straight part of the top line
// then stops short of the sides, so the sides are looked for up to lim pixels beyond its
// ends (the outermost column of the line's colour along 85% of the height). Each side's line
// starts within 3 pixels of the rectangle's edge (an anti-aliased line's outer pixels are
// paler) and covers 85% of it; its thickness is how far in the line's colour then goes on
// along the middle 80% (lines across the grid meet the frame at a tenth of it at most).
func (p *picture) frameInside(x0, y0, x1, y1 int, col rgb) (box, bool) {
	is := func(x, y int) bool { return lineDist(p.at(x, y), col) <= sameLine }
	lim := min(x1-x0, y1-y0) / 8
	column := func(x int) bool {
		n := 0
		for y := y0; y < y1; y++ {
			if is(x, y) {
				n++
			}
		}
		return 20*n >= 17*(y1-y0)
	}
	left, right := -1, -1
	for x := max(0, x0-lim); x <= x0+3 && x < x1; x++ {
		if column(x) {
			left = x
			break
		}
	}
	for x := min(p.w-1, x1-1+lim); x >= x1-4 && x > x0; x-- {
		if column(x) {
			right = x
			break
		}
	}
	if left < 0 || right < 0 {
		return box{}, false
	}
	x0, x1 = left, right+1
	w, h := x1-x0, y1-y0
	// side returns how far in from its edge a side's line ends; at(i, k) is the k-th pixel
	// along the side (of length) at i pixels in.
	side := func(at func(i, k int) (int, int), length int) (int, bool) {
		share := func(i, from, to int) int {
			n := 0
			for k := from; k < to; k++ {
				if is(at(i, k)) {
					n++
				}
			}
			return n
		}
		for start := 0; start < min(4, lim); start++ {
			if 20*share(start, 0, length) < 17*length {
				continue
			}
			end := start + 1
			inner := length - 2*(length/10)
			for end < lim && 10*share(end, length/10, length-length/10) >= 8*inner {
				end++
			}
			return end, end < lim
		}
		return 0, false
	}
	top, ok1 := side(func(i, k int) (int, int) { return x0 + k, y0 + i }, w)
	bottom, ok2 := side(func(i, k int) (int, int) { return x0 + k, y1 - 1 - i }, w)
	l, ok3 := side(func(i, k int) (int, int) { return x0 + i, y0 + k }, h)
	r, ok4 := side(func(i, k int) (int, int) { return x1 - 1 - i, y0 + k }, h)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return box{}, false
	}
	b := box{x0 + l, y0 + top, x1 - r, y1 - bottom, col}
	if b.w() < 8 || b.h() < 8 {
		return box{}, false
	}
	return b, true
}

// lattice returns the number of columns (cols) or rows (!cols) of the grid inside b, or 0
// when no lattice stands out, and where the lines between them are: n+1 coordinates in
// pixels, the box's sides first and last, each line in between at the centre of the colour
// change near its place in an even lattice (so a line of any width, and a frame drawn over
// the outer cells or around them, puts no line off).
func (p *picture) lattice(b box, cols bool) (int, []float64) {
	length := b.w()
	if !cols {
		length = b.h()
	}
	prof := p.profile(b, cols)
	peak := func(lo, hi float64) float64 {
		a, z := max(0, int(math.Floor(lo))), min(length, int(math.Ceil(hi))+1)
		m := 0.0
		for _, v := range prof[a:z] {
			m = max(m, v)
		}
		return m
	}
	// The score of a lattice is its lines' peaks less the highest peaks inside its cells: a
	// lattice of twice the true pitch has true lines inside its cells, one of half the pitch
	// has lines where the true cells are plain.
	best, bestScore := 0, 0.0
	for n := 2; n <= regions.MaxN; n++ {
		pitch := float64(length) / float64(n)
		if pitch < 5 {
			break
		}
		lines, inside, weakest := 0.0, 0.0, 1.0
		for k := range n {
			c := float64(k) * pitch
			inside += peak(c+0.25*pitch, c+0.75*pitch)
			if k > 0 {
				v := peak(c-0.15*pitch, c+0.15*pitch)
				lines += v
				weakest = min(weakest, v)
			}
		}
		lines /= float64(n - 1)
		inside /= float64(n)
		score := lines - inside
		// In a crop (no frame: b.line unset) every line of the lattice must be a line of the
		// picture: a lattice of half the true pitch, whose every other line falls in the
		// middle of true cells, scores half as well as the true one and may win when the true
		// one is off (a crop that cuts into the outer cells): it would read each cell as four.
		// A frame fixes the lattice's ends, and there a faint line may be all but invisible.
		if score > bestScore && lines >= 0.4 && lines > inside+0.15 && (b.line != rgb{} || weakest >= minLine*lines) {
			best, bestScore = n, score
		}
	}
	if best == 0 {
		return 0, nil
	}
	pitch := float64(length) / float64(best)
	at := make([]float64, best+1)
	origin := float64(b.x0)
	if !cols {
		origin = float64(b.y0)
	}
	at[best] = origin + float64(length)
	at[0] = origin
	for k := 1; k < best; k++ {
		at[k] = origin + lineCentre(prof, float64(k)*pitch, pitch)
	}
	return best, at
}

// lineCentre returns where the line near c is, in a profile of pitch pixels a cell: the
// centre of the profile's weight above its floor within ±0.12 pitch of c, or c when the
// profile is flat there. The result is in pixels from the profile's start, a pixel's centre
// at i + 0.5.
func lineCentre(prof []float64, c, pitch float64) float64 {
	lo, hi := max(0, int(c-0.12*pitch)), min(len(prof)-1, int(c+0.12*pitch))
	if lo > hi {
		return c + 0.5
	}
	floor := math.Inf(1)
	for _, v := range prof[lo : hi+1] {
		floor = min(floor, v)
	}
	sum, weight := 0.0, 0.0
	for i := lo; i <= hi; i++ {
		sum += float64(i) * (prof[i] - floor)
		weight += prof[i] - floor
	}
	if weight > 0 {
		c = sum / weight
	}
	return c + 0.5 // the centre of pixel c
}

// profile returns, for each column i of b (row i when !cols), the share of b's rows
// (columns) in which the colour changes across it. It counts how often the colour changes,
// not by how much: a grid line, thin or thick, runs the whole length; a thick border is no
// better a line for being darker, and a queen's edges, however sharp, are in one cell a row.
func (p *picture) profile(b box, cols bool) []float64 {
	length, across := b.w(), b.h()
	if !cols {
		length, across = across, length
	}
	prof := make([]float64, length)
	for i := 1; i+1 < length; i++ {
		changes := 0
		for j := range across {
			var d int
			if cols {
				d = dist(p.at(b.x0+i-1, b.y0+j), p.at(b.x0+i+1, b.y0+j))
			} else {
				d = dist(p.at(b.x0+j, b.y0+i-1), p.at(b.x0+j, b.y0+i+1))
			}
			if d > edgeChange {
				changes++
			}
		}
		prof[i] = float64(changes) / float64(across)
	}
	return prof
}

// Outer cells that a crop cuts into: a strip of at least minOuter of a pitch between the
// picture's side and the first line is an outer cell, read from what is left of it; a
// strip of at most lineSlack of a pitch (at least 3 pixels) is what is left of a line or
// the frame, no cell; a strip in between is too thin to read, and the picture is refused.
const (
	minOuter  = 0.3
	lineSlack = 0.1
)

// cropLattice finds the lattice of a crop (a box with no frame) that may cut into its outer
// cells: the lines are the runs of columns (rows when !cols) across which the colour changes
// in at least 40% of the rows; they must fall every pitch pixels (a line may be missing, a
// faint one between two cells of one colour), none between, at least three of them. The
// cells are the pieces between the box's sides and the lines, the outer ones kept or dropped
// as minOuter and lineSlack say. It returns the number of cells and their n+1 edges, as
// lattice does; 0 and no error when no such lattice stands out; an error when the picture
// cuts an outer cell to a strip too thin to read. It takes time proportional to the box's
// pixels.
func (p *picture) cropLattice(b box, cols bool) (int, []float64, error) {
	prof := p.profile(b, cols)
	length := len(prof)
	origin, side := float64(b.x0), [2]string{"left column", "right column"}
	if !cols {
		origin, side = float64(b.y0), [2]string{"top row", "bottom row"}
	}
	// The lines: runs of the profile at or above 0.4, each at the weighted centre of its
	// columns within 0.8 of its peak. A run may have gaps of up to 3 pixels: the profile
	// compares pixels two apart, so a line one pixel wide peaks on either side of it, not on
	// it. Runs that peak below 0.7 of the strongest are not taken for lines (a JPEG's block
	// edges, faint lines between cells of one colour); the others must all fit the lattice.
	type run struct{ lo, hi int }
	var runs []run
	var peaks []float64
	for i := 0; i < length; {
		if prof[i] < 0.4 {
			i++
			continue
		}
		r, top := run{i, i}, 0.0
		for ; i < length && i-r.hi <= 3; i++ {
			if prof[i] >= 0.4 {
				r.hi = i
				top = max(top, prof[i])
			}
		}
		runs, peaks = append(runs, r), append(peaks, top)
	}
	strongest := 0.0
	for _, v := range peaks {
		strongest = max(strongest, v)
	}
	var at []float64
	for k, r := range runs {
		if peaks[k] < 0.7*strongest {
			continue
		}
		sum, weight := 0.0, 0.0
		for i := r.lo; i <= r.hi; i++ {
			if prof[i] >= 0.8*peaks[k] {
				sum += float64(i) * prof[i]
				weight += prof[i]
			}
		}
		at = append(at, sum/weight+0.5)
	}
	if len(at) < 3 {
		return 0, nil, nil
	}
	gaps := make([]float64, len(at)-1)
	for k := range gaps {
		gaps[k] = at[k+1] - at[k]
	}
	sort.Float64s(gaps)
	pitch := gaps[len(gaps)/2]
	if pitch < 8 {
		return 0, nil, nil
	}
	// Fit line k at first + k·pitch by least squares, k counted from the first line.
	var sk, sx, skk, skx float64
	ks := make([]float64, len(at))
	for j, x := range at {
		k := math.Round((x - at[0]) / pitch)
		ks[j] = k
		sk, sx, skk, skx = sk+k, sx+x, skk+k*k, skx+k*x
	}
	m := float64(len(at))
	den := m*skk - sk*sk
	if den == 0 {
		return 0, nil, nil
	}
	pitch = (m*skx - sk*sx) / den
	first := (sx - pitch*sk) / m
	for j, x := range at {
		if math.Abs(x-(first+ks[j]*pitch)) > 0.1*pitch || j > 0 && ks[j] == ks[j-1] {
			return 0, nil, nil // lines off the lattice, or two lines for one
		}
	}
	// The lattice's lines inside the box, and the strips beyond the first and the last.
	for first-pitch > 0.5 {
		first -= pitch
	}
	for first < 0.5 {
		first += pitch
	}
	var lines []float64
	for x := first; x < float64(length)-0.5; x += pitch {
		lines = append(lines, lineCentre(prof, x-0.5, pitch))
	}
	if len(lines) < 2 {
		return 0, nil, nil
	}
	edges := []float64{origin}
	strips := [2]float64{lines[0], float64(length) - lines[len(lines)-1]}
	slack := max(3, lineSlack*pitch)
	for s, w := range strips {
		if w > slack && w < minOuter*pitch {
			return 0, nil, unreadable("the picture cuts the %s of cells to a strip of %.0f pixels (a cell is %.0f): too thin to read", side[s], w, pitch)
		}
	}
	if strips[0] <= slack {
		edges = edges[:0]
	}
	for _, x := range lines {
		edges = append(edges, origin+x)
	}
	if strips[1] > slack {
		edges = append(edges, origin+float64(length))
	}
	return len(edges) - 1, edges, nil
}

// cellGrid is what was read of each cell and each edge between cells.
type cellGrid struct {
	n     int
	class []int     // class[r*n+c]: the cell's colour, an index in palette
	col   []rgb     // col[r*n+c]: palette[class[r*n+c]]
	own   []rgb     // own[r*n+c]: the median colour of the cell's ring (a hovered cell's own, darker)
	right []float64 // right[r*n+c]: ink across the edge between (r, c) and (r, c+1)
	down  []float64 // down[r*n+c]: ink across the edge between (r, c) and (r+1, c)
}

// ring calls yield for the pixels of a ring inside cell b: from 5% to 16% of its side in
// from its edges, and at least 2 pixels in and 2 pixels wide: clear of the lines around the
// cell (blurred or not) and of most of a queen or a mark in its middle. In cells wider than
// 47 pixels it takes every other pixel of every other row, and so on.
func (p *picture) ring(b box, yield func(rgb)) {
	in, out := max(2, int(0.05*float64(b.w()))), max(4, int(0.16*float64(b.w())))
	x0, x1, mx0, mx1 := b.x0+in, b.x1-in, b.x0+out, b.x1-out
	in, out = max(2, int(0.05*float64(b.h()))), max(4, int(0.16*float64(b.h())))
	y0, y1, my0, my1 := b.y0+in, b.y1-in, b.y0+out, b.y1-out
	// One pixel in step² is plenty in large cells: a cell 20 pixels wide has a ring of about
	// 200 pixels, one 80 wide about 2,000.
	step := max(1, min(b.w(), b.h())/24)
	for y := y0; y < y1; y += step {
		for x := x0; x < x1; x += step {
			if x >= mx0 && x < mx1 && y >= my0 && y < my1 {
				continue
			}
			yield(p.at(x, y))
		}
	}
}

// cells reads the colours of the cells between the lines xs and ys and the ink on the edges
// between them. The colours are found for the whole grid at once: the palette is the peaks
// of a histogram of the cells' rings (32 levels a channel; pixels of the frame's colour line
// left out, as queens and marks are drawn in the lines' ink), each peak at least a tenth of a
// ring's pixels and further than sameBin from every fuller one (refined below); then each cell takes the
// palette colour most of its ring's pixels are near. Colours that only blend two others (the
// anti-aliased edge of a queen, JPEG ringing) are spread thin and make no peak.
func (p *picture) cells(line rgb, xs, ys []float64) *cellGrid {
	n := len(xs) - 1
	g := &cellGrid{n: n, class: make([]int, n*n), col: make([]rgb, n*n), own: make([]rgb, n*n), right: make([]float64, n*n), down: make([]float64, n*n)}
	cell := func(i int) box {
		r, c := i/n, i%n
		return box{int(xs[c]), int(ys[r]), int(xs[c+1]), int(ys[r+1]), line}
	}
	key := func(c rgb) int { return int(c[0]>>3)<<10 | int(c[1]>>3)<<5 | int(c[2]>>3) }
	centre := func(k int) rgb { return rgb{uint8(k>>10)<<3 | 4, uint8(k>>5&31)<<3 | 4, uint8(k&31)<<3 | 4} }
	hist := make([]int32, 1<<15)
	total := 0
	for i := range n * n {
		p.ring(cell(i), func(c rgb) {
			if dist(c, line) > sameLine {
				hist[key(c)]++
				total++
			}
		})
	}
	var keys []int
	for k, v := range hist {
		if v > 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return hist[keys[i]] > hist[keys[j]] })
	var palette []rgb
	for _, k := range keys {
		if int(hist[k])*10*n*n < total {
			break
		}
		near := false
		for _, c := range palette {
			if dist(c, centre(k)) <= sameBin {
				near = true
				break
			}
		}
		if !near {
			palette = append(palette, centre(k))
		}
	}
	if len(palette) == 0 {
		palette = append(palette, line)
	}
	// nearest returns the palette colour nearest c, or −1 when none is within the distance.
	nearest := func(c rgb, within int) int {
		best, bd := -1, within+1
		for k, pc := range palette {
			if d := dist(c, pc); d < bd {
				best, bd = k, d
			}
		}
		return best
	}
	// Each peak moves to the mean of the pixels nearest it; peaks that then come within
	// sameRegion of a fuller one (two bins of one colour, split by JPEG) are dropped.
	sums := make([][4]int, len(palette))
	for i := range n * n {
		p.ring(cell(i), func(c rgb) {
			if k := nearest(c, sameRegion); k >= 0 {
				s := &sums[k]
				s[0], s[1], s[2], s[3] = s[0]+int(c[0]), s[1]+int(c[1]), s[2]+int(c[2]), s[3]+1
			}
		})
	}
	order := make([]int, len(palette))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(i, j int) bool { return sums[order[i]][3] > sums[order[j]][3] })
	var merged []rgb
	for _, k := range order {
		s := sums[k]
		if s[3] == 0 {
			continue
		}
		c := rgb{uint8(s[0] / s[3]), uint8(s[1] / s[3]), uint8(s[2] / s[3])}
		near := false
		for _, m := range merged {
			if dist(m, c) <= sameRegion {
				near = true
				break
			}
		}
		if !near {
			merged = append(merged, c)
		}
	}
	if len(merged) > 0 {
		palette = merged
	}
	// A colour of the grid has a cell whose ring is mostly near it; a blend (a queen's
	// anti-aliased edge over a colour, in JPEG) has none, and is dropped.
	share := make([]int, len(palette))
	used := make(map[int]bool)
	for i := range n * n {
		clear(share)
		all := 0
		p.ring(cell(i), func(c rgb) {
			if dist(c, line) > sameLine {
				all++
				if k := nearest(c, sameRegion); k >= 0 {
					share[k]++
				}
			}
		})
		for k, v := range share {
			if 2*v >= all && v > 0 {
				used[k] = true
			}
		}
	}
	kept := palette[:0:0]
	for k, c := range palette {
		if used[k] {
			kept = append(kept, c)
		}
	}
	if len(kept) > 0 {
		palette = kept
	}
	// Each cell takes the colour most of its ring is nearest. A cell whose ring is mostly
	// near no colour of the palette (a region of one cell, its colour spread thin by JPEG
	// noise, or mostly hidden by a queen) takes the median of its ring: the palette's colour
	// nearest it, within 1.5 sameRegion (the closest two colours of the palettes in use are
	// further apart than that), or else a new colour.
	var votes []int
	var ringPix [3][]int
	for i := range n * n {
		votes = append(votes[:0], make([]int, len(palette))...)
		all := 0
		for ch := range ringPix {
			ringPix[ch] = ringPix[ch][:0]
		}
		p.ring(cell(i), func(c rgb) {
			if dist(c, line) <= sameLine {
				return
			}
			all++
			for ch := range ringPix {
				ringPix[ch] = append(ringPix[ch], int(c[ch]))
			}
			if k := nearest(c, sameRegion); k >= 0 {
				votes[k]++
			}
		})
		best := 0
		for k := range votes {
			if votes[k] > votes[best] {
				best = k
			}
		}
		var m rgb
		if all > 0 {
			for ch := range ringPix {
				sort.Ints(ringPix[ch])
				m[ch] = uint8(ringPix[ch][len(ringPix[ch])/2])
			}
		}
		g.own[i] = m
		if all > 0 && 3*votes[best] < all {
			if best = nearest(m, 3*sameRegion/2); best < 0 {
				best = len(palette)
				palette = append(palette, m)
			}
		}
		g.class[i] = best
		g.col[i] = palette[best]
		if all == 0 {
			g.own[i] = g.col[i]
		}
	}
	for r := range n {
		for c := range n {
			i := r*n + c
			if c+1 < n {
				g.right[i] = p.ink(xs[c+1], ys[r], ys[r+1], xs[c+1]-xs[c], true, g.own[i], g.own[i+1])
			}
			if r+1 < n {
				g.down[i] = p.ink(ys[r+1], xs[c], xs[c+1], ys[r+1]-ys[r], false, g.own[i], g.own[i+n])
			}
		}
	}
	return g
}

// ink measures a line: the vertical one at x = at from y = from to to (vertical), or the
// horizontal one at y = at from x = from to to, between cells of colours a (left or above)
// and b, of pitch pitch. Across a strip of ±0.04 of a cell (at least ±1 pixel) around the
// line, it sums how far each pixel's colour is from its own cell's, at each point along the
// middle 88% of the edge (clear of the lines across its ends), and returns the tenth
// percentile of these sums. A border runs the whole edge; letters, queens and marks cross
// only part of it, so the low percentile ignores them.
func (p *picture) ink(at, from, to, pitch float64, vertical bool, a, b rgb) float64 {
	half := max(1, int(math.Round(0.04*pitch)))
	mid := int(math.Floor(at))
	var sums []float64
	for t := int(from + 0.06*(to-from)); t < int(math.Ceil(to-0.06*(to-from))); t++ {
		sum := 0
		for d := -half; d <= half; d++ {
			x, y := mid+d, t
			if !vertical {
				x, y = t, mid+d
			}
			if x < 0 || y < 0 || x >= p.w || y >= p.h {
				continue
			}
			side := a
			if float64(mid+d)+0.5 >= at {
				side = b
			}
			sum += max(0, dist(p.at(x, y), side)-inkNoise)
		}
		sums = append(sums, float64(sum))
	}
	if len(sums) == 0 {
		return 0
	}
	sort.Float64s(sums)
	return sums[len(sums)/10]
}

// thickThreshold splits the edges' ink into thin and thick where the two groups are furthest
// apart on a log scale (Otsu's method), and returns the ink above which an edge is thick; it
// returns +Inf when the picture has no thick borders: the two groups' means (of ink) less
// than three times apart. The scale is log(ink + inkNoise), not log(ink + 1): thin lines
// barely darker than their cells (dark mode's, 22 from an orange cell and 62 from a blue
// one) measure 0 on some edges and tens on others, and on a log scale starting at 1 the
// zeros would be a group of their own, far below the rest, and every other edge thick.
func thickThreshold(inks []float64) float64 {
	v := make([]float64, len(inks))
	for i, x := range inks {
		v[i] = math.Log(x + inkNoise)
	}
	sort.Float64s(v)
	total := 0.0
	for _, x := range v {
		total += x
	}
	cut, cutLeft, bestVar := -1, 0.0, -1.0
	left := 0.0
	for i := 1; i < len(v); i++ {
		left += v[i-1]
		if v[i] == v[i-1] {
			continue
		}
		n0, n1 := float64(i), float64(len(v)-i)
		m0, m1 := left/n0, (total-left)/n1
		if bv := n0 * n1 * (m0 - m1) * (m0 - m1); bv > bestVar {
			cut, cutLeft, bestVar = i, left, bv
		}
	}
	if cut < 0 {
		return math.Inf(1)
	}
	thin := math.Exp(cutLeft/float64(cut)) - inkNoise
	thick := math.Exp((total-cutLeft)/float64(len(v)-cut)) - inkNoise
	if thick < 3*thin+20 {
		return math.Inf(1)
	}
	return math.Exp((v[cut-1]+v[cut])/2) - inkNoise
}

// regions turns the cells and edges into region ids (see the package comment).
func (g *cellGrid) regions() ([][]int, error) {
	n := g.n
	class := g.class
	var inks []float64
	for r := range n {
		for c := range n {
			if c+1 < n {
				inks = append(inks, g.right[r*n+c])
			}
			if r+1 < n {
				inks = append(inks, g.down[r*n+c])
			}
		}
	}
	cut := thickThreshold(inks)
	// Union the cells of one colour with no thick border between them.
	parent := newForest(n * n)
	find := parent.find
	// split is the first edge with a thick border between two cells of one colour.
	split := ""
	join := func(i, j int, ink float64) {
		switch {
		case class[i] != class[j]:
		case ink > cut:
			if split == "" {
				split = fmt.Sprintf("r%dc%d and r%dc%d", i/n+1, i%n+1, j/n+1, j%n+1)
			}
		default:
			parent[find(i)] = find(j)
		}
	}
	for r := range n {
		for c := range n {
			i := r*n + c
			if c+1 < n {
				join(i, i+1, g.right[i])
			}
			if r+1 < n {
				join(i, i+n, g.down[i])
			}
		}
	}
	id := func(keyOf func(int) int) ([][]int, int) {
		names := map[int]int{}
		rows := make([][]int, n)
		for r := range n {
			rows[r] = make([]int, n)
			for c := range n {
				k := keyOf(r*n + c)
				if _, ok := names[k]; !ok {
					names[k] = len(names)
				}
				rows[r][c] = names[k]
			}
		}
		return rows, len(names)
	}
	rows, count := id(find)
	thick := !math.IsInf(cut, 1)
	if !thick {
		// Colour alone tells the regions.
		if count == n {
			return rows, nil
		}
		byColour, colours := id(func(i int) int { return class[i] })
		if colours == n {
			return byColour, nil
		}
		return nil, unreadable("found a %d×%d grid but %d regions (%d colours)", n, n, count, colours)
	}
	// The borders alone: cells with no thick border between them are one region.
	bparent := newForest(n * n)
	bfind := bparent.find
	// thinApart is the first thin edge between cells of two colours.
	thinApart := ""
	for r := range n {
		for c := range n {
			i := r*n + c
			for _, e := range [2]struct {
				j   int
				ink float64
				ok  bool
			}{{i + 1, g.right[i], c+1 < n}, {i + n, g.down[i], r+1 < n}} {
				if !e.ok || e.ink > cut {
					continue
				}
				bparent[bfind(i)] = bfind(e.j)
				if class[i] != class[e.j] && thinApart == "" {
					thinApart = fmt.Sprintf("r%dc%d and r%dc%d", i/n+1, i%n+1, e.j/n+1, e.j%n+1)
				}
			}
		}
	}
	byBorders, bcount := id(bfind)
	if count == n && thinApart == "" {
		return rows, nil
	}
	// One cell under the mouse, darkened, differs in colour from the rest of its region,
	// to which thin lines tie it: then the borders tell the regions.
	if bcount == n {
		if _, ok := g.hovered(bfind); ok {
			return byBorders, nil
		}
	}
	if count == n {
		return nil, unreadable("colours and borders disagree: a thin line between two colours (%s)", thinApart)
	}
	byColour, colours := id(func(i int) int { return class[i] })
	switch {
	case split != "":
		return nil, unreadable("two regions share a colour and a border (%s), and the borders and colours make %d regions, the colours alone %d, not %d", split, count, colours, n)
	case colours != n:
		return nil, unreadable("found a %d×%d grid but %d regions (%d colours)", n, n, count, colours)
	}
	// Each colour is a region, in one piece or several; a piece apart from the rest of
	// its colour must be walled off by thick borders.
	if e := g.thinPiece(cut); e != "" {
		return nil, unreadable("a region in pieces meets another colour across a thin line (%s)", e)
	}
	return byColour, nil
}

// thinPiece returns the first thin edge (ink at most cut) between cells of two colours where
// one of them is in a colour's piece, when that colour is in several pieces, or "".
func (g *cellGrid) thinPiece(cut float64) string {
	n := g.n
	piece := make([]int, n*n)
	for i := range piece {
		piece[i] = -1
	}
	pieces := map[int]int{}
	for i := range n * n {
		if piece[i] >= 0 {
			continue
		}
		pieces[g.class[i]]++
		stack := []int{i}
		piece[i] = i
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r, c := k/n, k%n
			for _, d := range [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
				rr, cc := r+d[0], c+d[1]
				if rr < 0 || cc < 0 || rr >= n || cc >= n {
					continue
				}
				j := rr*n + cc
				if piece[j] < 0 && g.class[j] == g.class[i] {
					piece[j] = i
					stack = append(stack, j)
				}
			}
		}
	}
	for r := range n {
		for c := range n {
			i := r*n + c
			for _, e := range [2]struct {
				j   int
				ink float64
				ok  bool
			}{{i + 1, g.right[i], c+1 < n}, {i + n, g.down[i], r+1 < n}} {
				if e.ok && e.ink <= cut && g.class[i] != g.class[e.j] && (pieces[g.class[i]] > 1 || pieces[g.class[e.j]] > 1) {
					return fmt.Sprintf("r%dc%d and r%dc%d", i/n+1, i%n+1, e.j/n+1, e.j%n+1)
				}
			}
		}
	}
	return ""
}

// forest is a union-find forest of cells: forest[i] is i's parent, i for a root.
type forest []int

func newForest(n int) forest {
	f := make(forest, n)
	for i := range f {
		f[i] = i
	}
	return f
}

// find returns the root of i's tree, halving the path on the way.
func (f forest) find(i int) int {
	for f[i] != i {
		f[i] = f[f[i]]
		i = f[i]
	}
	return i
}

// hovered reports whether the regions that find names (by the borders alone) each have one
// colour, but for at most one cell darker or lighter than the rest of its region by the
// same share in each channel (see darker): the cell under the mouse on the game's page. It
// returns that cell, or −1.
func (g *cellGrid) hovered(find func(int) int) (int, bool) {
	n := g.n
	// The region's colour is the one most of its cells have.
	votes := map[[2]int]int{}
	for i := range n * n {
		votes[[2]int{find(i), g.class[i]}]++
	}
	major := map[int]int{}
	for k, v := range votes {
		if m, ok := major[k[0]]; !ok || v > votes[[2]int{k[0], m}] || v == votes[[2]int{k[0], m}] && k[1] < m {
			major[k[0]] = k[1]
		}
	}
	cell := -1
	for i := range n * n {
		m := major[find(i)]
		if g.class[i] == m {
			continue
		}
		if cell >= 0 || votes[[2]int{find(i), m}] < 2 {
			return -1, false
		}
		// The region's colour, read from its cells' own colours.
		var ref rgb
		for j := range n * n {
			if find(j) == find(i) && g.class[j] == m {
				ref = g.own[j]
				break
			}
		}
		if !darker(g.own[i], ref) {
			return -1, false
		}
		cell = i
	}
	return cell, cell >= 0
}

// darker reports whether c is ref darkened or lightened: each channel 0.6 to 0.95 of ref's,
// or 1.05 to 1.4 (a dark page may lighten the cell under the mouse), all by about the same
// share.
func darker(c, ref rgb) bool {
	sc, sr := int(c[0])+int(c[1])+int(c[2]), int(ref[0])+int(ref[1])+int(ref[2])
	if sr == 0 || 20*sc < 12*sr || 20*sc > 28*sr || 20*sc > 19*sr && 20*sc < 21*sr {
		return false
	}
	f := float64(sc) / float64(sr)
	for k := range 3 {
		if math.Abs(float64(c[k])-f*float64(ref[k])) > 14 {
			return false
		}
	}
	return true
}
