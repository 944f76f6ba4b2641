package join

import "github.com/chesspuzzles/chesspuzzles/queens/internal/model"

// measuredCoreHours holds the core-hours of the join's whole count of N: for N = 20–23
// bench/cost.sh on the 2-core AMD EPYC (Zen 3, AVX2) of 25 November 2026, after the sieve
// and the AVX2 kernel's chunk offsets (bench/log/2026-11-25.md, "Run of 25 November after the join's
// kernel work"); for N = 24–27 the run there with the sieve's cut bits retuned (bench/log/2026-11-25.md,
// "Run of 25 November: the join at N = 24–27, sieve retuned": 96, 132, 20 and 20 probes, ± 7,
// 6, 21 and 14 %); each a timed random sample of the real plan's row sets on one core, the
// plan extrapolated; for N = 16–19 whole counts on one worker there (bench/log/2026-11-25.md, "Join
// at scale, session of 25 Nov", medians); for N = 26–28 row sets sampled on 27 November
// (night) after the cut bits chosen by occupancy and, at even N, half B stored as a
// weighted store (bench/log/2026-11-27.md, "Issue 33: Q(28) cheaper"), at a load of 2.5–4.3, by
// BenchmarkJoinLists with CHESSPUZZLES_JOINLISTS_TIME (each row set timed whole, or by one
// class of its stored half against its queries times the classes, the passes made once
// counted once): N = 26 twelve row sets (seeds 2 and 5), 5.25 ± 1.13 CPU-s a row set
// (± 21 %); N = 27 from the same 128 row sets (seeds 6–9) on 28 November, after odd N's
// classes were made cheaper (bench/log/2026-11-28.md, "Issue 33: odd N cheaper"), at a load of
// 1.0–1.4: 2.99 ± 0.32 CPU-s, ± 11 % (the code before, alternated with it: 3.55 ± 0.36;
// 3.40 ± 0.36 on a quieter machine that night); N = 28 twelve (seeds 3,
// 4 and 5), 110 ± 25 CPU-s (± 23 %; 505 ± 84 that evening, before these changes, at load
// 5–7; the same row sets at load 10–17 took 1.1–1.3 times as long). N = 24, 25 and 29 are bench/cost.sh -tasks on 27 November (night), on the
// code after the class sieve and the four-batch kernel (before the occupancy cut bits and
// the stored half B), at a load of 9–12.5 (bench/log/2026-11-27.md,
// "Issue 33: N = 29 tasks on demand"): two real tasks a N (seed 2), whole at 24–25
// (0.64 ± 0.03 and 0.53 ± 0.16 of the model of 25 November, so 138 and 712 core-hours,
// ± 5 and 30 %), at 29 each by one class of one of its row sets (0.37 ± 0.04 of the
// extrapolation from 26–28, 3.53·10⁷: 1.31·10⁷ core-hours ± 11 %, two probes). It is
// the model CoreSeconds and the choice of method read; frames' model was measured in the
// first run.
var measuredCoreHours = map[int]float64{
	16: 0.215 / 3600, 17: 2.2 / 3600, 18: 7.3 / 3600, 19: 46.1 / 3600,
	20: 0.063, 21: 0.436, 22: 3.23, 23: 23.6, 24: 138, 25: 712, 26: 7600, 27: 54000,
	28: 6.1e5, 29: 1.31e7,
}

// measuredError is the relative error measuredCoreHours states for N (one standard error of
// the mean over its sampled row sets or tasks, as bench/README.md gives it); an N not here
// has no stated error (a whole count, or an extrapolation).
var measuredError = map[int]float64{
	24: 0.05, 25: 0.30, 26: 0.21, 27: 0.11, 28: 0.23, 29: 0.11,
}

// ModelError returns the relative error the cost model states for the join's whole count
// of n (see measuredError), or 0 where it states none. Cost: a map lookup.
func ModelError(n int) float64 { return measuredError[n] }

// cutCoreHours are the core-hours plan version 102 was cut by (bench/cost.sh on the 2-core
// Intel Xeon VM of 24 November 2026, before the sieve): the number of tasks is this model's
// time over maxTaskSeconds, so the figures are frozen with PlanVersion (a new model
// for the cut is a new version). The join has since become 2–6 times faster than these from
// N = 20, so its tasks take well under half a core-hour (about 12 minutes at N = 24–25).
var cutCoreHours = map[int]float64{
	16: 0.111 / 3600, 17: 0.873 / 3600, 18: 2.699 / 3600, 19: 23.0 / 3600,
	20: 0.0597, 21: 0.405, 22: 9.12, 23: 61.4, 24: 2177, 25: 15307,
}

// modelSeconds is the modelled core-seconds of the join's whole count of n (see
// model.Seconds, which extrapolates beyond the last N measured).
func modelSeconds(n int) float64 { return model.Seconds(measuredCoreHours, n) }

// cutModelSeconds is the core-seconds plan version 102 takes the join's count of n for when
// it cuts it into tasks (cutCoreHours).
func cutModelSeconds(n int) float64 { return model.Seconds(cutCoreHours, n) }

// CoreSeconds returns the modelled time of the whole plan on one core of the machine the
// model was measured on (see measuredCoreHours). Another machine scales it by its speed;
// Task.Cost shares it among the tasks (a task's time is about CoreSeconds·Cost/ΣCost,
// within a factor of about three). It costs nothing but a look-up.
func (p *plan) CoreSeconds() float64 { return modelSeconds(p.n) }

// Memory returns the bytes a process needs to run the plan's tasks on workers goroutines
// if it may use limit bytes (0: no limit), and whether they fit the limit. The join needs its quarter table and a worker's buffers
// (memoryOf): the whole table, shared by the workers, where it fits the limit with the
// buffers; else only the rows that its row sets read, as many as fit (the rows of four
// row sets a worker at the least: under 0.1 GiB at N = 24–25, about 0.3 GiB at 26–27),
// built and dropped as the tasks go (tableFor). The join is a little slower so (a row is
// rebuilt when it was dropped: at most about 3 % of a row set's time from N = 24) and never
// holds more than the limit allows, if it allows the least it needs. It costs nothing but
// arithmetic.
func (p *plan) Memory(workers int, limit uint64) (need uint64, fits bool) {
	workers = max(workers, 1)
	table, per := memoryOf(p.n)
	buffers := uint64(workers)*per + memorySlack
	if limit == 0 || table+buffers <= limit {
		return table + buffers, true
	}
	least := minRowBytes(p.n, workers) + buffers
	if limit < least {
		return least, false
	}
	return limit, true
}

// memorySlack is the memory a join process needs besides its table and workers' buffers:
// the runtime, the plan and the binary (the whole process takes about 20 MiB at N = 16, table and buffers included).
const memorySlack = 8 << 20

// minRowBytes is the least a partial table of n needs on workers goroutines: four rows
// a worker, each as large as the largest (memoryOf's measure), and the row index.
func minRowBytes(n, workers int) uint64 {
	h := n / 2
	return uint64(workers)*4*maxRowBytes(h) + 96<<h
}

// maxRowBytes is the memory of the largest row of the h×h table: its pieces (8 bytes
// each, maxRowPieces) and offsets (16 bytes a column set).
func maxRowBytes(h int) uint64 {
	return 8*maxRowPieces(h) + 16<<h + 4
}
