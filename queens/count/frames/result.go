package frames

import (
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// CheckResult returns why r cannot be the result of running t, or nil if it can (see
// count.Plan.CheckResult). It never runs the task, so it finds results that are
// impossible, not results that are wrong: a lie that keeps to these rules is found only by
// running the task again (and comparing with ==). It takes a few microseconds.
//
// The rules, each a property of every true result:
//   - the result names the task's id;
//   - QuarterTurn ≤ HalfTurn ≤ Solutions (a quarter turn twice is a half turn);
//   - a solution fixed by a symmetry has a frame fixed by it, so HalfTurn is 0 unless a
//     half turn fixes the task's frame, and QuarterTurn 0 unless a quarter turn does;
//   - the symmetries G that fix the frame permute its solutions, and no reflection fixes a
//     solution (n > 1), so by Burnside's lemma Σ_{g∈H} fix(g) is a multiple of |H| for G
//     and for each cyclic subgroup H of G, where fix is Solutions for the identity,
//     HalfTurn for the half turn, QuarterTurn for the quarter turns and 0 for reflections:
//     for example Solutions − HalfTurn is even when a half turn fixes the frame (no valid
//     frame is fixed by a reflection: two of its queens would share a line);
//   - the search counts at most two solutions at each node it visits, and at least one
//     node when the frame leaves an empty row, none when it leaves none (then Solutions
//     is 0 or 1);
//   - Solutions ≤ e! where e is the number of empty rows the frame leaves.
func (t task) CheckResult(r count.Result) error {
	if r.ID != t.ID {
		return fmt.Errorf("result for task %d, but the task is %d", r.ID, t.ID)
	}
	if r.RowSets != 0 || r.Stored != 0 || r.PairTests != 0 {
		return fmt.Errorf("task %d of the frames method reports the join's counters (%d row sets, %d patterns, %d pair tests)", r.ID, r.RowSets, r.Stored, r.PairTests)
	}
	if len(t.Prefix) > 0 {
		return t.checkPrefixResult(r)
	}
	if t.N == 1 {
		if want := (count.Result{Solutions: 1, HalfTurn: 1, QuarterTurn: 1, Nodes: 1}); r != want {
			return fmt.Errorf("task 0 of N=1 has 1 solution, fixed by every turn, and 1 node; got %+v", r)
		}
		return nil
	}
	if err := checkTurnCounts(r); err != nil {
		return err
	}
	f := frame{t.N, t.Top, t.Bottom, t.Left, t.Right}
	var fixes [8]bool
	order := 0
	for _, g := range board.Symmetries {
		fixes[g] = f.image(g) == f
		if fixes[g] {
			order++
		}
	}
	switch {
	case !fixes[board.Rotate180] && r.HalfTurn != 0:
		return fmt.Errorf("task %d: %d solutions fixed by a half turn, but no half turn fixes its frame", r.ID, r.HalfTurn)
	case !fixes[board.Rotate90] && r.QuarterTurn != 0:
		return fmt.Errorf("task %d: %d solutions fixed by a quarter turn, but no quarter turn fixes its frame", r.ID, r.QuarterTurn)
	}
	// Burnside: the orbits of the frame's solutions under a group H of symmetries number
	// Σ_{g∈H} fix(g) / |H|. The sums are checked modulo |H| (at most 8), so they cannot
	// overflow.
	fix := func(g board.Symmetry) uint64 {
		switch g {
		case board.Identity:
			return r.Solutions % 8
		case board.Rotate180:
			return r.HalfTurn % 8
		case board.Rotate90, board.Rotate270:
			return r.QuarterTurn % 8
		}
		return 0
	}
	var whole uint64
	for _, g := range board.Symmetries {
		if !fixes[g] {
			continue
		}
		whole += fix(g)
		// The cyclic group of g: the identity and g for a half turn or a reflection, the
		// four rotations for a quarter turn.
		var sum, size uint64
		switch g {
		case board.Identity:
			continue
		case board.Rotate90, board.Rotate270:
			sum, size = fix(board.Identity)+fix(board.Rotate180)+2*fix(board.Rotate90), 4
		default:
			sum, size = fix(board.Identity)+fix(g), 2
		}
		if sum%size != 0 {
			return fmt.Errorf("task %d: %d solutions (%d fixed by a half turn, %d by a quarter turn) do not fall into whole classes under the %v that fixes its frame",
				r.ID, r.Solutions, r.HalfTurn, r.QuarterTurn, g)
		}
	}
	if whole%uint64(order) != 0 {
		return fmt.Errorf("task %d: %d solutions (%d fixed by a half turn, %d by a quarter turn) do not fall into whole classes under the %d symmetries that fix its frame",
			r.ID, r.Solutions, r.HalfTurn, r.QuarterTurn, order)
	}

	var s search
	s.init(f)
	return checkNodes(r, s.freeRows)
}

// checkTurnCounts checks what holds for every result: solutions fixed by a quarter turn are
// fixed by a half turn, and those are solutions.
func checkTurnCounts(r count.Result) error {
	switch {
	case r.HalfTurn > r.Solutions:
		return fmt.Errorf("task %d: %d solutions fixed by a half turn, more than its %d solutions", r.ID, r.HalfTurn, r.Solutions)
	case r.QuarterTurn > r.HalfTurn:
		return fmt.Errorf("task %d: %d solutions fixed by a quarter turn, more than the %d fixed by a half turn", r.ID, r.QuarterTurn, r.HalfTurn)
	}
	return nil
}
