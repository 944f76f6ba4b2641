package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// Before a run that may take long, the commands say on stderr what it will cost, so that
// nobody waits days for a line that never comes.
const (
	// warnAfter is the estimated wall time above which a count says what it will cost.
	warnAfter = time.Minute
	// estimateFromN is the smallest N whose count is estimated before it starts: smaller
	// counts take seconds on one core, less than the estimate would cost. (N = 16 takes
	// about a second, and time grows six- to tenfold per step of N.)
	estimateFromN = 17
	// joinEstimateFromN is the same for the join, which is several times faster: N = 19
	// takes seconds on one core, N = 20 about a minute or two.
	joinEstimateFromN = 20
	// costProbes and costSpeedBudget size the quick estimate: 20000 probes take a few
	// milliseconds, timing the tasks takes a quarter of a second; together they put the
	// time within about ±20% on the plans of N ≥ 17, enough to tell minutes from years.
	costProbes      = 20000
	costSpeedBudget = time.Second / 4
	// slowSolveFromN is the smallest N for which "queens solve N --limit K" warns that the
	// first solutions in code order can take long. Measured here (2 cores, busy machine):
	// the first solution took under 1 s up to N = 29, 3 s at N = 30, 6 s at 33, 13 s at 35,
	// and more than 20 s at 34, 36 and 38; the time grows steeply and irregularly with N.
	slowSolveFromN = 33
)

// warnCountCost estimates the plan's count with Knuth's estimator and a short timing run,
// and if it would take longer than warnAfter on workers goroutines says so on stderr. It
// costs about a quarter of a second, and is skipped for N below estimateFromN.
func warnCountCost(ctx context.Context, plan *queens.Plan, workers int, checkpoint string, stderr io.Writer) error {
	if plan.Method == queens.MethodJoin {
		if plan.N < joinEstimateFromN {
			return nil
		}
		return warnJoinCost(ctx, plan, workers, checkpoint, stderr)
	}
	if plan.N < estimateFromN {
		return nil
	}
	if plan.Version != queens.PlanVersion {
		// The fine plan's tasks partition the v1 frames' work, and a probe walks a whole
		// frame's tree: estimate on the frames.
		v1, err := queens.NewPlan(plan.N)
		if err != nil {
			return err
		}
		plan = v1
	}
	rng := rand.New(rand.NewPCG(uint64(plan.N), 1))
	e := queens.EstimatePlan(plan, costProbes, rng)
	speed, err := timeTasks(ctx, plan, rng, costSpeedBudget)
	if err != nil || speed <= 0 {
		return err
	}
	return sayCost(stderr, plan.N, e.Nodes/speed/float64(workers), workers, checkpoint, "")
}

// sayCost writes the line a count over a minute starts with: the estimated time secs on
// workers, by what ("" or " by the join"), and how to stop and resume.
func sayCost(stderr io.Writer, n int, secs float64, workers int, checkpoint, by string) error {
	if secs < warnAfter.Seconds() {
		return nil
	}
	resume := "--checkpoint FILE resumes"
	if checkpoint != "" {
		resume = "the same command resumes from " + checkpoint
	}
	_, err := fmt.Fprintf(stderr, "N = %d: about %s on %s%s (estimated; \"queens estimate %d\" for more); Ctrl-C stops, %s\n",
		n, humanDuration(secs), plural(uint64(workers), "worker", "workers"), by, n, resume)
	return err
}

// warnSolveCost tells, for large N, that listing solutions in code order can take long
// before the first one comes, and what finds one at once.
func warnSolveCost(n int, stderr io.Writer) {
	if n < slowSolveFromN {
		return
	}
	fmt.Fprintf(stderr, "N = %d: listing in code order searches from the smallest code and can take minutes to days before the first solution; "+
		"\"queens one %d\" prints one at once, \"queens one %d --random\" a random one\n", n, n, n)
}

// warnJoinCost is warnCountCost for the join method: its time is measured on sampled row
// sets of its own plan (measureJoin, which also builds the shared quarter table the count
// then uses; at least 3 row sets, enough to tell minutes from years), then said as for
// frames.
func warnJoinCost(ctx context.Context, plan *queens.Plan, workers int, checkpoint string, stderr io.Writer) error {
	rng := rand.New(rand.NewPCG(uint64(plan.N), 1))
	secs, _, err := measureJoin(ctx, plan.N, rng, costSpeedBudget, 3, false)
	if err != nil {
		return err
	}
	return sayCost(stderr, plan.N, secs/float64(workers), workers, checkpoint, " by the join")
}
