//go:build linux

package frontier

import (
	"syscall"
)

// madvHugepage is MADV_HUGEPAGE of Linux's madvise(2).
const madvHugepage = 14

// unmap gives a mapping of mapBytes (or the tests' mapWords) back to the system.
func unmap(mem []byte) {
	if mem != nil {
		_ = syscall.Munmap(mem)
	}
}

// chunkMapMin is the size from which the chunks of the sorted runs (runs.go) are mapped from the system
// (given back at once when released) rather than taken from the Go heap.
const chunkMapMin = 1 << 20

// madvDontneed is MADV_DONTNEED of Linux's madvise(2).
const madvDontneed = 4

// mapBytes returns n zeroed bytes and the mapping to release with unmap (nil for a
// heap slice).
func mapBytes(n int) ([]byte, []byte) {
	if n < chunkMapMin {
		return make([]byte, n), nil
	}
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, n), nil
	}
	_ = syscall.Madvise(mem, madvHugepage)
	return mem, mem
}

// trimBytes gives back the memory of b past its first n bytes where it can and returns
// the bytes b still holds: for a mapping, its whole pages past n are dropped (a later
// unmap unmaps the rest); a heap slice is copied into one of n bytes when that saves
// a quarter of it or more.
func trimBytes(b, mem []byte, n int) ([]byte, int) {
	if mem == nil {
		if n <= len(b)*3/4 {
			c := make([]byte, n)
			copy(c, b)
			return c, n
		}
		return b, len(b)
	}
	page := syscall.Getpagesize()
	keep := (n + page - 1) / page * page
	if keep >= len(mem) || syscall.Madvise(mem[keep:], madvDontneed) != nil {
		return b, len(b)
	}
	return b[:n], keep
}
