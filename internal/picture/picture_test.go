package picture

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"
)

// TestMeasure encodes small pictures of each kind the decoders return and checks that
// Measure's depth is the bytes a pixel takes in the image image.Decode returns for it.
func TestMeasure(t *testing.T) {
	r := image.Rect(0, 0, 64, 48) // whole blocks of JPEG's largest (16×16), which it pads to
	for _, tc := range []struct {
		name   string
		encode func(*bytes.Buffer) error
	}{
		{"png gray", func(b *bytes.Buffer) error { return png.Encode(b, image.NewGray(r)) }},
		{"png gray16", func(b *bytes.Buffer) error { return png.Encode(b, image.NewGray16(r)) }},
		{"png rgba", func(b *bytes.Buffer) error { return png.Encode(b, image.NewRGBA(r)) }},
		{"png nrgba", func(b *bytes.Buffer) error { return png.Encode(b, image.NewNRGBA(r)) }},
		{"png nrgba64", func(b *bytes.Buffer) error { return png.Encode(b, image.NewNRGBA64(r)) }},
		{"png rgba64", func(b *bytes.Buffer) error { return png.Encode(b, image.NewRGBA64(r)) }},
		{"png paletted", func(b *bytes.Buffer) error {
			return png.Encode(b, image.NewPaletted(r, color.Palette{color.Black, color.White}))
		}},
		{"jpeg ycbcr", func(b *bytes.Buffer) error { return jpeg.Encode(b, image.NewRGBA(r), nil) }},
		{"jpeg gray", func(b *bytes.Buffer) error { return jpeg.Encode(b, image.NewGray(r), nil) }},
		{"gif", func(b *bytes.Buffer) error { return gif.Encode(b, image.NewRGBA(r), nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.encode(&b); err != nil {
				t.Fatal(err)
			}
			s, err := Measure(b.Bytes())
			if err != nil {
				t.Fatalf("Measure: %v", err)
			}
			img, _, err := image.Decode(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if got := pixelBytes(img); s.Width != 64 || s.Height != 48 || s.Bytes < int64(got) {
				t.Errorf("Measure = %+v, want 64×48 and at least the %d bytes its %T holds", s, got, img)
			}
		})
	}
}

// pixelBytes is the length of the pixel slices of the image the standard decoders return.
func pixelBytes(img image.Image) int {
	switch m := img.(type) {
	case *image.Gray:
		return len(m.Pix)
	case *image.Gray16:
		return len(m.Pix)
	case *image.RGBA:
		return len(m.Pix)
	case *image.NRGBA:
		return len(m.Pix)
	case *image.RGBA64:
		return len(m.Pix)
	case *image.NRGBA64:
		return len(m.Pix)
	case *image.Paletted:
		return len(m.Pix)
	case *image.YCbCr:
		return len(m.Y) + len(m.Cb) + len(m.Cr)
	}
	return 1 << 30
}

func TestMeasureRefuses(t *testing.T) {
	for _, data := range []string{"", "not a picture", "\x89PNG\r\n\x1a\n"} {
		if s, err := Measure([]byte(data)); err == nil {
			t.Errorf("Measure(%q) = %+v, want an error", data, s)
		}
	}
}
