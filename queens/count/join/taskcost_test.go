package join

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkJoinTasks is a measuring harness, not a check (bench/cost.sh -tasks runs it):
// with CHESSPUZZLES_JOINTASKS=N:M:SEED it builds the join's plan of N (its default version:
// DemandPlanVersion's cut table from N = 29), draws M of its
// row-set tasks uniformly by id (seeded), and times each on this process's CPU clock against
// what the cost model says of it, CoreSeconds times its row sets' cost over all row sets'
// (the figure queens plan and queens estimate share out). A task whose modelled time is within
// CHESSPUZZLES_JOINTASKS_BUDGET (CPU seconds, default 600) runs whole, as a fresh worker
// runs it (the table rows it reads built on the way, within the process's memory limit:
// GOMEMLIMIT); a longer one is timed by a part: one of its row sets drawn uniformly, its four
// table rows built (timed apart), and one part of its store drawn uniformly counted against
// all its queries, times the parts and the row sets (an unbiased estimate of the task, as
// BenchmarkJoinLists' timing is of a row set). Each task prints one line to stderr as it
// ends (not b.Logf, whose output the testing package cuts to ten lines); the last line
// gives the mean of measured ÷ modelled.
//
//	CHESSPUZZLES_JOINTASKS=24:2:1 GOMEMLIMIT=2GiB go test -run '^$' -bench JoinTasks -benchtime 1x -timeout 3h ./queens/count/join
func BenchmarkJoinTasks(b *testing.B) {
	spec := os.Getenv("CHESSPUZZLES_JOINTASKS")
	if spec == "" {
		b.Skip("set CHESSPUZZLES_JOINTASKS=N:M:SEED to run")
	}
	f := strings.Split(spec, ":")
	var n, m, seed int
	var err error
	if len(f) == 3 {
		n, err = strconv.Atoi(f[0])
		if err == nil {
			m, err = strconv.Atoi(f[1])
		}
		if err == nil {
			seed, err = strconv.Atoi(f[2])
		}
	}
	if len(f) != 3 || err != nil || n < MinN || n > MaxN || m < 1 {
		b.Fatalf("CHESSPUZZLES_JOINTASKS=%q: want N:M:SEED, N from %d to %d, M at least 1", spec, MinN, MaxN)
	}
	budget := 600.0
	if v := os.Getenv("CHESSPUZZLES_JOINTASKS_BUDGET"); v != "" {
		if budget, err = strconv.ParseFloat(v, 64); err != nil || budget <= 0 {
			b.Fatalf("CHESSPUZZLES_JOINTASKS_BUDGET=%q: want CPU seconds", v)
		}
	}
	ctx := context.Background()
	c0 := cpuTime()
	// The plan of N's default version: its tasks drawn uniformly by id, each modelled by
	// its row sets' summed cost (a task of DemandPlanVersion has its block's mean as Cost).
	var tasks int
	var taskAt func(int) task
	var total float64 // the row-set tasks' summed cost
	var rsm rowSetModel
	if DefaultVersion(n) == DemandPlanVersion {
		c, err := buildCutTable(ctx, n, demandBlockRows, demandTaskSeconds)
		if err != nil {
			b.Fatal(err)
		}
		tasks, taskAt, total, rsm = c.tasks(), c.taskAt, float64(c.total), c.m
	} else {
		p, err := buildJoinPlan(ctx, n)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range p.cost[:len(p.cost)-1] {
			total += float64(c)
		}
		tasks, taskAt, rsm = len(p.cost)-1, p.taskAt, newRowSetModel(n)
	}
	perCost := modelSeconds(n) / total
	say("N=%d: plan of %d tasks (version %d) built in %.1f CPU-s; the model: %.4g core-hours, a task %.3g s on average",
		n, tasks+1, DefaultVersion(n), (cpuTime() - c0).Seconds(), modelSeconds(n)/3600, total*perCost/float64(tasks))
	tab, err := tableFor(ctx, n)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 33))
	var ratios []float64
	for range m {
		t := taskAt(rng.IntN(tasks)) // the symmetric task (the last) left out
		model := float64(runCost(&rsm, t)) * perCost
		var got, rows float64
		var how string
		if model <= budget {
			c0 := cpuTime()
			r, err := t.countJoinTable(ctx, tab)
			if err != nil {
				b.Fatal(err)
			}
			got = (cpuTime() - c0).Seconds()
			how = fmt.Sprintf("whole (%d row sets, %.3g pair tests, its table rows built on the way)", r.RowSets, float64(r.PairTests))
		} else {
			i := rng.IntN(t.Run.RowSets)
			s, err := t.rowSet(i)
			if err != nil {
				b.Fatal(err)
			}
			j := newSubproblem(n, s.Run.Sub)
			e := s.Run.First
			r := j.rowSet(e)
			rs := r.tableRows()
			c0 := cpuTime()
			if err := tab.acquire(ctx, rs[:]); err != nil {
				b.Fatal(err)
			}
			rows = (cpuTime() - c0).Seconds()
			w := new(worker)
			w.t = tab
			var c counters
			_, _, starts := w.lists(&j, e, &c)
			// From h = 13 a row set stores half A by classes of its cut bits
			// (countRowSetClasses), as a worker runs it: one class drawn uniformly is
			// timed with its parts, times the classes (as BenchmarkJoinLists does);
			// below, one part of the store drawn uniformly, times the parts.
			classes := j.storeMax < math.MaxInt
			parts, unit := len(starts), "part"
			if classes {
				_, parts = w.classParts(&j, e, -2)
				unit = "class"
			}
			k := rng.IntN(parts)
			c0 = cpuTime()
			if classes {
				w.classParts(&j, e, k)
			} else {
				w.countPart(&j, e, wE0(&j, e), starts[k])
			}
			part := (cpuTime() - c0).Seconds()
			tab.release(rs[:])
			got = part * float64(parts) * float64(t.Run.RowSets)
			how = fmt.Sprintf("by a %s: row set %d of %d (%#x, %.3g pair tests), %s %d of %d of its store: %.1f CPU-s, its 4 table rows %.1f CPU-s",
				unit, i, t.Run.RowSets, e, float64(c.pairTests), unit, k, parts, part, rows)
		}
		ratios = append(ratios, got/model)
		say("N=%d task %d (sub-problem %d, Cost %d): modelled %.3g s, measured %.3g s (%.2f× the model) %s",
			n, t.ID, t.Run.Sub, t.Cost, model, got, got/model, how)
	}
	mean, se := meanSE(ratios)
	say("N=%d: %d tasks, measured ÷ modelled %.2f ± %.2f (mean ± s.e.); %.1f CPU-s in all, load %s",
		n, m, mean, se, (cpuTime() - c0).Seconds(), loadAvg())
}

// runCost returns the summed modelled cost of task t's row sets.
func runCost(m *rowSetModel, t task) uint64 {
	j := newSubproblem(t.N, t.Run.Sub)
	var c uint64
	for k, e := 0, t.Run.First; k < t.Run.RowSets && e != 0; e = j.nextRowSet(e) {
		if w, _ := j.rowSetWeight(e); w != 0 {
			c += m.cost(&j, e)
			k++
		}
	}
	return c
}

// say prints one line of a harness to stderr at once.
func say(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}

// loadAvg returns the first three fields of /proc/loadavg, or "unknown".
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
