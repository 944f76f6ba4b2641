package render

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"github.com/chesspuzzles/chesspuzzles/internal/ctxio"
)

// writePNG rasterizes the scene with golang.org/x/image/vector (anti-aliased, non-zero
// coverage) and encodes it with image/png. Text is set in the Go fonts.
// It returns ctx.Err() once ctx is done, looking between shapes, every 1024 segments of a
// stroke and at every write of the encoder.
func writePNG(ctx context.Context, w io.Writer, s *scene) error {
	img, err := rasterize(ctx, s)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return enc.Encode(ctxio.Writer{Ctx: ctx, W: w}, img) // stops at a write once ctx is done
}

func rasterize(ctx context.Context, s *scene) (*image.RGBA, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, s.w, s.h))
	draw.Draw(img, img.Bounds(), image.NewUniform(colorBackground), image.Point{}, draw.Src)
	r := &painter{img: img, z: vector.NewRasterizer(1, 1), ctx: ctx}
	for _, sh := range s.shapes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r.shape(sh)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return img, nil
}

type painter struct {
	ctx context.Context // a done ctx makes stroke and fill stop early (rasterize then fails)
	img *image.RGBA
	z   *vector.Rasterizer
	// The current path, as subpaths of closed polygons, and its bounding box.
	paths          [][]pt
	x0, y0, x1, y1 float64
}

func (p *painter) shape(sh shape) {
	switch sh.kind {
	case kindRect:
		rect := []pt{{sh.x, sh.y}, {sh.x + sh.w, sh.y}, {sh.x + sh.w, sh.y + sh.h}, {sh.x, sh.y + sh.h}}
		if sh.fill.A != 0 {
			if sh.fill.A == 0xff && isWhole(sh.x, sh.y, sh.w, sh.h) {
				r := image.Rect(int(sh.x), int(sh.y), int(sh.x+sh.w), int(sh.y+sh.h))
				draw.Draw(p.img, r, image.NewUniform(sh.fill), image.Point{}, draw.Src)
			} else {
				p.polygon(rect)
				p.fill(sh.fill)
			}
		}
		if sh.stroke.A != 0 && sh.width > 0 {
			p.stroke(append(rect, rect[0]), sh.width, false)
			p.fill(sh.stroke)
		}
	case kindPoly:
		if sh.stroke.A != 0 && sh.width > 0 {
			p.stroke(append(sh.pts, sh.pts[0]), sh.width, false)
			p.fill(sh.stroke)
		}
		if sh.fill.A != 0 {
			p.polygon(sh.pts)
			p.fill(sh.fill)
		}
	case kindLine:
		p.stroke(sh.pts, sh.width, sh.dashed)
		p.fill(sh.stroke)
	case kindCircle:
		if sh.fill.A != 0 {
			p.polygon(circle(sh.x, sh.y, sh.r))
			p.fill(sh.fill)
		}
		if sh.stroke.A != 0 && sh.width > 0 {
			outer := circle(sh.x, sh.y, sh.r+sh.width/2)
			inner := circle(sh.x, sh.y, max(0, sh.r-sh.width/2))
			p.polygon(outer)
			p.polygon(reversed(inner))
			p.fill(sh.stroke)
		}
	case kindText:
		p.text(sh)
	case kindQueen:
		p.queen(sh.x, sh.y, sh.w, sh.fill)
	}
}

func isWhole(vs ...float64) bool {
	for _, v := range vs {
		if v != math.Trunc(v) {
			return false
		}
	}
	return true
}

// queen draws the figure of scene.go: first its white edge, as the outline stroked twice as
// wide as the edge should show, then its body on top.
func (p *painter) queen(x, y, size float64, fill color.NRGBA) {
	at := func(ps []pt) []pt {
		out := make([]pt, len(ps))
		for i, q := range ps {
			out[i] = pt{x + q.x*size, y + q.y*size}
		}
		return out
	}
	crown, base := at(queenCrown), at(queenBase)
	edge := queenEdgeWidth * size * 2
	p.stroke(append(crown, crown[0]), edge, false)
	p.stroke(append(base, base[0]), edge, false)
	for _, b := range queenBalls {
		p.polygon(circle(x+b.x*size, y+b.y*size, (queenBallRadius+queenEdgeWidth)*size))
	}
	p.fill(colorQueenEdge)
	p.polygon(crown)
	p.polygon(base)
	for _, b := range queenBalls {
		p.polygon(circle(x+b.x*size, y+b.y*size, queenBallRadius*size))
	}
	p.fill(fill)
}

// polygon adds a closed subpath to the current path, turned counter-clockwise as printed
// unless it is reversed on purpose (holes): the rasterizer adds the signed coverage of
// subpaths, so overlapping pieces of one stroke must all turn the same way.
func (p *painter) polygon(ps []pt) {
	if len(ps) < 3 {
		return
	}
	if len(p.paths) == 0 {
		p.x0, p.y0, p.x1, p.y1 = ps[0].x, ps[0].y, ps[0].x, ps[0].y
	}
	for _, q := range ps {
		p.x0, p.y0 = min(p.x0, q.x), min(p.y0, q.y)
		p.x1, p.y1 = max(p.x1, q.x), max(p.y1, q.y)
	}
	p.paths = append(p.paths, ps)
}

// oriented returns ps turned the positive way (by the shoelace formula).
func oriented(ps []pt) []pt {
	area := 0.0
	for i := range ps {
		a, b := ps[i], ps[(i+1)%len(ps)]
		area += a.x*b.y - b.x*a.y
	}
	if area < 0 {
		return reversed(ps)
	}
	return ps
}

func reversed(ps []pt) []pt {
	out := make([]pt, len(ps))
	for i, q := range ps {
		out[len(ps)-1-i] = q
	}
	return out
}

// stroke adds a polyline of the given width to the path: a quadrilateral for each segment
// and a disc at each joint, all turned the same way so that their union is painted once.
func (p *painter) stroke(ps []pt, width float64, dashed bool) {
	if dashed {
		on, off := width*2.5, width*1.5
		for i := 0; i+1 < len(ps); i++ {
			a, b := ps[i], ps[i+1]
			d := math.Hypot(b.x-a.x, b.y-a.y)
			for t := 0.0; t < d; t += on + off {
				e := min(t+on, d)
				p.stroke([]pt{lerp(a, b, t/d), lerp(a, b, e/d)}, width, false)
			}
		}
		return
	}
	h := width / 2
	for i := 0; i+1 < len(ps); i++ {
		if i%1024 == 1023 && p.ctx.Err() != nil {
			return
		}
		a, b := ps[i], ps[i+1]
		dx, dy := b.x-a.x, b.y-a.y
		d := math.Hypot(dx, dy)
		if d == 0 {
			continue
		}
		nx, ny := -dy/d*h, dx/d*h
		p.polygon(oriented([]pt{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}}))
	}
	for _, q := range ps {
		p.polygon(oriented(circle(q.x, q.y, h)))
	}
}

func lerp(a, b pt, t float64) pt { return pt{a.x + (b.x-a.x)*t, a.y + (b.y-a.y)*t} }

// circle approximates a circle by a polygon fine enough that no edge is seen at the sizes
// drawn here (a segment every 7.5°).
func circle(cx, cy, r float64) []pt {
	const k = 48
	ps := make([]pt, k)
	for i := range ps {
		a := 2 * math.Pi * float64(i) / k
		ps[i] = pt{cx + r*math.Cos(a), cy + r*math.Sin(a)}
	}
	return ps
}

// fill paints the current path in c and clears it. The rasterizer covers only the path's
// bounding box, so each small shape costs little however large the picture.
func (p *painter) fill(c color.NRGBA) {
	defer func() { p.paths = p.paths[:0] }()
	if len(p.paths) == 0 || c.A == 0 || p.ctx.Err() != nil {
		return
	}
	b := image.Rect(int(math.Floor(p.x0)), int(math.Floor(p.y0)), int(math.Ceil(p.x1))+1, int(math.Ceil(p.y1))+1).Intersect(p.img.Bounds())
	if b.Empty() {
		return
	}
	p.z.Reset(b.Dx(), b.Dy())
	ox, oy := float64(b.Min.X), float64(b.Min.Y)
	for i, ps := range p.paths {
		// A tour's path is one fill of tens of thousands of subpaths: most of the drawing
		// time of a large picture, so it looks at the context as it goes.
		if i&1023 == 1023 && p.ctx.Err() != nil {
			return
		}
		p.z.MoveTo(float32(ps[0].x-ox), float32(ps[0].y-oy))
		for _, q := range ps[1:] {
			p.z.LineTo(float32(q.x-ox), float32(q.y-oy))
		}
		p.z.ClosePath()
	}
	p.z.Draw(p.img, b, image.NewUniform(c), image.Point{})
}

var (
	fontOnce              sync.Once
	fontRegular, fontBold *opentype.Font
	fontErr               error
	facesMu               sync.Mutex
	faces                 = map[faceKey]font.Face{}
)

type faceKey struct {
	size float64
	bold bool
}

// face returns the Go font at the given pixel size, cached: building a face is costly
// and pictures use only a few sizes.
func face(size float64, bold bool) (font.Face, error) {
	fontOnce.Do(func() {
		if fontRegular, fontErr = opentype.Parse(goregular.TTF); fontErr == nil {
			fontBold, fontErr = opentype.Parse(gobold.TTF)
		}
	})
	if fontErr != nil {
		return nil, fmt.Errorf("loading the Go font: %w", fontErr)
	}
	key := faceKey{math.Round(size*4) / 4, bold}
	facesMu.Lock()
	defer facesMu.Unlock()
	if f, ok := faces[key]; ok {
		return f, nil
	}
	fnt := fontRegular
	if bold {
		fnt = fontBold
	}
	f, err := opentype.NewFace(fnt, &opentype.FaceOptions{Size: key.size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	faces[key] = f
	return f, nil
}

// text draws a line of text centred on (x, y). font.Face is not safe for concurrent use,
// so drawing holds the cache lock.
func (p *painter) text(sh shape) {
	f, err := face(sh.size, sh.bold)
	if err != nil {
		return // the embedded fonts always parse; a picture without text is the fallback
	}
	facesMu.Lock()
	defer facesMu.Unlock()
	d := font.Drawer{Dst: p.img, Face: f}
	width := d.MeasureString(sh.text)
	m := f.Metrics()
	capHeight := m.CapHeight
	if capHeight <= 0 {
		capHeight = m.Ascent * 7 / 10
	}
	x := fixed.Int26_6(sh.x*64) - width/2
	y := fixed.Int26_6(sh.y*64) + capHeight/2
	if sh.halo {
		d.Src = image.NewUniform(colorHalo)
		o := fixed.Int26_6(math.Max(1, sh.size*0.08) * 64)
		for _, dd := range [][2]fixed.Int26_6{{-o, 0}, {o, 0}, {0, -o}, {0, o}, {-o, -o}, {o, o}, {-o, o}, {o, -o}} {
			d.Dot = fixed.Point26_6{X: x + dd[0], Y: y + dd[1]}
			d.DrawString(sh.text)
		}
	}
	d.Src = image.NewUniform(sh.fill)
	d.Dot = fixed.Point26_6{X: x, Y: y}
	d.DrawString(sh.text)
}
