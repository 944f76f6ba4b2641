//go:build !amd64 || purego

package frames

import "github.com/chesspuzzles/chesspuzzles/queens/count"

// haveScanAsm and haveSettleAsm are false where there is no assembly: run uses settleGo
// and scanRowsGo.
const (
	haveScanAsm   = false
	haveSettleAsm = false
)

// settleAsm is never called without assembly; it is settleGo.
func settleAsm(st *settleState) { settleGo(st) }

// scanRowsAsm is never called without assembly; it is scanRowsGo so that the callers
// compile unchanged.
func scanRowsAsm(free, d1, d2, rem uint64, tie *[count.MaxN]uint16) (best uint, once, twice, thrice uint64) {
	return scanRowsGo(free, d1, d2, rem, tie)
}
