package join

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestCountJoinLarge checks Q(n) and U(n) for n = 18 by the join against the published
// values (Known), as issue 13 asks of every default run, and more with CHESSPUZZLES_LONG
// (issues 24 and 33): n = 19, 20 and 21 with CHESSPUZZLES_LONG=1, and 22 too with
// CHESSPUZZLES_LONG=all; CHESSPUZZLES_JOIN_NS (comma-separated, with CHESSPUZZLES_LONG) names
// the n to check instead, e.g. CHESSPUZZLES_JOIN_NS=22 for Q(22) alone. Each n is its
// plan's tasks counted on two goroutines and summed, as shards are. On one core of the
// 2-core EPYC without the race detector they take about 4 s, 30 s, 170 s, 26 min (21) and
// 2.6 h (22) of CPU (bench/log/2026-11-27.md, "Issue 33 items 3–5"), and far more with it, so under
// -race the test runs itself again in a child "go test" without -race and requires the
// child to report that it passed.
func TestCountJoinLarge(t *testing.T) {
	ns := []int{18}
	if longTests() {
		ns = append(ns, 19, 20, 21)
		if os.Getenv("CHESSPUZZLES_LONG") == "all" {
			ns = append(ns, 22)
		}
		if v := os.Getenv("CHESSPUZZLES_JOIN_NS"); v != "" {
			var err error
			if ns, err = parseJoinNs(v); err != nil {
				t.Fatal(err)
			}
		}
	} else {
		t.Log("n = 19, 20 and 21 run with CHESSPUZZLES_LONG=1 (about 35 min of CPU), 22 with =all (2.6 h more)")
	}
	checkPlansKnown(t, "TestCountJoinLarge", ns, newJoinPlan)
}

// parseJoinNs reads CHESSPUZZLES_JOIN_NS: n from MinN to the last published count the join
// reaches, comma-separated.
func parseJoinNs(v string) ([]int, error) {
	hi := min(MaxN, count.MaxKnownN)
	var ns []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < MinN || n > hi {
			return nil, fmt.Errorf("CHESSPUZZLES_JOIN_NS=%q: want n from %d to %d, comma-separated", v, MinN, hi)
		}
		ns = append(ns, n)
	}
	return ns, nil
}
