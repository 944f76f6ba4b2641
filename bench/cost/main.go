//go:build linux

// Command cost times a random sample of the real count plan's tasks for each N and
// extrapolates what the whole count costs: core-hours, the number of tasks, the memory a
// worker needs, and the wall time on 100 and 1,000 cores. bench/cost.sh runs it; its output
// is the table of bench/README.md.
//
// Frames (any N): plan version 2 from N = 25 (queens.FramesPlanVersion), whose tasks
// partition version 1's frames. A probe picks a v1 frame with probability proportional to
// its Cost, descends through Task.Children, picking each child with probability
// proportional to its Cost, until the subtask's share of the frame's Cost is expected (by
// queens.FrameSecondsPerCost) to take about -leaf seconds,
// runs it whole, and scales its CPU time by the inverse of the probability of having
// picked it (Knuth's estimator, unbiased whatever the costs, sharp when the costs predict
// the times). The estimate of the whole plan is the mean over probes; its ± is two
// standard errors.
//
// Join (N ≤ -joinmax): the quarter table is built (timed apart; from N = 24 it is built a row
// at a time as the sampled row sets read it, within the default 2 GiB: see
// queens.Plan.Memory), the symmetric-solution task is run whole, and random row sets of the
// other tasks are timed (see join), so that N = 24 and 25 are sampled as cheaply as N = 20.
//
// Task counts: exact where the plan is built (v1 up to 24, v2 at 25 and 26), else the
// mean number of v2 tasks a frame splits into over a uniform sample of frames, times the
// number of frames.
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

func main() {
	from := flag.Int("from", 20, "first N")
	to := flag.Int("to", 28, "last N")
	budget := flag.Duration("budget", 50*time.Second, "CPU time of frame probes per N")
	leaf := flag.Float64("leaf", 0.05, "seconds a timed subtask should take")
	joinMax := flag.Int("joinmax", 25, "time the join up to this N")
	joinBudget := flag.Duration("joinbudget", 30*time.Second, "CPU time of join row-set probes per N")
	buildMax := flag.Int("buildmax", 26, "build the whole v2 plan up to this N (above: sample frames)")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	runtime.LockOSThread() // cpu() reads this thread's CPU time
	rng := rand.New(rand.NewPCG(*seed, 17))
	fmt.Println("| N | method | tasks | core-hours (measured sample ± 2 s.e.) | largest task | worker memory | wall, 100 cores | wall, 1,000 cores | probes |")
	fmt.Println("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
	for n := *from; n <= *to; n++ {
		frames(n, rng, *budget, *leaf, *buildMax)
		if n <= *joinMax {
			join(n, rng, *joinBudget)
		}
	}
}

// frames estimates the frames method's plan of n.
func frames(n int, rng *rand.Rand, budget time.Duration, leaf float64, buildMax int) {
	v1, err := queens.NewPlan(n)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var total uint64
	for _, t := range v1.Tasks {
		total += t.Cost
	}
	spc := queens.FrameSecondsPerCost(n) // the model: seconds per unit of Cost
	version := queens.FramesPlanVersion(n)
	var tasks int
	var planBytes uint64
	var maxCost uint64
	exact := "="
	switch {
	case version == queens.PlanVersion:
		tasks = len(v1.Tasks)
		for _, t := range v1.Tasks {
			maxCost = max(maxCost, t.Cost)
		}
	case n <= buildMax:
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		p, err := queens.NewCompactPlan(n, version)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		runtime.GC()
		runtime.ReadMemStats(&m1)
		tasks = p.Len()
		// The heap can shrink across the build (garbage from before it is freed); then
		// fall back to the 27 bytes a task measured at N = 25.
		planBytes = uint64(27 * tasks)
		if m1.HeapAlloc > m0.HeapAlloc {
			planBytes = m1.HeapAlloc - m0.HeapAlloc
		}
		for t := range p.All() {
			maxCost = max(maxCost, t.Cost)
		}
		runtime.KeepAlive(p)
	default:
		// Split a uniform sample of frames as the fine plan does.
		exact = "≈"
		bound := queens.FineBound(n)
		k, kids := 0, 0
		t0 := cpu()
		for k < 2000 && (k < 30 || cpu()-t0 < 20) {
			kids += queens.FineCount(v1.Tasks[rng.IntN(len(v1.Tasks))], bound)
			k++
		}
		tasks = int(float64(kids) / float64(k) * float64(len(v1.Tasks)))
		// A compact plan holds about 27 bytes a task (26.5 measured at N = 25).
		planBytes = uint64(27 * tasks)
	}
	// Probes.
	var sum, sumsq float64
	probes := 0
	start := cpu()
	for probes < 20 || cpu()-start < budget.Seconds() {
		f := pick(rng, v1.Tasks, total)
		p := float64(f.Cost) / float64(total) // probability of this frame
		// share is the subtask's part of the frame's Cost, by its children's estimates
		// (a child's own estimate is on a smaller scale than its share of its parent).
		share := float64(f.Cost)
		t := f
		for share*spc > leaf {
			kids := t.Children()
			if len(kids) == 0 {
				break
			}
			var ks uint64
			for _, c := range kids {
				ks += c.Cost
			}
			c := pick(rng, kids, ks)
			p *= float64(c.Cost) / float64(ks)
			share *= float64(c.Cost) / float64(ks)
			t = c
		}
		t0 := cpu()
		t.Count()
		e := (cpu() - t0) / p
		sum += e
		sumsq += e * e
		probes++
		if probes > 1_000_000 {
			break
		}
	}
	k := float64(probes)
	mean := sum / k
	se := math.Sqrt(math.Max(sumsq/k-mean*mean, 0) / (k - 1))
	hours := mean / 3600
	// The largest task: its Cost at the measured seconds per unit of Cost.
	measuredSPC := mean / float64(total)
	largest := float64(maxCost) * measuredSPC
	if exact == "≈" {
		largest = float64(queens.FineBound(n)) * measuredSPC
	}
	mem := "under 1 MB a core"
	if planBytes > 0 {
		mem = fmt.Sprintf("%s + plan %s", "under 1 MB a core", human(float64(planBytes)))
	}
	fmt.Printf("| %d | frames v%d | %s%d | %s ± %.0f%% | %s | %s | %s | %s | %d |\n", n, version, exact, tasks,
		sig(hours), 200*se/mean, dur(largest), mem, dur(math.Max(mean/100, largest)), dur(math.Max(mean/1000, largest)), probes)
}

// join times the join's plan of n: the table build and the symmetric-solution task whole,
// then random row sets until budget (at least 20): a task is picked with probability
// proportional to its Cost and one of its row sets uniformly (Task.RowSet), and the row
// set's CPU time over the probability of picking it estimates the rest of the plan
// (unbiased; sharp where Cost predicts the time).
func join(n int, rng *rand.Rand, budget time.Duration) {
	p, err := queens.NewJoinPlan(n)
	if err != nil {
		return
	}
	table, per := queens.JoinMemory(n)
	tasks := make([]queens.Task, p.Len()-1)
	var total uint64
	for i := range tasks {
		tasks[i], _ = p.Task(i)
		total += tasks[i].Cost
	}
	// A task of no row sets only builds the table.
	t0 := cpu()
	empty := tasks[0]
	empty.Join.RowSets = 0
	empty.Count()
	build := cpu() - t0
	sym, _ := p.Task(p.Len() - 1)
	t0 = cpu()
	sym.Count()
	symSecs := cpu() - t0
	var sum, sumsq float64
	probes := 0
	start := cpu()
	for probes < 20 || cpu()-start < budget.Seconds() {
		t := pick(rng, tasks, total)
		rs, err := t.RowSet(rng.IntN(t.Join.RowSets))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		prob := float64(t.Cost) / float64(total) / float64(t.Join.RowSets)
		t0 := cpu()
		rs.Count()
		e := (cpu() - t0) / prob
		sum += e
		sumsq += e * e
		probes++
	}
	k := float64(probes)
	mean := sum / k
	se := math.Sqrt(math.Max(sumsq/k-mean*mean, 0) / (k - 1))
	secs := mean + symSecs
	var maxCost uint64
	for _, t := range tasks {
		maxCost = max(maxCost, t.Cost)
	}
	largest := max(symSecs, float64(maxCost)*mean/float64(total))
	// The least a worker needs holds four table rows and its buffers (Plan.Memory with a
	// limit below everything answers it).
	least, _ := p.Memory(1, 1)
	fmt.Printf("| %d | join | =%d | %s ± %.0f%% (table build %s) | %s | %s + %s a core, or by rows from %s | %s | %s | %d |\n", n, p.Len(),
		sig(secs/3600), 200*se/secs, dur(build), dur(largest), human(float64(table)), human(float64(per)), human(float64(least)), dur(math.Max(secs/100, largest)), dur(math.Max(secs/1000, largest)), probes)
}

// pick returns one of ts with probability proportional to Cost (sum is their sum).
func pick(rng *rand.Rand, ts []queens.Task, sum uint64) queens.Task {
	x := rng.Uint64N(sum)
	for _, t := range ts {
		if x < t.Cost {
			return t
		}
		x -= t.Cost
	}
	return ts[len(ts)-1]
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
