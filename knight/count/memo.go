package count

import "math/bits"

// emptyState marks a free entry of a stateTable; no memo key has all 64 bits set, since
// its knight square is less than memoMaxSquares.
const emptyState = ^uint64(0)

// stateTable is the memo of the meet-in-the-middle search (search.go): an
// open-addressing hash table (linear probing, Fibonacci hashing) from middle states to
// counts, kept at most three quarters full; it is about twice as fast as a
// Go map here. add and get take constant expected time; an entry takes 16 bytes.
type stateTable struct {
	keys  []uint64
	vals  []uint64
	n     int
	shift uint
}

func newStateTable(hint int) *stateTable {
	t := &stateTable{}
	t.reset(hint)
	return t
}

// reset empties t, sized for about hint entries.
func (t *stateTable) reset(hint int) {
	size := 1 << 10
	for size*3/4 < hint {
		size *= 2
	}
	if size != len(t.keys) {
		t.keys = make([]uint64, size)
		t.vals = make([]uint64, size)
	}
	for i := range t.keys {
		t.keys[i] = emptyState
	}
	t.n = 0
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

// add adds c to the count of state k and reports whether the count overflowed.
func (t *stateTable) add(k, c uint64) (overflow bool) {
	if (t.n+1)*4 > len(t.keys)*3 {
		t.grow()
	}
	mask := len(t.keys) - 1
	for i := int((k * 0x9E3779B97F4A7C15) >> t.shift); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			var carry uint64
			t.vals[i], carry = bits.Add64(t.vals[i], c, 0)
			return carry != 0
		case emptyState:
			t.keys[i], t.vals[i] = k, c
			t.n++
			return false
		}
	}
}

// grow doubles the table.
func (t *stateTable) grow() {
	keys, vals := t.keys, t.vals
	t.keys = make([]uint64, 2*len(keys))
	t.vals = make([]uint64, 2*len(keys))
	for i := range t.keys {
		t.keys[i] = emptyState
	}
	t.n = 0
	t.shift--
	for i, k := range keys {
		if k != emptyState {
			t.add(k, vals[i])
		}
	}
}

// get returns the count stored for state k.
func (t *stateTable) get(k uint64) (uint64, bool) {
	mask := len(t.keys) - 1
	for i := int((k * 0x9E3779B97F4A7C15) >> t.shift); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return t.vals[i], true
		case emptyState:
			return 0, false
		}
	}
}
