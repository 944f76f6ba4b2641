// Package boundplan makes plans of many tiny tasks for the tests and benchmarks of what
// runs plans (internal/work and its cluster runner, bench/coordbench): the fine frames plan
// of a small N cut with a bound on each task's Cost of the caller's choosing instead of
// the plan's own (a bound of 1 cuts N = 14 into about 4·10⁵ tasks of microseconds).
//
// Such a plan's Version is the fine plan's, but unless the bound is the plan's own, its
// ids are not those of a real plan: its results must never be mixed with a real count's
// (run it on a server, with checkpoint or shard files, of its own). So it is no plan
// version that a command can ask for: the runners' tests and benchmarks get it here, from
// frames.NewBound (whose doc says the same), by a name that says what it is.
package boundplan

import (
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// New returns the fine frames plan of n cut with bound on each task's Cost (0 taken as
// 1), built and held compactly (a second or so at N = 14), or an error if n has no fine
// plan.
func New(n int, bound uint64) (count.Plan, error) { return frames.NewBound(n, bound) }
