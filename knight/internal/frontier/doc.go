// Package frontier counts knight's tours of boards with a short side of at most MaxRows by
// frontier dynamic programming: the board is swept cell by cell, keeping the distinct
// pictures of the cells that can still get an edge and how many ways lead to each.
//
// [Count] counts directed open tours (or those from one start) and undirected closed tours
// by one sweep of the whole board; [Join] counts closed tours of a board with an even long
// side by sweeping its left half, which by the board's mirror is its right half too, then the
// two middle columns, and joining the two sets of pictures (join.go). Both run the one sweep
// driver of sweep.go over a state store (store.go), of which there are two: sorted runs of
// compact records (runs.go), which Count and Join use, and, in the tests only, a pair of
// hash tables (table_test.go), which Join used until its sweeps were measured faster over
// the runs (a test checks the two stores against each other). With Options.Spill, Count's
// layers go to files on a Disk the caller gives, sealed after each cell so that a stopped
// count resumes, and its runs spill there past MaxMemory, each spill a cut that a count
// stopped inside a step resumes from (spill.go, cut.go). Package knight's
// Estimate times the same sweeps with the same stores.
//
// # The sweep
//
// The board is turned so that it has R ≤ C rows, and its cells are taken column by column,
// top to bottom: cell v = c·R + r. A knight's move from v back to an earlier cell lands on
// v−R∓2 (one column back) or v−2R∓1 (two columns back), so the cells that can still get an
// edge are among the last W = 2R+1 placed: that window is the frontier. When cell v is
// placed, each subset of at most two of its edges to earlier cells is chosen (none of them
// joining a cell that already has two edges), and the rest rejected, so every edge set is
// built exactly once, cell by cell (place.go).
//
// A state is the picture of the window: for each of its W cells one value of
//
//	free   no edge yet
//	full   two edges (or finished: it can get no more)
//	loose  one edge, and the other end of its path is a finished end of an open tour
//	3, 4, … one edge; the two cells of the window with the same value are the two ends
//	        of one path fragment (labelled 3, 4, … in order of first appearance, so that
//	        equal pictures have equal codes)
//
// packed as a number in base 11 (17 cells of 11 values fit in 64 bits, since at most R ≤ 8
// fragments have both ends in the window; picture.go).
//
// A cell is finished at the step of its last neighbour: for closed tours it must then have
// two edges (and a cell with d edges and fewer than 2−d neighbours still to come is given up
// at once); joining the two ends of one fragment closes a cycle, allowed only at the last
// cell, where every cell must have two edges.
//
// Open tours (Hamiltonian paths) are counted by that sweep turned round (ahead.go): the
// window holds the next W cells, each cell chooses its edges forward when it is placed and
// ends with one (an end of the tour: its fragment's other end becomes loose) or two, and a
// state goes as soon as its cells to come cannot all be passed: a cell that can no longer
// get an edge, more than two ends of the tour (one of them the start square's, if one is
// given, which may have only one edge), or edges still needed that do not balance between
// the board's two colours. Each path is built once as an edge set, so the number of directed
// tours is twice the number of paths (once from the start square when one is given). On 5×10
// open this keeps 4.7 million states summed over the cells, against 12.1 million the first
// way. Closed tours, and the join, keep the first way.
//
// Options.Splits (split.go) keep, at chosen cells of the forward sweep, only the states of
// one part by a hash of the state, so that a count can be cut into the tasks of a plan whose
// counts sum to the whole; measured, a part keeps far more than its share of the later
// layers (bench/log/2026-11-27.md, "Issue 35: the 8×8 open tours by a split frontier").
//
// Counts are kept in uint64 and checked for carry; if one ever carries the count is redone
// with 128-bit counts, which are checked too, so a count is never silently wrapped. Boards
// of more than 64 squares start with 128-bit counts.
//
// # Cost
//
// Time and memory follow the number of states, not of tours: about 5^R states at the widest
// cell of a board of R ≤ C rows, each read once by the next cell and expanded into a few
// made states. A step costs about 0.27 µs a state read once its layer outgrows the caches
// (closed tours; the forward sweep of open tours about 0.53 µs: 7×7 open, 419 CPU-s for
// 798 million states summed over its cells) with the sorted runs (sequential reads and writes, a radix sort in the caches) and about
// 1 µs with the hash tables (a cache miss a probe). The runs hold about 4–5 bytes a state
// of a layer and peak near 6 bytes a state of the largest layer, plus their sort buffers
// (about 230 MB once a layer passes 4 million states); the tables 16 bytes a slot (24 with
// 128-bit counts), two of them, filled to at most 70%. Measured figures (7×8 and 8×8
// closed, 7×7 open, the join against the plain sweep) are in bench/README.md, section
// "Counting knight's tours".
package frontier
