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
// # Counting
//
// [Count] counts all solutions and the fundamental ones exactly, in arbitrary precision
// (Q(27) > 2^57; Q(29) overflows uint64), by the method [ChooseMethod] takes: whichever the
// measured cost model says is faster at N within the memory allowed. A long count is a
// plan of independent tasks with stable ids: [NewPlan] returns the plan of (N, method,
// version) as a count.Plan (package queens/count: the seam, with Tally, Shard and the
// cost model), whose two implementations are the methods, each in its own package:
// queens/count/frames (border queens pre-placed, the rest by a bitboard search: any N, tiny
// memory) and queens/count/join (half-boards built from a quarter-board table, joined by
// their diagonal signatures: far faster where its table fits). internal/work runs a plan on
// all cores, with checkpoints, or in slices; internal/work/cluster over NATS. [Known] holds the
// published Q, U, P and R (OEIS A000170, A002562, A032522, A033148) that tests, Tally and
// the web page check against.
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
