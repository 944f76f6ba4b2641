// Package knight finds, checks and counts knight's tours on rectangular boards.
//
// A tour of an R×C board is the sequence of its R·C squares in the order a knight visits
// them, each square once, each step a knight's move; it is closed when the last square is a
// knight's move from the first. Squares are board.Square values (0-based row and column, row 0
// at the top); inside a [Tour] they are stored compactly as int32 indices row*Cols+col, so a
// 10000×10000 tour takes 400 MB. Boards may have up to [MaxSquares] (2^27) squares.
//
// Usage:
//
//	t, err := knight.Find(ctx, board.Size{Rows: 8, Cols: 8}, board.Square{Row: 4, Col: 4}, knight.Options{})
//	if errors.Is(err, knight.ErrNoTour) { … }   // the error says why, e.g. "both sides are odd"
//	for i := range t.Len() { sq := t.Square(i); … }
//
// [Tour.Check] validates a tour and names its first bad step ([StepError]); [ParseTour],
// [WriteSquares], [WriteJSON] and [WriteBoard] read and write them; [Accessibility] gives
// the number of onward moves from every square after a partial path.
//
// # Existence
//
// Before searching, [Find] decides whether a tour exists, by the known rules ([Exists] gives
// the rule and its reason without searching, in constant time). Closed tours exist on an m×n
// board (m ≤ n) unless m and n are both odd, m is 1, 2 or 4, or m = 3 and n is 4, 6 or 8
// (Schwenk, 1991). Open tours exist exactly on 1×1, 3×4, 3×n for n ≥ 7 and m×n for m ≥ 4,
// n ≥ 5. When R·C is odd a tour starts on the majority colour (the colour of the corners).
// On 4×n boards an open tour starts and ends in an outer row (outer-row squares only
// neighbour inner-row squares, and both colours must appear among them). On 3×4, 3×7 and
// 3×8 some further squares start no tour: on 3×4 only the end columns start one, on 3×7 not
// the middle square, on 3×8 not b2 and e2 and their mirror images. These were found by
// exhaustive search over every start of 3×4, 3×7…3×16 and 4×5…4×10 (exist.go); the tests
// re-check them by brute force.
//
// # Finding a tour
//
// [Auto], the default [Method], finds a tour wherever one exists (on every board and start
// the tests try). Where the board has a closed tour it builds one and rotates it to begin at
// the start square, so an open tour from any square is a closed tour cut open; the closed
// tour of a board of up to 64×64 squares is found once per process and kept (find.go).
// Otherwise it works from the start. The constructions, each in time and memory linear in
// the number of squares (find.go chooses among them):
//
//   - Both sides at least 12 (build_blocks.go): blocks of 6 to 9 squares a side chained
//     along a Hamiltonian cycle of the block grid; in each block a path from the entry
//     square to a square a knight's move from the next block, found once per block shape,
//     entry and direction by backtracking and remembered. Open tours of odd×odd boards run
//     the same chain from the start's block.
//   - 5 to 11 rows (build_thin.go): closed tours, from 30 columns on, merge closed tours of
//     blocks by two-edge switches across each boundary; open tours of odd×odd boards, from
//     13 columns on, join such a cycle to a chain of blocks.
//   - 3 rows (build_lanes.go): closed tours of 3×n, n even, from 20 columns on, are a cycle
//     of lanes (a turn block at each end, two-lane blocks between them crossed once each way); open
//     tours of odd 3×n from 31 columns on run along lanes out from the start and back.
//   - 4 rows (build_four.go): from 9 columns on, an open tour is two halves of a colouring
//     (outer squares of one colour with inner squares of the other) joined by one
//     inner-to-inner step, each half a path along two strands that turn round in
//     3-column gadgets found once by a tiny search.
//
// Smaller boards are searched (search.go): iterative backtracking in Warnsdorff order with
// dead-end pruning, then with random tie-breaks and a growing budget (restarts); closed
// tours take a Warnsdorff path from the corner and close it by Pósa rotations. Searches
// whose answer does not depend on the caller (a block's path, a lane, a small board's closed
// tour) are done once per process and shared (remembered.go). [Find] on a board of 10^8
// squares takes about a second and the 400 MB of the tour.
//
// [Warnsdorff] is the rule as usually taught (warnsdorff.go): always move to the square with
// the fewest unvisited onward squares; on a tie, to the one whose own onward squares include
// the square with the fewest onward moves (one move of look-ahead); on a further tie, the
// first in a fixed move order. It works on a byte per square and reports [ErrDeadEnd] when
// it gets stuck, as it does on large boards (after 999976 of the 10^6 squares of 1000×1000
// from a corner).
//
// # Teaching
//
// [Article] is the rule of a classic magazine article's 8×8 program (its move order, an
// accessibility table that is never reset, and its own tie-break), reproducing that
// program's boards move for move and reporting its dead end as a [DeadEndError]. [Explain]
// gives each step of Warnsdorff's rule with its candidates, their onward counts and, on a
// tie, the look-ahead that decides it; [NextStep] the same for a path made by hand (a hint);
// [Complete] finishes a tour that begins with a given path, or says that none does
// (docs/teach.md).
//
// # Counting
//
// Counting tours exactly (directed open tours, those from one start, undirected closed
// tours, by backtracking or by frontier dynamic programming) is package knight/count.
package knight
