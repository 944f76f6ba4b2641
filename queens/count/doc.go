// Package count is the seam between a count of the n-queens solutions and the methods
// that do it: a [Plan] cuts the count of one board into independent tasks with stable ids,
// a [Task] carries its method's description so that any machine runs it without the plan,
// a [Result] is what running it found, and a [Tally] sums results once per id into exact
// [Counts], checked against the published values ([Known]).
//
// Plan has exactly two implementations, one package each: queens/count/frames (border
// queens pre-placed, the rest by a bitboard search: any N, tiny memory) and
// queens/count/join (half-boards from a quarter-board table, joined by their diagonal
// signatures: far faster where its table fits). queens.NewPlan hands them out and
// queens.ChooseMethod picks one by the measured cost model (Plan.CoreSeconds, within
// Plan.Memory). What runs a plan — internal/work on one machine with checkpoints and
// slices ([Shard]), internal/work/cluster over NATS, bench — uses only this package:
//
//	p, _ := queens.NewPlan(20, count.MethodJoin, 0)
//	if err := p.Build(ctx); err != nil { // the task list: seconds to minutes at N = 27
//		return err
//	}
//	tally := count.NewTally(p)
//	for id := range p.Order() {
//		t, _ := p.Task(id)                  // travels to a worker as JSON
//		r, _ := p.CountTask(ctx, t)         // on the worker, without the plan
//		if err := p.CheckResult(t, r); err == nil { // back on the coordinator
//			tally.Add(r)
//		}
//	}
//	counts, err := tally.Final()
//
// Helpers written once over the interface: [Check] (a result against its task's id in the
// plan), [Shard] (deterministic slices), [Sum] and [Here] (a whole plan on one goroutine).
package count
