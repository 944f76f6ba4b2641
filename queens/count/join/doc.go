// Package join is the join method of counting the n-queens solutions: one of the two
// implementations of count.Plan (queens.NewPlan hands them out). Get a plan with [New].
//
// It counts the same numbers as package frames by a second method (doc.go describes it): every
// half-board of the left and right halves is built from a table of quarter-board pieces,
// and the pairs that share no diagonal are counted 512 at a time by a bit-sliced matcher.
// It is several times faster than the frame search for N = 16…23 (bench/README.md). It
// reads a quarter table, whole where it fits the process's memory limit (memoryOf:
// 7.8 MiB at N = 18–19, 60 MiB at 20–21, 521 MiB at 22–23, 4.8 GiB at 24–25), else a row at a
// time as its row sets need them (the plan's Memory: any N ≤ 27 in 2 GiB, N = 28 and 29 on
// one worker in 2 GiB, about 1 GiB measured at N = 28).
// queens.ChooseMethod picks the faster method by the measured cost model (the plan's
// CoreSeconds). The plan's last task counts P(N) and R(N), the solutions fixed by a half
// and a quarter turn, by a search that places only half or a quarter of the queens, so the
// join's plan gives the fundamental count exactly too.
//
// A task travels as a count.Task whose description is its run of row sets,
// "sub:first:rowsets" (see rowSetRun), or "-1:0:0" for the symmetric task. The plan has two
// versions that cut the same row sets differently: PlanVersion, whose task list is held
// whole (20 bytes a task, at most 2²⁴ tasks), the default to N = 28, and
// DemandPlanVersion, whose tasks are made on demand from a cut table of 20 bytes a block
// of 4,096 row sets (4.4·10⁷ tasks of about half a core-hour at N = 29), the default
// from N = 29 (DefaultVersion; NewVersion takes either at any N).
package join

// The join method counts Q(N) by joining half-boards instead of searching whole boards.
//
// Cut the board into a left half A (columns 0…h−1, h = ⌊N/2⌋) and a right half B (the last h
// columns; for odd N the middle column is neither). Every row has one queen, so the set E of
// rows whose queen is in A fixes everything rows and columns can say: once E is chosen, a
// half-board of A on rows E and one of B on the other rows only clash on diagonals. So
//
//	Q(N) = Σ over E of #{(a, b): a a half-board of A on rows E, b one of B on the rest,
//	                          no diagonal used by both}.
//
// A half-board is a north quarter piece joined with a south one from the same table (see
// quarterTable): for every column set c of the half with |c| = |E ∩ north rows| the south
// piece must use exactly the rest of the half's columns, so the pair of cells is forced and
// the join is a product of two short lists filtered by a north–south diagonal test. Its
// signature is the set of diagonals that also cross the other half: 2h−1 in each direction,
// one 64-bit word, so "compatible" is sig(a) AND sig(b) = 0, counted 512 stored signatures
// at a time by the bit-sliced matcher.
//
// Coordinates. Rows of the four quarters are numbered in one 2h-bit "row set" word: bits
// 0…h−1 the north rows from the top, bits h…2h−1 the south rows (for odd N the middle row
// is left out). s = N−h is the offset of the south and east quarters (h, or h+1 for odd N).
// With diagonals numbered down = col−row+N−1 and up = row+col over the whole board, a
// piece's local masks shift into place by: NW (down s, up 0), SW (0, s), NE (2s, s),
// SE (s, 2s); the signature frame is bits s…s+2h−2 of both.
//
// Symmetry, even N (weights; total count only).
//  1. A north–south flip maps row set E to reverse(E): only E ≤ reverse(E) is counted,
//     weight 2 (1 for a palindrome).
//  2. The board's long diagonals: D1 (row = col) crosses NW and SE, D2 (row+col = N−1) NE
//     and SW. Reflecting in D1 maps a D2 queen between NE and SW and keeps D1's; reflecting
//     in D2 maps a D1 queen between NW and SE. So A's half-boards are kept only with both
//     segments empty, and each B half-board is weighted 2^(its occupied segments).
//  3. With both long diagonals empty, the half turn maps E to reverse(NOT E), which is
//     canonical under (1) when E is: weight 2 if E < that image, 0 if greater, 1 if equal.
//
// Odd N = 2h+1: the middle row and middle column each hold one queen. Either one queen
// is in the centre (it blocks both long diagonals; rules 1 and 3 apply to the whole row
// set), or the middle row's queen is at column h+a and the middle column's at row h+b with
// a, b ≠ 0, |a| ≠ |b|; the eight symmetries act freely on (a, b), so 0 < a < b ≤ h with
// weight 8 covers them. The crosses with the same b share the row sets and half A (see
// newSubproblem): one store per (b, E) answers the queries of all b−1 values of a, which is
// what keeps odd N from drowning in tiny stores. A row set stores whichever side has
// fewer half-boards (for the centre both halves have the same weight, and for a cross
// half B's half-boards over every a, all of weight 8, are one list), except a cross behind
// the sieve (N ≥ 21), which stores half A: measured faster there (countPairs).

// Costs. The quarter table holds P(h) pieces (118,969 for h = 8, 915,442 for 9, 7.5 M for
// 10, 66.8 M for 11), 8 bytes each, plus 16 bytes per (rows, columns) cell of equal popcounts, C(2h, h) cells:
// 1.1 MiB at N = 16–17, 7.8 MiB at 18–19, 60 MiB at 20–21, 521 MiB at 22–23 (memoryOf). It is
// built once per process and shared read-only by every worker; a worker's own buffers
// (store, queries, matcher tables) stay under a few MiB to N = 21. Time is the half-board
// enumeration (linear in the half-boards made) plus the matcher: about ⌈2(2h−1)/5⌉ row ANDs
// of 64 bytes per 512 pair tests, with an AVX-512 kernel (VPOPCNTQ; each query's row
// offsets computed once for four batches; a store of one batch at most half full read at
// half width, 256 bits a row) where the processor has one, an AVX2 kernel (batches of 256) where it has that, and a pure-Go twin elsewhere
// (build tag purego), held to the same counts by tests. Where a store of 6-bit chunks
// matches 31 to 35 bits (most of N = 28's), the AVX-512 kernels take five chunks, the
// first one to five of them 7 bits wide (mixedChunkBits): one row AND less a pair for
// larger tables, 0.933 of the time at N = 28. From N = 17 a sieve of k cut bits
// (sieve.go) lets each query meet only the stored half-boards that agree with it on
// the k middle diagonals, and squeezes unused bits out of the matched words. From h = 11
// (N ≥ 22) an even row set stores its larger half, B, as a weighted store queried by half
// A (countRowSetStoreB; weighted kernels for AVX-512 and AVX2, and a pure-Go twin), its cut
// bits the diagonals its own half-boards occupy most on both sides (occupancyOrder), as
// every row set's from h = 13 (N ≥ 26).
// South pieces are prepared (clash bits, signature part) a whole table row at a time and
// kept while consecutive row sets share their south rows; the north × south product of a
// cell runs eight south pieces a step with AVX-512 where the processor has it (VPTESTNMQ,
// VPCOMPRESSQ), a run of up to 256 cells of a list in one call (cellRun, cellRunAVX512:
// cells of up to 16 south pieces in registers, without loops whose count varies; a Go
// twin, cellRunGo), or a scan of a table row that reads each cell's offsets itself (half
// A and odd N's half B: cellScan; even N's half B four cells of a column set at a time,
// its north blocks made once: quadScan; Go twins cellScanGo, quadScanGo), with AVX2 four
// pairs a step (north pieces four at a time
// against each south piece, or the other way round where that takes fewer steps), else
// in a small Go function whose loop stays in registers.
// The measured times, against frames,
// are in bench/README.md ("Counting: join against frames" for N = 16–19, "The cost of
// N = 20…28 on paper" beyond); the cost model (cost.go) holds them.
//
// Growth: about ×8 a step of N once the matcher dominates (N ≥ 18); odd N costs about
// its place between its even neighbours (N = 17 ≈ 0.27 of N = 18, N = 19 ≈ 0.18 of N = 20).
