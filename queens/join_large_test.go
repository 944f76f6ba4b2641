package queens

import (
	"testing"
)

// TestCountJoinLarge checks Q(n) and U(n) for n = 18 and 19 by the join against the
// published values (Known), as issue 13 asks of every default run. They take about 30 s of
// CPU without the race detector (about 3 s and 24 s on one core) and far more with it, so under
// -race the test runs itself again in a child "go test" without -race and requires the
// child to report that it passed.
func TestCountJoinLarge(t *testing.T) {
	checkPlansKnown(t, "TestCountJoinLarge", []int{18, 19}, NewJoinPlan)
}
