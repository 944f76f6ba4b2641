package count

import (
	"math/rand/v2"
	"time"
)

// EstimateOptions says how [Plan.Estimate] samples a plan.
type EstimateOptions struct {
	// Rand chooses the probes; the same seed gives the same probes.
	Rand *rand.Rand
	// Budget is the time to spend on timed probes, by Clock, once MinProbes (at least 2)
	// are done.
	Budget    time.Duration
	MinProbes int
	// Clock returns the seconds of work the calling goroutine has done so far: nil means
	// wall time; a benchmark passes its thread's CPU time.
	Clock func() float64
	// Probes is the number of Knuth's probes the frames method walks for its estimates of
	// the nodes and solutions (a few hundred nanoseconds each; 0: none). The join ignores
	// it.
	Probes int
	// NoSetup leaves out the work done once per count that cannot be sampled (the join's
	// symmetric-solution task: 9 s at N = 24): a quick estimate before a count.
	NoSetup bool
}

// An Estimate is what [Plan.Estimate] measured: the whole plan's time on one core of this
// machine, extrapolated from timed random parts of its tasks.
type Estimate struct {
	// Seconds is the plan's time on one core by the options' Clock; SecondsErr is two
	// standard errors of it, relative (about 95% of the time the truth lies within, if
	// the probes are many enough to show the spread).
	Seconds, SecondsErr float64
	// Setup is the part of Seconds done once per process and timed whole (the join's
	// quarter table, its symmetric-solution task), included in Seconds.
	Setup float64
	// Largest is the estimated time of the plan's costliest task, by its Cost.
	Largest float64
	// Tasks is the number of tasks: exact if TasksExact, else estimated by sampling (a
	// fine frames plan too large to build for an estimate).
	Tasks      float64
	TasksExact bool
	// Probes is the number of timed probes: 0 where one probe would take longer than the
	// budget, and Seconds is the cost model's (Plan.CoreSeconds).
	Probes int
	// Nodes and Solutions are Knuth's estimates of the frames method's search-tree nodes
	// and solutions with their standard errors (zero for the join, or without Probes).
	Nodes, NodesErr, Solutions, SolutionsErr float64
}
