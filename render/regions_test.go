package render

import (
	"bytes"
	"context"
	"encoding/xml"
	"image/png"
	"io"
	"strings"
	"testing"
)

// AAB
// CAB
// CCB
var threeRegions = [][]int{{0, 0, 1}, {2, 0, 1}, {2, 2, 1}}

func TestRegionsSVG(t *testing.T) {
	var b bytes.Buffer
	if err := SVG(&b, Regions{Region: threeRegions, Queens: []int{0, 2, -1}}, Options{}); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("SVG does not parse: %v", err)
		}
	}
	for _, want := range []struct {
		what string
		n    int
	}{{`class="region r`, 9}, {`class="letter"`, 9}, {`class="queen"`, 2}, {`>C<`, 3}} {
		if got := strings.Count(svg, want.what); got != want.n {
			t.Errorf("SVG has %d of %s, want %d", got, want.what, want.n)
		}
	}
	// Neighbouring regions get different colours.
	cols := regionColours(Regions{Region: threeRegions})
	if cols[0] == cols[1] || cols[0] == cols[2] || cols[1] == cols[2] {
		t.Errorf("neighbouring regions share a colour: %v", cols)
	}
}

func TestRegionsPNG(t *testing.T) {
	var b bytes.Buffer
	if err := PNG(context.Background(), &b, Regions{Region: threeRegions}, Options{Square: 20}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	// 3 squares of 20 and a margin of max(4, 20/6) = 4 each side.
	if got := img.Bounds().Dx(); got != 68 {
		t.Errorf("PNG width = %d, want 68", got)
	}
}

func TestRegionsBad(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    Regions
	}{
		{"empty", Regions{}},
		{"ragged", Regions{Region: [][]int{{0, 1}, {1}}}},
		{"id out of range", Regions{Region: [][]int{{0, 2}, {1, 1}}}},
		{"queens count", Regions{Region: threeRegions, Queens: []int{0}}},
		{"queen off the grid", Regions{Region: threeRegions, Queens: []int{0, 3, 1}}},
	} {
		if err := SVG(io.Discard, tc.g, Options{}); err == nil {
			t.Errorf("%s: SVG succeeded", tc.name)
		}
	}
}
