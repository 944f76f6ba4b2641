package cluster

import (
	"fmt"
	"math/big"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// Results stored by the builds of MessageVersion 2, which ran queens plans and knight
// plans dressed as queens plans of N = 0: each a count.Result (its solutions below 2⁶⁴;
// a knight task's summed states in Nodes, its peak in Stored) beside the board and the plan
// version. A coordinator of this build reads them from a state directory that build left
// (sealed by its secret, checked when it accepted them) as the results of its own plans,
// so that a count it started there resumes; no worker of this build sends one.

// oldResult is the fields a build of MessageVersion 2 stored a result with.
type oldResult struct {
	N           int     `json:"n"`
	PlanVersion int     `json:"plan_version"`
	Solutions   *uint64 `json:"solutions"`
	HalfTurn    uint64  `json:"half_turn"`
	QuarterTurn uint64  `json:"quarter_turn"`
	Nodes       uint64  `json:"nodes"`
	RowSets     uint64  `json:"row_sets,omitempty"`
	Stored      uint64  `json:"stored,omitempty"`
	PairTests   uint64  `json:"pair_tests,omitempty"`
}

// legacyResult sets r.Result from r.old, a result a build of MessageVersion 2 stored, as
// plan's result, or says why it cannot be one of plan's: only queens and knight plans ran
// on that build. Its task digest was of that build's task (count.Task), which this build
// no longer makes: it is dropped, and the result checked by the plan alone.
func legacyResult(plan work.Plan, r *Result) error {
	o := r.old
	var v int
	switch p := plan.(type) {
	case *work.QueensPlan:
		_, v, _ = work.ParseQueensJob(plan.Job())
		if o.N == 0 {
			return fmt.Errorf("a result of a knight job stored under the queens job %s", plan.Job())
		}
		r.Result = p.Result(count.Result{ID: r.ID, Solutions: *o.Solutions, HalfTurn: o.HalfTurn, QuarterTurn: o.QuarterTurn, Nodes: o.Nodes,
			RowSets: o.RowSets, Stored: o.Stored, PairTests: o.PairTests})
	case *work.KnightPlan:
		_, _, _, v, _ = work.ParseKnightPlanName(p.Name())
		if o.N != 0 || o.HalfTurn != 0 || o.QuarterTurn != 0 || o.RowSets != 0 || o.PairTests != 0 || o.Nodes > 1<<62 || o.Stored > 1<<62 {
			return fmt.Errorf("task %d: not a knight task's result of a build of message version 2", r.ID)
		}
		r.Result = work.KnightResult(kcount.OpenResult{ID: r.ID, Tours: new(big.Int).SetUint64(*o.Solutions), States: int64(o.Nodes), Peak: int64(o.Stored)})
	default:
		return fmt.Errorf("task %d: a result of a build of message version 2, which ran no plan of job %s", r.ID, plan.Job())
	}
	if o.PlanVersion != v {
		return fmt.Errorf("plan version %d, but job %s has plan version %d", o.PlanVersion, plan.Job(), v)
	}
	r.old, r.Task = nil, ""
	return nil
}
