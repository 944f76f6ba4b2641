//go:build amd64 && !purego

package queens

// haveScanAsm reports whether scanRowsAsm may run: it needs the POPCNT instruction, which
// every x86-64 processor since 2008 has.
var haveScanAsm = cpuHasPOPCNT()

// scanRowsAsm is scanRowsGo in assembly (scan_amd64.s).
//
//go:noescape
func scanRowsAsm(free, d1, d2, rem uint64, tie *[MaxCountN]uint8) (best uint, once, twice, thrice uint64)

// cpuHasPOPCNT reports the POPCNT bit of CPUID leaf 1.
func cpuHasPOPCNT() bool
