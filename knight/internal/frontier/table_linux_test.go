package frontier

import (
	"syscall"
	"unsafe"
)

// mapMin is the size from which the hash tables (table_test.go) are mapped directly from the
// system rather than taken from the Go heap: mapped tables are given back the moment they
// are replaced (a heap table would stay until the collector runs, doubling the peak), and
// are asked to sit on huge pages, which spares most of the address-translation misses of
// probing a table of gigabytes at random.
const mapMin = 64 << 20

// mapWords returns n zeroed words and the mapping to give back with unmap (nil for a heap
// slice).
func mapWords(n int) ([]uint64, []byte) {
	if n*8 < mapMin {
		return make([]uint64, n), nil
	}
	mem, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]uint64, n), nil
	}
	_ = syscall.Madvise(mem, madvHugepage) // only a hint: no huge pages is slower, not wrong
	return unsafe.Slice((*uint64)(unsafe.Pointer(&mem[0])), n), mem
}
