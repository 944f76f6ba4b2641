// Package frames is the frames method of counting the n-queens solutions: one of the two
// implementations of count.Plan (queens.NewPlan hands them out). Get a plan with [New];
// run it with internal/work, or task by task with the plan's CountTask.
//
// Every solution has exactly one queen on each border line (the top and bottom rows, the
// left and right columns), its frame. A symmetry of the square maps a solution's frame onto
// its image's frame, so the plan keeps one frame per symmetry class as a [count.Task] weighted by
// the class size (8, 4, 2 or 1), and the total is the weighted sum: 3206 tasks for N = 16,
// 9522 for N = 20, 83190 for N = 32 (between n⁴/20 and n⁴/12 in that range). The solutions
// that a half turn or a quarter turn fixes are counted in the same tasks, which gives U(N)
// exactly by Burnside's lemma, U = (Q + P + 2R)/8 (see count.Counts).
//
// A task pre-places its frame and fills the other rows with an iterative bitboard search (no
// recursion, no allocation). At every node it scans the open squares of every empty row: it
// backtracks at once if a row or a free column has none left (forward checking), places
// forced queens without branching (the only open square of a row, or the only row a column
// is still open on), counts the last two rows in closed form, and otherwise branches on the
// most constrained line: the row with the fewest open squares (ties to rows near the
// middle), or a column open on just two rows when every row has three or more. The scan and
// the chains of forced queens (about half of all nodes only place a forced queen) run in
// amd64 assembly, with BMI2 where the processor has it (scan_amd64.s); elsewhere, or built
// with -tags purego, the same Go loop runs, and tests hold the two to the same answers and
// the same search tree. Memory is flat: a few hundred kilobytes for the plan, nothing per
// node.
//
// Tasks have stable ids and the plan is a pure function of N and [PlanVersion]; a task
// travels as a count.Task whose description is its frame ("top,bottom,left,right") and, in
// the fine plan, its prefix queens ("/row:col,…"). The plan's Estimate predicts a count's
// nodes and solutions by Knuth's random probes down random tasks' search trees, and its
// time by timing random subtasks.
//
// For N ≥ 25 the frames differ too much in size for a cluster (at N = 27 each is days of
// one core). The fine plan ([FinePlanVersion] 2) splits every frame estimated above
// fineBound (about one core-hour) where its search first branches, each child a task
// with extra pre-placed queens (its prefix) and the frame's weight, so that its tasks
// partition the v1 plan's work exactly, node for node. Counts use it from [FineFromN] = 25
// on ([DefaultVersion]); below, its tasks are v1's. At N = 27 it has 1.1·10⁷ tasks, held
// in about 27 bytes each (290 MB with the hand-out order, against about 4 GB as task
// structs); a worker checks a task of it from its description, without the plan.
package frames
