package queens

import (
	"errors"
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
	"github.com/chesspuzzles/chesspuzzles/queens/count/join"
)

// PlanOptions says how a count is asked for; Choose decides the rest.
type PlanOptions struct {
	// Method is "auto" (or ""), count.MethodFrames or count.MethodJoin (see ChooseMethod).
	Method string
	// Version is the plan version: 0 for the method's default at N; under auto a version
	// names its method.
	Version int
	// Workers is the number of goroutines that count in this process; 0 or less means
	// the tasks run elsewhere (slices, NATS workers), where auto takes frames.
	Workers int
	// MaxMemory is the memory the count may use, in bytes; 0 means no limit.
	MaxMemory uint64
}

// A Choice is how a count of N is made, decided once by Choose: its plan (method and
// version), the memory it needs, and the cost model of both methods that chose it.
type Choice struct {
	// Plan is the plan the count runs, not yet built: Build it before counting (seconds
	// and more from N = 26), or do not, to describe or estimate the count.
	Plan count.Plan
	// Memory is what the count needs on Workers within MaxMemory (Plan.Memory).
	Memory uint64
	// FramesSeconds and JoinSeconds are the cost model of each method at N on one core
	// (Plan.CoreSeconds, measured by bench/cost.sh); 0 where the method does not count N.
	FramesSeconds, JoinSeconds float64
}

// ErrPlanVersion is wrapped by Choose's errors about PlanOptions.Version: one of no
// method, or of another method than PlanOptions.Method, or that does not plan N.
var ErrPlanVersion = errors.New("plan version")

// Choose decides how a count of n is made with opts: the method ChooseMethod takes (under
// auto, the method opts.Version names, if any), the plan of that method and version, and
// its memory. It is the one place the command, the web and Count decide this, so a plan,
// an estimate and a count of the same n with the same options take the same plan. Each
// plan is made once, and none is built: it costs nothing but arithmetic. Its errors are
// those of ChooseMethod (a *MemoryError where the join does not fit), or wrap
// ErrPlanVersion.
func Choose(n int, opts PlanOptions) (Choice, error) {
	method, v := opts.Method, opts.Version
	if method == "" {
		method = "auto"
	}
	if method == "auto" && v != 0 {
		p, err := NewPlan(n, "", v)
		if err != nil {
			return Choice{}, fmt.Errorf("%w: %v", ErrPlanVersion, err)
		}
		method = p.Method()
	}
	var c Choice
	jp, joinErr := join.New(n)
	fp, framesErr := frames.New(n, frames.DefaultVersion(n))
	if joinErr == nil {
		c.JoinSeconds = jp.CoreSeconds()
	}
	if framesErr == nil {
		c.FramesSeconds = fp.CoreSeconds()
	}
	m, err := decide(n, method, opts.Workers, opts.MaxMemory, jp, joinErr, fp, framesErr)
	if err != nil {
		return Choice{}, err
	}
	switch {
	case m == count.MethodJoin && (v == 0 || v == jp.Version()):
		c.Plan = jp
	case m == count.MethodFrames && framesErr == nil && (v == 0 || v == fp.Version()):
		c.Plan = fp
	default: // a version other than the method's default, or one it does not have
		if c.Plan, err = NewPlan(n, m, v); err != nil {
			return Choice{}, fmt.Errorf("%w: %v", ErrPlanVersion, err)
		}
	}
	c.Memory, _ = c.Plan.Memory(opts.Workers, opts.MaxMemory)
	return c, nil
}
