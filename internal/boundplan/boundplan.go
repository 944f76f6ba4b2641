// Package boundplan makes plans of many tiny tasks for the tests and benchmarks of what
// runs plans (internal/work and its cluster runner, bench/coordbench): the fine frames plan
// of a small N cut with a bound on each task's Cost of the caller's choosing instead of
// the plan's own (a bound of 1 cuts N = 14 into about 4·10⁵ tasks of microseconds).
//
// Such a plan's Version is the fine plan's, but unless the bound is the plan's own, its
// ids are not those of a real plan: its results must never be mixed with a real count's
// (run it on a server, with checkpoint or shard files, of its own). So it is not public
// API: package frames registers the constructor here when it is initialized (the pattern
// of Go's internal/testlog), and only this module can import this package.
package boundplan

import (
	"errors"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// newPlan is the constructor package frames registered, or nil.
var newPlan func(n int, bound uint64) (count.Plan, error)

// Register is for package frames' initialization only: f(n, bound) returns the fine plan
// of n cut with bound (0 taken as 1). It panics if called twice.
func Register(f func(n int, bound uint64) (count.Plan, error)) {
	if newPlan != nil {
		panic("boundplan: Register called twice")
	}
	newPlan = f
}

// New returns the fine frames plan of n cut with bound on each task's Cost (0 taken as
// 1), built and held compactly (a second or so at N = 14), or an error if n has no fine
// plan or package frames is not in the program.
func New(n int, bound uint64) (count.Plan, error) {
	if newPlan == nil {
		return nil, errors.New("boundplan: package frames is not in the program (import it)")
	}
	return newPlan(n, bound)
}
