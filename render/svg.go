package render

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"
)

// writeSVG writes the scene as a standalone SVG 1.1 document. Numbers are rounded to two
// decimals, so the output is stable and small; text is escaped with encoding/xml.
func writeSVG(w io.Writer, s *scene) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">`+"\n",
		s.w, s.h, s.w, s.h)
	hasQueen := false
	for _, sh := range s.shapes {
		if sh.kind == kindQueen {
			hasQueen = true
			break
		}
	}
	if hasQueen {
		// The queen is defined once in a unit square and placed with a transform; its fill
		// comes from the <use>, so a queen in conflict is the same figure in red.
		bw.WriteString(`<defs><g id="queen" stroke="` + hex(colorQueenEdge) + `" stroke-width="` + num(queenEdgeWidth) + `" stroke-linejoin="round">`)
		fmt.Fprintf(bw, `<polygon points="%s"/><polygon points="%s"/>`, points(queenCrown), points(queenBase))
		for _, b := range queenBalls {
			fmt.Fprintf(bw, `<circle cx="%s" cy="%s" r="%s"/>`, num(b.x), num(b.y), num(queenBallRadius))
		}
		bw.WriteString("</g></defs>\n")
	}
	for _, sh := range s.shapes {
		writeShape(bw, sh)
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

func writeShape(w *bufio.Writer, sh shape) {
	class := ""
	if sh.class != "" {
		class = ` class="` + sh.class + `"`
	}
	switch sh.kind {
	case kindRect:
		fmt.Fprintf(w, `<rect%s x="%s" y="%s" width="%s" height="%s"%s/>`+"\n", class, num(sh.x), num(sh.y), num(sh.w), num(sh.h), paint(sh))
	case kindPoly:
		fmt.Fprintf(w, `<polygon%s points="%s"%s/>`+"\n", class, points(sh.pts), paint(sh))
	case kindLine:
		dash := ""
		if sh.dashed {
			dash = ` stroke-dasharray="` + num(sh.width*2.5) + " " + num(sh.width*1.5) + `"`
		}
		fmt.Fprintf(w, `<polyline%s points="%s" fill="none" stroke="%s"%s stroke-width="%s" stroke-linecap="round" stroke-linejoin="round"%s/>`+"\n",
			class, points(sh.pts), hex(sh.stroke), opacity("stroke-opacity", sh.stroke), num(sh.width), dash)
	case kindCircle:
		fmt.Fprintf(w, `<circle%s cx="%s" cy="%s" r="%s"%s/>`+"\n", class, num(sh.x), num(sh.y), num(sh.r), paint(sh))
	case kindText:
		weight := ""
		if sh.bold {
			weight = ` font-weight="bold"`
		}
		halo := ""
		if sh.halo {
			halo = ` stroke="` + hex(colorHalo) + `"` + opacity("stroke-opacity", colorHalo) + ` stroke-width="` + num(sh.size*0.18) + `" paint-order="stroke"`
		}
		fmt.Fprintf(w, `<text%s x="%s" y="%s" font-size="%s" text-anchor="middle" dominant-baseline="central" fill="%s"%s%s>`,
			class, num(sh.x), num(sh.y), num(sh.size), hex(sh.fill), weight, halo)
		xml.EscapeText(w, []byte(sh.text))
		w.WriteString("</text>\n")
	case kindQueen:
		fmt.Fprintf(w, `<use%s href="#queen" transform="translate(%s %s) scale(%s)" fill="%s"/>`+"\n",
			class, num(sh.x), num(sh.y), num(sh.w), hex(sh.fill))
	}
}

// paint returns the fill and stroke attributes of a filled or outlined shape.
func paint(sh shape) string {
	var b strings.Builder
	if sh.fill.A == 0 {
		b.WriteString(` fill="none"`)
	} else {
		b.WriteString(` fill="` + hex(sh.fill) + `"` + opacity("fill-opacity", sh.fill))
	}
	if sh.stroke.A != 0 && sh.width > 0 {
		b.WriteString(` stroke="` + hex(sh.stroke) + `"` + opacity("stroke-opacity", sh.stroke) + ` stroke-width="` + num(sh.width) + `"`)
	}
	return b.String()
}

func hex(c color.NRGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func opacity(attr string, c color.NRGBA) string {
	if c.A == 0xff {
		return ""
	}
	return ` ` + attr + `="` + num(float64(c.A)/255) + `"`
}

func points(ps []pt) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(num(p.x))
		b.WriteByte(',')
		b.WriteString(num(p.y))
	}
	return b.String()
}

// num formats v with at most two decimals and no trailing zeros.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		s = "0"
	}
	return s
}
