package cluster

import (
	"math/big"
	"strings"
	"sync"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// publishedFunc is the type of run.go's published: the published total of a plan, if any.
type publishedFunc = func(work.Plan) (*big.Int, bool)

// The tests change what a run takes as a plan's published count plan by plan, not by
// swapping the package's published, so that tests that do so run at once: TestMain sets
// published, once, to byPlan, which looks the plan up in planHooks; mustPlan and
// mustKnight give a plan the hook of the test that makes it (testHooks, by test name, a
// subtest taking its parent's).
var (
	planHooks sync.Map // work.Plan → publishedFunc
	testHooks sync.Map // test name → publishedFunc
)

// hookPublished replaces published with byPlan (TestMain).
func hookPublished() {
	plain := published
	published = func(p work.Plan) (*big.Int, bool) {
		if f, ok := planHooks.Load(p); ok {
			return f.(publishedFunc)(p)
		}
		return plain(p)
	}
}

// noPublished switches the published counts off for the plans the test (or its subtests)
// makes from now on with mustPlan or mustKnight: every N counts as N = 28, every knight
// board as one whose count is not published.
func noPublished(t *testing.T) {
	publishedAs(t, func(work.Plan) (*big.Int, bool) { return nil, false })
}

// publishedAs makes f the published count of the plans the test (or its subtests) makes
// from now on with mustPlan or mustKnight.
func publishedAs(t *testing.T, f publishedFunc) {
	name := t.Name()
	testHooks.Store(name, f)
	t.Cleanup(func() { testHooks.Delete(name) })
}

// hookPlan gives plan p the hook of test t or of the nearest test above it that has one.
func hookPlan(t *testing.T, p work.Plan) {
	for name := t.Name(); ; {
		if f, ok := testHooks.Load(name); ok {
			planHooks.Store(p, f)
			t.Cleanup(func() { planHooks.Delete(p) })
			return
		}
		i := strings.LastIndexByte(name, '/')
		if i < 0 {
			return
		}
		name = name[:i]
	}
}
