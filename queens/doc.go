// Package queens solves the N-queens problem: place N queens on an N×N board so that no two
// attack each other.
//
// A placement of one queen a row, complete or not, is a [Placement]: p[row] = col (0-based,
// row 0 at the top, -1 for an empty row), 4 bytes a row. Listing, symmetry, checking,
// completing and the random solutions of a hundred million queens all use this one form; a
// solution is a Placement that is a permutation. Any set of queens, several a row or off
// the board, is a [Position].
//
// Example:
//
//	for p := range queens.Solutions(8) {
//		fmt.Println(p.Format(queens.Code)) // 15863724, 16837425, …
//	}
//
// # Notation
//
// [Parse] reads a position in any of the usual notations, detecting which: code ("15863724",
// the 1-based column of each row from the top, comma-separated from N = 10), perm (0-based
// columns), coords ("(x,y)" pairs), algebraic squares (or "file,rank" beyond 26 files) or a
// drawn board.
// [Placement.Format] writes one (see [Notation]), and [Placement.WriteFormat] streams a huge
// one. [ParseColumns] reads the notation programs write huge placements in, a list of
// columns, in one pass straight into a Placement.
//
// # Listing
//
// [Solutions] streams every solution of an N×N board in ascending order of its code.
// [List] does the same with a context, a starting point (resume after a given solution
// without re-enumerating what comes before it), a filter for fundamental solutions, and
// progress counters. The search is an iterative bitboard backtracking in row order: each
// node costs a few nanoseconds and no allocation, and memory stays constant however many
// solutions stream out. [Fundamental] streams one solution per class.
//
// # Symmetry
//
// [Canonical] returns the representative of a solution's class under the eight symmetries
// of the square: the member with the smallest code. [IsCanonical] tells whether a solution
// is its own representative; [ClassSize] is the size of its class (8, 4, 2, or 1 on the 1×1 board).
//
// # Checking
//
// [Check] says whether a position is a solution, which queens attack each other and along
// which line (an attack stops at the first queen on its line), and how many queens stand on
// each row, column and diagonal. [Placement.Check] gives the same report of a Placement in
// one pass, without sorting or a [Position]: ten million queens in well under a second.
// [CheckContext] and [Placement.CheckContext] keep a bounded part of the report of a huge
// position.
//
// # Counting by frames
//
// [Count] counts all solutions and the fundamental ones exactly, in arbitrary precision
// (Q(27) > 2^57; Q(29) overflows uint64). It runs a [Plan], which [NewPlan] builds:
//
// Every solution has exactly one queen on each border line (the top and bottom rows, the
// left and right columns), its frame. A symmetry of the square maps a solution's frame onto
// its image's frame, so the plan keeps one frame per symmetry class as a [Task] weighted by
// the class size (8, 4, 2 or 1), and the total is the weighted sum: 3206 tasks for N = 16,
// 9522 for N = 20, 83190 for N = 32 (between n⁴/20 and n⁴/12 in that range). The solutions
// that a half turn or a quarter turn fixes are counted in the same tasks, which gives U(N)
// exactly by Burnside's lemma, U = (Q + P + 2R)/8 (see [Counts]).
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
// Tasks have stable ids and the plan is a pure function of N and [PlanVersion], so a task
// can be run anywhere ([Task.Count], [Task.CountContext]) and a [Tally] sums results once
// per id: the same plan runs on all cores, with checkpoints, sharded ([Plan.Shard]) or over
// a network (internal/work runs it; the engine has no goroutines). [EstimatePlan] predicts a
// count's nodes and solutions by Knuth's random probes down random tasks' search trees
// ([Task.Probe]). [Known] holds the published Q, U, P and R (OEIS A000170, A002562, A032522,
// A033148) that tests and the web page check against.
//
// For N ≥ 25 the frames differ too much in size for a cluster (at N = 27 each is days of
// one core). [NewFinePlan] ([FinePlanVersion] 2, also NewPlanVersion(n, 2)) splits every
// frame estimated above [FineBound] (about one core-hour) where its search first
// branches, each child a task with extra pre-placed queens (Task.Prefix) and the frame's
// weight, so that its tasks partition the v1 plan's work exactly, node for node.
// Counts use it from [FineFromN] = 25 on ([FramesPlanVersion]); below, its tasks are v1's.
// At N = 27 it has 1.1·10⁷ tasks: [NewCompactPlan] holds them in about 27 bytes each (290
// MB with the hand-out order, against about 4 GB as a Tasks slice), and [Plan.Len],
// [Plan.Task], [Plan.Order] and [Plan.All] read either form.
//
// # Counting by joining half-boards
//
// [CountJoin] and [NewJoinPlan] count the same numbers by a second method (join.go): every
// half-board of the left and right halves is built from a table of quarter-board pieces, and
// the pairs that share no diagonal are counted 512 at a time by a bit-sliced matcher. It is
// several times faster than the frame search for N = 16…23 (bench/README.md). It reads a
// quarter table, whole where it fits the process's memory limit ([JoinMemory]: 8 MiB at
// N = 18–19, 77 MiB at 20–21, 0.6 GiB at 22–23, 5 GiB at 24–25), else a row at a time as its
// row sets need them ([Plan.Memory]: any N ≤ 27 in 2 GiB). [ChooseMethod] picks the faster
// method by the measured cost model ([Plan.CoreSeconds]). [SymmetricCounts] gives P(N) and R(N), the solutions fixed by a half and
// a quarter turn, by a search that places only half or a quarter of the queens, so the join's
// plan gives the fundamental count exactly too.
//
// # Teaching
//
// [Trace] streams the steps of the row-by-row backtracking as a student writes it (try,
// attacked, place, dead end, remove, solution) and [NaiveCount] what testing every
// permutation looks at; [NewPuzzle] makes seeded puzzles whose completion is unique, proved
// by [CountCompletions] (docs/teach.md).
//
// # Beyond search
//
// Listing and counting stop near N = 30, but a solution of any size is easy to make.
//
// [One] builds one by an explicit construction (Hoffman, Loessi and Moore 1969;
// Bernhardsson 1991): the even columns 2, 4, … then the odd ones 1, 3, …, with two small
// adjustments when N mod 6 is 2 or 3. [OneColumn] gives one row's column in O(1), and
// [WriteColumns] streams the rows a function gives (such as OneColumn) in any notation in
// constant memory, for up to [MaxOneN] (a billion) queens.
//
// [Random] finds a random solution by the conflict-minimising local search of Sosić and Gu
// (1994): fill the rows from the top with random columns that no queen above attacks
// diagonally, then swap the columns of attacked queens with random partners while that
// lowers the number of attacks. Expected time is linear; memory is 4.5 bytes a queen (the
// Placement and a bit for each diagonal), up to [MaxRandomN] queens. The same random source
// gives the same solution.
//
// [Complete] extends a partial placement to a solution, or proves that none exists. This is
// NP-complete (Gent, Jefferson and Nightingale 2017). When at most 64 rows are empty (so on
// every board up to 64×64) the search is exact: bitboards over the empty rows and columns,
// the given queens' lines removed, always filling the empty row with the fewest open
// squares and abandoning a branch as soon as some empty row or open column has no square
// left. With more empty rows it runs the local search with the given queens fixed: it
// finds completions but cannot prove there are none, so it runs until its context is done.
// Two given queens that attack each other are reported as a [*ConflictError].
package queens
