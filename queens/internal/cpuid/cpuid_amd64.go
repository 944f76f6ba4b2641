//go:build amd64 && !purego

package cpuid

// POPCNT reports the POPCNT bit of CPUID leaf 1 (every x86-64 processor since 2008).
var POPCNT = hasPOPCNT()

// BMI2 reports whether the processor has both the BMI1 and BMI2 instructions (Intel
// since 2013, AMD since 2015): CPUID leaf 7, EBX bits 3 and 8.
var BMI2 = hasBMI2()

func hasPOPCNT() bool

func hasBMI2() bool

// AVX2 reports AVX2 (CPUID leaf 7) and an operating system that saves the 256-bit
// registers (the YMM state enabled in XCR0).
var AVX2 = hasAVX2()

// AVX512POPCNT reports AVX-512 F and VPOPCNTDQ (CPUID leaf 7: Intel Ice Lake and later,
// AMD Zen 4 and later) and an operating system that saves the 512-bit registers (the ZMM
// state enabled in XCR0).
var AVX512POPCNT = hasAVX512Popcnt()

func hasAVX2() bool

func hasAVX512Popcnt() bool
