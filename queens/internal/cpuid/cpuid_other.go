//go:build !amd64 || purego

package cpuid

// POPCNT, BMI2, AVX2, AVX512POPCNT, AVX512BYTES and Intel are false where there is no assembly to ask the processor.
const (
	POPCNT = false
	BMI2   = false
	AVX2   = false

	AVX512POPCNT = false
	AVX512BYTES  = false

	Intel = false
)
