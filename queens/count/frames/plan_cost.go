package frames

import (
	"github.com/chesspuzzles/chesspuzzles/queens/internal/model"
)

// measuredCoreHours holds the core-hours of the frames method's whole count of N,
// measured by bench/cost.sh (timed random samples of the real plans' tasks on one core,
// the plan extrapolated; ± two standard errors in bench/README.md, "The cost of N = 20…28
// on paper") on the 2-core Intel Xeon VM of 24 November 2026 for N = 20–28 (the AMD EPYC
// run of 25 November there, 1.6–1.8× these, is not the model), and for N = 16–19 by
// whole counts on one worker (bench/count.sh, CPU seconds, the medians of bench/README.md).
var measuredCoreHours = map[int]float64{
	16: 0.795 / 3600, 17: 4.915 / 3600, 18: 32.6 / 3600, 19: 222.0 / 3600,
	20: 0.439, 21: 3.51, 22: 29.2, 23: 237, 24: 2237, 25: 20640, 26: 205275, 27: 2.06e6, 28: 2.12e7,
}

// CoreSeconds returns the modelled time of the whole plan on one core of the machine the
// model was measured on (see measuredCoreHours; model.Seconds extrapolates beyond N = 28).
// Another machine scales it by its speed; Task.Cost shares it among the tasks (a task's
// time is about CoreSeconds·Cost/ΣCost, within a factor of about 1.6). It costs nothing
// but a look-up.
func (p *plan) CoreSeconds() float64 {
	return model.Seconds(measuredCoreHours, p.n)
}

// Memory returns the bytes a process needs to run the plan's tasks on workers goroutines:
// under 1 MB a worker, whatever the limit (0: none). It costs nothing but arithmetic.
func (p *plan) Memory(workers int, limit uint64) (need uint64, fits bool) {
	need = uint64(max(workers, 1)) << 20
	return need, limit == 0 || need <= limit
}
