package scan

import (
	"context"
	"testing"
)

// BenchmarkImage reads a 20×20 puzzle of package render's drawn at 1.7 times its size and
// compressed as a JPEG: 1040×1040 pixels.
func BenchmarkImage(b *testing.B) {
	p := puzzle(b, 20, 20)
	img := jpegOf(b, scaled(rendered(b, p, 30, true), 1.7), 80)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Image(context.Background(), img); err != nil {
			b.Fatal(err)
		}
	}
}
