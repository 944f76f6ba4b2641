package cluster

import (
	"math/rand/v2"
	"slices"
)

// resample makes the verifier's sample k tasks that include as many of the tasks already
// verified (two agreeing results read from the stream) as it can, the rest chosen at
// random: what a run that found no snapshot does once it has read the stored results, so
// that a job verified before is not sampled anew and verified a second time. The tasks
// verified were themselves a sample the coordinator drew at random (its second
// computations are sealed by its secret), so the choice stays the coordinator's. It
// takes time proportional to the plan's tasks.
func (v *verifier) resample(k int) {
	n := len(v.fp)
	if k >= n || v.agreed.len() == 0 {
		return // every task is sampled, or nothing verified to keep
	}
	s := newIDSet(n)
	kept := slices.Collect(v.agreed.ids())
	if len(kept) > k {
		rand.Shuffle(len(kept), func(i, j int) { kept[i], kept[j] = kept[j], kept[i] })
		kept = kept[:k]
	}
	for _, id := range kept {
		s.add(id)
	}
	if 2*k > n {
		for _, id := range rand.Perm(n) {
			if s.len() == k {
				break
			}
			s.add(id)
		}
	}
	for s.len() < k {
		s.add(rand.IntN(n))
	}
	v.sample = s
}
