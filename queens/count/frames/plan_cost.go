package frames

import (
	"github.com/chesspuzzles/chesspuzzles/queens/internal/model"
)

// measuredCoreHours holds the core-hours of the frames method's whole count of N, measured
// by bench/cost.sh (timed random samples of the real plans' tasks on one core, the plan
// extrapolated; ± two standard errors in bench/log/2026-11-25.md, "Run of 25 November after the
// join's kernel work") on the 2-core AMD EPYC (Zen 3) of 25 November 2026 for N = 20–28, in
// the same run as the join's model, and for N = 16–19 by whole counts on one worker there
// (bench/count.sh, the medians of bench/log/2026-11-25.md, "The merged tree on this machine").
var measuredCoreHours = map[int]float64{
	16: 1.312 / 3600, 17: 8.122 / 3600, 18: 53.0 / 3600, 19: 374.3 / 3600,
	20: 0.789, 21: 6.7, 22: 48.3, 23: 436, 24: 4066, 25: 40324, 26: 358884, 27: 3.55e6, 28: 3.57e7,
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
