//go:build amd64 && !purego

package cpuid

// POPCNT reports the POPCNT bit of CPUID leaf 1 (every x86-64 processor since 2008).
var POPCNT = hasPOPCNT()

// BMI2 reports whether the processor has both the BMI1 and BMI2 instructions (Intel
// since 2013, AMD since 2015): CPUID leaf 7, EBX bits 3 and 8.
var BMI2 = hasBMI2()

func hasPOPCNT() bool

func hasBMI2() bool
