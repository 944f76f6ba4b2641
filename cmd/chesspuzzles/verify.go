// The share of tasks recomputed elsewhere (--verify) that merge and a distributed count share.

package main

import "github.com/chesspuzzles/chesspuzzles/internal/work/cluster"

// defaultVerify is the share of tasks "queens merge" and a distributed count recompute
// unless --verify says otherwise: enough to catch a machine that lies often, a few
// percent of the work.
const defaultVerify = cluster.DefaultVerify

// checkVerify returns a usage error unless f is a fraction from 0 to 1.
func checkVerify(f float64) error {
	if !(f >= 0 && f <= 1) {
		return usageErrorf("--verify must be a fraction from 0 to 1, got %v", f)
	}
	return nil
}
