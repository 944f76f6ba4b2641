package frontier

import (
	"errors"
	"math/bits"
)

// The merges of sorted runs that the spilling count makes (spill.go: the runs in memory
// into a run file at a cut or a turn; job.go: the run files into the next layer's ranges,
// and a cut's runs into one at a compaction) pick the least key of their sources by a
// tournament tree of losers whose nodes hold the keys: one comparison a level of the tree
// a record, no call through an interface, and the loop over the sources written once for
// each concrete kind of source (mergeMem, mergeCarried), so that their next is a direct
// call. Equal keys of several sources are added together before the one put of the key.

// loserNode is a game of a loserTree: the key of its loser and the source it came from.
type loserNode struct {
	k uint64
	i int32
}

// loserTree picks the least key of n sources. Its leaves are K ≥ n (a power of two);
// node[1..K-1] hold the losers of the games, node[0] the winner. A source at its end
// plays with the key endKey, which no record holds.
type loserTree struct {
	node []loserNode
	k    int // leaves
	live int // sources not yet at their end
}

// endKey is the key of a source at its end: above every key of a record (keys are below
// 11^17 + 1), which the merges check (errMergeKey) rather than assume.
const endKey = ^uint64(0)

// errMergeKey is a source's key of endKey: the merge cannot place it.
var errMergeKey = errors.New("frontier: a run's key is the merge's end mark (2^64-1)")

// newLoserTree returns the tree of the first keys of n sources, first[i] being source i's
// (endKey if it has none), of which live are not at their end.
func newLoserTree(first []uint64, live int) *loserTree {
	n := len(first)
	k := 1
	if n > 1 {
		k = 1 << bits.Len(uint(n-1))
	}
	t := &loserTree{node: make([]loserNode, k), k: k, live: live}
	win := make([]loserNode, 2*k)
	for i := range k {
		win[k+i] = loserNode{endKey, int32(i)}
		if i < n {
			win[k+i].k = first[i]
		}
	}
	for j := k - 1; j >= 1; j-- {
		l, r := win[2*j], win[2*j+1]
		if r.k < l.k {
			l, r = r, l
		}
		win[j], t.node[j] = l, r
	}
	t.node[0] = win[1]
	return t
}

// replace gives the winner w (node[0].i) its source's next key nk (endKey at its end,
// which the caller counts in live) and plays its games again up to the root.
func (t *loserTree) replace(w int32, nk uint64) {
	for j := (int(w) + t.k) >> 1; j >= 1; j >>= 1 {
		if n := t.node[j]; n.k < nk {
			t.node[j] = loserNode{nk, w}
			w, nk = n.i, n.k
		}
	}
	t.node[0] = loserNode{nk, w}
}

// done says whether the tree's winner is the end mark: every source at its end, or
// errMergeKey if a source is not (it holds a key of endKey).
func (t *loserTree) done() (bool, error) {
	if t.node[0].k != endKey {
		return false, nil
	}
	if t.live > 0 {
		return true, errMergeKey
	}
	return true, nil
}

// mergeMem merges the runs in memory rds into put, adding the counts of equal keys by add;
// it looks at ctx every 2^16 records. (Before: heapMerge, now merge_test.go's reference.)
func mergeMem(ctx interface{ Err() error }, rds []runReader, add func(dlo, dhi *uint64, lo, hi uint64), put func(k, lo, hi uint64) error) error {
	if len(rds) == 0 {
		return nil
	}
	first := make([]uint64, len(rds))
	live := 0
	for i := range rds {
		first[i] = endKey
		if rds[i].next() {
			first[i] = rds[i].k
			live++
		}
	}
	t := newLoserTree(first, live)
	var curK, lo, hi uint64
	have := false
	for m := 0; ; m++ {
		if m&0xffff == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if end, err := t.done(); end {
			if err != nil {
				return err
			}
			break
		}
		w := t.node[0].i
		rd := &rds[w]
		if have && rd.k == curK {
			add(&lo, &hi, rd.lo, rd.hi)
		} else {
			if have {
				if err := put(curK, lo, hi); err != nil {
					return err
				}
			}
			curK, lo, hi, have = rd.k, rd.lo, rd.hi, true
		}
		nk := endKey
		if rd.next() {
			nk = rd.k
		} else {
			t.live--
		}
		t.replace(w, nk)
	}
	if have {
		return put(curK, lo, hi)
	}
	return nil
}

// mergeCarried merges the run files' readers rds of a range of a job into put, adding the
// counts of equal keys in 128 bits; it says whether a sum carried out of them, and looks
// at ctx every 2^16 records. (Before: heapMerge, now merge_test.go's reference.)
func mergeCarried(ctx interface{ Err() error }, rds []*carried, put func(k, lo, hi uint64) error) (bool, error) {
	if len(rds) == 0 {
		return false, nil
	}
	first := make([]uint64, len(rds))
	live := 0
	for i, r := range rds {
		first[i] = endKey
		if r.next() {
			first[i] = r.c.k
			live++
		}
	}
	t := newLoserTree(first, live)
	var curK, lo, hi uint64
	have, carry := false, false
	for m := 0; ; m++ {
		if m&0xffff == 0 && ctx.Err() != nil {
			return carry, ctx.Err()
		}
		if end, err := t.done(); end {
			if err != nil {
				return carry, err
			}
			break
		}
		w := t.node[0].i
		r := rds[w]
		c := r.c
		if have && c.k == curK {
			var cy uint64
			lo, cy = bits.Add64(lo, c.v0, 0)
			hi, cy = bits.Add64(hi, c.v1, cy)
			if cy != 0 {
				carry = true
			}
		} else {
			if have {
				if err := put(curK, lo, hi); err != nil {
					return carry, err
				}
			}
			curK, lo, hi, have = c.k, c.v0, c.v1, true
		}
		nk := endKey
		if r.next() {
			nk = c.k
		} else {
			t.live--
		}
		t.replace(w, nk)
	}
	if have {
		return carry, put(curK, lo, hi)
	}
	return carry, nil
}
