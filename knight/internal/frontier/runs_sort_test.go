package frontier

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortDedupPasses checks the run store's sort against a plain sort and sum, with 64-bit
// counts and 128-bit ones, on keys whose digits of radixBits bits vary in 0 to 6 passes
// (sortDedup moves 16-byte records in the middle passes when there are three or more and
// the counts are of 64 bits, whichever buffer each pass ends in), with repeated keys.
func TestSortDedupPasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, wide := range []bool{false, true} {
		for varying := 0; varying <= 6; varying++ {
			for _, n := range []int{300, 5000} {
				// digits 0..varying-1 (from a random choice of the six places) vary,
				// the others hold one value for every key
				places := rng.Perm(6)[:varying]
				base := uint64(1) << 60
				buf := make([]rec, n)
				for i := range buf {
					k := base
					for _, p := range places {
						k |= uint64(rng.IntN(7)) << (radixBits * p)
					}
					if i > 0 && rng.IntN(4) == 0 {
						k = buf[rng.IntN(i)].k // a repeated key
					}
					buf[i] = rec{k: k, lo: uint64(rng.IntN(1000)) + 1}
					if wide {
						buf[i].hi = uint64(rng.IntN(3))
					}
				}
				want := slices.Clone(buf)
				slices.SortStableFunc(want, func(x, y rec) int { return cmp.Compare(x.k, y.k) })
				j := 0
				for i := 1; i < len(want); i++ {
					if want[i].k == want[j].k {
						want[j].lo += want[i].lo
						want[j].hi += want[i].hi
					} else {
						j++
						want[j] = want[i]
					}
				}
				want = want[:j+1]
				s := newRuns(context.Background(), defaultRuns, wide, 0)
				got, err := s.sortDedup(buf)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("wide=%t, %d records, %d varying digits: sortDedup gave %d records, want %d (or different counts)", wide, n, varying, len(got), len(want))
				}
			}
		}
	}
}
