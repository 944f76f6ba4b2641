//go:build !linux

package knight

// dpAlloc returns n zeroed words from the Go heap (elsewhere than Linux).
func dpAlloc(n int) ([]uint64, []byte) { return make([]uint64, n), nil }

// dpRelease does nothing: heap tables are freed by the collector.
func dpRelease([]byte) {}
