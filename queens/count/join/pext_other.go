//go:build !amd64 || purego

package join

// havePEXT is false without assembly.
const havePEXT = false

// extractPEXT is never called without assembly (havePEXT is false).
func extractPEXT(dst, src *uint64, n int, mask uint64) {
	panic("queens: extractPEXT without BMI2")
}
