//go:build linux

// Command cost times a random sample of the real count plan's tasks for each N and
// extrapolates what the whole count costs: core-hours, the number of tasks, the memory a
// worker needs, and the wall time on 100 and 1,000 cores. bench/cost.sh runs it; its output
// is the table of bench/README.md.
//
// Each method's plan samples itself (count.Plan.Estimate, the one sampler that queens
// estimate uses too), timed by this thread's CPU time: frames pick a version 1 frame with
// probability proportional to its Cost and descend through the fine plan's splits to a
// subtask of a few hundredths of a second, counted whole; the join builds its quarter
// table (timed apart; from N = 24 a row at a time as the sampled row sets read it, within
// the default 2 GiB), runs its symmetric-solution task whole, and times random row sets.
// A probe's CPU time over the probability of having picked it estimates the whole plan
// (Knuth's estimator, unbiased whatever the costs, sharp when the costs predict the
// times); the ± is two standard errors. Task counts are exact where the plan is built (v1
// up to 24, v2 at 25 and 26), else sampled from the splits of a uniform sample of frames.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

func main() {
	from := flag.Int("from", 20, "first N")
	to := flag.Int("to", 28, "last N")
	budget := flag.Duration("budget", 50*time.Second, "CPU time of frame probes per N")
	joinMax := flag.Int("joinmax", 25, "time the join up to this N")
	joinBudget := flag.Duration("joinbudget", 30*time.Second, "CPU time of join row-set probes per N")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	runtime.LockOSThread() // cpu() reads this thread's CPU time
	rng := rand.New(rand.NewPCG(*seed, 17))
	fmt.Println("| N | method | tasks | core-hours (measured sample ± 2 s.e.) | largest task | worker memory | wall, 100 cores | wall, 1,000 cores | probes |")
	fmt.Println("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
	for n := *from; n <= *to; n++ {
		frames(n, rng, *budget)
		if n <= *joinMax {
			join(n, rng, *joinBudget)
		}
	}
}

// frames estimates the frames method's plan of n (the version a count takes).
func frames(n int, rng *rand.Rand, budget time.Duration) {
	p, err := queens.NewPlan(n, count.MethodFrames, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	e, err := p.Estimate(context.Background(), count.EstimateOptions{Rand: rng, Budget: budget, MinProbes: 20, Clock: cpu})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	exact := "≈"
	if e.TasksExact {
		exact = "="
	}
	mem := "under 1 MB a core"
	if p.Version() != 1 {
		// A compact fine plan holds about 27 bytes a task (26.5 measured at N = 25).
		mem = fmt.Sprintf("%s + plan %s", mem, human(27*e.Tasks))
	}
	fmt.Printf("| %d | frames v%d | %s%.0f | %s ± %.0f%% | %s | %s | %s | %s | %d |\n", n, p.Version(), exact, e.Tasks,
		sig(e.Seconds/3600), 100*e.SecondsErr, dur(e.Largest), mem, dur(math.Max(e.Seconds/100, e.Largest)), dur(math.Max(e.Seconds/1000, e.Largest)), e.Probes)
}

// join estimates the join's plan of n.
func join(n int, rng *rand.Rand, budget time.Duration) {
	p, err := queens.NewPlan(n, count.MethodJoin, 0)
	if err != nil {
		return
	}
	e, err := p.Estimate(context.Background(), count.EstimateOptions{Rand: rng, Budget: budget, MinProbes: 20, Clock: cpu})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The whole table's process, and the least a worker needs (four table rows and its
	// buffers: Memory with a limit below everything answers it).
	whole, _ := p.Memory(1, 0)
	least, _ := p.Memory(1, 1)
	fmt.Printf("| %d | join | =%.0f | %s ± %.0f%% (setup %s) | %s | %s with the whole table, or by rows from %s | %s | %s | %d |\n", n, e.Tasks,
		sig(e.Seconds/3600), 100*e.SecondsErr, dur(e.Setup), dur(e.Largest), human(float64(whole)), human(float64(least)), dur(math.Max(e.Seconds/100, e.Largest)), dur(math.Max(e.Seconds/1000, e.Largest)), e.Probes)
}

// cpu returns the CPU seconds of the calling OS thread (main locks it).
func cpu() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// sig writes x with three significant digits.
func sig(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.3g", x)
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.3g", x)
}

// dur writes seconds in the largest fitting unit.
func dur(s float64) string {
	switch {
	case s < 10:
		return fmt.Sprintf("%.2g s", s)
	case s < 120:
		return fmt.Sprintf("%.0f s", s)
	case s < 2*3600:
		return fmt.Sprintf("%.0f min", s/60)
	case s < 2*86400:
		return fmt.Sprintf("%.1f h", s/3600)
	case s < 2*365.25*86400:
		return fmt.Sprintf("%.0f days", s/86400)
	}
	return fmt.Sprintf("%.1f years", s/(365.25*86400))
}

// human writes a byte count.
func human(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2g GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.3g MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.3g KiB", b/(1<<10))
}
