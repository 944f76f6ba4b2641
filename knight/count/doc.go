// Package count counts knight's tours exactly: [Tours] (any size, as a big.Int) and
// [Tours64] give the directed open tours of a board, those from one start square, or its
// undirected closed tours; [Estimate] says what such a count will cost before it starts, and
// [CheckMemory] refuses up front one whose estimate does not fit its memory bound.
//
//	n, err := count.Tours(ctx, 6, 8, count.Options{Closed: true}) // 55,488,142
//
// Tours counts tours exactly: directed open tours, those from one start, or undirected
// closed tours (count.go), by one of three methods ([ChooseMethod] picks the fastest):
//
//   - search (search.go, memo.go), boards of at most [MaxCountSquares] squares:
//     backtracking on 64-bit masks of visited squares with the dead-end pruning of the
//     search, one start square per symmetry class, meeting in the middle: once a path holds
//     half the squares, the number of ways to finish it depends only on the squares visited
//     and the knight's square, so it is computed once per such middle state (on 6×6 about
//     420 000 states, a 16 MiB table, capped at 256 MiB). Time grows with the number of
//     tours, about 0.3 µs a tour: 6×6 open (6,637,920 tours) about 2 s on one core.
//   - dp (package knight/internal/frontier), short side at most [DPMaxRows]: frontier dynamic
//     programming, the board swept cell by cell keeping the distinct pictures of the last
//     2R+1 cells (degrees and the pairing of path ends, packed in base 11) as sorted runs
//     of compact records, about 4–6 bytes a state. Time and memory follow the number of
//     pictures, not of tours: 6×8 closed in about 2 s, 7×7 open (165,575,218,320; 1.5·10⁸
//     states at the widest cell, swept forward) in 7 CPU-minutes and 880 MiB (23 and 2 GiB
//     by the backward sweep, 4.3·10⁸ states; bench/README.md), 8×8 closed
//     (13,267,364,410,532, McKay 1997; 7.4·10⁸ states at cell 45 of 64) in 42
//     CPU-minutes and 3.2 GiB; boards past 64 squares count in 128 bits.
//   - join (internal/frontier/join.go), closed tours of oblong boards with an even long
//     side: the dp sweep of the left half is, by the board's mirror, the right half's too;
//     the sweep goes on over the two middle columns taking only the edges that cross the
//     cut, and the two sets of pictures, kept in sorted runs, are joined (degrees adding to
//     two, pairings closing into one cycle). 6×8 closed in 1.4 s, 7×8 closed
//     (34,524,432,316) with at most 15 million states. On 8×8 its second sweep is the
//     plain sweep where it is widest, so square boards go to dp.
//
// The dp and join methods run one sweep driver over one store interface, the sorted runs
// (the hash tables, the other implementation, are kept to check them against). [Estimate] runs the first
// cells of the same count, with the same store, and extrapolates its peak states, memory
// and time (an extrapolation: it put 8×8 closed at 5.2·10⁸ states and 49 minutes against
// 7.4·10⁸ and 42 measured). Measured figures are in bench/README.md. All methods check
// their context at least every few milliseconds.
package count
