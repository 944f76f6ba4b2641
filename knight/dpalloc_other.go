//go:build !linux

package knight

// dpAlloc returns n zeroed words from the Go heap (elsewhere than Linux).
func dpAlloc(n int) ([]uint64, []byte) { return make([]uint64, n), nil }

// dpRelease does nothing: heap tables are freed by the collector.
func dpRelease([]byte) {}

// dpMapMin is the size of the run store's chunks (on Linux, the size from which memory is
// mapped rather than taken from the heap; here everything comes from the heap).
const dpMapMin = 64 << 20
