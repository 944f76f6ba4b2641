package frontier

import "math/bits"

// table is an open-addressing table (linear probing) of states. e holds pairs (packed
// state+1, low 64 bits of its count) side by side, so that a probe touches one cache line;
// 0 marks an empty slot. hi holds the high 64 bits of the counts, nil while counts are 64-bit.
type table struct {
	e      []uint64
	hi     []uint64
	eMem   []byte // the mappings of e and hi (see mapWords), nil for heap slices
	hiMem  []byte
	n      int
	shift  uint
	carry  bool // a count carried out of its bits
	wide   bool
	limit  int64 // bytes allowed for this table, 0: none
	tooBig bool  // it would have had to grow past limit
	// touched sums the slots flush reads ahead, so that those reads are not optimized away
	touched uint64
}

func newTable(logCap uint, wide bool) *table {
	t := &table{wide: wide}
	t.alloc(logCap)
	return t
}

func (t *table) alloc(logCap uint) {
	c := 1 << logCap
	t.e, t.eMem = mapWords(2 * c)
	t.hi, t.hiMem = nil, nil
	if t.wide {
		t.hi, t.hiMem = mapWords(c)
	}
	t.shift = 64 - logCap
	t.n = 0
}

func (t *table) slotBytes() int64 {
	if t.wide {
		return 24
	}
	return 16
}

// release gives the table's memory back; the table is unusable after.
func (t *table) release() {
	unmap(t.eMem)
	unmap(t.hiMem)
	t.e, t.hi, t.eMem, t.hiMem = nil, nil, nil, nil
}

func (t *table) cap() int { return len(t.e) / 2 }

func (t *table) bytes() int64 { return int64(t.cap()) * t.slotBytes() }

func (t *table) reset() {
	clear(t.e)
	t.n = 0
	t.tooBig = false
}

// home is the slot where the search for k starts: the top bits of a full mix of k's bits
// (splitmix64's finalizer). A single multiplication, whose top bits depend little on
// the low bits of k, made clusters of thousands of slots on the states of the mirror join.
func (t *table) home(k uint64) uint64 {
	k = (k ^ k>>30) * 0xBF58476D1CE4E5B9
	k = (k ^ k>>27) * 0x94D049BB133111EB
	return (k ^ k>>31) >> t.shift
}

// add adds the count (hi, lo) to the state whose packed form+1 is k.
func (t *table) add(k, lo, hi uint64) {
	mask := uint64(t.cap() - 1)
	i := t.home(k)
	for {
		switch t.e[2*i] {
		case 0:
			t.e[2*i] = k
			t.e[2*i+1] = lo
			if t.wide {
				t.hi[i] = hi
			}
			t.n++
			if 10*t.n > 7*t.cap() {
				t.grow()
			}
			return
		case k:
			var c uint64
			t.e[2*i+1], c = bits.Add64(t.e[2*i+1], lo, 0)
			if t.wide {
				t.hi[i], c = bits.Add64(t.hi[i], hi, c)
			}
			if c != 0 {
				t.carry = true
			}
			return
		}
		i = (i + 1) & mask
	}
}

func (t *table) grow() {
	logCap := 64 - t.shift + 1
	if t.limit > 0 && int64(1)<<logCap*t.slotBytes() > t.limit {
		t.tooBig = true
		// go on at a higher load until the step ends and reports it
		if 20*t.n < 19*t.cap() {
			return
		}
	}
	e, hi := t.e, t.hi
	eMem, hiMem := t.eMem, t.hiMem
	t.alloc(logCap)
	defer unmap(eMem)
	defer unmap(hiMem)
	for i := 0; i < len(e); i += 2 {
		if k := e[i]; k != 0 {
			var h uint64
			if hi != nil {
				h = hi[i/2]
			}
			t.insertNew(k, e[i+1], h)
		}
	}
}

func (t *table) insertNew(k, lo, hi uint64) {
	mask := uint64(t.cap() - 1)
	i := t.home(k)
	for t.e[2*i] != 0 {
		i = (i + 1) & mask
	}
	t.e[2*i] = k
	t.e[2*i+1] = lo
	if t.wide {
		t.hi[i] = hi
	}
	t.n++
}

// tableBatch is the number of made states added to the table together: their slots are first
// all read (so that the processor fetches those cache lines in parallel), then updated.
const tableBatch = 512

// flush adds the batch to t.
func (t *table) flush(out []rec) {
	var x uint64
	for _, o := range out {
		x += t.e[2*t.home(o.k)]
	}
	t.touched += x
	for _, o := range out {
		t.add(o.k, o.lo, o.hi)
	}
}

// tables is the store of two hash tables: cur holds the layer being read, next the layer
// being written; turn swaps them and empties the new next, which keeps its size. Each is
// allowed half the memory limit.
//
// Cost: a made state is one probe of next at a random place, a cache miss once the table
// outgrows the caches (about 1 µs a state read on 8×8 closed; bench/README.md); the misses
// of a batch of tableBatch states are waited for together. Memory: two tables of 16 bytes a
// slot (24 with 128-bit counts), a power of two of slots filled to at most 70%; tables past
// mapMin are mapped from the system on huge pages (mem_linux.go).
type tables struct {
	cur, next *table
	limit     int64 // bytes allowed for both, 0: none
	i         int   // the next slot of cur to read
}

// newTables returns a store of two empty tables of wide (128-bit) counts or not, holding at
// most limit bytes (0: no limit).
func newTables(wide bool, limit int64) *tables {
	s := &tables{cur: newTable(10, wide), next: newTable(10, wide), limit: limit}
	if limit > 0 {
		s.cur.limit, s.next.limit = limit/2, limit/2
	}
	return s
}

func (s *tables) batch() (int, int) { return tableBatch, 0 }

func (s *tables) read(buf []rec) []rec {
	cur := s.cur
	for ; s.i < len(cur.e) && len(buf) < cap(buf); s.i += 2 {
		k := cur.e[s.i]
		if k == 0 {
			continue
		}
		var hi uint64
		if cur.wide {
			hi = cur.hi[s.i/2]
		}
		buf = append(buf, rec{k, cur.e[s.i+1], hi})
	}
	return buf
}

func (s *tables) write(buf []rec) error {
	s.next.flush(buf)
	return nil
}

func (s *tables) turn() (int, error) {
	cur, next := s.cur, s.next
	if next.tooBig {
		// the next table must double, and the step after reads it while writing one at
		// least as large
		need := max(cur.bytes()+2*next.bytes(), 4*next.bytes())
		return 0, &MemoryError{Need: need, Limit: s.limit}
	}
	s.cur, s.next = next, cur
	s.next.reset()
	s.i = 0
	return s.cur.n, nil
}

func (s *tables) carried() bool { return s.cur.carry || s.next.carry }

func (s *tables) bytes() int64 { return s.cur.bytes() + s.next.bytes() }

func (s *tables) release() {
	s.cur.release()
	s.next.release()
}
