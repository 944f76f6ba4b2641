// Package queens solves the N-queens problem: place N queens on an N×N board so that no two
// attack each other.
//
// A complete placement is a [Placement], a permutation p with p[row] = col (0-based, row 0
// at the top). Any set of queens, complete or not, is a [Position].
//
// Listing. [Solutions] streams every solution of an N×N board in ascending order of its code
// (the 1-based column of each row, read from the top: "15863724" is the first of the 92
// eight-queens solutions). [List] does the same with a context, a starting point (resume
// after a given solution without re-enumerating what comes before it), a filter for
// fundamental solutions, and progress counters. The search is an iterative bitboard
// backtracking: each node costs a few nanoseconds and no allocation, and memory stays
// constant however many solutions stream out.
//
// Counting. [Count] counts all solutions and the fundamental ones (classes under the eight
// symmetries of the square) exactly, in arbitrary precision. It runs a [Plan]: [NewPlan]
// cuts the count into independent tasks with stable ids, one per symmetry class of border
// placements; [Task.Count] runs one anywhere, and a [Tally] sums results once per id, so
// a count can be spread over cores, checkpoints, shards or machines. [EstimatePlan]
// predicts a count's work by Knuth's random probes.
//
// Counting by joining half-boards. [CountJoin] and [NewJoinPlan] count the same numbers
// by a second method (see join.go): every half-board of the left and right halves is built
// from a table of quarter-board pieces, and the pairs that share no diagonal are counted
// 512 at a time by a bit-sliced matcher. It is several times faster than the frame search
// for N = 16…21 (measured table in join.go and bench/README.md) but needs the quarter
// table in memory: [JoinMemory] says how much (8 MiB at N = 18–19, 77 MiB at 20–21,
// 0.6 GiB at 22–23). [SymmetricCounts] gives P(N) and R(N), the solutions fixed by a half
// and a quarter turn, by a search that places only half or a quarter of the queens, so
// the join's plan gets the fundamental count exactly too.
//
// Symmetry. [Canonical] returns the representative of a solution's class: the member with
// the smallest code. [IsCanonical] tells whether a solution is its own representative.
//
// Notation. [Parse] reads a position in any of the usual notations, detecting which;
// [Placement.Format] writes one (see [Notation]).
//
// Checking. [Check] says whether a position is a solution, which queens attack each other
// and along which line, and how many queens stand on each row, column and diagonal.
//
// Beyond search. Enumeration stops being possible near N = 30, but a solution of any size
// is easy to make: [One] builds one by an explicit O(N) construction (streamed row by row by
// [WriteColumns] for a hundred million queens), [Random] finds a random one by Sosić and
// Gu's conflict-minimising local search, and [Complete] extends a partial placement to a
// solution or proves it cannot be extended. [ParseColumns] and [CheckColumns] read and judge
// a placement of millions of queens in one pass.
//
// Example:
//
//	for p := range queens.Solutions(8) {
//		fmt.Println(p.Format(queens.Code)) // 15863724, 16837425, …
//	}
package queens

import (
	"fmt"
	"slices"
)

// MaxN is the largest board the bitboard search handles: one bit a column in a uint64.
const MaxN = 64

// Placement is a complete or partial placement of queens, one a row: p[row] is the 0-based
// column of the queen on that row, or -1 for a row without one. A solution of the N-queens
// problem is a Placement of length N that is a permutation with no two queens on a diagonal.
type Placement []int

// Clone returns a copy of p that does not share its memory.
func (p Placement) Clone() Placement { return slices.Clone(p) }

// Compare compares p and q in code order: row by row from the top, the smaller column first.
// It returns -1, 0 or +1.
func (p Placement) Compare(q Placement) int { return slices.Compare(p, q) }

// IsSolution reports whether p is a solution: every row has a queen and no two queens share
// a column or a diagonal. It takes time proportional to len(p).
func (p Placement) IsSolution() bool {
	n := len(p)
	cols := make([]bool, n)
	diag := make([]bool, 2*n)
	anti := make([]bool, 2*n)
	for r, c := range p {
		if c < 0 || c >= n || cols[c] || diag[r-c+n] || anti[r+c] {
			return false
		}
		cols[c], diag[r-c+n], anti[r+c] = true, true, true
	}
	return true
}

// checkN reports an N outside what the bitboard search handles.
func checkN(n int) error {
	if n < 1 || n > MaxN {
		return fmt.Errorf("board size must be a whole number from 1 to %d, got %d", MaxN, n)
	}
	return nil
}
