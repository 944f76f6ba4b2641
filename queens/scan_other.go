//go:build !amd64 || purego

package queens

// haveScanAsm is false where there is no assembly scan: run uses scanRowsGo.
const haveScanAsm = false

// scanRowsAsm is never called without assembly; it is scanRowsGo so that the callers
// compile unchanged.
func scanRowsAsm(free, d1, d2, rem uint64, tie *[MaxCountN]uint16) (best uint, once, twice, thrice uint64) {
	return scanRowsGo(free, d1, d2, rem, tie)
}
