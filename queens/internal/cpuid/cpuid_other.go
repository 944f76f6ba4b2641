//go:build !amd64 || purego

package cpuid

// POPCNT and BMI2 are false where there is no assembly to ask the processor.
const (
	POPCNT = false
	BMI2   = false
)
