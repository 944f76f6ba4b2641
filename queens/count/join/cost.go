package join

import "github.com/chesspuzzles/chesspuzzles/queens/internal/model"

// machineClass is the kind of processor a figure of the cost model was measured on. The
// join's query kernels differ by it (kernel_amd64.go), and so does its time: a real task
// of N = 28 (task 46,756, one row set) took 60.6 CPU-s on the AVX2 kernel (Zen 3, 29
// November) and 27.6 on the AVX-512 ones (Zen 5, 30 November; bench/log/2026-11-29-join.md).
type machineClass int

const (
	// classAVX2: AVX2 and BMI2, no AVX-512 (the 2-core AMD EPYC VM on AMD Zen 3), which runs
	// the AVX2 kernels. A processor with neither AVX-512 nor AVX2 (or a purego build) runs
	// the Go kernels, several times slower.
	classAVX2 machineClass = iota
	// classAVX512: AVX-512 F with VPOPCNTDQ, and BMI2 (the same VM on AMD Zen 4 on 27–28
	// November, on AMD Zen 5 since 30 November), which runs the AVX-512 kernels.
	classAVX512
	numClasses
)

// String names the class as bench/README.md does.
func (c machineClass) String() string {
	if c == classAVX512 {
		return "AVX-512"
	}
	return "AVX2"
}

// modelClass is the class whose figures the model reads (CoreSeconds, ModelError): that
// of this processor, AVX-512 where the join's AVX-512 kernels run (haveMatchAVX512),
// else AVX2, so that a plan's time, an estimate and the choice of method are those of the
// kernels that will run here. Until 2 December 2026 it was AVX2 on every machine, which
// made the model pessimistic on AVX-512 processors by about their ratio (2.7 at N = 28,
// 5.8 at 29). A processor with neither (or a purego build) runs the Go kernels, several
// times slower than the AVX2 figures say; the model has no class of its own for them.
var modelClass = classOf(haveMatchAVX512)

// classOf returns the class of a processor that runs the AVX-512 kernels or not.
func classOf(avx512 bool) machineClass {
	if avx512 {
		return classAVX512
	}
	return classAVX2
}

// ModelClass names the class of processor whose figures the cost model reads here
// ("AVX-512" or "AVX2"; see modelClass). Cost: none.
func ModelClass() string { return modelClass.String() }

// ModelClasses names the classes of processor the model has figures for, those
// ClassCoreSeconds takes. Cost: a small slice.
func ModelClasses() []string {
	names := make([]string, numClasses)
	for c := range numClasses {
		names[c] = c.String()
	}
	return names
}

// ClassCoreSeconds returns the modelled core-seconds of the join's whole count of n on
// one core of the named class ("AVX-512" or "AVX2"), whatever this processor is, and
// whether the class is known: what CoreSeconds says on a processor of that class. Cost:
// a look-up.
func ClassCoreSeconds(n int, class string) (float64, bool) {
	for c := range numClasses {
		if c.String() == class {
			return model.Seconds(measuredCoreHours[c], n), true
		}
	}
	return 0, false
}

// measuredCoreHours holds, by the class of processor measured on, the core-hours of the
// join's whole count of N; each class's table is whole from N = 16 to 29, and a figure
// one class did not measure is the other's, said so below.
//
// AVX2 (AMD EPYC, Zen 3): N = 16–19 whole counts on one worker, N = 20–23 bench/cost.sh,
// 25 November 2026, after the sieve and the AVX2 kernel's chunk offsets (bench/log/2026-11-25.md,
// "Join at scale, session of 25 Nov" and "Run of 25 November after the join's kernel
// work"); N = 24–29 29 November, after the AVX2 kernel of the weighted store and half B
// stored from N = 22 (bench/log/2026-11-29-join.md, "Measured cost"): BenchmarkJoinLists with
// CHESSPUZZLES_JOINLISTS_TIME, row sets drawn uniformly: N = 24 32 row sets and 25 64,
// each timed whole (0.49 ± 0.06 and 0.45 ± 0.04 CPU-s); 26 13 row sets timed whole (12.6
// ± 2.8); 27 17 and 28 5 by one class of the store drawn by its size, counted once
// untimed first (3.54 ± 1.07 and 142 ± 39 CPU-s); 29 12 by one class, 10 of them timed
// without the untimed run (259 ± 96). One class timed so read 0.6–0.95 of the whole row
// set at N = 26, and 1.1–1.9 times it without the untimed run: 27–29 are within about
// that much. At nice 10 on a machine shared by seven sessions (load 25–32), where CPU
// seconds run 1.1–1.3 times those of a quiet machine (27 November).
//
// AVX-512 (AMD EPYC, Zen 5: AVX-512 F, VPOPCNTDQ and BMI2), 30 November 2026, the code of
// main f169a31 (after the AVX-512 batches and wide chunks of 30 November), at nice 10 on a
// machine shared by four sessions (load 3–13; bench/log/2026-11-29-join.md, "Session 10 …
// cost"): N = 16–20 whole counts on one worker (16–19 two each, 20 82.9 CPU-s); N = 21–29
// BenchmarkJoinLists under GOMEMLIMIT=2GiB, row sets drawn uniformly. N = 21–27 each row
// set timed whole as the count runs it (CHESSPUZZLES_JOINLISTS_TIME=whole): 21 1,000 row
// sets, 22 400, 23 200, 24 192 (three seeds), 25 256 (four), 26 48 (three), 27 96 (two).
// N = 28 120 row sets and 29 88 (four seeds each) by one class of the store drawn by its
// size, counted once untimed first (=1), a sampler that read the whole row set 1.007 times
// at N = 26 (8 row sets), 0.981 at 27 (32) and 1.061 at 28 (8; a row set's class estimate
// 0.18–1.94 times its whole). The sampler counts row sets only: at N = 20 it read 0.0258
// core-hours, 1.12 times the whole count (which also builds the plan and the table).
// Before, this table was of 27–28 November (Zen 4, classes drawn uniformly and timed at
// once, which read 1.1–2.4 times high on AVX2): 24 138, 25 712, 26 7,600, 27 5.4·10⁴, 28
// 6.1·10⁵, 29 1.31·10⁷ core-hours.
// Since 30 November (session 11) N = 28 is that sample times the measured ratio of the
// change to sievePerSubB (sub-stores of 512 in place of 1,024 on AVX-512, the only change
// to its code): 0.85 ± 0.04 on 24 classes of as many row sets drawn by their size (two
// seeds; each class counted both ways in one process, in alternating order), so 6.19·10⁵
// → 5.26·10⁵ (the sample's error kept: it dominates). Row sets differ: the real task
// 46,756 took 1.10–1.28 times its time so. N = 26 read 0.96 ± 0.05 (15 whole row sets),
// within its noise: unchanged, as N = 24, 25, 27 and 29, whose code did not change.
// Then (session 11, join2) the extra cut bit only where extraPays says it pays: 0.998 of
// sub-stores of 512's time on 24 classes (seeds 2005 and 2025, 0.977 ± 0.077 and 1.038 ±
// 0.083), so N = 28 stays 5.26·10⁵; the real task 46,756 back to 1.02 (median of five
// pairs, 0.975–1.31) of main 1bc1180's CPU, from 1.10.
// Then (session 13, bytes) the weighted stores' runs of one weight padded to 8 lanes, not
// 64, on AVX-512 (countBatchesAVX512IndexWeighted weighs bytes): (batch, query) pairs
// 0.944 and 0.939 of before (dry, seeds 2005 and 2025), CPU 0.962 ± 0.057 on 18 classes
// drawn by their size (seed 2005 6, 0.953 ± 0.099; 2025 12, 0.974 ± 0.045; both ways in
// one process, alternated; not resolved from 1 at two standard errors), so N = 28
// 5.26·10⁵ → 5.06·10⁵; the real task 46,756 0.827 of main e814241's CPU (median of three
// pairs, 0.782–1.032). N = 22–26 store half B weighted too (storeBMinH) but were not
// re-timed: their figures stand. Seed 2005's classes 7–12 (session 14, sub) read 0.998 ±
// 0.215, so 24 classes 0.971 ± 0.067: 5.11·10⁵, within 1 % of 5.06·10⁵, which stands.
// Then (session 15, visit) sub-stores of 256 on AVX512BYTES, each extra cut bit over
// 1,024's kept only where extraPays says it pays: 0.956 ± 0.031 of 512's time on 24
// classes drawn by their size (seed 2005 0.964 ± 0.026, 2025 0.940 ± 0.070; both ways in
// one process, alternated), so N = 28 5.06·10⁵ → 4.84·10⁵; the real task 46,756 1.01 of
// main a0aba9e's CPU (median of six pairs, 0.94–1.27). N = 26 (whose row sets of several
// classes take sievePerSubB too; session 15, n26): 0.994 ± 0.028 of 512's time on the 54
// of 159 drawn classes that 256 cuts otherwise: its figure stands.
// Then (session 17, cut) the cut bits of a row set taken in greedyOrder's order (by their
// joint effect on a sample of its pairs) where the AVX-512 kernels run: whole row sets
// 0.772 ± 0.060 of occupancyOrder's CPU on 14 row sets (seed 2005 0.827 ± 0.143, 2025
// 0.753 ± 0.067; both ways in one process, alternated), so N = 28 4.84·10⁵ → 3.74·10⁵;
// the real task 46,756 1.004 of main's (median of six pairs, 0.93–1.04). N = 22–27 and 29
// did not take it then.
// Then (session 18, odd) the same order on the odd path (countRowSetClasses) from h = 14:
// N = 29's whole row sets 0.854 ± 0.046 of occupancyOrder's CPU (18 row sets: seed 2005
// 0.841 ± 0.045 on 6, 2025 0.865 ± 0.081 on 12; both ways in one process, alternated;
// (batch, query) pairs 0.705 dry), so N = 29 4.66·10⁶ → 3.98·10⁶ (the sample's error kept). N = 27 read 0.964 ± 0.077 (32 row sets)
// and does not take it; N = 22–26 do not either: their figures stand.
// Then (session 19) the kernels' ternlog twins, their batches two at a time where four
// batches' rows pass 32 KiB (kernelTernlog, kernelPairs), measured on a 2-core Intel Xeon
// with AVX-512 (the first Intel figures of this class; not measured on AMD): whole row
// sets, both ways in one process, alternated, 0.920 ± 0.019 of the kernels before at
// N = 28 (16 row sets, seeds 2005 and 2025), 0.906 ± 0.018 at 27 (16), 0.921 ± 0.008 at
// 29 (6); so N = 27 4.74·10⁴ → 4.29·10⁴, 28 3.74·10⁵ → 3.44·10⁵, 29 3.98·10⁶ → 3.67·10⁶
// (the samples' errors kept). N = 26 read 0.899 ± 0.092 (16 row sets, half of them
// beside two other timed processes): its figure stands, as do 24 and 25's (not re-timed).
// On that Intel machine the 16 row sets of N = 28 themselves (the new kernels' runs) read
// 59.6 CPU-s a row set, 3.32·10⁵ core-hours ± 32 %: within the error of the figure here.
// On AMD Zen 5 (session 21) the twins gained nothing and run on Intel only; two batches
// a call alone read 0.965 ± 0.037 of the kernels before at N = 28 (8 row sets), not
// resolved from 1: there N = 28 is 3.74·10⁵ by this chain, within the figure's error.
// Then (session 22, 2 December) N = 28 sampled again, not by the chain: 153 row sets
// drawn uniformly (20 seeds, 3001–3009 and 3101–3111), each timed whole as the count runs
// it, two processes on the two cores of that Intel Xeon under GOMEMLIMIT=2GiB, main
// ac33780: 62.4 ± 4.1 CPU-s a row set over 20,060,016 counted row sets, so 3.48·10⁵
// core-hours ± 6.5 % (one s.e.), which takes the place of the chain's 3.44·10⁵ ± 13 %
// (bench/log/2026-11-29-join.md, "Session 22 … sample").
// Then (session 23) the stored half chosen by size (storeBySize): the 160 row sets of that
// sample's seeds drawn again, the 33 that store half A timed both ways in one process,
// alternated (0.70 of half B's time in all), the others counting as no difference: 3.68 ±
// 0.87 CPU-s less a row set drawn, so 58.7 ± 4.1 CPU-s and N = 28 3.48·10⁵ → 3.27·10⁵
// (the two errors added in quadrature, 7.1 %; "Session 23 … size"); and its row sets
// that store half A with sub-stores of 512 (sievePerSubEvenA): 0.913 of their time on 8
// of the 33 (the six largest), applied to the 33's 8.75 CPU-s a row set drawn, 0.76 CPU-s
// less, so 58.0 ± 4.2 CPU-s and N = 28 3.23·10⁵ (7.2 %); and half A stored wherever it is
// the larger (storeAOver 1.0 in place of 1.2): the ten row sets of those draws between,
// timed both ways, 76.8 CPU-s less in all, 0.48 a row set drawn, so 57.5 ± 4.2 CPU-s
// and N = 28 3.21·10⁵ (7.3 %).
// Then (session 24) the mixed chunk layouts (mixedOn): 0.933 ± 0.010 of six chunks' time
// on 16 whole row sets, both ways in one process, alternated, so by the chain 53.7 ± 4.0
// CPU-s a row set, 2.99·10⁵; and N = 28 sampled whole again with them, main 7431e69: 148
// row sets drawn uniformly (15 seeds, 4001–4016, ten each; no seed started after 14:40
// and each started one finished), 50.7 ± 3.4 CPU-s a row set, 2.82·10⁵ ± 6.6 %. The two
// are independent draws: their mean weighted by inverse variance, 51.9 ± 2.6 CPU-s, is the
// figure, 2.89·10⁵ core-hours ± 4.9 % ("Session 24 … mixed"). N = 29 with the mixed
// layouts: 0.932 ± 0.010 of six chunks' time on 9 whole row sets (seeds 2951 and 2952,
// both ways in one process, alternated), so 3.64·10⁶ → 3.39·10⁶ (the sample's error
// kept). N = 27 was not re-timed: its figure stands.
// Then (session 25) a third sample of N = 28, on an AMD EPYC Zen 4 with AVX-512 (main
// fc1401b–fb6fad0, whose changes do not reach N = 28's path): 50 row sets drawn uniformly
// (seeds 5101–5105, ten each; no seed started after 17:12), 58.35 ± 5.45 CPU-s a row set
// (3.25·10⁵ ± 9.3 %; some of it beside benchmarks on the other core). The three draws
// averaged by inverse variance, 53.09 ± 2.32 CPU-s, are the figure: 2.96·10⁵ ± 4.4 %
// (bench/log/2026-11-29-join.md, "Session 25").
// N = 27 (session 23) sampled whole, not by the chain: 272 row sets drawn uniformly (34
// seeds, 2701–2734, eight each), main 3600a6b: 2.087 ± 0.133 CPU-s a row set over
// 65,005,798 counted row sets, so 3.77·10⁴ core-hours ± 6.4 % in place of the chain's
// 4.29·10⁴ ± 11 %. N = 29 likewise, after sievePerSubOdd14: 78 row sets (39 seeds,
// 2911–2933 and 3011–3026, two each; no seed started after 08:32, each started one
// finished), 48.3 ± 5.3 CPU-s a row set over 270,792,004 counted row sets, so 3.64·10⁶
// core-hours ± 11 % in place of the chain's 3.67·10⁶ ± 19 %.
// Then (session 26) N = 27 sampled on the AMD EPYC Zen 4 with AVX-512 (main 22cee33,
// N = 27's path as in session 23): 568 row sets drawn uniformly (71 seeds, 2741–2811,
// eight each; one process, beside benchmarks on the other core much of the time), 2.805
// ± 0.124 CPU-s a row set, 5.07·10⁴ ± 4.4 %: 1.34 ± 0.10 times the Intel sample, farther
// apart than their errors allow (χ² 15.6 on one degree of freedom). The figure is their
// mean weighted by inverse variance, 2.470 CPU-s, 4.46·10⁴, with its error widened by
// their spread (Birge ratio 3.95): ± 14.5 % ("Session 26").
//
// CoreSeconds and the choice of method read the class modelClass, this processor's;
// frames' model was measured in the first run, the same on both classes.
var measuredCoreHours = [numClasses]map[int]float64{
	classAVX2: {
		16: 0.215 / 3600, 17: 2.2 / 3600, 18: 7.3 / 3600, 19: 46.1 / 3600,
		20: 0.063, 21: 0.436, 22: 3.23, 23: 23.6,
		24: 185, 25: 1930, 26: 1.82e4, 27: 6.39e4, 28: 7.94e5, 29: 1.95e7,
	},
	classAVX512: {
		16: 0.14 / 3600, 17: 0.595 / 3600, 18: 1.46 / 3600, 19: 10.6 / 3600,
		20: 82.9 / 3600, 21: 0.165, 22: 1.49, 23: 9.05,
		24: 88.6, 25: 723, 26: 6460, 27: 4.46e4, 28: 2.96e5, 29: 3.39e6,
	},
}

// measuredError is the relative error measuredCoreHours states for N, by class (one
// standard error of the mean over its sampled row sets or tasks; bench/README.md gives
// two); an N not here has no stated error (a whole count, or an extrapolation).
var measuredError = [numClasses]map[int]float64{
	classAVX2:   {24: 0.12, 25: 0.10, 26: 0.22, 27: 0.30, 28: 0.27, 29: 0.37},
	classAVX512: {21: 0.02, 22: 0.07, 23: 0.06, 24: 0.08, 25: 0.05, 26: 0.10, 27: 0.145, 28: 0.044, 29: 0.11},
}

// ModelError returns the relative error (one standard error) the cost model states for
// the join's whole count of n (see measuredError, modelClass), or 0 where it states none.
// Cost: a map lookup.
func ModelError(n int) float64 { return measuredError[modelClass][n] }

// cutCoreHours are the core-hours plan version 102 was cut by (bench/cost.sh on the 2-core
// Intel Xeon VM of 24 November 2026, before the sieve): the number of tasks is this model's
// time over maxTaskSeconds, so the figures are frozen with PlanVersion (a new model
// for the cut is a new version). The join has since become 2–6 times faster than these from
// N = 20, so its tasks take well under half a core-hour (about 12 minutes at N = 24–25).
var cutCoreHours = map[int]float64{
	16: 0.111 / 3600, 17: 0.873 / 3600, 18: 2.699 / 3600, 19: 23.0 / 3600,
	20: 0.0597, 21: 0.405, 22: 9.12, 23: 61.4, 24: 2177, 25: 15307,
}

// modelSeconds is the modelled core-seconds of the join's whole count of n on one core of
// the class modelClass (see model.Seconds, which extrapolates beyond the last N measured).
func modelSeconds(n int) float64 { return model.Seconds(measuredCoreHours[modelClass], n) }

// cutModelSeconds is the core-seconds plan version 102 takes the join's count of n for when
// it cuts it into tasks (cutCoreHours).
func cutModelSeconds(n int) float64 { return model.Seconds(cutCoreHours, n) }

// CoreSeconds returns the modelled time of the whole plan on one core of a processor of
// this one's class (modelClass; see measuredCoreHours): measured on one such machine,
// another of the class scales it by its speed;
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
//
// need is the live memory (what the Go heap holds after a collection), not the peak: the
// runtime lets garbage grow the heap up to twice its live size (GOGC) or to the soft
// limit (the command line sets it from --max-memory), whichever comes first, before it
// collects. So a process whose limit is far above need peaks above it: at N = 22 on one
// worker (29 Nov, one shard of 512, half B stored) the model says 700 MiB, the live heap
// after the last collection was 674 MiB, and the peak RSS 827 MiB under the default
// limit, 516 MiB under --max-memory 700MiB (a partial table: the two cores' buffers did
// not fit beside the whole one); the count and its counters the same.
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
// each, maxRowPieces) and offsets (16 bytes a column set of its popcount: at most 16·2^h).
func maxRowBytes(h int) uint64 {
	return 8*maxRowPieces(h) + 16<<h + 4
}
