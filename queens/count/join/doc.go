// Package join is the join method of counting the n-queens solutions: one of the two
// implementations of count.Plan (queens.NewPlan hands them out). Get a plan with [New].
//
// It counts the same numbers as package frames by a second method (join.go): every
// half-board of the left and right halves is built from a table of quarter-board pieces,
// and the pairs that share no diagonal are counted 512 at a time by a bit-sliced matcher.
// It is several times faster than the frame search for N = 16…23 (bench/README.md). It
// reads a quarter table, whole where it fits the process's memory limit (joinMemory:
// 11 MiB at N = 18–19, 73.5 MiB at 20–21, 574 MiB at 22–23, 5 GiB at 24–25), else a row at a
// time as its row sets need them (the plan's Memory: any N ≤ 27 in 2 GiB, N = 28 and 29 on
// one worker in 2 GiB, about 1 GiB measured at N = 28).
// queens.ChooseMethod picks the faster method by the measured cost model (the plan's
// CoreSeconds). The plan's last task counts P(N) and R(N), the solutions fixed by a half
// and a quarter turn, by a search that places only half or a quarter of the queens, so the
// join's plan gives the fundamental count exactly too.
//
// A task travels as a count.Task whose description is its run of row sets,
// "sub:first:rowsets" (see joinTask), or "-1:0:0" for the symmetric task. The plan has two
// versions that cut the same row sets differently: PlanVersion, whose task list is held
// whole (20 bytes a task, at most 2²⁴ tasks), the default to N = 28, and
// DemandPlanVersion, whose tasks are made on demand from a cut table of 20 bytes a block
// of 4,096 row sets (4.4·10⁷ tasks of about half a core-hour at N = 29), the default
// from N = 29 (DefaultVersion; NewVersion takes either at any N).
package join
