//go:build !linux

package frontier

// unmap does nothing: heap memory is freed by the collector.
func unmap([]byte) {}

// mapBytes returns n zeroed bytes from the Go heap (elsewhere than Linux).
func mapBytes(n int) ([]byte, []byte) { return make([]byte, n), nil }

// trimBytes returns b cut to its first n bytes (copied when that saves a quarter of it or
// more, so that the collector can free the rest) and the bytes it still holds.
func trimBytes(b, _ []byte, n int) ([]byte, int) {
	if n <= len(b)*3/4 {
		c := make([]byte, n)
		copy(c, b)
		return c, n
	}
	return b, len(b)
}
