package frontier

import "fmt"

// A split divides a sweep's states into parts at one cell, so that the tours can be
// counted as independent tasks: each task sweeps the cells before the split whole (cheap
// while the states are few), keeps of the states before the split cell only those of its
// part, and sweeps on to the end. Every state goes to exactly one part, and the count a
// state leads to does not depend on the others, so the counts of the parts sum to the
// whole count. The price is merging lost: two states of two parts that would meet later
// are carried twice.
//
// Which states a part keeps is decided by a hash of the packed state or of its far slots
// (the cells furthest ahead, the high digits of the packed state: labels are given from
// the far end, so they are a function of those cells alone). States that agree on their
// far cells agree there until those cells are placed, since only the cells before them
// can still change them, and only by adding edges; so keying on them keeps together
// states that are likely to merge.

// A path can hold every cell before the last cell is placed (the cells after it full
// already): such tours are finished by no state of a split layer after them, so they
// count in the part 0 of every split still to come, and in no other (totalsKept).

// Split is one split of a sweep's states (Options.Splits).
type Split struct {
	// Cell is the cell, in the sweep's order (column by column of the board turned to
	// have no more rows than columns, top to bottom), before which the states are split:
	// the states after cell Cell-1. It is from 1 to the board's cells less 1.
	Cell int
	// Parts is the number of parts (at least 1), Part the one kept (0 to Parts-1).
	Parts, Part int
	// Far is the number of slots, furthest ahead, that the key hashes (1 to the window's
	// 2R+1); 0 hashes the whole state.
	Far int
}

// SweepCells returns the cells of the sweep of a rows×cols board and its window's width
// (2R+1 on a board turned to have R ≤ C rows): the ranges of Split.Cell and Split.Far.
func SweepCells(rows, cols int) (cells, window int) {
	return rows * cols, 2*min(rows, cols) + 1
}

// check reports whether the splits fit a sweep of n cells and a window of W.
func checkSplits(sp []Split, n, W int) error {
	for _, s := range sp {
		if s.Cell < 1 || s.Cell >= n || s.Parts < 1 || s.Part < 0 || s.Part >= s.Parts || s.Far < 0 || s.Far > W {
			return fmt.Errorf("frontier: split %+v: the cell must be from 1 to %d, the part from 0 to the parts less 1, the far slots from 0 to %d", s, n-1, W)
		}
	}
	return nil
}

// partOf returns the part (0..parts-1) of the state of packed key k (without the +1 of a
// rec) by the split s on a window of W slots.
func partOf(k uint64, s *Split, W int) int {
	if s.Far > 0 {
		for range W - s.Far {
			k /= base
		}
	}
	// splitmix64's finaliser: every bit of k moves the result
	k ^= k >> 30
	k *= 0xbf58476d1ce4e5b9
	k ^= k >> 27
	k *= 0x94d049bb133111eb
	k ^= k >> 31
	return int(k % uint64(s.Parts))
}

// keepPart removes from in the states that the splits at cell v give to other parts.
func keepPart(in []rec, sp []Split, v, W int) []rec {
	for i := range sp {
		s := &sp[i]
		if s.Cell != v || s.Parts == 1 {
			continue
		}
		j := 0
		for _, r := range in {
			if partOf(r.k-1, s, W) == s.Part {
				in[j] = r
				j++
			}
		}
		in = in[:j]
	}
	return in
}

// totalsKept reports whether the tours finished while placing cell v count in the part of
// the splits sp: those of the splits at later cells go to part 0.
func totalsKept(sp []Split, v int) bool {
	for _, s := range sp {
		if s.Cell > v && s.Part != 0 {
			return false
		}
	}
	return true
}
