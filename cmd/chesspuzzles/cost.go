package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/cputime"
	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// Before a run that may take long, the commands say on stderr what it will cost, so that
// nobody waits days for a line that never comes.
const (
	// warnAfter is the estimated wall time above which a count says what it will cost.
	warnAfter = time.Minute
	// costSpeedBudget sizes the quick estimate: a quarter of a second of timed probes puts
	// the time within a factor of about two, enough to tell minutes from years.
	costSpeedBudget = time.Second / 4
	// slowSolveFromN is the smallest N for which "queens solve N --limit K" warns that the
	// first solutions in code order can take long. Measured here (2 cores, busy machine):
	// the first solution took under 1 s up to N = 29, 3 s at N = 30, 6 s at 33, 13 s at 35,
	// and more than 20 s at 34, 36 and 38; the time grows steeply and irregularly with N.
	slowSolveFromN = 33
)

// warnCountCost estimates the plan's count (count.Plan.Estimate: timed random parts of
// its tasks, for about costSpeedBudget) and if it would take longer than warnAfter on
// workers goroutines says so on stderr. It is skipped where the cost model says the count
// is short (under a quarter of warnAfter on the workers: a machine four times slower than
// the model's still takes under warnAfter), where the estimate would cost more than it
// tells: at N = 18 on one worker it took 4 % of the count's CPU time (29 Nov, AVX2).
func warnCountCost(ctx context.Context, plan count.Plan, workers int, checkpoint string, stderr io.Writer) error {
	if plan.CoreSeconds()/float64(workers) < warnAfter.Seconds()/4 {
		return nil
	}
	rng := rand.New(rand.NewPCG(uint64(plan.N()), 1))
	var e count.Estimate
	_, err := cputime.Run(func(clock func() float64) error { // as "queens estimate" times
		var err error
		e, err = plan.Estimate(ctx, count.EstimateOptions{Rand: rng, Budget: costSpeedBudget, MinProbes: 3, NoSetup: true, Clock: clock})
		return err
	})
	if err != nil {
		return err
	}
	return sayCost(stderr, plan.N(), e.Seconds/float64(workers), workers, checkpoint, " by the "+plan.Method()+" method")
}

// sayCost writes the line a count over a minute starts with: the estimated time secs on
// workers, by what (" by the join method"), and how to stop and resume.
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

// replicasLine says, for an N with no published count, how many identities a
// distributed count of it has compute each task by default: "" for the other N.
func replicasLine(n int) string {
	if _, ok := queens.Known(n); ok {
		return ""
	}
	return fmt.Sprintf("distributed: no published count of N=%d, so --distributed by default has %s; the time above is of one computation a task (--replicas 2 for twice, 1 for once, 3 for three times always)", n, cluster.FewThird)
}
