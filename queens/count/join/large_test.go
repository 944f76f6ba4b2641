package join

import (
	"testing"
)

// TestCountJoinLarge checks Q(n) and U(n) for n = 18 by the join against the published
// values (Known), as issue 13 asks of every default run, and n = 19 and 20 too with
// CHESSPUZZLES_LONG=1 (issue 24: N = 20 by its plan's tasks, counted and summed as shards
// are). They take about 4 s, 30 s and 170 s of CPU on one core without the race detector
// and far more with it, so under -race the test runs itself again in a child "go test"
// without -race and requires the child to report that it passed.
func TestCountJoinLarge(t *testing.T) {
	ns := []int{18}
	if longTests() {
		ns = append(ns, 19, 20)
	} else {
		t.Log("n = 19 and 20 run with CHESSPUZZLES_LONG=1 (about 200 s of CPU)")
	}
	checkPlansKnown(t, "TestCountJoinLarge", ns, newJoinPlan)
}
