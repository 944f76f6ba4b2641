package queens

import (
	"fmt"
	"math"
)

// The cost model: what a count of N takes by each method, from measurement. Every figure
// a plan, an estimate or a choice of method gives comes from here, so that they tell one
// story.
//
// measuredCoreHours holds the core-hours of each method's whole count of N, measured by
// bench/cost.sh (timed random samples of the real plans' tasks on one core, the plan
// extrapolated; ± two standard errors in bench/README.md) on the 2-core Intel Xeon VM of
// 24 November 2026 for N = 20–28, and for N = 16–19 by whole counts on one worker
// (bench/count.sh, CPU seconds, the medians of bench/README.md). Beyond the last N
// measured, a method grows as it did over its last two measured steps.
var measuredCoreHours = map[string]map[int]float64{
	MethodFrames: {
		16: 0.795 / 3600, 17: 4.915 / 3600, 18: 32.6 / 3600, 19: 222.0 / 3600,
		20: 0.439, 21: 3.51, 22: 29.2, 23: 237, 24: 2237, 25: 20640, 26: 205275, 27: 2.06e6, 28: 2.12e7,
	},
	MethodJoin: {
		16: 0.111 / 3600, 17: 0.873 / 3600, 18: 2.699 / 3600, 19: 23.0 / 3600,
		20: 0.0597, 21: 0.405, 22: 9.12, 23: 61.4, 24: 2177, 25: 15307,
	},
}

// modelCoreSeconds returns the measured (or extrapolated) core-seconds of the count of n
// by method: below the first N measured, the first measured N's time scaled down as
// from its next N (a lower bound: fixed costs dominate there, and both methods take
// well under a second).
func modelCoreSeconds(method string, n int) float64 {
	t := measuredCoreHours[method]
	lo, hi := math.MaxInt, 0
	for k := range t {
		lo, hi = min(lo, k), max(hi, k)
	}
	switch {
	case len(t) == 0:
		return math.Inf(1)
	case n > hi:
		// Two steps back: odd and even N grow differently for the join.
		g := math.Sqrt(t[hi] / t[hi-2])
		return 3600 * t[hi] * math.Pow(g, float64(n-hi))
	case n < lo:
		g := t[lo+1] / t[lo]
		return 3600 * t[lo] / math.Pow(g, float64(lo-n))
	}
	return 3600 * t[n]
}

// joinModelSeconds is modelCoreSeconds of the join.
func joinModelSeconds(n int) float64 { return modelCoreSeconds(MethodJoin, n) }

// CoreSeconds returns the modelled time of the whole plan on one core of the machine the
// model was measured on (a 2-core Intel Xeon VM; see measuredCoreHours): measured for
// N = 16–28 by frames and 16–25 by the join, extrapolated beyond. Another machine scales
// it by its speed; Task.Cost shares it among the tasks (a task's time is about
// CoreSeconds·Cost/ΣCost, within a factor of about three for a join task, 1.6 for a frame).
// It costs nothing but a look-up.
func (p *Plan) CoreSeconds() float64 {
	return modelCoreSeconds(p.Method, p.N)
}

// Memory returns the bytes a process needs to run the plan's tasks on workers goroutines
// if it may use limit bytes (0: no limit), and whether they fit the limit. Frames need
// under 1 MB a worker. The join needs its quarter table and a worker's buffers
// (JoinMemory): the whole table, shared by the workers, where it fits the limit with the
// buffers; else only the rows that its row sets read, as many as fit (the rows of four
// row sets a worker at the least: under 0.1 GiB at N = 24–25, about 0.3 GiB at 26–27),
// built and dropped as the tasks go (joinTable). The join is a little slower so (a row is
// rebuilt when it was dropped: at most about 3 % of a row set's time from N = 24) and never
// holds more than the limit allows, if it allows the least it needs. It costs nothing but
// arithmetic.
func (p *Plan) Memory(workers int, limit uint64) (need uint64, fits bool) {
	workers = max(workers, 1)
	if p.Method != MethodJoin {
		need = uint64(workers) << 20
		return need, limit == 0 || need <= limit
	}
	table, per := JoinMemory(p.N)
	buffers := uint64(workers)*per + joinSlack
	if limit == 0 || table+buffers <= limit {
		return table + buffers, true
	}
	least := minRowBytes(p.N, workers) + buffers
	if limit < least {
		return least, false
	}
	return limit, true
}

// joinSlack is the memory a join process needs besides its table and workers' buffers:
// the runtime, the plan and the binary (the whole process takes about 20 MiB at N = 16, table and buffers included).
const joinSlack = 8 << 20

// minRowBytes is the least a partial table of n needs on workers goroutines: four rows
// a worker, each as large as the largest (JoinMemory's measure), and the row index.
func minRowBytes(n, workers int) uint64 {
	h := n / 2
	return uint64(workers)*4*maxRowBytes(h) + 96<<h
}

// maxRowBytes is the memory of the largest row of the h×h table: its pieces (8 bytes
// each, maxRowPieces) and offsets (16 bytes a column set).
func maxRowBytes(h int) uint64 {
	return 8*maxRowPieces(h) + 16<<h + 4
}

// ChooseMethod returns the method a count of n uses on workers goroutines that may use
// limit bytes (0: no limit), given the method asked for: "auto" takes whichever the cost
// model (CoreSeconds) says is faster at n among the methods that fit limit (see
// Plan.Memory); MethodFrames and MethodJoin are checked (the join counts N from MinJoinN
// to MaxJoinN, within limit). Workers ≤ 0 means the tasks run elsewhere (slices on a
// batch scheduler, NATS workers), on machines whose memory is not known here: auto then
// takes frames, which fit any machine, and the join is checked for one worker. It is the
// one place the method is decided: a plan, an estimate and a count of the same n with
// the same options take the same method. It costs nothing but arithmetic.
func ChooseMethod(n int, method string, workers int, limit uint64) (string, error) {
	inRange := n >= MinJoinN && n <= MaxJoinN
	fits := false
	var need uint64
	if inRange {
		need, fits = (&Plan{N: n, Method: MethodJoin}).Memory(max(workers, 1), limit)
	}
	switch method {
	case MethodFrames:
		return MethodFrames, nil
	case "auto":
		if workers > 0 && fits && joinModelSeconds(n) < modelCoreSeconds(MethodFrames, n) {
			return MethodJoin, nil
		}
		return MethodFrames, nil
	case MethodJoin:
		if !inRange {
			return "", fmt.Errorf("the join method counts N from %d to %d, got %d", MinJoinN, MaxJoinN, n)
		}
		if !fits {
			return "", &MemoryError{Need: need, Limit: limit}
		}
		return MethodJoin, nil
	}
	return "", fmt.Errorf("method must be auto, %s or %s, got %q", MethodJoin, MethodFrames, method)
}

// A MemoryError says that a count needs more memory than its limit allows.
type MemoryError struct {
	Need, Limit uint64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("the count needs %d bytes, more than the limit of %d", e.Need, e.Limit)
}
