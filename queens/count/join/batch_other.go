//go:build !amd64 || purego

package join

// buildBatchFast is false without assembly: buildBatch builds every batch in Go.
func (m *matcher) buildBatchFast([]uint64, []uint64, *[8]uint64) bool { return false }
