//go:build amd64 && !purego

package queens

// haveScanAsm reports whether scanRowsAsm may run: it needs the POPCNT instruction, which
// every x86-64 processor since 2008 has.
var haveScanAsm = cpuHasPOPCNT()

// haveBMI2 reports whether the processor has the BMI1 and BMI2 instructions (Intel since
// 2013, AMD since 2015), with which scanRowsAsm takes four instructions fewer a row.
var haveBMI2 = cpuHasBMI2()

// haveSettleAsm reports whether settleAsm may run: it uses BMI1 and BMI2.
var haveSettleAsm = haveScanAsm && haveBMI2

// settleAsm is settleGo in assembly (scan_amd64.s), for processors with BMI1 and BMI2.
//
//go:noescape
func settleAsm(st *settleState)

// scanRowsAsm is scanRowsGo in assembly (scan_amd64.s).
//
//go:noescape
func scanRowsAsm(free, d1, d2, rem uint64, tie *[MaxCountN]uint16) (best uint, once, twice, thrice uint64)

// cpuHasPOPCNT reports the POPCNT bit of CPUID leaf 1.
func cpuHasPOPCNT() bool

// cpuHasBMI2 reports the BMI1 and BMI2 bits of CPUID leaf 7.
func cpuHasBMI2() bool
