//go:build !amd64 || purego

package cpuid

// POPCNT, BMI2, AVX2 and AVX512POPCNT are false where there is no assembly to ask the processor.
const (
	POPCNT = false
	BMI2   = false
	AVX2   = false

	AVX512POPCNT = false
)
