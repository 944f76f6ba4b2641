//go:build amd64 && !purego

package join

import "github.com/chesspuzzles/chesspuzzles/queens/internal/cpuid"

// havePEXT reports whether extractPEXT may run: BMI2 (detected by CPUID with the scanner's
// package cpuid). On AMD before Zen 3 PEXT is microcoded and slow, but it only
// runs once per stored pattern and query, never per pair.
var havePEXT = cpuid.BMI2

// extractPEXT writes PEXT(src[i], mask) to dst[i] for i < n (pext_amd64.s).
//
//go:noescape
func extractPEXT(dst, src *uint64, n int, mask uint64)
