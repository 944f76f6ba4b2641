package frontier

import (
	"errors"
	"fmt"
)

// rec is a state with its count: k is the packed state plus one (so that 0 is never a
// state), (hi, lo) the count; hi is 0 while counts are 64-bit.
type rec struct{ k, lo, hi uint64 }

// A store holds a sweep's states between two cells: the layer being read (the states after
// the last cell placed, each once with its count) and the layer being written (the states
// the next cell makes, equal ones added up). Two types implement it: tables (two hash
// tables, one read while the other is written; table_test.go), which the tests check runs
// against, and runs (sorted runs of compact records, given back as they are read; runs.go),
// which Count and Join use. The
// sweep driver (sweep.go) is written once against it.
//
// A store is used by one goroutine. Counts that carry out of their bits (64, or 128 with
// wide counts) are noted, not wrapped silently: carried reports them.
type store interface {
	// batch returns how many made states write takes at a time and the log of the slots
	// of the sweep's cache of made states to put before it (0: none).
	batch() (recs, cacheBits int)
	// read appends states of the layer being read to buf, up to its capacity, and returns
	// it; empty once the layer is read. Each state comes once, in no particular order.
	read(buf []rec) []rec
	// write adds made states to the layer being written; buf may be reused after. It
	// returns a *MemoryError if that passes the store's memory limit.
	write(buf []rec) error
	// turn ends a step: the layer written becomes the layer to read. It returns its
	// number of states, or a *MemoryError.
	turn() (states int, err error)
	// carried reports whether a count has carried out of its bits.
	carried() bool
	// bytes returns the most memory the store held during the last step.
	bytes() int64
	// release gives all memory back; the store is unusable after.
	release()
}

// MemoryError is returned when a count would need more memory than allowed.
type MemoryError struct {
	Need, Limit int64 // bytes
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("needs %d bytes of memory, limit %d", e.Need, e.Limit)
}

// ErrOverflow reports a count past 128 bits.
var ErrOverflow = errors.New("count overflows 128 bits")

// errWide asks for a rerun with 128-bit counts.
var errWide = errors.New("count needs 128-bit weights")

// readAll reads the whole layer of st into one slice.
func readAll(st store) []rec {
	var all []rec
	buf := make([]rec, 0, readBatch)
	for {
		buf = st.read(buf[:0])
		if len(buf) == 0 {
			return all
		}
		all = append(all, buf...)
	}
}
