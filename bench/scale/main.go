//go:build linux

// Command scale estimates the speed-up of the join count on two idle cores from CPU time,
// for a machine whose cores are never idle: wall time there measures the other jobs, not
// the count, and so does the way a pool's tasks split between its workers (a worker whose
// thread waits for a core claims fewer of them).
//
// Each measurement is a fresh child process (so that the quarter table is built inside it,
// as in "chesspuzzles queens count N --method join --workers W"), which builds the join's
// plan on its main thread, then runs the plan's tasks on W goroutines, each locked to an
// OS thread, that claim tasks in the pool's order (Plan.Order, with an atomic counter, as
// internal/work does) and build the shared quarter table together. It reports the CPU time
// of the main thread before the pool (serial) and of every task on the thread that ran it
// (the first tasks include their thread's share of the table's build), and checks the
// total against the known Q(N). The parent schedules those task times on W equal cores in
// the pool's order, each task to the first free core, and estimates the speed-up of W
// workers over one as
//
//	(serial₁ + Σ task CPU₁) / (serial_W + that schedule's length).
//
// Left out: process start (5 ms, the same for both), the waits inside the table's build
// (at most its imbalance: milliseconds), and the second core's contention for shared
// caches and memory beyond what the other jobs already cause. The parent alternates 1 and
// W workers.
//
// Usage: go run ./bench/scale [-r ROUNDS] [-w W] N ...
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/join"
)

// run is one child's report.
type run struct {
	Serial float64   `json:"serial"` // CPU s of the main thread: the plan
	Worker []float64 `json:"worker"` // CPU s of each worker thread
	Task   []float64 `json:"task"`   // CPU s of each task, by its place in Plan.Order
	Wall   float64   `json:"wall"`   // s, the plan and the pool
}

func main() {
	rounds := flag.Int("r", 3, "alternated pairs per N")
	workers := flag.Int("w", 2, "workers to compare with one")
	child := flag.Bool("child", false, "run one measurement (internal)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: scale [-r ROUNDS] [-w W] N ...")
		os.Exit(2)
	}
	var ns []int
	for _, a := range flag.Args() {
		n, err := strconv.Atoi(a)
		if err != nil || n < join.MinN || n > 21 {
			fmt.Fprintf(os.Stderr, "scale: N must be a whole number from %d to 21, got %q\n", join.MinN, a)
			os.Exit(2)
		}
		ns = append(ns, n)
	}
	if *child {
		r, err := measure(ns[0], *workers)
		if err != nil {
			fmt.Fprintln(os.Stderr, "scale:", err)
			os.Exit(1)
		}
		_ = json.NewEncoder(os.Stdout).Encode(r)
		return
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
	fmt.Printf("machine: %d cores, load %s\n", runtime.NumCPU(), loadavg())
	fmt.Printf("| N | 1 worker: serial + tasks, CPU s | %d workers: serial + each worker's CPU s | estimated speed-up on %d idle cores | wall s, 1 → %d (this machine) | load |\n", *workers, *workers, *workers)
	fmt.Println("|---:|---:|---:|---:|---:|---:|")
	for _, n := range ns {
		for range *rounds {
			one, err := spawn(self, n, 1)
			if err != nil {
				fmt.Fprintln(os.Stderr, "scale:", err)
				os.Exit(1)
			}
			many, err := spawn(self, n, *workers)
			if err != nil {
				fmt.Fprintln(os.Stderr, "scale:", err)
				os.Exit(1)
			}
			each := ""
			for i, c := range many.Worker {
				if i > 0 {
					each += ", "
				}
				each += fmt.Sprintf("%.3f", c)
			}
			est := (one.Serial + sum(one.Task)) / (many.Serial + schedule(many.Task, *workers))
			fmt.Printf("| %d | %.3f + %.3f | %.3f + %s | %.2f× | %.2f → %.2f | %s |\n",
				n, one.Serial, one.Worker[0], many.Serial, each, est, one.Wall, many.Wall, loadavg())
		}
	}
}

// schedule returns the length of the schedule of tasks (in order) on w equal cores, each
// task to the first core free.
func schedule(tasks []float64, w int) float64 {
	free := make([]float64, w)
	for _, t := range tasks {
		i := 0
		for j := range free {
			if free[j] < free[i] {
				i = j
			}
		}
		free[i] += t
	}
	return slices.Max(free)
}

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

// spawn runs one measurement in a child process.
func spawn(self string, n, w int) (run, error) {
	out, err := exec.Command(self, "-child", "-w", strconv.Itoa(w), strconv.Itoa(n)).Output()
	if err != nil {
		return run{}, fmt.Errorf("counting N=%d on %d workers: %w", n, w, err)
	}
	var r run
	err = json.Unmarshal(out, &r)
	return r, err
}

// measure counts n on w workers as the child process.
func measure(n, w int) (run, error) {
	runtime.LockOSThread() // cpu() reads this thread's CPU time
	start := time.Now()
	c0 := cpu()
	p, err := queens.NewPlan(n, count.MethodJoin, 0)
	if err != nil {
		return run{}, err
	}
	order := slices.Collect(p.Order())
	r := run{Serial: cpu() - c0, Worker: make([]float64, w), Task: make([]float64, len(order))}
	tally := count.NewTally(p)
	var mu sync.Mutex
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, w)
	for k := range w {
		wg.Go(func() {
			runtime.LockOSThread()
			c := cpu()
			for {
				i := next.Add(1) - 1
				if i >= int64(len(order)) {
					break
				}
				t, _ := p.Task(order[i])
				ct := cpu()
				res, err := p.CountTask(context.Background(), t)
				r.Task[i] = cpu() - ct
				if err == nil {
					mu.Lock()
					_, err = tally.Add(res)
					mu.Unlock()
				}
				if err != nil {
					errs[k] = err
					break
				}
			}
			r.Worker[k] = cpu() - c
		})
	}
	wg.Wait()
	r.Wall = time.Since(start).Seconds()
	for _, err := range errs {
		if err != nil {
			return r, err
		}
	}
	want, ok := queens.Known(n)
	if got := tally.Counts(); !ok || got.Total.Cmp(want.Total) != 0 || got.Unique.Cmp(want.Unique) != 0 {
		return r, fmt.Errorf("counted %v (%v unique) for N=%d, want %v (%v)", got.Total, got.Unique, n, want.Total, want.Unique)
	}
	return r, nil
}

// cpu returns the CPU seconds of the calling OS thread.
func cpu() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// loadavg returns the one-minute load average.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil || len(b) == 0 {
		return "?"
	}
	f := string(b)
	for i, c := range f {
		if c == ' ' {
			return f[:i]
		}
	}
	return f
}
