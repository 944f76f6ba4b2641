package render

import (
	"fmt"
	"image/color"
)

// Regions is a picture of a region-queens puzzle (package queens/regions): an N×N grid cut
// into regions, each a colour and a letter, with thick lines between regions, and
// optionally queens.
type Regions struct {
	// Region[r][c] is the region id, 0…N−1, of row r, column c; N is len(Region).
	Region [][]int
	// Queens[r] is the column of row r's queen, or −1 for none; nil for no queens.
	Queens []int
}

// The region palette: Paul Tol's "light" scheme, chosen to stay apart for the common
// kinds of colour blindness, with two of his pale tints added. Colours repeat on large
// grids, so regions are also told apart by their letters and the thick borders; neighbouring
// regions never share a colour (greedy colouring of the region map, which needs at most
// five on a planar map and in practice fewer than the palette holds).
var regionPalette = []color.NRGBA{
	{0x77, 0xaa, 0xdd, 0xff}, // light blue
	{0xee, 0x88, 0x66, 0xff}, // orange
	{0x44, 0xbb, 0x99, 0xff}, // mint
	{0xee, 0xdd, 0x88, 0xff}, // light yellow
	{0xff, 0xaa, 0xbb, 0xff}, // pink
	{0x99, 0xdd, 0xff, 0xff}, // light cyan
	{0xbb, 0xcc, 0x33, 0xff}, // pear
	{0xdd, 0xdd, 0xdd, 0xff}, // pale grey
	{0xaa, 0xaa, 0x00, 0xff}, // olive
	{0xcc, 0xbb, 0xee, 0xff}, // pale purple
}

var (
	colorRegionBorder = color.NRGBA{0x1a, 0x1a, 0x1a, 0xff}
	colorRegionGrid   = color.NRGBA{0x55, 0x55, 0x55, 0x80}
	colorRegionLetter = color.NRGBA{0x22, 0x22, 0x22, 0xc0}
)

// checkPNG accepts every grid: at most 26×26 squares of at most 512 pixels.
func (g Regions) checkPNG(Options) error { return nil }

// regionColours colours the regions greedily in id order, each with the first palette
// colour, counting round from its own id, that no neighbouring region has taken.
func regionColours(g Regions) []color.NRGBA {
	n := len(g.Region)
	touch := make([]map[int]bool, n)
	for i := range touch {
		touch[i] = map[int]bool{}
	}
	for r := range n {
		for c := range n {
			k := g.Region[r][c]
			if c+1 < n && g.Region[r][c+1] != k {
				touch[k][g.Region[r][c+1]], touch[g.Region[r][c+1]][k] = true, true
			}
			if r+1 < n && g.Region[r+1][c] != k {
				touch[k][g.Region[r+1][c]], touch[g.Region[r+1][c]][k] = true, true
			}
		}
	}
	pick := make([]int, n)
	for k := range n {
		used := map[int]bool{}
		for j := range touch[k] {
			if j < k {
				used[pick[j]] = true
			}
		}
		// Start the search at a different colour for each region, so that a large grid
		// uses the whole palette rather than its first few colours.
		pick[k] = k % len(regionPalette)
		for j := range regionPalette {
			if i := (k + j) % len(regionPalette); !used[i] {
				pick[k] = i
				break
			}
		}
	}
	out := make([]color.NRGBA, n)
	for k, i := range pick {
		out[k] = regionPalette[i]
	}
	return out
}

// draw lays g out. It fails for a grid that is not square, ids out of range or a queen off
// the grid. It takes time proportional to N².
func (g Regions) draw(opts Options) (*scene, error) {
	n := len(g.Region)
	if n < 1 || n > 26 {
		return nil, fmt.Errorf("region grid has %d rows, want 1 to 26", n)
	}
	for r, row := range g.Region {
		if len(row) != n {
			return nil, fmt.Errorf("region grid row %d has %d cells, want %d", r+1, len(row), n)
		}
		for _, k := range row {
			if k < 0 || k >= n {
				return nil, fmt.Errorf("region id %d out of range 0 to %d", k, n-1)
			}
		}
	}
	if g.Queens != nil && len(g.Queens) != n {
		return nil, fmt.Errorf("%d queens for %d rows", len(g.Queens), n)
	}
	for r, c := range g.Queens {
		if c < -1 || c >= n {
			return nil, fmt.Errorf("queen of row %d in column %d, off the grid", r+1, c+1)
		}
	}
	sq := opts.Square
	if sq == 0 {
		sq = 48
		if n > 16 {
			sq = 36
		}
	}
	if sq < 8 || sq > 512 {
		return nil, fmt.Errorf("square size %d out of range: want 0 (automatic) or 8 to 512 pixels", sq)
	}
	pad := max(4, sq/6)
	side := float64(sq)
	s := &scene{w: 2*pad + n*sq, h: 2*pad + n*sq}
	x0, y0 := float64(pad), float64(pad)
	colours := regionColours(g)
	for r := range n {
		for c := range n {
			s.add(shape{kind: kindRect, class: fmt.Sprintf("region r%d", g.Region[r][c]), x: x0 + float64(c)*side, y: y0 + float64(r)*side, w: side, h: side, fill: colours[g.Region[r][c]]})
		}
	}
	// Thin grid lines, then thick borders where the region changes.
	thin := max(1, side*0.03)
	for i := 1; i < n; i++ {
		f := float64(i) * side
		s.add(shape{kind: kindLine, class: "grid", pts: []pt{{x0 + f, y0}, {x0 + f, y0 + float64(n)*side}}, stroke: colorRegionGrid, width: thin})
		s.add(shape{kind: kindLine, class: "grid", pts: []pt{{x0, y0 + f}, {x0 + float64(n)*side, y0 + f}}, stroke: colorRegionGrid, width: thin})
	}
	thick := max(2, side*0.09)
	for r := range n {
		for c := range n {
			x, y := x0+float64(c)*side, y0+float64(r)*side
			if c+1 < n && g.Region[r][c+1] != g.Region[r][c] {
				s.add(shape{kind: kindLine, class: "border", pts: []pt{{x + side, y}, {x + side, y + side}}, stroke: colorRegionBorder, width: thick})
			}
			if r+1 < n && g.Region[r+1][c] != g.Region[r][c] {
				s.add(shape{kind: kindLine, class: "border", pts: []pt{{x, y + side}, {x + side, y + side}}, stroke: colorRegionBorder, width: thick})
			}
		}
	}
	s.add(shape{kind: kindRect, class: "frame", x: x0, y: y0, w: float64(n) * side, h: float64(n) * side, stroke: colorRegionBorder, width: thick})
	// Every cell carries its region's letter, small in the top-left corner, so the picture
	// reads without colour.
	size := max(7, side*0.26)
	for r := range n {
		for c := range n {
			s.add(shape{kind: kindText, class: "letter", x: x0 + float64(c)*side + side*0.2, y: y0 + float64(r)*side + side*0.2, size: size, text: string(rune('A' + g.Region[r][c])), fill: colorRegionLetter})
		}
	}
	for r, c := range g.Queens {
		if c >= 0 {
			s.add(shape{kind: kindQueen, class: "queen", x: x0 + float64(c)*side, y: y0 + float64(r)*side, w: side, fill: colorQueen})
		}
	}
	return s, nil
}
