// Package picture bounds a picture before it is decoded: from its header alone it tells how
// many bytes image.Decode will allocate for its pixels, so that a small file that decodes
// to hundreds of megabytes (a 40-megapixel PNG of 16 bits a channel, one colour, is 300 KB
// and decodes to 320 MiB) is refused before a byte of it is decoded.
//
//	size, err := picture.Measure(data)
//	if err == nil && size.Bytes > limit { … refuse size.String() … }
package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
)

// Size is what a picture's header says about its decoding.
type Size struct {
	Width, Height int
	// Depth is the bytes a pixel takes once decoded (8 for 16 bits a channel with alpha).
	Depth int
	// Bytes is Width × Height × Depth: what image.Decode allocates for the pixels.
	Bytes int64
}

// String describes the size in one phrase: "7000×6000 pixels of 8 bytes, 320 MiB decoded".
func (s Size) String() string {
	return fmt.Sprintf("%d×%d pixels of %d bytes, %d MiB decoded", s.Width, s.Height, s.Depth, (s.Bytes+1<<20-1)>>20)
}

// Measure reads the header of the picture in data with image.DecodeConfig (the formats
// whose decoders are registered: the caller imports image/png and the others) and returns
// its size. It takes time independent of the picture's pixels. A picture whose header
// cannot be read, or whose width or height is not positive, is an error.
func Measure(data []byte) (Size, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Size{}, err
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Size{}, fmt.Errorf("the picture is %d×%d pixels", cfg.Width, cfg.Height)
	}
	d := Depth(cfg.ColorModel)
	return Size{cfg.Width, cfg.Height, d, int64(cfg.Width) * int64(cfg.Height) * int64(d)}, nil
}

// Depth returns the bytes a pixel of colour model m takes in the image the standard
// decoders return for it: 1 for grey, alpha and palettes, 2 for 16-bit grey, 3 for YCbCr
// (the largest subsampling, 4:4:4), 4 for 8-bit RGBA and CMYK, and 8 for 16-bit RGBA and
// for any model it does not know.
func Depth(m color.Model) int {
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel:
		return 3
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel, color.NYCbCrAModel:
		return 4
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 8
}
