//go:build amd64 && !purego

package frames

import (
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/internal/cpuid"
)

// haveScanAsm reports whether scanRowsAsm may run: it needs the POPCNT instruction, which
// every x86-64 processor since 2008 has.
var haveScanAsm = cpuid.POPCNT

// haveBMI2 reports whether the processor has the BMI1 and BMI2 instructions (Intel since
// 2013, AMD since 2015), with which scanRowsAsm takes four instructions fewer a row.
var haveBMI2 = cpuid.BMI2

// haveSettleAsm reports whether settleAsm may run: it uses BMI1 and BMI2.
var haveSettleAsm = haveScanAsm && haveBMI2

// settleAsm is settleGo in assembly (scan_amd64.s), for processors with BMI1 and BMI2.
//
//go:noescape
func settleAsm(st *settleState)

// scanRowsAsm is scanRowsGo in assembly (scan_amd64.s).
//
//go:noescape
func scanRowsAsm(free, d1, d2, rem uint64, tie *[count.MaxN]uint16) (best uint, once, twice, thrice uint64)
